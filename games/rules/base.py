"""The engine protocol every game implements, and the pieces all games share.

A game is a stateless rules object; a round (one hand) is plain JSON-able data.
The service layer only ever talks to this protocol, and everything else a game has (the
JSON types of its views and actions, its scoring direction, its conformance profile, its
web renderer) sits in its folder beside its engine (see `games.rules`), so adding a game
never touches the shared layers:

    rules = games.rules.get("hearts")
    options = rules.validate_options(raw)           # complete, checked
    state = rules.new_round(options=..., players=4, seed=..., carry=None)
    rules.to_act(state)                             # seats that may act now
    rules.legal_actions(state, seat)                # what one seat may do
    state, events = rules.apply(state, seat, action)   # pure; raises RuleError
    rules.view(state, seat_or_None)                 # what a viewer may know
    rules.result(state)                             # the hand's result, once scored
    rules.carry(state)                              # what the next hand inherits

A round ends with a simultaneous `next_round` phase ("round_over"): every seat says it
is ready (the service answers for computer players at once). When all are ready the
round is `complete` and the service starts the next one from `carry(state)`; when the
match is decided the phase is `match_over` and nobody acts again.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict, TypeGuard, cast

from .errors import RuleError, gettext_noop, shown_name
from .fairness import FairRecord, Inputs
from .options import TIMING_OPTIONS, OptionSet, check_timing
from .schema import GameSchema

# An action as a player sends it: untrusted JSON, so no TypedDict per action type (it
# would claim field types nobody has checked yet). `checked_action_type` refuses a field
# its type does not define; every other field reads as `object`, so that mypy refuses
# any use of it before the engine has checked it (isinstance, a membership test).
SentAction = Mapping[str, object]
# An action as the engine offers it: `legal_actions` (multi-card choices as a template)
# and the computer player's choice, which the service layer hands back to `apply`.
Action = dict[str, Any]
NEXT_ROUND = "next_round"

# Who decides a room's fixed teams (`Game.team_choice`): its players as they join the
# lobby, or the engine as the match starts (drawn by lot, or by seat).
TeamChoice = Literal["lobby", "engine"]
LOBBY_TEAMS: TeamChoice = "lobby"
ENGINE_TEAMS: TeamChoice = "engine"


class ScoredHand(TypedDict):
    """What every game's scored hand holds (each game's result adds its own keys)."""

    round: int
    points: list[int]
    scores: list[int]
    match_over: bool
    winners: list[int]


class _DealtFairly(TypedDict, total=False):
    # The public inputs and the deals of the hand (`fairness`): server-side only. Absent
    # from hands dealt without them (engine tests, hands from before). Declared apart,
    # total=False, rather than as NotRequired: with postponed annotations only this is
    # seen at run time (`__optional_keys__`, which the conformance suite checks against).
    fair: FairRecord


class RoundState[ResultT: ScoredHand](_DealtFairly):
    """The keys every game's round state has, which the shared helpers below read.

    Each game declares its whole state as a TypedDict deriving from this one (its
    `state.py`); the state stays plain JSON-able data, stored as it is. The phase is a
    `str`, not a Literal per game: the shared helpers here set the shared phases
    (round_over, match_over, complete) of every game's state.
    """

    game: str
    players: int
    round: int
    phase: str
    scores: list[int]
    result: ResultT | None
    ready: list[int]


class DealerRoundState[ResultT: ScoredHand](RoundState[ResultT]):
    """A round state of a game whose deal passes to the left each hand."""

    dealer: int


ROUND_OVER = "round_over"
MATCH_OVER = "match_over"
COMPLETE = "complete"


@dataclass
class Event:
    """Something that happened, as the log stores it.

    `visible_to` is None for a public event, else the seats that may see it. A private
    event usually has a public twin carrying what everyone may know (e.g. "seat 2
    passed three cards" for all, "seat 2 passed QS AH KH to seat 3" for 2 and 3).
    """

    data: dict[str, Any]
    visible_to: list[int] | None = None

    def visible(self, seat: int | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


# What every game's view of a dealt hand holds, whatever the game: the web client, the
# SDKs and the API's document (api/game_schemas.py, which types each) rely on them.
#   game        the game's key;            phase       the hand's phase;
#   round       the hand's number, from 1; dealer      the dealing seat, or None;
#   to_act      the seats the game waits for;
#   seats       each seat's public facts (SEAT_VIEW_FIELDS and the game's own);
#   trick       the plays of the trick on the table, in order ({"seat", <piece>});
#   trump       the trump, or None;        bid         the contract bid, or None;
#   scores      the running totals, by seat;
#   last_round  the hand just scored (its result), between hands; else None.
VIEW_FIELDS = ("game", "phase", "round", "dealer", "to_act", "seats", "trick", "trump", "bid", "scores", "last_round")
SEAT_VIEW_FIELDS = ("seat",)
# A player's `you`: its seat, its hand, and the actions it may take now (`own_view`).
YOU_FIELDS = ("seat", "hand", "legal_actions")


@dataclass
class Applied[StateT: RoundState[Any]]:
    state: StateT
    events: list[Event] = field(default_factory=list)


# How a game applies one type of action: (state, seat, the action as sent) -> Applied.
type Handler[StateT: RoundState[Any]] = Callable[[StateT, int, SentAction], Applied[StateT]]


class Game[StateT: RoundState[Any]](ABC):
    """A game's rules, generic over its round state type: `Game[HeartsState]`. The
    service layer, which handles any game, holds a `Game[Any]` (the registry's)."""

    key: str
    name: str
    min_players: int
    max_players: int
    option_set: OptionSet
    # Each action type's fields besides `type`; an action holding any other is refused.
    action_fields: dict[str, frozenset[str]]
    # Each phase in which someone acts, and the action types it accepts.
    phase_actions: Mapping[str, Collection[str]]
    # The scoring direction: the lowest total wins (penalty points), else the highest.
    lowest_wins: bool = False
    # The JSON types of its actions, view and scored hand, given when it is registered.
    schema: GameSchema

    # -- set-up ---------------------------------------------------------------------

    @property
    def all_options(self) -> OptionSet:
        """The game's own options plus the timing options every room has."""
        return OptionSet(self.option_set.options + TIMING_OPTIONS, self.option_set.presets)

    def catalogue(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "players": {"min": self.min_players, "max": self.max_players},
            "options": self.all_options.schema(),
            "presets": self.option_set.presets,
        }

    def validate_options(self, raw: dict[str, Any] | None) -> dict[str, Any]:
        return check_timing(self.all_options.validate(raw))

    @abstractmethod
    def seat_count(self, options: dict[str, Any]) -> int:
        """How many seats a room with these options has."""

    def partners_hidden(self, options: dict[str, Any]) -> bool:
        """Whether players do not know who their partners are at the start of a hand
        (then free table talk is off during a hand unless the host turns it on)."""
        return False

    def lobby_teams(self, options: dict[str, Any]) -> list[int] | None:
        """Team sizes when players pick a team in the lobby (join with `team`), else None."""
        return None

    # -- teams and sides: what the platform needs to know, stated by every game -------
    # No defaults: a game that left them out would be seated or rated by a guess. They
    # raise instead of being abstract so that a game under construction still imports;
    # the contract test (tests/rules/test_game_contracts.py) holds every registered game
    # to them.

    def team_choice(self, options: dict[str, Any]) -> TeamChoice | None:
        """Who decides the fixed teams of a room with these (validated) options:

        - "lobby": its players pick one as they join (join with `team`; `lobby_teams`
          gives the sizes, and the host starts only once they are met);
        - "engine": the engine sets them as the match starts (drawn by lot, or by seat
          like Moon's four-player partnerships): nobody may join with `team`, and
          `seat_teams` tells them once the first hand is dealt;
        - None: nobody has a fixed team (everyone plays alone, or partners are formed
          within each hand and may be hidden).

        The lobby and the rematch read it to seat players."""
        raise NotImplementedError(f"{type(self).__name__} does not say who decides its teams (team_choice).")

    def seat_teams(self, state: StateT) -> list[int] | None:
        """Each seat's fixed, public team in this hand, numbered from 0; None exactly
        where `team_choice` of the room's options is None. As the match starts the lobby
        copies it into the seats, so the room names the teams as the view does."""
        raise NotImplementedError(f"{type(self).__name__} does not say its seats' teams (seat_teams).")

    def result_sides(self, result: dict[str, Any]) -> list[list[int]]:
        """The sides that played a scored hand (`result`, as stored) out: lists of seats,
        each sorted, every seat in exactly one; a player alone is a side of one. For the
        hand that ended a match these are what the ratings rank (a side shares its
        place). Reads only what the result itself holds, as stored results are rated
        again by the rebuild."""
        raise NotImplementedError(f"{type(self).__name__} does not say the sides of a result (result_sides).")

    def first_carry(
        self, *, options: Mapping[str, Any], players: int, host_seat: int, teams: list[int | None], seed: int
    ) -> dict[str, Any] | None:
        """What the first hand inherits from the table as it starts: who the host is, the
        lobby teams, anything drawn once per match (from `seed`). None: nothing."""
        return None

    @abstractmethod
    def new_round(
        self,
        *,
        options: dict[str, Any],
        players: int,
        seed: int,
        carry: dict[str, Any] | None,
        deal: object = None,
        fair: Inputs | None = None,
    ) -> StateT:
        """The opening state of a hand. `carry` comes from the previous hand (None for
        the first); `deal` overrides the shuffle (tests use fixed deals). With `fair`,
        every deal of the hand follows the public algorithm of `fairness` and is kept
        in the state's `fair` (server-side only: views and events never show it);
        without it (engine tests, hands from before), the shuffle follows `seed`."""

    # -- play -----------------------------------------------------------------------

    @abstractmethod
    def to_act(self, state: StateT) -> list[int]:
        """Seats that may act now (several in simultaneous phases); [] when nobody can."""

    @abstractmethod
    def legal_actions(self, state: StateT, seat: int, *, with_claim: bool = True) -> list[Action]:
        """Everything `seat` may do now; multi-card choices as a template. A claim of the
        rest is listed where it holds, and only asked about `with_claim` (its proof and
        search are the dearest part of a view): a computer player, which never claims,
        and a forced play ask without it."""

    def apply(self, state: StateT, seat: int, action: SentAction) -> Applied[StateT]:
        """Check and apply one action. Pure: the given state is not modified.

        Every game checks an action alike and in the order the API promises
        (`checked_action_type`: its shape, the turn, a known type with only its own
        fields, the phase); then the game's handler of that type applies it (`handlers`),
        and `next_round`, the same in every game, marks the seat ready."""
        kind = checked_action_type(
            self.name, self.to_act(state), state["phase"], seat, action, self.phase_actions, self.action_fields
        )
        if kind == NEXT_ROUND:
            return apply_next_round(state, seat, self.copied)
        return self.handlers()[kind](state, seat, action)

    @abstractmethod
    def handlers(self) -> Mapping[str, Handler[StateT]]:
        """The function applying each of the game's action types but `next_round`, to an
        action `apply` has checked: (state, seat, action) -> Applied."""

    def copied(self, state: StateT) -> StateT:
        """A copy of the state that a move may change (a game gives a faster one than
        this deep copy, copying only what its moves change)."""
        return clone(state)

    @abstractmethod
    def view(self, state: StateT, seat: int | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) may know of the state: at least VIEW_FIELDS,
        each seat of `seats` with SEAT_VIEW_FIELDS, and for a player `you`, begun by
        `own_view`; the game's own fields beside them (its schema's `view_fields`,
        `seat_fields` and `you_fields` type them in the API's document)."""

    def result(self, state: StateT) -> dict[str, Any] | None:
        """The scored hand (public), or None while it is still being played."""
        # Every game keeps it in the state under this name, set when the hand is scored.
        result: dict[str, Any] | None = state["result"]
        return result

    @abstractmethod
    def carry(self, state: StateT) -> dict[str, Any]:
        """What the next hand inherits from this one (scores, dealer, hand number...)."""

    @abstractmethod
    def bot_action(self, state: StateT, seat: int) -> Action:
        """A legal action chosen by the computer player's strategy."""

    # Phases in which a player whose time ran out passes (the auctions, RULES §3.8).
    passing_phases: frozenset[str] = frozenset()

    def timeout_action(self, state: StateT, seat: int) -> Action:
        """What the server does for a player whose time ran out: a pass in an auction,
        ready between hands, elsewhere the computer player's choice."""
        phase = state.get("phase")
        if phase in self.passing_phases:
            return {"type": "pass"}
        if phase == ROUND_OVER:
            return {"type": NEXT_ROUND}
        return self.bot_action(state, seat)

    # -- shared helpers ---------------------------------------------------------------

    def bot_legal_actions(self, state: StateT, seat: int) -> list[Action]:
        """What the computer player chooses from; a seat that may not act is refused."""
        legal = self.legal_actions(state, seat, with_claim=False)
        if not legal:
            raise RuleError("not_your_turn", gettext_noop("It is not your turn."))
        return legal

    def own_view(self, state: StateT, seat: int, to_act: list[int], hand: list[Any]) -> dict[str, Any]:
        """The start of a player's `you` in the view: its seat, its hand and what it may do."""
        return {
            "seat": seat,
            "hand": hand,
            "legal_actions": self.legal_actions(state, seat) if seat in to_act else [],
        }

    def is_complete(self, state: StateT) -> bool:
        """The hand is over and every seat is ready for the next one."""
        return state.get("phase") == COMPLETE

    def is_match_over(self, state: StateT) -> bool:
        return state.get("phase") == MATCH_OVER


# A game of any kind, as the registry hands it out: the service layer, the replay and the
# conformance suite handle every game through it, their states being stored JSON.
AnyGame = Game[Any]


def clone[StateT: RoundState[Any]](state: StateT) -> StateT:
    return copy.deepcopy(state)


def copy_state[StateT: RoundState[Any]](
    state: StateT, *, lists: tuple[str, ...] = (), nested: tuple[str, ...] = ()
) -> StateT:
    """A copy `apply` may change: a fresh dict, fresh `lists`, and for `nested` (lists of
    lists, such as hands) fresh inner lists too. Everything else is replaced whole, never
    changed in place, so it is shared: several times faster than deepcopy."""
    # The keys are the game's own, named as strings: the copy is made as plain JSON and
    # is the same shape as `state` by construction, hence the cast back.
    source: Mapping[str, Any] = state
    new = dict(source)
    for key in lists:
        new[key] = list(source[key])
    for key in nested:
        new[key] = [list(inner) for inner in source[key]]
    return cast(StateT, new)


def is_int(value: object) -> TypeGuard[int]:
    # bool is an int subclass in Python; a JSON true is not a number.
    return isinstance(value, int) and not isinstance(value, bool)


def present[ValueT](value: ValueT | None) -> ValueT:
    """A state value that is None only in some phases (the turn, trumps, the bid), read in
    a phase that always has it, such as the turn in trick play: None there is a bug in
    the engine, not a move to refuse."""
    if value is None:
        raise ValueError("The state lacks a value its phase always has.")
    return value


def require_action_type(action: Any) -> str:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise RuleError("unknown_action", gettext_noop("An action is an object with a 'type'."), "action")
    kind: str = action["type"]
    return kind


def checked_action_type(
    game_name: str,
    to_act: list[int],
    phase: str,
    seat: Any,
    action: Any,
    phase_actions: Mapping[str, Collection[str]],
    action_fields: dict[str, frozenset[str]],
) -> str:
    """The checks every game makes on an action, in the order the API promises: its
    shape, whose turn it is (before the phase), a known type with only its own fields
    (`action_fields`: type -> the fields besides `type`), then the phase."""
    kind = require_action_type(action)
    if not is_int(seat):
        # 0.0 == 0 and True == 1 in Python: only a real seat number may act.
        raise RuleError("not_your_turn", gettext_noop("It is not your turn."))
    check_turn(to_act, seat)
    if not any(kind in types for types in phase_actions.values()):
        # The type is not quoted back: it could be anything.
        # Translators: the game is its name, as the API writes it (Hearts, Moon (dominoes)).
        raise RuleError("unknown_action", gettext_noop("%(game)s has no action of that type."), "type", game=game_name)
    check_fields(action, kind, action_fields[kind])
    if kind not in phase_actions.get(phase, ()):
        raise wrong_phase(phase, kind)
    return kind


def check_fields(action: SentAction, kind: str, fields: frozenset[str]) -> None:
    """Refuse a field the action's type does not define. The action is stored as it was
    sent (it replays the hand), so nothing else may ride along with it."""
    for name in action:
        if name != "type" and name not in fields:
            shown = shown_name(name)
            if shown is None:
                # Translators: the type is the action's, as the API writes it (play, bid).
                raise RuleError("invalid", gettext_noop("'%(type)s' has no such field."), "action", type=kind)
            # Translators: the type is the action's (play, bid), the field a name the client sent.
            detail = gettext_noop("'%(type)s' has no field '%(field)s'.")
            raise RuleError("invalid", detail, shown, type=kind, field=shown)


def running_scores[ResultT: ScoredHand](state: RoundState[ResultT]) -> list[int]:
    """The match scores: after the hand once it is scored, else as the hand began."""
    result = state["result"]
    return list(result["scores"] if result else state["scores"])


def carry_to_next_dealer[ResultT: ScoredHand](state: DealerRoundState[ResultT]) -> dict[str, Any]:
    """What the next hand inherits where the deal passes to the left each hand: the next
    round number, the match scores and the next dealer."""
    return {
        "round": state["round"] + 1,
        "scores": running_scores(state),
        "dealer": (state["dealer"] + 1) % state["players"],
    }


def record_result[ResultT: ScoredHand](state: RoundState[ResultT], events: list[Event], result: ResultT) -> None:
    """Store a scored hand and announce it: the match is over when `result` says so,
    else the table moves on to the between-hands phase."""
    over = result["match_over"]
    state["result"] = result
    state["phase"] = MATCH_OVER if over else ROUND_OVER
    events.append(Event({"type": "hand_scored", **result}))
    if over:
        # Lists of its own: the event is logged apart from the state.
        events.append(
            Event({"type": "match_over", "winners": list(result["winners"]), "scores": list(result["scores"])})
        )


# -- the between-hands phase, the same in every game --------------------------------


def round_over_to_act[ResultT: ScoredHand](state: RoundState[ResultT]) -> list[int]:
    return [s for s in range(state["players"]) if s not in state["ready"]]


def apply_next_round[StateT: RoundState[Any]](
    state: StateT, seat: int, copy: Callable[[StateT], StateT] | None = None
) -> Applied[StateT]:
    """`next_round` from one seat; the round is complete when all are ready.

    `copy` copies the state (default a deepcopy; games pass their own faster copy)."""
    new = (copy or clone)(state)
    new["ready"] = sorted(set(new["ready"]) | {seat})
    events = [Event({"type": "ready", "seat": seat})]
    if len(new["ready"]) == new["players"]:
        new["phase"] = COMPLETE
    return Applied(new, events)


def check_turn(to_act: list[int], seat: int) -> None:
    # Checked before the phase, so a player out of turn always hears "not your turn".
    if seat not in to_act:
        raise RuleError("not_your_turn", gettext_noop("It is not your turn."))


def wrong_phase(phase: str, action_type: str) -> RuleError:
    return RuleError(
        "wrong_phase",
        # Translators: the action's type and the phase are codes, as the API writes them (play, bidding).
        gettext_noop("'%(type)s' is not possible in the %(phase)s phase."),
        type=action_type,
        phase=phase,
    )
