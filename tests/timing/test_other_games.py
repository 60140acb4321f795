"""The time machinery is game-agnostic: Moon's deadlines, automatic passes and automatic
moves go through the same services as Hearts', with no game named in them."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import selectors
from games.models import Action, Room
from games.services import due, lobby, play

pytestmark = pytest.mark.django_db


def started(make_user, game: str, humans: int, seats: int, **options) -> tuple[Room, list]:
    users = [make_user() for _ in range(humans)]
    room = lobby.room_create(host=users[0], game=game, options=options)
    for user in users[1:]:
        lobby.room_join(code=room.code, user=user)
    for _ in range(seats - humans):
        lobby.room_add_bot(code=room.code, user=users[0])
    lobby.room_start(code=room.code, user=users[0])
    room.refresh_from_db()
    return room, users


def overdue(room: Room) -> bool:
    room.refresh_from_db()
    round_ = selectors.table_of(code=room.code).round
    return due.due_actions_apply(code=room.code, version=room.version, now=round_.deadline_at + timedelta(seconds=1))


def time_out_until(room: Room, phase: str, steps: int):
    """Let the clock run out, turn after turn, until the hand reaches `phase`."""
    for _ in range(steps):
        room.refresh_from_db()
        if selectors.table_of(code=room.code).round.state["phase"] == phase:
            break
        assert overdue(room)
    round_ = selectors.table_of(code=room.code).round
    assert round_.state["phase"] == phase
    return round_


def test_moon_bidding_timeout_is_an_automatic_pass(make_user):
    room, _ = started(make_user, "moon", humans=3, seats=3, players=3)
    round_ = selectors.table_of(code=room.code).round
    bidder = round_.state["turn"]
    assert overdue(room) is True
    action = Action.objects.filter(round=round_).latest("seq")
    assert (action.seat, action.payload, action.automatic) == (bidder, {"type": "pass"}, True)
    room.refresh_from_db()
    assert selectors.table_of(code=room.code).round.state["turn"] != bidder


def test_moon_play_timeout_plays_a_legal_tile(make_user):
    room, users = started(make_user, "moon", humans=3, seats=3, players=3, abandon_seconds=3600)
    # The first bidder bids; then time runs out for everyone until the hand is played:
    # the others pass, and the bidder's trumps and widow are chosen for them.
    round_ = selectors.table_of(code=room.code).round
    play.action_submit(
        code=room.code, user=users[round_.state["turn"]], version=room.version, action={"type": "bid", "value": 4}
    )
    round_ = time_out_until(room, "play", steps=12)
    seat = round_.state["turn"]
    view = selectors.view_by_code(code=room.code, user=users[seat])
    legal = [a["tile"] for a in view["you"]["legal_actions"] if a["type"] != "claim"]
    assert overdue(room)
    action = Action.objects.filter(round=round_).latest("seq")
    assert action.automatic and action.seat == seat and action.payload["tile"] in legal


def test_moon_bots_move_through_the_due_time(make_user, settings):
    settings.BOT_DELAY_SECONDS = 1.0
    room, _ = started(make_user, "moon", humans=1, seats=4, players=4)
    moved = 0
    for _ in range(3):
        room.refresh_from_db()
        round_ = selectors.table_of(code=room.code).round
        if round_.state["turn"] == 0:
            break
        # A computer player is to act: its move is due after the delay, not before.
        assert round_.bots_due_at is not None
        assert not due.due_actions_apply(code=room.code, version=room.version, now=round_.started_at)
        assert due.due_actions_apply(code=room.code, version=room.version, now=round_.bots_due_at)
        moved += 1
    assert Action.objects.filter(round__room=room, by_bot=True).count() == moved
    room.refresh_from_db()
    assert selectors.table_of(code=room.code).round.state["turn"] == 0 or moved == 3


def test_kali_tidi_removal_bidding_and_play_time_out_without_kali_code(make_user):
    room, _ = started(make_user, "kali_tidi", humans=3, seats=3, players=3, team_mode="cards", abandon_seconds=3600)
    round_ = selectors.table_of(code=room.code).round
    assert round_.state["phase"] == "remove"
    assert overdue(room)  # the host's removal is made by the computer player
    round_ = selectors.table_of(code=room.code).round
    assert round_.state["phase"] == "bid" and len(round_.state["removed"]) == 1
    bidder = round_.state["turn"]
    assert overdue(room)
    action = Action.objects.filter(round=round_).latest("seq")
    assert (action.seat, action.payload, action.automatic) == (bidder, {"type": "pass"}, True)
    round_ = time_out_until(room, "play", steps=10)
    assert overdue(room)
    played = Action.objects.filter(round=round_).latest("seq")
    assert played.automatic and played.payload["type"] == "play"
