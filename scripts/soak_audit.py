"""The soak's audit (scripts/soak.py): what a deployment's database says of the fairness
of its clocks, and of the moves its clients were told were accepted.

`load` reads the rows it needs through any DB-API cursor on that database (psycopg's, or
Django's in the tests); `audit` is a pure function of them, of the moves the clients
were answered 200 for (`Accepted`), of the requests that got no answer at all
(`Unanswered`) and of the times the web was down (`Window`). What it holds the server to:

1. Moves: every accepted move is in the action log exactly once (the room, the hand, the
   seat and the action as sent). A logged move of a person that no client was answered
   for is a duplicate, unless a request for it got no answer (a web process killed
   under it).
2. Timeouts: each automatic action came no earlier than its turn's start plus its clock,
   extended by any recorded outage (`uptime_outage`) that began before that deadline,
   by its part after the turn began, and to no sooner than the serving time owed after
   the outage's end (`min_serving`: UPTIME_MIN_SERVING_AFTER_OUTAGE_SECONDS, or the
   whole clock when shorter). A turn starts at the latest action of the hand
   before it, or when the hand began; in Hearts' pass every seat's turn starts with the
   hand; the pause between hands (`next_round`) starts when the hand's last play ended
   it, and its clock is `between_rounds_seconds`.
3. Abandonments: a player abandoned for idleness (an `abandoned` event with a seat, or a
   `seat_to_bot` event with `idle`) must have been waited for at least
   `abandon_seconds`: the sum, over their turns since their own last action (or since
   they took their seat back from a computer player), of the time from each turn's
   start to its end (or to the abandonment), less outages; the pause between hands
   does not count.
4. Turns running while the web was down (the soak's fault windows): how many, and
   whether those that timed out were given their clock plus the recorded outages; and,
   for comparison, plus the whole window. Where every web process was down, the
   first answer the clients got after it (`Window.first_answer`): no turn running then
   may run out before the serving time owed after it.
5. Lateness: how long after its (extended) deadline each timeout came, p50, p95 and
   max: of all, of those whose turn overlapped no outage and no web window ("outages
   aside"), and of those clear of every fault the soak made.

Every comparison allows TOLERANCE for the gap between a server's reading of its clock
and the insert of the row that records what it did.
"""

from __future__ import annotations

import bisect
import json
import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

TOLERANCE = timedelta(seconds=0.25)
# A timeout this late is worth a look (a lost task, a sweeper that did not run), if no fault.
LATE = timedelta(seconds=5)
NEXT_ROUND = "next_round"
PASS_CARDS = "pass_cards"
# The defaults of rooms made before the timing options existed (games/timing.py).
DEFAULT_SECONDS = {"turn_seconds": 60, "abandon_seconds": 300, "between_rounds_seconds": 20}
ZERO = timedelta(0)


class Cursor(Protocol):
    def execute(self, query: str, params: Sequence[Any] = ..., /) -> Any: ...

    def fetchall(self) -> Sequence[Sequence[Any]]: ...

    def fetchone(self) -> Sequence[Any] | None: ...


# -- the rows ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Room:
    id: int
    code: str
    game: str
    options: dict[str, Any]
    status: str
    started_at: datetime

    def seconds(self, name: str) -> timedelta:
        return timedelta(seconds=int(self.options.get(name, DEFAULT_SECONDS[name])))


@dataclass(frozen=True)
class Hand:
    id: int
    room_id: int
    number: int
    started_at: datetime
    finished_at: datetime | None
    phase: str  # as the hand stands now
    pass_direction: str | None  # Hearts: "hold" when the hand has no pass


@dataclass(frozen=True)
class Act:
    hand_id: int
    seq: int
    seat: int
    user_id: int | None
    payload: dict[str, Any]
    automatic: bool
    by_bot: bool
    created_at: datetime

    @property
    def kind(self) -> str:
        return str(self.payload.get("type", ""))

    @property
    def own(self) -> bool:
        """A person's own action (not the server's for them, not a computer player's)."""
        return self.user_id is not None and not self.automatic and not self.by_bot


@dataclass(frozen=True)
class Event:
    room_id: int
    seq: int
    data: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True)
class Outage:
    started_at: datetime
    ended_at: datetime


@dataclass(frozen=True)
class Accepted:
    """A move a client was answered 200 for: the hand is the one of the view it acted
    on; `version` is the room's version the answer gave."""

    code: str
    hand: int
    seat: int
    payload: dict[str, Any]
    version: int


@dataclass(frozen=True)
class Unanswered:
    """A move sent that got no answer (the connection failed): it may or may not be in."""

    code: str
    hand: int
    seat: int
    payload: dict[str, Any]


@dataclass(frozen=True)
class Window:
    """A time the soak had a web process down (or another fault under way).
    `first_answer`: where every web process was down, the first answer its clients got
    after the window began."""

    what: str
    started_at: datetime
    ended_at: datetime
    first_answer: datetime | None = None


@dataclass
class Data:
    rooms: dict[int, Room]
    hands: dict[int, Hand]
    actions: list[Act]
    events: list[Event]
    outages: list[Outage]
    outage_table: bool
    # The serving time owed after an outage (UPTIME_MIN_SERVING_AFTER_OUTAGE_SECONDS);
    # the audit's caller sets it, as the deployment had it.
    min_serving: timedelta = ZERO
    _by_hand: dict[int, list[Act]] = field(default_factory=dict, init=False, repr=False)
    _hands_of: dict[int, list[Hand]] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        by_hand: dict[int, list[Act]] = defaultdict(list)
        for act in self.actions:
            by_hand[act.hand_id].append(act)
        self._by_hand = {k: sorted(v, key=lambda a: a.seq) for k, v in by_hand.items()}
        hands_of: dict[int, list[Hand]] = defaultdict(list)
        for hand in self.hands.values():
            hands_of[hand.room_id].append(hand)
        self._hands_of = {k: sorted(v, key=lambda h: h.number) for k, v in hands_of.items()}
        self.outages = sorted(self.outages, key=lambda o: o.started_at)

    def acts(self, hand: Hand) -> list[Act]:
        return self._by_hand.get(hand.id, [])

    def hands_of(self, room: Room) -> list[Hand]:
        return self._hands_of.get(room.id, [])

    def room_of(self, act: Act) -> Room:
        return self.rooms[self.hands[act.hand_id].room_id]

    def before(self, act: Act) -> list[Act]:
        """The actions of its hand before it."""
        acts = self._by_hand[act.hand_id]
        return acts[: bisect.bisect_left([a.seq for a in acts], act.seq)]


# -- reading them -----------------------------------------------------------------------


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def load(cursor: Cursor) -> Data:
    """The rows of the rooms that started, from the deployment's database."""
    cursor.execute(
        "SELECT id, code, game, options::text, status, started_at FROM games_room WHERE started_at IS NOT NULL"
    )
    rooms = {r[0]: Room(r[0], r[1], r[2], _json(r[3]), r[4], r[5]) for r in cursor.fetchall()}
    cursor.execute(
        "SELECT id, room_id, number, started_at, finished_at, state->>'phase', state->>'pass_direction'"
        " FROM games_round"
    )
    hands = {r[0]: Hand(r[0], r[1], r[2], r[3], r[4], r[5] or "", r[6]) for r in cursor.fetchall() if r[1] in rooms}
    cursor.execute(
        "SELECT round_id, seq, seat, user_id, payload::text, automatic, by_bot, created_at FROM games_action"
    )
    actions = [Act(r[0], r[1], r[2], r[3], _json(r[4]), r[5], r[6], r[7]) for r in cursor.fetchall() if r[0] in hands]
    cursor.execute(
        "SELECT room_id, seq, data::text, created_at FROM games_event"
        " WHERE data->>'type' IN ('abandoned', 'seat_to_bot', 'seat_reclaimed', 'timed_out')"
    )
    events = [Event(r[0], r[1], _json(r[2]), r[3]) for r in cursor.fetchall() if r[0] in rooms]
    cursor.execute("SELECT to_regclass('uptime_outage') IS NOT NULL")
    found = cursor.fetchone()
    outage_table = bool(found and found[0])
    outages: list[Outage] = []
    if outage_table:
        cursor.execute("SELECT started_at, ended_at FROM uptime_outage ORDER BY started_at")
        outages = [Outage(r[0], r[1]) for r in cursor.fetchall()]
    return Data(rooms, hands, actions, events, outages, outage_table)


# -- turns, clocks, outages -------------------------------------------------------------


def deadline(start: datetime, clock: timedelta, outages: Iterable[Outage], min_serving: timedelta = ZERO) -> datetime:
    """When a turn that began at `start` runs out: its clock, extended by every outage
    that began before it ran out, by the outage's part after the turn began, and to no
    sooner than `min_serving` (at most the clock) after the outage's end."""
    due = start + clock
    owed = min(min_serving, clock)
    for outage in sorted(outages, key=lambda o: o.started_at):
        if outage.started_at >= due:
            break
        if outage.ended_at > start:
            due += outage.ended_at - max(outage.started_at, start)
            due = max(due, outage.ended_at + owed)
    return due


def overlap(start: datetime, end: datetime, outages: Iterable[Outage]) -> timedelta:
    """How much of [start, end] the outages cover."""
    total = ZERO
    for outage in outages:
        part = min(end, outage.ended_at) - max(start, outage.started_at)
        if part > ZERO:
            total += part
    return total


def hand_end(data: Data, act: Act) -> datetime:
    """When the hand of `act` (a `next_round`) ended: its last action that was not one."""
    played = [a for a in data.before(act) if a.kind != NEXT_ROUND]
    return played[-1].created_at if played else data.hands[act.hand_id].started_at


def turn_start(data: Data, act: Act) -> datetime:
    """When the turn that `act` ended began."""
    hand = data.hands[act.hand_id]
    if act.kind == NEXT_ROUND:
        return hand_end(data, act)
    if data.rooms[hand.room_id].game == "hearts" and act.kind == PASS_CARDS:
        return hand.started_at  # the pass is simultaneous: one clock from the deal
    earlier = data.before(act)
    return earlier[-1].created_at if earlier else hand.started_at


def clock_of(data: Data, act: Act) -> timedelta:
    room = data.room_of(act)
    return room.seconds("between_rounds_seconds" if act.kind == NEXT_ROUND else "turn_seconds")


def _turn_in_progress(data: Data, room: Room, at: datetime) -> datetime | None:
    """When the turn in progress at `at` began (None before the first hand)."""
    hands = [h for h in data.hands_of(room) if h.started_at <= at]
    if not hands:
        return None
    hand = hands[-1]
    acts = [a for a in data.acts(hand) if a.created_at <= at]
    in_pass = room.game == "hearts" and hand.pass_direction != "hold" and all(a.kind == PASS_CARDS for a in acts)
    if in_pass or not acts:
        return hand.started_at
    return acts[-1].created_at


# -- the figures ------------------------------------------------------------------------


@dataclass(frozen=True)
class Timeout:
    code: str
    hand: int
    seq: int
    seat: int
    kind: str
    start: datetime
    at: datetime
    clock: timedelta
    due: datetime  # start + clock, extended by outages

    @property
    def early(self) -> bool:
        return self.at < self.due - TOLERANCE

    @property
    def over(self) -> float:
        """Seconds it came after its (extended) clock ran out; negative when early."""
        return (self.at - self.due).total_seconds()

    @property
    def share(self) -> float:
        """How long the turn lasted as a share of its (extended) clock."""
        return (self.at - self.start) / (self.due - self.start)


@dataclass(frozen=True)
class Abandonment:
    code: str
    seat: int
    kind: str  # "abandoned" or "seat_to_bot"
    at: datetime
    waited: timedelta
    limit: timedelta
    turns: int  # turns since the player's own last action, the one in progress included

    @property
    def wrongful(self) -> bool:
        return self.waited < self.limit - TOLERANCE


@dataclass(frozen=True)
class WindowTurns:
    window: Window
    turns: int
    timed_out: int
    given_outages: int  # timed out no earlier than clock + recorded outages
    given_window: int  # timed out no earlier than clock + the whole window
    # Of the turns running at the clients' first answer after the window, those that
    # timed out before the serving time owed after it; None without a first answer.
    short_after_answer: int | None = None
    owed_examples: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Moves:
    accepted: int
    persons_logged: int
    lost: int
    duplicated: int
    applied_unanswered: int
    lost_examples: list[tuple[str, int, int, str]]
    duplicated_examples: list[tuple[str, int, int, str]]


def canonical(payload: dict[str, Any]) -> str:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"))


def check_moves(data: Data, accepted: Iterable[Accepted], unanswered: Iterable[Unanswered]) -> Moves:
    """Every accepted move in the log exactly once."""
    logged: Counter[tuple[str, int, int, str]] = Counter()
    for act in data.actions:
        if act.own:
            hand = data.hands[act.hand_id]
            logged[(data.rooms[hand.room_id].code, hand.number, act.seat, canonical(act.payload))] += 1
    answered = Counter((a.code, a.hand, a.seat, canonical(a.payload)) for a in accepted)
    unknown = Counter((u.code, u.hand, u.seat, canonical(u.payload)) for u in unanswered)
    lost = duplicated = applied_unanswered = 0
    lost_examples, duplicated_examples = [], []
    for key in answered.keys() | logged.keys():
        missing = answered[key] - logged[key]
        if missing > 0:
            lost += missing
            lost_examples.append(key)
        extra = logged[key] - answered[key]
        if extra > 0:
            explained = min(extra, unknown[key])
            applied_unanswered += explained
            if extra > explained:
                duplicated += extra - explained
                duplicated_examples.append(key)
    return Moves(
        accepted=sum(answered.values()),
        persons_logged=sum(logged.values()),
        lost=lost,
        duplicated=duplicated,
        applied_unanswered=applied_unanswered,
        lost_examples=sorted(lost_examples)[:5],
        duplicated_examples=sorted(duplicated_examples)[:5],
    )


def check_timeouts(data: Data) -> list[Timeout]:
    """Every automatic action, with its turn's start and clock."""
    found = []
    for act in data.actions:
        if not act.automatic:
            continue
        hand = data.hands[act.hand_id]
        start = turn_start(data, act)
        clock = clock_of(data, act)
        found.append(
            Timeout(
                code=data.rooms[hand.room_id].code,
                hand=hand.number,
                seq=act.seq,
                seat=act.seat,
                kind=act.kind,
                start=start,
                at=act.created_at,
                clock=clock,
                due=deadline(start, clock, data.outages, data.min_serving),
            )
        )
    return sorted(found, key=lambda t: (t.at, t.code, t.seq))


def waited_for(data: Data, room: Room, seat: int, at: datetime) -> tuple[timedelta, int]:
    """How long the game waited for the player at `seat` in their turns since their own
    last action (or reclaim), up to `at` (the turn in progress included, the pauses between hands
    not), less outages; and how many turns that was."""
    hands = data.hands_of(room)
    own = [a.created_at for h in hands for a in data.acts(h) if a.seat == seat and a.own and a.created_at <= at]
    # Taking a seat back from a computer player restarts the idle clock as an action does.
    own += [
        e.created_at
        for e in data.events
        if e.room_id == room.id and e.data.get("type") == "seat_reclaimed" and e.data.get("seat") == seat
        if e.created_at <= at
    ]
    since = max(own) if own else room.started_at
    total, turns = ZERO, 0
    for hand in hands:
        for act in data.acts(hand):
            if act.seat != seat or not act.automatic or act.kind == NEXT_ROUND or not since < act.created_at <= at:
                continue
            start = max(turn_start(data, act), since)
            total += act.created_at - start - overlap(start, act.created_at, data.outages)
            turns += 1
    current = _turn_in_progress(data, room, at)
    if current is not None:
        start = max(current, since)
        total += max(ZERO, at - start - overlap(start, at, data.outages))
        turns += 1
    return total, turns


def check_abandonments(data: Data) -> tuple[list[Abandonment], int]:
    """Every abandonment of an idle player, and every seat handed to a computer player
    for idleness; and how many rooms were abandoned because every seat had become a
    computer player's (the hand-overs that led there are counted themselves)."""
    found, everyone_away = [], 0
    for event in data.events:
        kind = event.data.get("type")
        room = data.rooms[event.room_id]
        if kind == "abandoned" and isinstance(event.data.get("seat"), int):
            if room.options.get("on_abandon") == "bot":
                everyone_away += 1
                continue
        elif not (kind == "seat_to_bot" and event.data.get("idle") is True):
            continue
        seat = int(event.data["seat"])
        waited, turns = waited_for(data, room, seat, event.created_at)
        found.append(
            Abandonment(room.code, seat, str(kind), event.created_at, waited, room.seconds("abandon_seconds"), turns)
        )
    return sorted(found, key=lambda a: (a.at, a.code, a.seat)), everyone_away


def check_windows(data: Data, windows: Iterable[Window]) -> list[WindowTurns]:
    """The people's turns that were running during each window."""
    turns = [a for a in data.actions if (a.user_id is not None or a.automatic) and not a.by_bot]
    spans = [(turn_start(data, a), a) for a in turns]
    found = []
    for window in windows:
        running = [(start, a) for start, a in spans if start < window.ended_at and a.created_at > window.started_at]
        timed_out = [(start, a) for start, a in running if a.automatic]
        whole = [*data.outages, Outage(window.started_at, window.ended_at)]
        owed = data.min_serving
        given_outages = sum(
            1 for s, a in timed_out if a.created_at >= deadline(s, clock_of(data, a), data.outages, owed) - TOLERANCE
        )
        given_window = sum(
            1 for s, a in timed_out if a.created_at >= deadline(s, clock_of(data, a), whole, owed) - TOLERANCE
        )
        short, examples = None, []
        if window.first_answer is not None:
            first = window.first_answer
            short = 0
            for s, a in timed_out:
                if (
                    s < first <= a.created_at + TOLERANCE
                    and a.created_at < first + min(owed, clock_of(data, a)) - TOLERANCE
                ):
                    short += 1
                    examples.append(
                        f"{a.kind} #{a.seq} of a turn begun {_t(s)}, timed out {_t(a.created_at)}, "
                        f"{(a.created_at - first).total_seconds():.2f} s after the first answer"
                    )
        found.append(WindowTurns(window, len(running), len(timed_out), given_outages, given_window, short, examples))
    return found


@dataclass(frozen=True)
class Lateness:
    """How long after their (extended) deadline timeouts came, in seconds."""

    what: str
    count: int
    p50: float
    p95: float
    max: float

    def line(self) -> str:
        if not self.count:
            return f"{self.what}: none"
        return f"{self.what} ({self.count}): p50 {self.p50:.2f} s, p95 {self.p95:.2f} s, max {self.max:.2f} s"


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (`share` of 1) of `values`."""
    ordered = sorted(values)
    rank = min(len(ordered), max(1, math.ceil(share * len(ordered))))
    return ordered[rank - 1]


def lateness(what: str, timeouts: Sequence[Timeout]) -> Lateness:
    over = [max(0.0, t.over) for t in timeouts]
    if not over:
        return Lateness(what, 0, 0.0, 0.0, 0.0)
    return Lateness(what, len(over), percentile(over, 0.5), percentile(over, 0.95), max(over))


def clear_of(timeouts: Iterable[Timeout], spans: Iterable[tuple[datetime, datetime]]) -> list[Timeout]:
    """The timeouts whose turn (its start to its timeout) overlapped none of `spans`."""
    spans = list(spans)
    return [t for t in timeouts if not any(t.start < end and t.at > begin for begin, end in spans)]


@dataclass
class Report:
    data: Data
    moves: Moves
    timeouts: list[Timeout]
    abandonments: list[Abandonment]
    everyone_away: int
    windows: list[WindowTurns]
    faults: list[Window] = field(default_factory=list)
    ending: Window | None = None  # the load stopped: every person's turn runs out at once

    @property
    def early(self) -> list[Timeout]:
        return [t for t in self.timeouts if t.early]

    @property
    def wrongful(self) -> list[Abandonment]:
        return [a for a in self.abandonments if a.wrongful]

    def must_be_zero(self) -> dict[str, int]:
        return {
            "moves lost": self.moves.lost,
            "moves duplicated": self.moves.duplicated,
            "early timeouts": len(self.early),
            "wrongful abandonments": len(self.wrongful),
            "timeouts inside a web outage window not given their clock + recorded outages": sum(
                w.timed_out - w.given_outages for w in self.windows
            ),
            "timeouts sooner than the serving time owed after the clients' first answer": sum(
                w.short_after_answer or 0 for w in self.windows
            ),
        }

    def lateness(self) -> list[Lateness]:
        """p50, p95 and max of how late timeouts came: all; outages aside (turns that
        overlapped no recorded outage and no web window); clear of every fault."""
        turns = [t for t in self.timeouts if t.kind != NEXT_ROUND]
        outages = [(o.started_at, o.ended_at) for o in self.data.outages]
        web = [(w.window.started_at, w.window.ended_at) for w in self.windows]
        others = [(f.started_at, f.ended_at) for f in self.faults]
        end = [(self.ending.started_at, self.ending.ended_at)] if self.ending is not None else []
        return [
            lateness("all timeouts", self.timeouts),
            lateness("turns, outages aside", clear_of(turns, [*outages, *web])),
            lateness("turns, outages and the load's end aside", clear_of(turns, [*outages, *web, *end])),
            lateness("turns clear of every fault", clear_of(turns, [*outages, *web, *others, *end])),
        ]

    def lines(self, examples: int = 5) -> list[str]:
        d, m = self.data, self.moves
        tol = TOLERANCE.total_seconds()
        out = [f"tolerance for the gap between a server's clock reading and its row's insert: {tol:g} s"]
        if d.outage_table:
            shown = ", ".join(f"{_t(o.started_at)}-{_t(o.ended_at)}" for o in d.outages) or "none"
            out.append(f"outages recorded by the server (uptime_outage): {len(d.outages)} ({shown})")
        else:
            out.append("outages recorded by the server: 0 (no uptime_outage table in this server; counted as none)")
        out.append(
            f"moves answered 200: {m.accepted}; persons' moves in the action log: {m.persons_logged}; "
            f"lost: {m.lost}; duplicated: {m.duplicated}; in the log though their request got no answer: "
            f"{m.applied_unanswered}"
        )
        for code, hand, seat, payload in m.lost_examples[:examples]:
            out.append(f"  lost: room {code} hand {hand} seat {seat} {payload}")
        for code, hand, seat, payload in m.duplicated_examples[:examples]:
            out.append(f"  duplicated: room {code} hand {hand} seat {seat} {payload}")
        kinds = Counter("pause" if t.kind == NEXT_ROUND else "turn" for t in self.timeouts)
        early_kinds = Counter("pause" if t.kind == NEXT_ROUND else "turn" for t in self.early)
        out.append(
            f"timeouts (automatic actions): {len(self.timeouts)} ({kinds['turn']} turns, "
            f"{kinds['pause']} pauses between hands); early: {len(self.early)} "
            f"({early_kinds['turn']} turns, {early_kinds['pause']} pauses)"
        )
        if self.timeouts:
            over = sorted(t.over for t in self.timeouts)
            share = sorted(t.share for t in self.timeouts)
            out.append(
                "  timed-out turns lasted, against their clock (+ outages): "
                f"min {over[0]:+.2f} s, median {statistics.median(over):+.2f} s, max {over[-1]:+.2f} s; "
                f"as a share of it: min {share[0]:.2f}, median {statistics.median(share):.2f}"
            )
            late = [t.over for t in self.timeouts if t.over > LATE.total_seconds()]
            out.append(f"  later than their clock by over {LATE.total_seconds():g} s: {len(late)}")
            out.append("  lateness of timeouts after their deadline (+ outages, + the serving time owed after them):")
            for figure in self.lateness():
                out.append(f"    {figure.line()}")
        if self.early:
            by = sorted(-t.over for t in self.early)
            out.append(f"  early by: min {by[0]:.2f} s, median {statistics.median(by):.2f} s, max {by[-1]:.2f} s")
        for t in self.early[:examples]:
            out.append(
                f"  early: room {t.code} hand {t.hand} #{t.seq} seat {t.seat} {t.kind} after "
                f"{(t.at - t.start).total_seconds():.2f} s of a {(t.due - t.start).total_seconds():g} s clock"
            )
        by_kind = Counter(a.kind for a in self.abandonments)
        wrong_kind = Counter(a.kind for a in self.wrongful)
        out.append(
            f"abandoned for idleness: {by_kind['abandoned']} rooms, seats handed to a computer player: "
            f"{by_kind['seat_to_bot']} (then abandoned, every seat a computer's: {self.everyone_away}); "
            f"wrongful: {len(self.wrongful)} ({wrong_kind['abandoned']} abandonments, "
            f"{wrong_kind['seat_to_bot']} hand-overs)"
        )
        if self.abandonments:
            waited = sorted(a.waited / a.limit for a in self.abandonments)
            out.append(
                f"  the player's own waiting time as a share of abandon_seconds: min {waited[0]:.2f}, "
                f"median {statistics.median(waited):.2f}"
            )
        for a in self.wrongful[:examples]:
            out.append(
                f"  wrongful: room {a.code} seat {a.seat} {a.kind} after {a.waited.total_seconds():.1f} s of their "
                f"own waiting ({a.turns} turns) of {a.limit.total_seconds():g} s"
            )
        for w in self.windows:
            out.append(
                f"{w.window.what} ({_t(w.window.started_at)}-{_t(w.window.ended_at)}, "
                f"{(w.window.ended_at - w.window.started_at).total_seconds():.1f} s): {w.turns} turns running, "
                f"{w.timed_out} timed out, of which {w.given_outages} no earlier than clock + recorded outages "
                f"(must be all) and {w.given_window} no earlier than clock + the whole window"
            )
            if w.window.first_answer is not None:
                ended = [o.ended_at for o in d.outages if o.started_at <= w.window.first_answer]
                recorded = f"{_t(max(ended))}" if ended else "none"
                out.append(
                    f"  clients' first answer after it: {_t(w.window.first_answer)} (the outage recorded ended "
                    f"{recorded}); timeouts of turns running then, sooner than "
                    f"{d.min_serving.total_seconds():g} s (or the clock) after it: {w.short_after_answer} (must be 0)"
                )
                for example in w.owed_examples[:examples]:
                    out.append(f"    {example}")
        return out


def _t(moment: datetime) -> str:
    return moment.strftime("%H:%M:%S.%f")[:-4]


def audit(
    data: Data,
    accepted: Iterable[Accepted] = (),
    unanswered: Iterable[Unanswered] = (),
    windows: Iterable[Window] = (),
    faults: Iterable[Window] = (),
    ending: Window | None = None,
) -> Report:
    """`windows`: the web processes' down times; `faults`: the other faults' (a worker
    killed, beat stopped), left out of the lateness of the timeouts clear of faults;
    `ending`: from when the load stopped, every person at once (their turns all run out
    together), left out of the lateness but of all."""
    abandonments, everyone_away = check_abandonments(data)
    return Report(
        data=data,
        moves=check_moves(data, accepted, unanswered),
        timeouts=check_timeouts(data),
        abandonments=abandonments,
        everyone_away=everyone_away,
        windows=check_windows(data, windows),
        faults=list(faults),
        ending=ending,
    )
