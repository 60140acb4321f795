"""The exact judgement of a claim where the proof (`claims.holds`) does not decide: a
search over every lie of the unseen pieces, for a line of play that wins for all.

The claimant knows its own hand, what is on the table and what has been played; what it
does not know is how the unseen pieces lie among the other hands (and, in Moon, which
one lies out of play). A *lie* is one way of dealing the unseen pieces into the hands'
sizes. The claim holds when the claimant has a line of play, chosen from what it sees
alone, under which its side takes every remaining trick whatever the lie and whatever
anyone else plays. The search keeps the set of lies still possible at each point of
play (every lie at first; after another seat plays a piece, those in which it held that
piece and could play it), so that the claimant's choice at each of its turns is one
choice for all of them: the line never peeks at a hidden hand. Partners play as anyone
else: the claim may not count on their choices.

Every lie is considered, whether or not it fits the voids shown in earlier tricks (the
state does not record who failed to follow what): a claim that needs such a void is
refused, and one accepted is certain all the more.

The search reads each game's own legal plays and play transition, so trumps, the rules
of following and the breaking of hearts are the game's. It is bounded (`WORLDS`, `STEPS`)
by counts that depend only on what the claimant sees, and a claim beyond them is refused,
so the answer never depends on the hidden hands.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from .base import Action, Applied, RoundState, SentAction

# The most lies a claim is searched over: two tricks left at a table of four is 90, two
# of five or six a few hundred; larger positions are judged by the proof alone.
WORLDS = 600
# The most pieces left in the hands for a search: the last two tricks at a table of
# four, four at a table of two. The search costs a few milliseconds there, once per
# position (`CACHED`); a view of every position of the hand asks for it.
PIECES = 8
# The most plays the search may make, over every lie together: about 0.1 s.
STEPS = 5_000
# The lies a claim is first tried against, drawn at random.
SAMPLE = 8
# Judged positions kept per process, so that each view of one position searches once.
CACHED = 256

# A game's legal plays and its play transition, over its own state type; the winner of a
# trick so far: the index, among its pieces in the order played (the first led), of the
# one that takes it.
type Plays[StateT: RoundState[Any]] = Callable[[StateT], list[Action]]
type Step[StateT: RoundState[Any]] = Callable[[StateT, int, SentAction], Applied[StateT]]
type Winner[StateT: RoundState[Any]] = Callable[[StateT, list[str]], int]


@dataclass(frozen=True)
class Line:
    """A winning line from a point of play: where the claimant is to act, the piece it
    plays (`play`) and the line after it (`then`); where another seat is, the line after
    each piece that seat may play (`replies`). A line with neither is won. `free` says
    that any play wins from here (the proof's verdict)."""

    play: str | None = None
    then: Line | None = None
    replies: Mapping[str, Line] = field(default_factory=dict)
    free: bool = False


WON = Line()
FREE = Line(free=True)


class _OutOfSteps(Exception):
    """The search ran past `STEPS`: the claim is refused."""


def piece_of(entry: Mapping[str, Any]) -> str:
    """The piece of a play or of a trick's entry: its one field but `type` and `seat`."""
    (piece,) = [value for key, value in entry.items() if key not in ("type", "seat")]
    return str(piece)


def lie_count(pool: int, sizes: Sequence[int]) -> int:
    """How many ways `pool` pieces, each counted as different, deal into `sizes`."""
    return math.factorial(pool) // math.prod(math.factorial(n) for n in sizes)


def lies(pool: Sequence[str], sizes: Sequence[int]) -> Iterator[list[list[str]]]:
    """Every distinct way of dealing the pieces of `pool` (copies alike) into hands of
    `sizes` (together as many as the pieces), each hand sorted, in one fixed order."""
    for dealt in _deal(tuple(sorted(pool)), tuple(sizes)):
        yield [list(hand) for hand in dealt]


def _cut(pieces: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """`pieces` dealt in order into hands of `sizes`, each sorted."""
    hands, at = [], 0
    for size in sizes:
        hands.append(sorted(pieces[at : at + size]))
        at += size
    return hands


def _deal(left: tuple[str, ...], sizes: tuple[int, ...]) -> Iterator[tuple[tuple[str, ...], ...]]:
    if len(sizes) <= 1:
        yield (left,) if sizes else ()
        return
    dealt: set[tuple[str, ...]] = set()
    for chosen in itertools.combinations(range(len(left)), sizes[0]):
        hand = tuple(left[i] for i in chosen)
        # Copies of a piece give one hand more than once: it is dealt once.
        if hand in dealt:
            continue
        dealt.add(hand)
        rest = tuple(piece for i, piece in enumerate(left) if i not in chosen)
        for others in _deal(rest, sizes[1:]):
            yield (hand, *others)


def search[StateT: RoundState[Any]](
    state: StateT,
    seat: int,
    side: Collection[int],
    *,
    plays: Plays[StateT],
    step: Step[StateT],
    winner: Winner[StateT],
    unseen: Sequence[str],
) -> Line | None:
    """A line that takes every remaining trick for `side`, `seat` to act in trick play,
    over every lie of `unseen` into the other hands (what is left over lies out of play);
    None where there is none, or the position is past the search's bounds."""
    read: Mapping[str, Any] = state
    players: int = read["players"]
    others = [s for s in range(players) if s != seat]
    sizes = [len(read["hands"][s]) for s in others]
    out = len(unseen) - sum(sizes)
    held = sum(len(hand) for hand in read["hands"])
    if out < 0 or held > PIECES or lie_count(len(unseen), [*sizes, out]) > WORLDS:
        return None
    key = _key(state, seat, side, unseen)
    with _judging:
        if key in _judged:
            _judged.move_to_end(key)
            return _judged[key]
    base = [tuple(h) for h in read["hands"]]

    def world(dealt: Sequence[Sequence[str]]) -> Hands:
        hands = list(base)
        for s, hand in zip(others, dealt, strict=False):
            hands[s] = tuple(hand)
        return tuple(hands)

    # Most claims fail against a few lies, and a claim that fails against some lies
    # fails against all: a sample of them (drawn the same for every lie of this
    # position, from what the claimant sees) settles most refusals cheaply.
    draw = random.Random(key)
    sample = sorted({world(_cut(draw.sample(sorted(unseen), len(unseen)), sizes)) for _ in range(SAMPLE)})
    line = _Search(seat, set(side), players, plays, step, winner).find(state, sample)
    if line is not None:
        worlds = [world(dealt) for dealt in lies(unseen, [*sizes, out])]
        line = _Search(seat, set(side), players, plays, step, winner).find(state, worlds)
    with _judging:
        _judged[key] = line
        if len(_judged) > CACHED:
            _judged.popitem(last=False)
    return line


# Position (as the claimant sees it) → its line: the search is pure, so one position
# judged once answers every view of it.
_judged: OrderedDict[str, Line | None] = OrderedDict()
_judging = threading.Lock()


def _key(state: Mapping[str, Any], seat: int, side: Collection[int], unseen: Sequence[str]) -> str:
    """The position as the claimant sees it: the state with the other hands as their sizes."""
    sizes = [len(h) if s != seat else h for s, h in enumerate(state["hands"])]
    seen = {**state, "hands": sizes}
    return json.dumps([seen, seat, sorted(side), sorted(unseen)], sort_keys=True, default=str)


@dataclass
class _Search[StateT: RoundState[Any]]:
    seat: int
    side: set[int]
    players: int
    plays: Plays[StateT]
    step: Step[StateT]
    winner: Winner[StateT]
    steps: int = 0

    def find(self, public: StateT, worlds: list[Hands]) -> Line | None:
        """A line that wins in every one of `worlds`, or None (also past `STEPS`)."""
        try:
            return self.line(public, worlds)
        except _OutOfSteps:
            return None

    def line(self, public: StateT, worlds: list[Hands]) -> Line | None:
        """A winning line from one point of play: `public` is what every lie shares (all
        but the hands), `worlds` the hands of each lie still possible; or None."""
        read = _read(public)
        turn: int = read["turn"]
        trick = list(read["trick"])
        if turn == self.seat:
            # The claimant's legal plays are the same in every lie: they read its own hand.
            for action in self.plays(self.dealt(public, worlds[0])):
                if (then := self.then(public, worlds, worlds[0], turn, trick, action)) is not None:
                    return Line(play=piece_of(action), then=then)
            return None
        replies: dict[str, list[Hands]] = {}
        actions: dict[str, Action] = {}
        for world in worlds:
            self.count(1)
            for action in self.plays(self.dealt(public, world)):
                piece = piece_of(action)
                replies.setdefault(piece, []).append(world)
                actions[piece] = action
        lines: dict[str, Line] = {}
        # The replies that take the trick so far first: a losing one shows soonest there.
        so_far = [piece_of(p) for p in trick]

        def taking(piece: str) -> bool:
            return self.winner(public, [*so_far, piece]) == len(so_far)

        for piece in sorted(replies, key=lambda piece: (not taking(piece), piece)):
            group = replies[piece]
            if (then := self.then(public, group, group[0], turn, trick, actions[piece])) is None:
                return None
            lines[piece] = then
        return Line(replies=lines)

    def then(
        self,
        public: StateT,
        worlds: list[Hands],
        some: Hands,
        turn: int,
        trick: list[Mapping[str, Any]],
        action: Action,
    ) -> Line | None:
        """The winning line after `turn` plays `action` in `worlds` (`some` one of them):
        WON where it ends the last trick for the side, None where it completes a trick
        for the other side or no line wins after it."""
        piece = piece_of(action)
        if len(trick) + 1 == self.players:
            pieces = [*(piece_of(p) for p in trick), piece]
            seats = [*(p["seat"] for p in trick), turn]
            # Who takes the trick reads only the pieces and what is public (trumps).
            if seats[self.winner(public, pieces)] not in self.side:
                return None
            if len(some[turn]) == 1:
                return WON
        # A play changes the same for every lie but the hand it leaves: one step gives
        # what they share after it, and each lie loses the piece from that hand.
        self.count(1)
        after = self.step(self.dealt(public, some), turn, action).state
        return self.line(after, [_without(world, turn, piece) for world in worlds])

    @staticmethod
    def dealt(public: StateT, world: Hands) -> StateT:
        """The state of one lie."""
        return cast(StateT, {**public, "hands": [list(h) for h in world]})

    def count(self, steps: int) -> None:
        self.steps += steps
        if self.steps > STEPS:
            raise _OutOfSteps


# Each seat's hand, in one lie of the unseen pieces.
type Hands = tuple[tuple[str, ...], ...]


def _without(world: Hands, seat: int, piece: str) -> Hands:
    """`world` once `seat` has played `piece` (one copy)."""
    hand = list(world[seat])
    hand.remove(piece)
    return (*world[:seat], tuple(hand), *world[seat + 1 :])


def _read(state: Mapping[str, Any]) -> Mapping[str, Any]:
    """A state read through the keys every trick-taking game has (`claims`)."""
    return state
