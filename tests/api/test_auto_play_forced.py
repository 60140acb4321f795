"""`auto_play_forced`: a player's only legal play is made for them by the server, as
their own action, and its public event says it was forced (issue 17, part 3)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import override_settings

from games import replay, rules
from games.models import Action, Event, Room, Round
from games.services import due
from tests.rules.support import without_claim

from .helpers import act, concrete, error_code, state

pytestmark = pytest.mark.django_db


def opt_in(client: Any, value: bool = True) -> None:
    res = client.patch("/api/v1/me", {"auto_play_forced": value}, format="json")
    assert res.status_code == 200, res.content
    assert res.json()["auto_play_forced"] is value


def test_the_setting_is_read_and_changed_at_me(api_client, make_user):
    user = make_user()
    client = api_client(user)
    assert client.get("/api/v1/me").json()["auto_play_forced"] is False
    opt_in(client)
    assert client.get("/api/v1/me").json()["auto_play_forced"] is True
    opt_in(client, False)
    assert client.get("/api/v1/me").json()["auto_play_forced"] is False


@pytest.mark.parametrize(
    "body",
    [
        {"auto_play_forced": "yes"},
        {"auto_play_forced": 1},
        {"auto_play_forced": None},
        {"auto_play_forced": True, "is_staff": True},
        {"auto_play_forced": True, "username": "someone-else"},
    ],
)
def test_a_hostile_patch_changes_nothing(api_client, make_user, body):
    user = make_user()
    client = api_client(user)
    res = client.patch("/api/v1/me", body, format="json")
    assert res.status_code == 400
    assert error_code(res) in ("invalid", "required", "null")
    user.refresh_from_db()
    assert (user.auto_play_forced, user.is_staff, user.username.startswith("someone")) == (False, False, False)


def test_a_patch_that_names_nothing_changes_nothing(api_client, make_user):
    user = make_user(auto_play_forced=True)
    res = api_client(user).patch("/api/v1/me", {}, format="json")
    assert res.status_code == 200 and res.json()["auto_play_forced"] is True
    user.refresh_from_db()
    assert user.auto_play_forced is True


def test_the_setting_needs_a_signed_in_user(api_client):
    res = api_client().patch("/api/v1/me", {"auto_play_forced": True}, format="json")
    assert res.status_code == 401


def check_every_play(code: str, opted_in: set[int]) -> int:
    """Rebuild each hand from its seed and check every play: marked forced exactly when
    its seat's person opted in and it was their one legal action, recorded as theirs.
    Returns how many forced plays there were."""
    room = Room.objects.get(code=code)
    game = rules.get(room.game)
    play_events = list(Event.objects.filter(room=room, data__type="play").order_by("seq"))
    public_plays = iter(play_events)
    forced = 0
    for round_ in Round.objects.filter(room=room).order_by("number"):
        state = replay.round_dealt(round_=round_, players=4)
        for action in Action.objects.filter(round=round_).order_by("seq"):
            legal = without_claim(game.legal_actions(state, action.seat))
            if action.payload["type"] == "play":
                event = next(public_plays).data
                assert (event["seat"], event["card"]) == (action.seat, action.payload["card"])
                only = len(legal) == 1 and legal[0]["type"] == "play"
                expected = only and action.seat in opted_in and not action.by_bot
                assert event.get("forced", False) is expected, (action.seq, event, legal)
                if expected:
                    forced += 1
                    # Recorded as the player's own action, not an automatic one.
                    assert action.user is not None and not action.automatic and not action.by_bot
                    assert set(event) == {"type", "seat", "card", "forced"}
            state = game.apply(state, action.seat, action.payload).state
    return forced


def test_forced_plays_are_made_for_those_who_asked_and_chain(hearts_table):
    code, clients, _users = hearts_table()
    opted_in = {0, 1}
    for seat in opted_in:
        opt_in(clients[seat])
    rng = random.Random(17)
    for _ in range(200):
        view = state(clients[0], code)
        if view["round"] > 1 or view["status"] != "playing":
            break
        seat = view["to_act"][0]
        mine = state(clients[seat], code)
        legal = without_claim(mine["you"]["legal_actions"])
        if seat in opted_in and len(legal) == 1 and legal[0]["type"] == "play":
            raise AssertionError(f"seat {seat} was left a forced play to make: {legal}")
        res = act(clients[seat], code, mine["version"], concrete(rng.choice(legal), rng))
        assert res.status_code == 200, res.content
    # The first lead (the two of clubs) is forced whoever holds it, so a hand has some.
    assert check_every_play(code, opted_in) > 0
    # The other players read the mark.
    events = clients[3].get(f"/api/v1/rooms/{code}/events").json()
    assert any(e["type"] == "play" and e.get("forced") for e in events)


def test_forced_plays_follow_computer_players_on_a_delay(hearts_table):
    with override_settings(BOT_DELAY_SECONDS=1):
        code, clients, _users = hearts_table(humans=2)
        opt_in(clients[0])
        opt_in(clients[1])
        rng = random.Random(3)
        for _ in range(400):
            view = state(clients[0], code)
            if view["round"] > 1 or view["status"] != "playing":
                break
            humans = [s for s in view["to_act"] if s in clients]
            if humans:
                mine = state(clients[humans[0]], code)
                legal = without_claim(mine["you"]["legal_actions"])
                assert not (len(legal) == 1 and legal[0]["type"] == "play"), legal
                res = act(clients[humans[0]], code, mine["version"], concrete(rng.choice(legal), rng))
                assert res.status_code == 200, res.content
            else:
                # The computer players' turn: the worker's task moves them when due.
                round_ = Round.objects.filter(room__code=code).order_by("-number").first()
                assert due.due_actions_apply(code=code, now=round_.bots_due_at)
        assert check_every_play(code, {0, 1}) > 0


def test_turning_it_on_makes_the_forced_play_that_waits_now(hearts_table):
    """A player facing a forced play who then asks for forced plays does not wait for
    the room's next change: the play is made in the same request, marked forced."""
    code, clients, _users = hearts_table()
    rng = random.Random(5)
    # Nobody has opted in: play on until a seat's only legal action is a play.
    for _ in range(200):
        view = state(clients[0], code)
        assert view["round"] == 1 and view["status"] == "playing"
        seat = view["to_act"][0]
        mine = state(clients[seat], code)
        legal = without_claim(mine["you"]["legal_actions"])
        if len(legal) == 1 and legal[0]["type"] == "play":
            break
        res = act(clients[seat], code, mine["version"], concrete(rng.choice(legal), rng))
        assert res.status_code == 200, res.content
    else:
        raise AssertionError("no forced play came up")
    # Others who opt in change nothing here.
    other = (seat + 1) % 4
    opt_in(clients[other])
    assert state(clients[0], code)["version"] == mine["version"]
    opt_in(clients[seat])
    after = state(clients[seat], code)
    assert after["version"] > mine["version"]
    # The seat after may have opted in and be forced too: it may have played in the same
    # change, so the play looked for is the seat's own, not the last one.
    events = clients[other].get(f"/api/v1/rooms/{code}/events").json()
    made = [e for e in events if e["type"] == "play" and e["version"] > mine["version"] and e["seat"] == seat]
    assert len(made) == 1 and made[0]["card"] == legal[0]["card"] and made[0]["forced"] is True
    last = Action.objects.filter(round__room__code=code, seat=seat).order_by("-round__number", "-seq").first()
    assert last is not None and last.payload == {"type": "play", "card": legal[0]["card"]}
    # Recorded as the player's own action.
    assert last.user is not None and not last.automatic and not last.by_bot
