"""scripts/soak_audit.py: the soak's audit, fed hand-made rows in the test database.

Every time is an offset in seconds from T0. One Hearts room on a 5-second clock holds
the timeouts: a clearly early one, fair ones (a plain turn, the simultaneous pass, the
pause between hands) and two across a 10-second outage (one given its extension, one
not). Two Moon rooms that abandon after 15 seconds hold the abandonments: in one the
player's own waiting time adds up to 12 s (wrongful), in the other to 16 s; a third
counts from the moment the player took their seat back. The moves
answered to clients are checked against the persons' actions in the log.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connection

from games.models import Action, Event, Room, Round
from scripts.soak_audit import Accepted, Unanswered, Window, audit, load
from uptime.models import Outage

pytestmark = pytest.mark.django_db

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
CLOCKS = {"turn_seconds": 5, "abandon_seconds": 15, "between_rounds_seconds": 5}


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def room(host: Any, code: str, game: str, **options: Any) -> Room:
    return Room.objects.create(
        code=code, game=game, host=host, status="playing", options={**CLOCKS, **options}, started_at=at(0)
    )


def hand(room_: Room, number: int, started: float, **state: Any) -> Round:
    made = Round.objects.create(room=room_, number=number, seed=1, state={"phase": "play", **state})
    Round.objects.filter(id=made.id).update(started_at=at(started))
    return made


def act(
    hand_: Round, seq: int, seat: int, when: float, payload: dict[str, Any], *, user: Any = None, auto: bool = False
) -> None:
    """An action: a person's own when `user` is given, the server's for them when `auto`,
    else a computer player's."""
    made = Action.objects.create(
        round=hand_, seq=seq, seat=seat, user=user, payload=payload, automatic=auto, by_bot=user is None and not auto
    )
    Action.objects.filter(id=made.id).update(created_at=at(when))


def event(room_: Room, seq: int, when: float, data: dict[str, Any]) -> None:
    made = Event.objects.create(room=room_, seq=seq, version=seq, data=data)
    Event.objects.filter(id=made.id).update(created_at=at(when))


def play(card: str) -> dict[str, Any]:
    return {"type": "play", "card": card}


def test_the_audit_counts_early_timeouts_wrongful_abandonments_and_lost_moves(make_user) -> None:
    ann, bob = make_user(), make_user()
    hearts = room(ann, "HRTS22", "hearts")
    # Hand 1: everyone passes; seat 3's pass is the server's, 5.5 s into the hand, after
    # the others passed: fair, the pass is one clock from the deal.
    h1 = hand(hearts, 1, 0, pass_direction="left", phase="round_over")
    act(h1, 1, 0, 1, {"type": "pass_cards", "cards": ["2C", "3C", "4C"]}, user=ann)
    act(h1, 2, 1, 2, {"type": "pass_cards", "cards": ["5C", "6C", "7C"]})
    act(h1, 3, 2, 3, {"type": "pass_cards", "cards": ["8C", "9C", "TC"]})
    act(h1, 4, 3, 5.5, {"type": "pass_cards", "cards": ["JC", "QC", "KC"]}, auto=True)
    act(h1, 5, 0, 6, play("2C"), user=ann)
    act(h1, 6, 1, 6.1, play("3D"))
    act(h1, 7, 2, 6.2, play("4D"))
    # Seat 3 timed out 5.5 s after the play before: fair.
    act(h1, 8, 3, 11.7, play("5D"), auto=True)
    act(h1, 9, 3, 12, play("6D"))
    # Seat 0's turn began at 12 and the server played for it at 14: early.
    act(h1, 10, 0, 14, play("7D"), auto=True)
    # The last play ends the hand at 15; seat 1 is ready at 16, seat 0 is made ready at
    # 20.1: the pause (5 s) ran from the end of the hand, not from seat 1's ready.
    act(h1, 11, 1, 15, play("8D"))
    act(h1, 12, 1, 16, {"type": "next_round"})
    act(h1, 13, 0, 20.1, {"type": "next_round"}, auto=True)
    # Hand 2 (no pass): a 10-second outage from 31 to 41. Seat 0's turn began at 30, so
    # its 5-second clock ran to 45: the timeout at 43 is early. Seat 1 (Bob) plays at
    # 45.1, and the server plays for seat 0 at 50.2, 5.1 s later: fair.
    h2 = hand(hearts, 2, 30, pass_direction="hold")
    act(h2, 1, 0, 43, play("2C"), auto=True)
    act(h2, 2, 1, 45.1, play("3C"), user=bob)
    act(h2, 3, 0, 50.2, play("4C"), auto=True)

    # Moon, abandoning after 15 s of the player's own waiting, a hundred seconds on (clear
    # of the outage). Ann's own last action is at 101; then her turn 101-106 (timed out),
    # the others' turns 106-116, her turn 116-121 (timed out), the others' 121-130, and
    # her turn from 130 until the abandonment at 132: 5 + 5 + 2 = 12 s of her own, though
    # 31 s went by since she acted.
    wrongful = room(ann, "MOON22", "moon")
    m1 = hand(wrongful, 1, 100)
    act(m1, 1, 0, 101, {"type": "pass"}, user=ann)
    act(m1, 2, 0, 106, play("6-6"), auto=True)
    act(m1, 3, 1, 116, play("6-5"))
    act(m1, 4, 0, 121, play("5-5"), auto=True)
    act(m1, 5, 1, 130, play("5-4"))
    event(wrongful, 1, 132, {"type": "abandoned", "seat": 0, "reason": "idle"})
    # The same with her turn in progress running to 136 (16 s): fair, handed to a computer.
    fair = room(ann, "MOON23", "moon", on_abandon="bot")
    f1 = hand(fair, 1, 100)
    act(f1, 1, 0, 101, {"type": "pass"}, user=ann)
    act(f1, 2, 0, 106, play("6-6"), auto=True)
    act(f1, 3, 1, 116, play("6-5"))
    act(f1, 4, 0, 121, play("5-5"), auto=True)
    act(f1, 5, 1, 130, play("5-4"))
    event(fair, 1, 136, {"type": "seat_to_bot", "seat": 0, "idle": True})
    # Then every seat a computer's: not counted again.
    event(fair, 2, 136, {"type": "abandoned", "seat": 0, "reason": "everyone away"})
    # As MOON22, but she took her seat back from a computer player at 118: her waiting
    # counts from then, 3 s of the turn that ran out at 121 and 2 s of the one at 132.
    back = room(ann, "MOON24", "moon")
    b1 = hand(back, 1, 100)
    act(b1, 1, 0, 101, {"type": "pass"}, user=ann)
    act(b1, 2, 0, 106, play("6-6"), auto=True)
    act(b1, 3, 1, 116, play("6-5"))
    event(back, 1, 118, {"type": "seat_reclaimed", "seat": 0, "name": "Ann"})
    act(b1, 4, 0, 121, play("5-5"), auto=True)
    act(b1, 5, 1, 130, play("5-4"))
    event(back, 2, 132, {"type": "abandoned", "seat": 0, "reason": "idle"})

    accepted = [
        Accepted("HRTS22", 1, 0, {"type": "pass_cards", "cards": ["2C", "3C", "4C"]}, 3),
        Accepted("HRTS22", 1, 0, play("2C"), 9),
        Accepted("HRTS22", 1, 0, play("AS"), 10),  # never logged: lost
        Accepted("MOON22", 1, 0, {"type": "pass"}, 2),
        Accepted("MOON24", 1, 0, {"type": "pass"}, 2),
    ]
    # Bob's move was never answered, but his request got no answer at all: fine. Ann's
    # pass in MOON23 nobody was answered for or sent without an answer: a duplicate.
    unanswered = [Unanswered("HRTS22", 2, 1, play("3C"))]
    web_down = Window("gunicorn1 down", at(38), at(42))

    with connection.cursor() as cursor:
        before = audit(load(cursor), accepted, unanswered, [web_down])
        Outage.objects.create(started_at=at(31), ended_at=at(41))
        report = audit(load(cursor), accepted, unanswered, [web_down])

    # Before the server recorded the outage: the timeout at 43 counts as early.
    assert before.data.outage_table and before.data.outages == []
    assert [(t.code, t.seq) for t in before.early] == [("HRTS22", 10)]

    assert report.data.outage_table and len(report.data.outages) == 1
    assert len(report.timeouts) == 12
    assert [(t.code, t.hand, t.seq) for t in report.early] == [("HRTS22", 1, 10), ("HRTS22", 2, 1)]
    pause = next(t for t in report.timeouts if t.kind == "next_round")
    assert (pause.start, pause.due) == (at(15), at(20))
    passed = next(t for t in report.timeouts if t.kind == "pass_cards")
    assert passed.start == at(0) and not passed.early
    across = [t for t in report.timeouts if t.code == "HRTS22" and t.hand == 2]
    assert [t.due for t in across] == [at(45), at(50.1)]

    assert [(a.code, a.kind, a.turns, a.waited.total_seconds()) for a in report.abandonments] == [
        ("MOON22", "abandoned", 3, 12.0),
        ("MOON24", "abandoned", 2, 5.0),
        ("MOON23", "seat_to_bot", 3, 16.0),
    ]
    assert [a.code for a in report.wrongful] == ["MOON22", "MOON24"]
    assert report.everyone_away == 1

    moves = report.moves
    assert (moves.accepted, moves.lost, moves.duplicated, moves.applied_unanswered) == (5, 1, 1, 1)
    assert moves.lost_examples == [("HRTS22", 1, 0, '{"card":"AS","type":"play"}')]
    assert moves.duplicated_examples == [("MOON23", 1, 0, '{"type":"pass"}')]

    # The web was down from 38 to 42: seat 0's turn (30-43) ran through it and timed out
    # before its clock and the outage ran out; Bob's turn began after it.
    [window] = report.windows
    assert (window.turns, window.timed_out, window.given_outages, window.given_window) == (1, 1, 0, 0)

    figures = report.must_be_zero()
    assert figures["moves lost"] == 1 and figures["moves duplicated"] == 1
    assert figures["early timeouts"] == 2 and figures["wrongful abandonments"] == 2
    assert "tolerance" in report.lines()[0]
