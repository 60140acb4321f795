"""Claiming the rest over HTTP: at every trick-play turn of a hand the player to act
claims; refusals change nothing anyone can see and all read alike, and the accepted
claim ends the hand as playing it out would, and replays."""

from __future__ import annotations

from typing import Any

import pytest

from games import rules
from games.models import Room, Round
from games.replay import hand_replay, round_replay
from games.rules import claims

from .helpers import act, concrete, error_code, state

pytestmark = pytest.mark.django_db

CLAIM = {"type": "claim"}
REFUSAL = {
    "type": "client_error",
    "errors": [{"code": "claim_not_certain", "detail": claims.NOT_CERTAIN_DETAIL, "attr": None}],
}


def human_table(api_client, make_user, game: str, options: dict[str, Any]) -> tuple[str, dict[int, Any], Any]:
    """A started room with a human in every seat: (code, {seat: client}, a spectator's client)."""
    users = [make_user()]
    host = api_client(users[0])
    res = host.post("/api/v1/rooms/", {"game": game, "options": options}, format="json")
    assert res.status_code == 201, res.content
    code = res.json()["code"]
    clients = {0: host}
    for seat in range(1, rules.get(game).seat_count(rules.get(game).validate_options(options))):
        client = api_client(make_user())
        assert client.post(f"/api/v1/rooms/{code}/join", {}, format="json").json()["seat"] == seat
        clients[seat] = client
    assert host.post(f"/api/v1/rooms/{code}/start").status_code == 200
    return code, clients, api_client(make_user())


def seen(clients: dict[int, Any], spectator: Any, code: str) -> list[Any]:
    """Everything every viewer can read of the room: its view and its event log."""
    out = []
    for client in [*clients.values(), spectator]:
        out.append(state(client, code))
        res = client.get(f"/api/v1/rooms/{code}/events?after=0")
        assert res.status_code == 200
        out.append(res.json())
    return out


def current_round(code: str) -> Round:
    return Round.objects.filter(room=Room.objects.get(code=code)).order_by("-number").first()


def plays_to_end(game: Any, hand: dict[str, Any], plays: list[dict[str, Any]]) -> dict[str, Any]:
    """The hand after `plays` (as the log names them), each applied as an ordinary play
    would be; each one legal where it is made."""
    for e in plays:
        play = {k: v for k, v in e.items() if k in ("type", "card", "tile")}
        assert play in game.legal_actions(hand, e["seat"]), (e, hand["turn"])
        hand = game.apply(hand, e["seat"], play).state
    return hand


# Refusals checked for what every viewer sees; past them a hand plays on more quickly.
WHOLE_REFUSALS = 8


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("hearts", {}),
        ("moon", {"players": 4}),
        ("moon", {"players": 3}),
        ("kali_tidi", {"players": 4, "team_mode": "random"}),
        ("kali_tidi", {"players": 4, "team_mode": "cards"}),
    ],
)
def test_claims_through_a_hand(api_client, make_user, game, options):
    engine = rules.get(game)
    code, clients, spectator = human_table(api_client, make_user, game, options)
    refusals = 0
    for _ in range(1200):
        view = state(clients[0], code)
        if view["status"] == "finished":
            # A match can end with no claim that held at two pieces or more (none is offered
            # with one): the next match of the same table deals anew.
            code, clients, spectator = human_table(api_client, make_user, game, options)
            continue
        (seat,) = view["to_act"][:1]
        mine = state(clients[seat], code)
        legal = mine["you"]["legal_actions"]
        if view["phase"] != "play":
            assert CLAIM not in legal
            # Outside trick play a claim is refused by phase, and a player not to act by turn.
            assert error_code(act(clients[seat], code, mine["version"], CLAIM)) == "wrong_phase"
            # The highest bid ends an auction at once (Moon's all-pass would redeal forever).
            res = act(clients[seat], code, mine["version"], concrete(legal[-1 if view["phase"] == "bid" else 0]))
            assert res.status_code == 200, res.content
            continue
        # The first refusals are looked at whole (what everyone sees before and after);
        # later ones, while the hand plays on to a claim that holds, by their answer alone.
        whole = CLAIM in legal or refusals < WHOLE_REFUSALS
        if whole:
            other = next(s for s in clients if s != seat)
            assert CLAIM not in state(clients[other], code)["you"]["legal_actions"]
            res = act(clients[other], code, mine["version"], CLAIM)
            assert (res.status_code, error_code(res)) == (409, "not_your_turn")
            before = seen(clients, spectator, code)
        stored = current_round(code).state
        res = act(clients[seat], code, mine["version"], CLAIM)
        # Listed exactly where it holds: a claim not listed is refused, a listed one accepted.
        if CLAIM not in legal:
            # Refused: the one answer, whatever the reason, and nothing changed for anyone.
            assert (res.status_code, res.json()) == (400, REFUSAL)
            if whole:
                assert seen(clients, spectator, code) == before
            refusals += 1
            res = act(clients[seat], code, mine["version"], concrete(legal[0]))
            assert res.status_code == 200, res.content
            continue
        assert legal[-1] == CLAIM
        assert res.status_code == 200, res.content
        after = current_round(code)
        assert after.state["phase"] in ("round_over", "match_over", "moon_choice")
        events = clients[0].get(f"/api/v1/rooms/{code}/events?after=0").json()
        claimed = [e for e in events if e.get("type") == "claimed"]
        assert len(claimed) == 1 and claimed[0]["seat"] == seat
        # Played out as normal play: the plays its log names, each legal, give the hand as stored.
        named = [e for e in events[events.index(claimed[0]) + 1 :] if e["type"] == "play"]
        assert after.state == plays_to_end(engine, stored, named)
        assert after.actions.order_by("-seq").first().payload == CLAIM
        report = round_replay(round_=after)
        assert report.matches, report.detail
        # The log and the replay show every card the claim played out, marked so.
        plays = events[events.index(claimed[0]) + 1 :]
        plays = [e for e in plays if e["type"] == "play"]
        assert plays and all(e["claimed"] is True for e in plays)
        steps = hand_replay(round_=after, players=len(clients))["actions"]
        claim_at = next(i for i, s in enumerate(steps) if s["action"] == CLAIM)
        assert steps[claim_at]["claimed"] is False and steps[claim_at]["seat"] == seat
        played = steps[claim_at + 1 :]
        assert [(s["seat"], s["action"]) for s in played] == [
            (e["seat"], {k: v for k, v in e.items() if k in ("type", "card", "tile")}) for e in plays
        ]
        assert all(s["claimed"] and s["automatic"] for s in played)
        assert not any(played[-1]["hands"]), "the last play empties every hand"
        assert not any(s["claimed"] for s in steps[:claim_at])
        assert refusals > 0
        return
    raise AssertionError("no claim was accepted")
