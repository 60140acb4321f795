"""Every game's stored hands rebuild exactly from seed, carry and actions (the
moderators' consistency check), including hands finished and hands in progress."""

from __future__ import annotations

import pytest

from games import rules, selectors
from games.models import Round
from games.replay import round_replay
from games.rules import templates
from games.services import lobby, play
from tests.game_params import variant_params

pytestmark = pytest.mark.django_db


# Every variant of every game (its profile's MATCH_VARIANTS), computers in the other seats.
@pytest.mark.parametrize(("game", "options", "seats"), variant_params())
def test_every_stored_round_replays(make_user, game, options, seats):
    host = make_user()
    room = lobby.room_create(host=host, game=game, options=options)
    assert rules.get(game).seat_count(room.options) == seats
    for _ in range(seats - 1):
        lobby.room_add_bot(code=room.code, user=host)
    lobby.room_start(code=room.code, user=host)
    for _ in range(300):
        room.refresh_from_db()
        if room.status != "playing" or Round.objects.filter(room=room).count() >= 3:
            break
        view = selectors.view_by_code(code=room.code, user=host)
        legal = view["you"]["legal_actions"]
        action = templates.concrete(legal[0], rules.get(game).action_fields[legal[0]["type"]])
        play.action_submit(code=room.code, user=host, version=view["version"], action=action)
    rounds = list(Round.objects.filter(room=room))
    assert len(rounds) >= 2
    for round_ in rounds:
        report = round_replay(round_=round_)
        assert report.matches, report.detail


def test_actions_stored_with_extra_fields_still_replay(make_user):
    """Before an action's fields were checked, one could be stored with fields its type
    does not define, which the engine ignored; replaying it ignores them too."""
    host = make_user()
    room = lobby.room_create(host=host, game="hearts", options={})
    for _ in range(3):
        lobby.room_add_bot(code=room.code, user=host)
    lobby.room_start(code=room.code, user=host)
    view = selectors.view_by_code(code=room.code, user=host)
    play.action_submit(
        code=room.code,
        user=host,
        version=view["version"],
        action={"type": "pass_cards", "cards": view["you"]["hand"][:3]},
    )
    round_ = Round.objects.get(room=room)
    stored = round_.actions.get(seat=0)
    stored.payload = {**stored.payload, "pad": "x" * 100}
    stored.save()
    assert round_replay(round_=round_).matches


def test_a_funky_hand_replays_with_its_passes_in_either_form(make_user):
    """A funky pass is stored as it was sent: `cards` with `to` (seats), or the map of
    seat to card that v1 clients send. Hands stored either way rebuild exactly, and keep
    the state's seat-to-card passes."""
    host, guest = make_user(), make_user()
    room = lobby.room_create(host=host, game="hearts", options={"fourth_hand": "funky", "target": 500})
    lobby.room_join(code=room.code, user=guest)
    for _ in range(2):
        lobby.room_add_bot(code=room.code, user=host)
    lobby.room_start(code=room.code, user=host)
    people = {0: host, 1: guest}
    for _ in range(400):
        view = selectors.view_by_code(code=room.code, user=host)
        if view["round"] == 4 and view["phase"] == "pass":
            break
        seat = next(s for s in view["to_act"] if s in people)
        mine = selectors.view_by_code(code=room.code, user=people[seat])
        legal = mine["you"]["legal_actions"][0]
        action = templates.concrete(legal, rules.get("hearts").action_fields[legal["type"]])
        play.action_submit(code=room.code, user=people[seat], version=mine["version"], action=action)
    else:
        raise AssertionError("hand 4 was not reached")
    assert view["pass_direction"] == "funky"
    sent = {}
    for seat, person in people.items():
        mine = selectors.view_by_code(code=room.code, user=person)
        picked = mine["you"]["hand"][:3]
        if seat == 0:
            sent[seat] = {"type": "pass_cards", "cards": picked, "to": [3, 1, 2]}
        else:
            sent[seat] = {"type": "pass_cards", "to": {"0": picked[0], "2": picked[1], "3": picked[2]}}
        play.action_submit(code=room.code, user=person, version=mine["version"], action=sent[seat])
    round_ = Round.objects.get(room=room, number=4)
    for seat, action in sent.items():
        assert round_.actions.get(seat=seat).payload == action
    assert round_.state["phase"] == "play"
    passes = round_.state["passes"]
    assert passes[0] == {"1": sent[0]["cards"][1], "2": sent[0]["cards"][2], "3": sent[0]["cards"][0]}
    assert passes[1] == sent[1]["to"]
    report = round_replay(round_=round_)
    assert report.matches, report.detail
