"""The conformance suite's machinery: one random play-out that every registered game goes
through, whatever its rules.

A run plays whole matches (hands chained through `carry()`, a new match from
`first_carry()` once one is decided) under one option set, with fixed seeds. Checks, by
cost (how often each runs is the game's `Profile`'s to say):

- every step: the game's own invariants of a state (`Tracker.check_state`: every card or
  tile is somewhere, once); exactly the seats in `to_act` have legal actions, and nobody
  acts only once the hand is complete or the match over; the chosen action (a random
  legal one, or the computer player's, which must be one of the legal actions) is
  accepted — but a claim, which may be refused as not certain, changing nothing (a
  refused claimant plays on); an accepted claim is the very plays its events name,
  played one by one; no event shows a piece to a viewer who may not know it; some viewers' views
  (in turn, or all of them) name no piece the viewer may not know, have the right
  `to_act`, a `you` exactly for a seat, and `you.legal_actions` as `legal_actions` says;
- every step of "deep" hands: besides, the state survives a JSON round trip, every
  viewer's view is walked, every legal action of every seat to act is accepted (a
  claim or refused as not certain), and
  applying them leaves the input state unchanged;
- when a hand is scored, and once it is complete: the state survives JSON and every
  view is walked; the result says the match is over exactly at `match_over`, with
  winners then; the game's own scoring facts (`Profile.check_result`); the carry goes
  on to the next round with the result's scores;
- sampled hands (and every deep hand): new_round(seed) and the recorded actions rebuild
  the final state;
- with a `check` given to `play_run` (a `Check`): every view walked, every legal action,
  every action applied, every event and every scored hand is handed to it by kind
  (`VIEW`, `LEGAL_ACTION`, `ACTION`, `EVENT`, `RESULT`), for checks from outside the
  engines (tests/rules/test_conformance.py holds them to the API's document).

What each seat may know is tracked apart from the engine, from the deal and the actions,
by the game's `Tracker`; the views and events are held to that, for every seat and the
spectator (None).
"""

from __future__ import annotations

import importlib
import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, get_args, get_origin

from . import claims, templates
from .base import COMPLETE, MATCH_OVER, ROUND_OVER, AnyGame, Applied, Game
from .claims import CLAIM, NOT_CERTAIN_DETAIL, TRICK_PLAY
from .errors import RuleError

MAX_STEPS = 5000  # a hand longer than this never ends

# What a play-out hands to a `Check`: a viewer's view (each seat's and the spectator's, as
# walked), an entry of `legal_actions`, an action applied, an event's data, a scored hand.
VIEW, LEGAL_ACTION, ACTION, EVENT, RESULT = "view", "legal_action", "action", "event", "result"
Check = Callable[[str, dict[str, Any]], None]


def state_keys(game: AnyGame) -> tuple[frozenset[str], frozenset[str]]:
    """The keys of the game's state type, the `S` of its `Game[S]`: (required, optional).
    A stored round is this shape, so the engine must keep every state to it."""
    for base in getattr(type(game), "__orig_bases__", ()):
        if get_origin(base) is Game:
            state_type = get_args(base)[0]
            required: frozenset[str] = state_type.__required_keys__
            optional: frozenset[str] = state_type.__optional_keys__
            return required, optional
    raise TypeError(f"{type(game).__name__} names no state type: it must derive from Game[<its state>].")


def strings_in(obj: dict[str, Any] | list[Any], out: set[str]) -> None:
    """Every string in a JSON-like value, dict keys included. A hand-rolled walk: about twice
    as fast as dumping to JSON and searching the text, and the play-outs run it at every step."""
    if type(obj) is dict:
        out.update(obj)
        values: Any = obj.values()
    else:
        values = obj
    for value in values:
        kind = type(value)
        if kind is str:
            out.add(value)
        elif kind is dict or kind is list:
            strings_in(value, out)


def pieces_in(obj: dict[str, Any] | list[Any], pieces: frozenset[str]) -> set[str]:
    """The cards or tiles named anywhere in a JSON-like value; `pieces` is every code of the game."""
    found: set[str] = set()
    strings_in(obj, found)
    return found & pieces


@dataclass(frozen=True)
class Run:
    """One test: `hands` hands of whole matches under `options`, its seeds drawn from `id`."""

    id: str
    options: dict[str, Any]
    hands: int


@dataclass
class Plan:
    """How one hand is set up: a fixed deal (None: shuffled) and anything the game's
    profile wants to remember about it (a moon deal, a pass-out...)."""

    deal: Any = None
    notes: dict[str, Any] = field(default_factory=dict)


# -- actions -----------------------------------------------------------------------------------


def picks(action: dict[str, Any], template: dict[str, Any]) -> list[Any] | None:
    """The pieces an action names that fills in `template`: its one field the template
    does not carry, a list (None if it has not exactly one such field)."""
    extra = [v for k, v in action.items() if k not in template]
    return extra[0] if len(extra) == 1 and isinstance(extra[0], list) else None


def concrete(game: AnyGame, template: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A submittable action from a legal action: a template gets random picks."""
    return templates.concrete(template, game.action_fields[template["type"]], rng)


def is_legal(action: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """`action` is one of `legal`, or fills in one of its templates: the template's fields
    but `count` and `choices` as they are (a funky pass's `to` in any order), and `count`
    of its `choices`."""
    for template in legal:
        if "choices" not in template:
            if action == template:
                return True
            continue
        kept = {k: v for k, v in template.items() if k not in templates.TEMPLATE_ONLY}
        if any(k not in action or not _same(k, action[k], v) for k, v in kept.items()):
            continue
        picked = picks(action, kept)
        if (
            picked is not None
            and len(picked) == template["count"]
            and not Counter(picked) - Counter(template["choices"])
        ):
            return True
    return False


def _same(name: str, sent: Any, offered: Any) -> bool:
    """A field of a template's action as the template has it; the seats of `to` may come
    in any order, each once, since each pick goes to the seat at its index."""
    if name == "to" and isinstance(sent, list) and isinstance(offered, list):
        return all(type(s) is int for s in sent) and Counter(sent) == Counter(offered)
    return bool(sent == offered)


# -- what each seat may know ------------------------------------------------------------------


class Tracker:
    """What each seat may know of one hand, followed from its deal and actions apart from
    the engine, and the game's own invariants of a state. `pieces` is every card or tile
    code of the game; `public` the pieces everyone may know (played ones), `known` per seat
    the pieces it was dealt or shown. The base tracks nothing: a game without a profile."""

    pieces: frozenset[str] = frozenset()

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.public: set[str] = set()
        self.known: list[set[str]] = [set() for _ in range(hand.players)]

    def leaked(self, viewer: int | None, seen: set[str]) -> set[str]:
        """The pieces in `seen` that `viewer` may not know."""
        unknown = seen - self.public
        if unknown and viewer is not None:
            unknown -= self.known[viewer]
        return unknown

    def learn(self, before: dict[str, Any], seat: int, action: dict[str, Any], applied: Applied[Any]) -> None:
        """`seat` did `action` to `before`: note what anyone learnt."""

    def check_state(self, state: dict[str, Any]) -> None:
        """The game's own invariants of one state."""


# -- one hand ----------------------------------------------------------------------------------


class Hand:
    """One hand under random play."""

    def __init__(
        self,
        profile: Profile,
        options: dict[str, Any],
        players: int,
        seed: int,
        carry: dict[str, Any] | None,
        plan: Plan,
        *,
        number: int,
        deep: bool,
        check: Check | None = None,
    ) -> None:
        self.profile = profile
        self.check = check
        self.game = profile.game
        self.plan = plan
        self.number = number
        self.deep = deep
        self.args = {"options": options, "players": players, "seed": seed, "carry": carry, "deal": plan.deal}
        self.state = self.game.new_round(**self.args)
        self.required_keys, self.optional_keys = state_keys(self.game)
        self.players = self.state["players"]
        self.viewers: tuple[int | None, ...] = (*range(self.players), None)
        self.start_scores = list(self.state["scores"])
        self.actions: list[tuple[int, dict[str, Any]]] = []
        self.claims = 0  # claims accepted
        self.tracker = profile.tracker(self)

    # -- invariants of one state --------------------------------------------------------------

    def check_turns(self) -> tuple[list[int], list[list[dict[str, Any]]]]:
        """Exactly the seats to act have legal actions; nobody acts only once the hand is
        complete or the match over."""
        state = self.state
        to_act = self.game.to_act(state)
        legal = [self.game.legal_actions(state, seat) for seat in range(self.players)]
        for seat in range(self.players):
            assert bool(legal[seat]) == (seat in to_act), (seat, state["phase"])
        assert (to_act == []) == (state["phase"] in (MATCH_OVER, COMPLETE)), (to_act, state["phase"])
        if self.check is not None:
            for entries in legal:
                for entry in entries:
                    self.check(LEGAL_ACTION, entry)
        return to_act, legal

    def check_view(self, viewer: int | None, to_act: list[int], legal: list[list[dict[str, Any]]]) -> None:
        view = self.game.view(self.state, viewer)
        if self.check is not None:
            self.check(VIEW, view)
        leaked = self.tracker.leaked(viewer, pieces_in(view, self.tracker.pieces))
        assert not leaked, (viewer, leaked, self.state["phase"])
        assert view["to_act"] == to_act
        assert ("you" in view) == (viewer is not None)
        if viewer is not None:
            assert view["you"]["legal_actions"] == legal[viewer], viewer

    def check_json(self) -> dict[str, Any]:
        copied: dict[str, Any] = json.loads(json.dumps(self.state))
        assert copied == self.state, "the state does not survive a JSON round trip"
        keys = set(self.state)
        missing, extra = self.required_keys - keys, keys - self.required_keys - self.optional_keys
        assert not missing and not extra, ("the state strays from its type", sorted(missing), sorted(extra))
        return copied

    def check_whole(self, to_act: list[int], legal: list[list[dict[str, Any]]]) -> dict[str, Any]:
        """The state survives a JSON round trip (the copy is returned) and every viewer's
        view is walked."""
        copied = self.check_json()
        for viewer in self.viewers:
            self.check_view(viewer, to_act, legal)
        return copied

    def check_applied(self, action: dict[str, Any], applied: Applied[Any]) -> None:
        """An action applied and its events, to the outside check."""
        if self.check is not None:
            self.check(ACTION, action)
            for event in applied.events:
                self.check(EVENT, event.data)

    def check_events(self, events: list[Any]) -> None:
        assert all(isinstance(e.data.get("type"), str) for e in events)
        tracker = self.tracker
        # One walk over the step's events first: most name no piece beyond the public ones.
        if not pieces_in([e.data for e in events], tracker.pieces) - tracker.public:
            return
        for event in events:
            seen = pieces_in(event.data, tracker.pieces)
            for viewer in self.viewers:
                if event.visible(viewer):
                    assert not tracker.leaked(viewer, seen), (event.data, viewer)

    def check_replay(self) -> None:
        """new_round with the same arguments and the recorded actions rebuild the state."""
        replayed = self.game.new_round(**self.args)
        for seat, action in self.actions:
            replayed = self.game.apply(replayed, seat, action).state
        assert replayed == self.state

    # -- one step -------------------------------------------------------------------------------

    def step(self, rng: random.Random, chosen: dict[str, Any] | None = None, *, bot: bool = False) -> None:
        """One action by a random seat of those to act: `chosen`, else the computer player's
        (with `bot`, or when the profile draws it), else a random legal one."""
        game, state, profile = self.game, self.state, self.profile
        self.tracker.check_state(state)
        to_act, legal = self.check_turns()
        mover = rng.choice(to_act)
        if chosen is None and (bot or profile.bot_moves(state, rng)):
            chosen = game.bot_action(state, mover)
        if chosen is not None:
            assert is_legal(chosen, legal[mover]), (chosen, legal[mover])
        if self.deep:
            snapshot = self.check_whole(to_act, legal)
            outcomes = []
            for seat in to_act:
                for template in legal[seat]:
                    action = concrete(game, template, rng)
                    # Every legal action is accepted, a claim listed included.
                    maybe = self.try_claim(seat) if action["type"] == CLAIM else game.apply(state, seat, action)
                    assert maybe is not None
                    self.check_applied(action, maybe)
                    if seat == mover:
                        outcomes.append((action, maybe))
                if CLAIM in game.action_fields and state["phase"] == TRICK_PLAY and {"type": CLAIM} not in legal[seat]:
                    # A claim not listed is refused, and changes nothing.
                    assert self.try_claim(seat, listed=False) is None
            if chosen is None:
                action, applied = rng.choice(outcomes)
            else:
                action, applied = chosen, game.apply(state, mover, chosen)
            assert state == snapshot, "apply changed its input"
        else:
            steps = len(self.actions)
            if profile.all_views_each_step:
                for viewer in self.viewers:
                    self.check_view(viewer, to_act, legal)
            elif steps % profile.view_stride == 0:
                viewer = self.viewers[steps // profile.view_stride % len(self.viewers)]
                self.check_view(viewer, to_act, legal)
            action = chosen if chosen is not None else concrete(game, rng.choice(legal[mover]), rng)
            claimed = self.try_claim(mover) if action["type"] == CLAIM else None
            applied = claimed if claimed is not None else game.apply(state, mover, action)
        if action["type"] == CLAIM:
            self.learn_claim(mover, applied)
        else:
            self.tracker.learn(state, mover, action, applied)
        self.actions.append((mover, action))
        self.state = applied.state
        if not self.deep or chosen is not None:
            # (A deep step's own outcome was handed over with every other legal action's.)
            self.check_applied(action, applied)
        self.check_events(applied.events)
        profile.after_step(self, applied)

    def try_claim(self, seat: int, *, listed: bool = True) -> Applied[Any] | None:
        """`seat` claims the rest: a claim `listed` in its legal actions is played out; one
        that is not is refused as not certain (None) with nothing changed."""
        before = json.dumps(self.state, sort_keys=True)
        try:
            applied = self.game.apply(self.state, seat, {"type": CLAIM})
        except RuleError as err:
            assert not listed, "a listed claim was refused"
            assert err.code == "claim_not_certain", err.code
            assert err.attr is None and err.detail == NOT_CERTAIN_DETAIL, err
            assert json.dumps(self.state, sort_keys=True) == before, "a refused claim changed the state"
            return None
        assert listed, "a claim not listed was accepted"
        assert applied.state["phase"] != "play", "a claim ends the trick play"
        return applied

    def learn_claim(self, seat: int, applied: Applied[Any]) -> None:
        """A claim played out is the plays its events name, played one by one: the same
        states and events as normal play. The tracker learns them so."""
        assert applied.events[0].data == {"type": "claimed", "seat": seat}
        state = self.state
        events: list[dict[str, Any]] = []
        for player, play in claims.plays_of(applied.events[1:]):
            step = self.game.apply(state, player, play)
            self.check_applied(play, step)
            self.tracker.learn(state, player, play, step)
            events.extend(claims.marked(e).data for e in step.events)
            state = step.state
        assert state == applied.state
        assert events == [e.data for e in applied.events[1:]]
        self.claims += 1

    def scored_now(self) -> bool:
        """The hand has just been scored: the between-hands phase with nobody ready yet."""
        state = self.state
        return bool(state["phase"] == ROUND_OVER and state["ready"] == [])

    def play_out(self, rng: random.Random, *, bot: bool = False) -> None:
        """Random steps to the end of the hand, the scored hand checked on the way."""
        for _ in range(MAX_STEPS):
            if self.state["phase"] in (COMPLETE, MATCH_OVER):
                break
            if self.scored_now():
                self.check_scored()
            self.step(rng, bot=bot)
        else:
            raise AssertionError("a hand did not end")
        if self.state["phase"] == MATCH_OVER:
            self.check_scored()
        else:
            # Complete: every seat ready; nobody acts, and the last state is checked whole too.
            self.tracker.check_state(self.state)
            self.check_whole(*self.check_turns())

    # -- the scored hand ------------------------------------------------------------------------

    def check_scored(self) -> dict[str, Any]:
        self.tracker.check_state(self.state)
        to_act, legal = self.check_turns()
        self.check_whole(to_act, legal)
        result = self.game.result(self.state)
        assert result is not None
        if self.check is not None:
            self.check(RESULT, result)
        over = self.state["phase"] == MATCH_OVER
        assert result["match_over"] == over
        assert bool(result["winners"]) == over, result
        self.profile.check_result(self, result)
        return result


# -- a game's profile ----------------------------------------------------------------------


class Profile:
    """What the conformance suite needs to know of one game that it cannot work out: the
    option sets to play, what each seat may know (`tracker`), and the game's own facts
    (scoring, special deals). The base plays the default options and each preset and
    knows nothing hidden; every game should have its own (test_conformance checks)."""

    tracker: type[Tracker] = Tracker
    hands_per_run = 40
    bot_share = 0.0  # the share of moves the computer player makes
    deep_every = 10  # hand n is deep when n % deep_every == deep_offset
    deep_offset = 1
    replay_every = 2  # hand n is replayed when n % replay_every == 0 (0: deep hands only)
    view_stride = 1  # one viewer's view, in turn, every view_stride steps...
    all_views_each_step = False  # ...or every viewer's at every step

    def __init__(self, game: AnyGame) -> None:
        self.game = game

    def runs(self) -> list[Run]:
        presets = self.game.option_set.presets
        return [Run("default", {}, self.hands_per_run)] + [
            Run(name, {"preset": name}, self.hands_per_run) for name in presets
        ]

    def plan(self, hand_number: int, rng: random.Random, options: dict[str, Any], seed: int, carry: Any) -> Plan:
        return Plan()

    def play(self, hand: Hand, rng: random.Random) -> None:
        hand.play_out(rng)

    def bot_moves(self, state: dict[str, Any], rng: random.Random) -> bool:
        return bool(self.bot_share) and rng.random() < self.bot_share

    def after_step(self, hand: Hand, applied: Applied[Any]) -> None:
        """Checks of the game's own after each step."""

    def check_result(self, hand: Hand, result: dict[str, Any]) -> None:
        """The game's own scoring facts, once the hand is scored."""

    def check_carry(self, hand: Hand, carry: dict[str, Any]) -> None:
        """What the next hand inherits, beyond the round number and the scores."""

    def tally(self, stats: Counter[str], hand: Hand) -> None:
        """Count what the run should have come across."""

    def check_stats(self, run: Run, stats: Counter[str]) -> None:
        """The run came across what it should have (matches, moons...)."""


def first_carry(game: AnyGame, options: dict[str, Any], players: int, seed: int) -> dict[str, Any] | None:
    """What a new match's first hand inherits from a table hosted by seat 0, lobby teams filled in order."""
    sizes = game.lobby_teams(options)
    teams: list[int | None] = [t for t, size in enumerate(sizes) for _ in range(size)] if sizes else [None] * players
    return game.first_carry(options=options, players=players, host_seat=0, teams=teams, seed=seed)


def play_run(profile: Profile, run: Run, check: Check | None = None) -> Counter[str]:
    """Play `run`: its hands, whole matches one after another. What came up is returned.
    `check`, when given, is handed what the play-out walks (see `Check`)."""
    game = profile.game
    rng = random.Random(f"{game.key}-{run.id}")
    options = game.validate_options(run.options)
    players = game.seat_count(options)
    stats: Counter[str] = Counter()
    carry = first_carry(game, options, players, rng.randrange(2**62))
    for number in range(run.hands):
        seed = rng.randrange(2**62)
        plan = profile.plan(number, rng, options, seed, carry)
        deep = number % profile.deep_every == profile.deep_offset
        hand = Hand(profile, run.options, players, seed, carry, plan, number=number, deep=deep, check=check)
        profile.play(hand, rng)
        state = hand.state
        if deep or (profile.replay_every and number % profile.replay_every == 0):
            hand.check_replay()
        profile.tally(stats, hand)
        stats["hands"] += 1
        stats["claims"] += hand.claims
        if state["phase"] == MATCH_OVER:
            stats["matches"] += 1
            carry = first_carry(game, options, players, seed)
        else:
            carry = game.carry(state)
            result = game.result(state)
            assert result is not None
            assert carry["round"] == state["round"] + 1 and carry["scores"] == result["scores"], carry
            profile.check_carry(hand, carry)
    return stats


def profile_for(game: AnyGame) -> Profile:
    """The game's profile: `PROFILE` in the `profile` module of its folder (the package of
    its engine); a game without one gets the generic base."""
    package = type(game).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.profile")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.profile":
            raise
        return Profile(game)
    profile: type[Profile] = module.PROFILE
    return profile(game)
