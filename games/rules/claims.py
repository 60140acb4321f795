"""Claiming the rest of a hand: the player to act in trick play says every remaining
trick is theirs (their side's), whatever anyone plays.

The engine knows every hand, so it proves the claim by searching every sequence of
legal plays by every player from the current position — the claimant's own plays
included, so that any play-out of an accepted claim wins every trick. If one sequence
gives a trick to anyone off the claimant's side, or the search needs more than
`NODE_BUDGET` plays to decide, the claim is refused with the one answer
`claim_not_certain`: a refusal tells nobody anything but "not certain" — not which
line loses, not how far the search got. A certain claim is played out at once as
ordinary plays, each player's first legal play in turn, so that events, scoring and
replay are those of normal play; each play's event is marked as part of the claim.

The claimant's side is the claimant and those whose partnership with them is public
when they claim: a fixed partnership or team, or in Kali Tidi's `cards` mode the
bidder and the partners revealed so far. A partner nobody else knows of counts as an
opponent, so that an accepted or refused claim cannot tell the table who it is.

Every game plugs in its own legal plays and its own play transition; the search reads
only what every trick-taking state here has: `phase`, `turn`, `hands`, `trick`,
`tricks_played` and `last_trick["winner"]`.

TODO(issue 26, items 1-3): the search runs on the real hands, so in the games with trumps
an answer can depend on how the unseen cards lie. Judge on the claimant's information
instead: (1) a proof from what they know, with each game's trick winner as a hook: every
piece they may play is unbeatable when led, pairwise against every unseen piece (the game's
winner of a two-piece trick; Kali Tidi's later identical card wins), the current trick won
whatever they play, so no lie and no play can take a trick; (2) where that does not decide,
a search over every lie consistent with their hand, the plays and the voids shown, in a
fixed order and budget that never reads the real hands; (3) then `claim` is listed in
`legal_actions` exactly when it holds (computer players may claim, the web client offers it
only then).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from .base import Action, Applied, Event, RoundState, SentAction
from .errors import RuleError

CLAIM = "claim"
# Trick play is this phase in every game.
TRICK_PLAY = "play"
# Plays the search may try before it gives up on proving a claim: a few tenths of a
# second at worst, so a claim never holds up the room. Replaying a hand runs the same
# search again, so lowering it could refuse on replay a claim accepted in play.
NODE_BUDGET = 3_000

# The mark on the event of each play that plays out an accepted claim: the log and the
# replay show every card of a claimed hand as an ordinary play, part of the claim.
PART_OF_CLAIM = "claimed"

NOT_CERTAIN = "claim_not_certain"
NOT_CERTAIN_DETAIL = "Not every remaining trick is certain to be yours: play on."

# A game's legal plays and its play transition, over its own state type.
type Plays[StateT: RoundState[Any]] = Callable[[StateT], list[Action]]
type Step[StateT: RoundState[Any]] = Callable[[StateT, int, SentAction], Applied[StateT]]
Position = tuple[Any, ...]


def claim_action() -> Action:
    """The claim as `legal_actions` lists it: in every trick-play position of the player
    to act, so that its presence says nothing about the hands."""
    return {"type": CLAIM}


class _OutOfBudget(Exception):
    pass


def _trick_play[StateT: RoundState[Any]](state: StateT) -> Mapping[str, Any]:
    """The state read through the keys every trick-taking game has (see above); each
    game types them its own way (cards or tiles, what a trick records)."""
    return state


def _position[StateT: RoundState[Any]](state: StateT) -> Position:
    """What decides the rest of the hand from here. Everything else the search could
    reach differently (hearts broken, a partner revealed) follows from which pieces each
    seat has played, which the hands left say."""
    state_read = _trick_play(state)
    hands = tuple(tuple(sorted(hand)) for hand in state_read["hands"])
    trick = tuple(tuple(sorted(play.items())) for play in state_read["trick"])
    return hands, trick, state_read["turn"]


class _Search[StateT: RoundState[Any]]:
    def __init__(self, side: Collection[int], plays: Plays[StateT], step: Step[StateT], budget: int) -> None:
        self.side = frozenset(side)
        self.plays = plays
        self.step = step
        self.budget = budget
        self.nodes = 0
        self.safe: set[Position] = set()

    def can_lose(self, state: StateT) -> bool:
        """Some sequence of legal plays from `state` gives a trick to the other side."""
        if state["phase"] != TRICK_PLAY:
            return False
        key = _position(state)
        if key in self.safe:
            return False
        before = _trick_play(state)
        seat: int = before["turn"]
        for action in self.plays(state):
            self.nodes += 1
            if self.nodes > self.budget:
                raise _OutOfBudget
            after = self.step(state, seat, action).state
            after_read = _trick_play(after)
            if (
                after_read["tricks_played"] != before["tricks_played"]
                and after_read["last_trick"]["winner"] not in self.side
            ):
                return True
            if self.can_lose(after):
                return True
        self.safe.add(key)
        return False


def is_certain[StateT: RoundState[Any]](
    state: StateT, side: Collection[int], *, plays: Plays[StateT], step: Step[StateT], budget: int | None = None
) -> bool:
    """Every sequence of legal plays from `state` gives every remaining trick to `side`,
    as proved within `budget` plays (default `NODE_BUDGET`)."""
    search = _Search(side, plays, step, NODE_BUDGET if budget is None else budget)
    try:
        return not search.can_lose(state)
    except _OutOfBudget:
        return False


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
    state: StateT,
    seat: int,
    side: Collection[int],
    *,
    plays: Plays[StateT],
    step: Step[StateT],
    budget: int | None = None,
) -> Applied[StateT]:
    """`seat` claims the rest for `side` (which holds it): refused unless certain, else
    played out to the end of the hand. Pure: `state` is not modified."""
    if not is_certain(state, side, plays=plays, step=step, budget=budget):
        raise RuleError(NOT_CERTAIN, NOT_CERTAIN_DETAIL)
    events = [Event({"type": "claimed", "seat": seat})]
    while state["phase"] == TRICK_PLAY:
        applied = step(state, _trick_play(state)["turn"], plays(state)[0])
        state = applied.state
        events.extend(marked(e) for e in applied.events)
    return Applied(state, events)
