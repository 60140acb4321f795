"""Claiming the rest of a hand: the player to act in trick play says every remaining
trick is theirs (their side's), whatever anyone plays.

A claim is judged on what the claimant knows, never on how the unseen pieces lie: their
own hand, what has been played, and the pieces they cannot see as one pool (`unseen`:
the other seats' hands together, and any piece out of play they were not shown). It
holds when, whatever unseen piece any other seat adds to any trick, nothing beats the
claimant's side:

- in the trick on the table, every play the claimant may make leaves it to the side
  (to the claimant itself while more tricks follow, since the winner leads the next),
  and no unseen piece added after it takes it;
- every piece the claimant then holds, led, is beaten by no unseen piece.

Each game's own trick winner (`Winner`) compares the pieces, trumps, ties of two decks
and all. The proof reads no hidden hand, so its answer is the same for every lie of the
unseen pieces: it tells the table nothing, and `legal_actions` lists `claim` exactly
when it holds. The proof is sufficient, not exact: where it does not decide, a search
over every lie of the unseen pieces (`claim_search`) looks for a line of play, chosen
from what the claimant sees, that wins under all of them (leading the top trump to draw
the last one out before the plain ace, say). Both read no hidden hand: `judge`.

A claim that holds is played out at once as ordinary plays, the claimant's by the line
found (any, where the proof decided) and everyone else's the first legal play in turn,
so that events, scoring and replay are those of normal play; each play's event is marked
as part of the claim. A refusal is the one answer `claim_not_certain`. A claim is listed
and taken only with two pieces or more in hand: with one, it would be that piece's play.

The claimant's side is the claimant and those whose partnership with them is public
when they claim: a fixed partnership or team, or in Kali Tidi's `cards` mode the
bidder and the partners revealed so far.

The proof reads only what every trick-taking state here has: `phase`, `turn`,
`players`, `hands` and `trick` (each entry a seat and its one piece).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from .base import Action, Applied, Event, RoundState
from .claim_search import FREE, Line, Plays, Step, Winner, piece_of, search
from .errors import RuleError, gettext_noop

CLAIM = "claim"
# Trick play is this phase in every game.
TRICK_PLAY = "play"

# The mark on the event of each play that plays out an accepted claim: the log and the
# replay show every card of a claimed hand as an ordinary play, part of the claim.
PART_OF_CLAIM = "claimed"

NOT_CERTAIN = "claim_not_certain"
# The fewest pieces in hand for a claim to be offered: with one, it is that piece's play.
MIN_CLAIM_PIECES = 2
NOT_CERTAIN_DETAIL = gettext_noop("Not every remaining trick is certain to be yours: play on.")


def claim_action() -> Action:
    """The claim as `legal_actions` lists it."""
    return {"type": CLAIM}


def _trick_play[StateT: RoundState[Any]](state: StateT) -> Mapping[str, Any]:
    """The state read through the keys every trick-taking game has (see above); each
    game types them its own way (cards or tiles, what a trick records)."""
    return state


def others_hands[StateT: RoundState[Any]](state: StateT, seat: int) -> list[str]:
    """Every piece in another seat's hand: together, what `seat` cannot see where no
    piece is out of play unseen (how they lie is what it does not know)."""
    hands: Sequence[Sequence[str]] = _trick_play(state)["hands"]
    return [piece for other, hand in enumerate(hands) if other != seat for piece in hand]


def holds[StateT: RoundState[Any]](
    state: StateT,
    seat: int,
    *,
    plays: Plays[StateT],
    winner: Winner[StateT],
    unseen: Collection[str],
) -> bool:
    """`seat`, to act in trick play with tricks to follow, takes every remaining trick
    itself whatever unseen piece anyone adds, proved from what it knows alone (see
    above); the search (`judge`) finds where its side's taking them is enough."""
    read = _trick_play(state)
    if read["phase"] != TRICK_PLAY or read["turn"] != seat:
        return False
    pool = sorted(set(unseen))
    players: int = read["players"]
    hand: list[str] = list(read["hands"][seat])

    def kept(seats: list[int], pieces: list[str], by: Collection[int]) -> bool:
        """The trick so far goes to `by`, and no unseen piece added after takes it."""
        best = winner(state, pieces)
        if seats[best] not in by:
            return False
        return len(pieces) == players or all(winner(state, [*pieces, u]) == best for u in pool)

    def leads(pieces: list[str]) -> bool:
        """Each of `pieces`, led by the claimant, takes its trick."""
        return all(kept([seat], [piece], {seat}) for piece in pieces)

    trick = list(read["trick"])
    if not trick:
        return leads(hand)
    seats, pieces = [p["seat"] for p in trick], [piece_of(p) for p in trick]
    # Tricks follow this one (a claim holds two pieces or more): the claimant must take
    # it, as its winner leads next.
    by = {seat}
    for action in plays(state):
        played = piece_of(action)
        rest = list(hand)
        rest.remove(played)
        if not (kept([*seats, seat], [*pieces, played], by) and leads(rest)):
            return False
    return True


def judge[StateT: RoundState[Any]](
    state: StateT,
    seat: int,
    side: Collection[int],
    *,
    plays: Plays[StateT],
    step: Step[StateT],
    winner: Winner[StateT],
    unseen: Collection[str],
) -> Line | None:
    """The line by which `seat`'s claim of every remaining trick for `side` wins, judged
    on what it knows (`unseen`: the pieces it cannot place); None if the claim does not
    hold. The proof first, the search where it does not decide."""
    read = _trick_play(state)
    if read["phase"] != TRICK_PLAY or read["turn"] != seat:
        return None
    # With one piece left a claim is only that play made by another button: not offered.
    if len(read["hands"][seat]) < MIN_CLAIM_PIECES:
        return None
    if holds(state, seat, plays=plays, winner=winner, unseen=unseen):
        return FREE
    return search(state, seat, side, plays=plays, step=step, winner=winner, unseen=sorted(unseen))


def marked(event: Event) -> Event:
    """`event` as a claim played out logs it: a play says it was part of the claim."""
    if event.data.get("type") != "play":
        return event
    return Event({**event.data, PART_OF_CLAIM: True}, event.visible_to)


def plays_of(events: list[Event]) -> list[tuple[int, Action]]:
    """The plays a claim played out, from its events: each seat and its play as an action."""
    return [
        (e.data["seat"], {k: v for k, v in e.data.items() if k not in ("seat", PART_OF_CLAIM)})
        for e in events
        if e.data.get("type") == "play"
    ]


def apply_claim[StateT: RoundState[Any]](
    state: StateT, seat: int, *, line: Line | None, plays: Plays[StateT], step: Step[StateT]
) -> Applied[StateT]:
    """`seat` claims the rest: refused without a winning `line` (`judge`), else played
    out to the end of the hand along it. Pure: `state` is not modified."""
    if line is None:
        raise RuleError(NOT_CERTAIN, NOT_CERTAIN_DETAIL)
    events = [Event({"type": "claimed", "seat": seat})]
    while state["phase"] == TRICK_PLAY:
        turn = _trick_play(state)["turn"]
        legal = plays(state)
        action = legal[0]
        if not line.free and turn == seat:
            action = next(a for a in legal if piece_of(a) == line.play)
            line = line.then or FREE
        elif not line.free:
            # Every play the line was searched over is answered; the real one among them.
            line = line.replies[piece_of(action)]
        applied = step(state, turn, action)
        state = applied.state
        events.extend(marked(e) for e in applied.events)
    return Applied(state, events)
