"""Moon, the domino trick game, as RULES.md §2 describes it: three players with a widow
(the default) or four in two partnerships.

A hand's state is plain JSON-native data (lists indexed by seat). Phases:
"bid" (one lap, starting left of the dealer; if all pass the next dealer redeals in the
same round) → "trump" (the high bidder names a number) → "widow" (three players only) →
"play" (seven tricks) → "round_over" (every seat says next_round) → "complete", or
"match_over" when the hand decided the match.

Hidden: the hands, the widow and the discard. The widow and the discard are only ever
known to the bidder; the state keeps them, no view, event or result shows them to anyone
else, and the public result says only whether the widow was taken.
"""

from __future__ import annotations

import random
from typing import Any, cast

from .. import claims, dominoes, fairness, tricks
from ..base import (
    COMPLETE,
    ENGINE_TEAMS,
    MATCH_OVER,
    ROUND_OVER,
    Action,
    Applied,
    Event,
    Game,
    Handler,
    SentAction,
    TeamChoice,
    carry_to_next_dealer,
    copy_state,
    is_int,
    present,
    record_result,
    round_over_to_act,
    running_scores,
)
from ..claim_search import Line
from ..errors import RuleError, gettext_noop
from ..options import Option, OptionSet
from . import bot as moon_bot
from .state import MoonOptions, MoonResult, MoonState

HAND_SIZE = 7
TRICKS = HAND_SIZE
MIN_BID = 4
MAX_BID = 7
MOON = 21
TARGET = 21
PASSED = 0  # in `bids`: None not yet asked, 0 passed, else the bid

BID = "bid"
TRUMP = "trump"
WIDOW = "widow"
PLAY = "play"

# Which action types each phase accepts; anything else known is "wrong_phase".
PHASE_ACTIONS = {
    BID: frozenset({"bid", "pass"}),
    TRUMP: frozenset({"trump"}),
    WIDOW: frozenset({"widow"}),
    PLAY: frozenset({"play", claims.CLAIM}),
    ROUND_OVER: frozenset({"next_round"}),
}
# The fields of each action besides its type.
ACTION_FIELDS = {
    "bid": frozenset({"value"}),
    "pass": frozenset(),
    "trump": frozenset({"suit"}),
    "widow": frozenset({"take", "discard"}),
    "play": frozenset({"tile"}),
    claims.CLAIM: frozenset(),
    "next_round": frozenset(),
}
ACTION_TYPES = frozenset().union(*PHASE_ACTIONS.values())

OPTIONS = OptionSet(
    (
        Option(
            "players",
            3,
            "Three players with a widow (22-tile cut deck), or four in partnerships 0+2 and 1+3 (all 28 tiles).",
            choices=(3, 4),
            kind="integer",
        ),
        Option(
            "moon_any_time",
            False,
            "Moon (21) may be bid at any turn, not only after a bid of 7.",
            kind="boolean",
        ),
        Option(
            "widow",
            "optional",
            "Three players: the high bidder may take the widow (then discards one), or must.",
            choices=("optional", "compulsory"),
        ),
        Option(
            "trump_instead_of_follow",
            False,
            "A player able to follow a non-trump lead may play a trump instead.",
            kind="boolean",
        ),
    ),
)
OPTION_NAMES = frozenset(o.name for o in OPTIONS.options)


# -- small pure helpers ---------------------------------------------------------------


def deck_for(players: int) -> list[str]:
    return dominoes.cut_deck() if players == 3 else dominoes.full_set()


def side_of(seat: int, players: int) -> int:
    """The scoring side: partnerships 0+2 / 1+3 with four players, each player alone with three."""
    return seat % 2 if players == 4 else seat


def sides(players: int) -> list[list[int]]:
    return [[0, 2], [1, 3]] if players == 4 else [[s] for s in range(players)]


def deal_rng(seed: int, redeals: int) -> random.Random:
    # A string seed is hashed with SHA-512, so the same seed and counter always give the
    # same shuffle (unlike hash()), and each redeal gets its own stream.
    return random.Random(f"moon:{seed}:{redeals}")


def _fair_deal(
    fair: fairness.FairRecord, players: int, redeal: int
) -> tuple[list[list[str]], list[str], fairness.FairRecord]:
    """A deal by the public algorithm, and the hand's fairness record with it added (a
    new record: a state is never changed in place)."""
    deck = fairness.domino_deck(leave_out=() if players == 4 else [f"{a}-0" for a in range(1, 7)])
    dealt = fairness.dealt(deck, fairness.Inputs.from_json(fair), redeal, players, HAND_SIZE)
    hands = [dominoes.sorted_hand(h) for h in dealt["hands"]]
    return hands, list(dealt["widow"]), {**fair, "deals": [*fair["deals"], dealt]}


def first_dealer(seed: int, players: int) -> int:
    return random.Random(f"moon-dealer:{seed}").randrange(players)


def moon_allowed(state: MoonState) -> bool:
    any_time: bool = state["options"]["moon_any_time"]
    bid: int | None = state["bid"]
    return any_time or bid == MAX_BID


def bid_values(state: MoonState) -> list[int]:
    """The bids the player to act may make now (passing aside)."""
    current = state["bid"] or 0
    values = list(range(max(MIN_BID, current + 1), MAX_BID + 1))
    if moon_allowed(state):
        values.append(MOON)
    return values


def legal_tiles(state: MoonState, seat: int) -> list[str]:
    """The tiles `seat` may play now (empty unless it is their turn to play)."""
    if state["phase"] != PLAY or state["turn"] != seat:
        return []
    hand = state["hands"][seat]
    trump = present(state["trump"])
    trick = state["trick"]
    if not trick:
        if state["tricks_played"] == 0:
            trumps = [t for t in hand if dominoes.is_trump(t, trump)]
            # The bidder's first lead is a trump, unless they hold none.
            return trumps or list(hand)
        return list(hand)
    led = dominoes.led_suit(trick[0]["tile"], trump)
    return dominoes.legal_follow(hand, led, trump, trump_instead=state["options"]["trump_instead_of_follow"])


def _trick_winner(state: MoonState, pieces: list[str]) -> int:
    """The index of the tile that takes a trick of `pieces`, so far."""
    return dominoes.winning_index(pieces, present(state["trump"]))


def _plays(state: MoonState) -> list[Action]:
    """The plays open to the seat to act, in the order of its hand."""
    return [{"type": "play", "tile": t} for t in legal_tiles(state, present(state["turn"]))]


def hand_points(state: MoonState) -> tuple[list[int], bool]:
    """Each seat's points for the hand (partners show their side's), and whether the bid was made."""
    players = state["players"]
    bidder_side = side_of(present(state["bidder"]), players)
    bid = present(state["bid"])
    moon = bid == MOON
    need = TRICKS if moon else bid
    side_tricks = [sum(state["tricks_taken"][s] for s in members) for members in sides(players)]
    made = side_tricks[bidder_side] >= need
    side_points = []
    for side, taken in enumerate(side_tricks):
        if side == bidder_side:
            points = (MOON if moon else taken) if made else (-MOON if moon else 0)
        else:
            # A set gives every opponent its own tricks plus the bid (7 for a moon).
            points = taken if made else taken + need
        side_points.append(points)
    return [side_points[side_of(s, players)] for s in range(players)], made


def match_winners(totals: list[int], bidder: int, players: int, moon_made: bool) -> tuple[list[int], bool]:
    """(winning seats, exact tie) after a hand; no winners while the match goes on.

    A made moon wins at once. Otherwise, of the sides at 21 or more the bidder's wins if
    among them, else the highest; an exact tie for highest plays another hand.
    """
    groups = sides(players)
    bidder_side = side_of(bidder, players)
    if moon_made:
        return list(groups[bidder_side]), False
    reached = [side for side, members in enumerate(groups) if totals[members[0]] >= TARGET]
    if not reached:
        return [], False
    if bidder_side in reached:
        return list(groups[bidder_side]), False
    top = max(totals[groups[side][0]] for side in reached)
    best = [side for side in reached if totals[groups[side][0]] == top]
    if len(best) > 1:
        return [], True
    return list(groups[best[0]]), False


def _copy(state: MoonState) -> MoonState:
    return copy_state(state, lists=("bids", "trick", "tricks_taken", "scores", "ready"), nested=("hands", "taken"))


class Moon(Game[MoonState]):
    key = "moon"
    name = "Moon (dominoes)"
    min_players = 3
    max_players = 4
    option_set = OPTIONS
    action_fields = ACTION_FIELDS
    phase_actions = PHASE_ACTIONS
    passing_phases = frozenset({BID})

    # -- set-up ---------------------------------------------------------------------

    def seat_count(self, options: dict[str, Any]) -> int:
        return int(options.get("players", 3))

    def team_choice(self, options: dict[str, Any]) -> TeamChoice | None:
        # Four players sit in the fixed partnerships 0+2 and 1+3; three play alone.
        return ENGINE_TEAMS if self.seat_count(options) == 4 else None

    def seat_teams(self, state: MoonState) -> list[int] | None:
        players = state["players"]
        return [side_of(s, players) for s in range(players)] if players == 4 else None

    def result_sides(self, result: dict[str, Any]) -> list[list[int]]:
        # The partnerships follow from the table size alone, which the scores give.
        return sides(len(result["scores"]))

    def game_options(self, options: dict[str, Any] | None, players: int | None = None) -> MoonOptions:
        """The game's own options, complete: a room's validated options (which also hold
        timing options) or a partial dict, as tests pass. Without a `players` option the
        table size comes from `players`."""
        raw = {k: v for k, v in (options or {}).items() if k in OPTION_NAMES}
        if "players" not in raw and players is not None:
            raw["players"] = players
        checked = self.option_set.validate(raw)
        # Validated against OPTIONS, whose names, kinds and choices MoonOptions spells.
        return cast(MoonOptions, {name: checked[name] for name in sorted(OPTION_NAMES)})

    def new_round(
        self,
        *,
        options: dict[str, Any],
        players: int = 3,
        seed: int,
        carry: dict[str, Any] | None = None,
        deal: object = None,
        fair: fairness.Inputs | None = None,
    ) -> MoonState:
        """The opening state of a hand. `deal` forces the hands: one list of 7 tiles per
        seat; with three players the one tile of the cut deck left over is the widow."""
        opts = self.game_options(options, players)
        if players != opts["players"]:
            detail = gettext_noop("These options are for %(players)s players.")
            raise RuleError("invalid", detail, "players", players=opts["players"])
        carry = carry or {}
        number = int(carry.get("round", 1))
        scores = [int(s) for s in carry.get("scores", [0] * players)]
        dealer = int(carry["dealer"]) % players if "dealer" in carry else first_dealer(seed, players)
        fair_state: fairness.FairRecord | None = None
        if deal is not None:
            hands, rest = self._check_deal(deal, players)
        elif fair is not None:
            hands, rest, fair_state = _fair_deal({**fair.as_json(), "deals": []}, players, 0)
        else:
            hands, rest = dominoes.deal(dominoes.shuffled(deck_for(players), deal_rng(seed, 0)), players, HAND_SIZE)
        state: MoonState = {
            "game": self.key,
            "players": players,
            "options": opts,
            # Kept for the redeals; the state never leaves the server, views never show it.
            "seed": seed,
            "round": number,
            "dealer": dealer,
            "redeals": 0,
            "phase": BID,
            "turn": (dealer + 1) % players,
            "hands": hands,
            "widow": rest[0] if rest else None,
            "widow_taken": None,
            "discard": None,
            "bids": [None] * players,
            "bidder": None,
            "bid": None,
            "trump": None,
            "trick": [],
            "tricks_played": 0,
            "last_trick": None,
            "taken": [[] for _ in range(players)],
            "tricks_taken": [0] * players,
            "scores": scores,
            "result": None,
            "ready": [],
        }
        if fair_state is not None:
            state["fair"] = fair_state
        return state

    @staticmethod
    def _check_deal(deal: object, players: int) -> tuple[list[list[str]], list[str]]:
        deck = deck_for(players)
        hands = tricks.check_deal(
            deal,
            players=players,
            stock=deck,
            is_piece=dominoes.is_tile,
            hand_size=HAND_SIZE,
            whole=False,
            pieces="tiles",
        )
        dealt = {t for h in hands for t in h}
        rest = [t for t in deck if t not in dealt]
        return [dominoes.sorted_hand(h) for h in hands], rest

    # -- reading the state ------------------------------------------------------------

    def to_act(self, state: MoonState) -> list[int]:
        phase = state["phase"]
        if phase in (BID, TRUMP, WIDOW, PLAY):
            return [present(state["turn"])]
        if phase == ROUND_OVER:
            return round_over_to_act(state)
        return []

    def legal_actions(self, state: MoonState, seat: int, *, with_claim: bool = True) -> list[Action]:
        if not is_int(seat) or seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == BID:
            return [{"type": "pass"}] + [{"type": "bid", "value": v} for v in bid_values(state)]
        if phase == TRUMP:
            return [{"type": "trump", "suit": n} for n in dominoes.PIPS]
        if phase == WIDOW:
            choices = dominoes.sorted_hand([*state["hands"][seat], present(state["widow"])])
            actions: list[Action] = [{"type": "widow", "take": True, "discard": t} for t in choices]
            if state["options"]["widow"] == "optional":
                actions.append({"type": "widow", "take": False})
            return actions
        if phase == PLAY:
            claim = with_claim and self._claim_line(state, seat) is not None
            return [*_plays(state), *([claims.claim_action()] if claim else [])]
        if phase == ROUND_OVER:
            return [{"type": "next_round"}]
        return []

    def carry(self, state: MoonState) -> dict[str, Any]:
        # After redeals `dealer` is whoever dealt the hand that was played; the seat after it deals next.
        return carry_to_next_dealer(state)

    # -- acting -----------------------------------------------------------------------

    def _claim_line(self, state: MoonState, seat: int) -> Line | None:
        players = state["players"]
        # The partnerships of four players are fixed and public.
        side = sides(players)[side_of(seat, players)] if players == 4 else [seat]
        unseen = claims.others_hands(state, seat)
        # Three players: the tile out of play (the discard, or the widow left) is seen by
        # the bidder alone; to the others it is one more they cannot place.
        out = state["discard"] if state["widow_taken"] else state["widow"]
        if out is not None and seat != state["bidder"]:
            unseen.append(out)
        return claims.judge(state, seat, side, plays=_plays, step=self._apply_play, winner=_trick_winner, unseen=unseen)

    def handlers(self) -> dict[str, Handler[MoonState]]:
        return {
            "bid": self._apply_bid,
            "pass": self._apply_pass,
            "trump": self._apply_trump,
            "widow": self._apply_widow,
            "play": self._apply_play,
            claims.CLAIM: self._apply_claim,
        }

    def copied(self, state: MoonState) -> MoonState:
        return _copy(state)

    def _apply_claim(self, state: MoonState, seat: int, action: SentAction) -> Applied[MoonState]:
        return claims.apply_claim(state, seat, line=self._claim_line(state, seat), plays=_plays, step=self._apply_play)

    # bidding

    @staticmethod
    def _check_bid(state: MoonState, value: object) -> int:
        """The bid, once the rules allow it now; else a RuleError."""
        if not is_int(value):
            raise RuleError("invalid", gettext_noop("'value' must be a whole number: 4 to 7, or 21 for moon."), "value")
        if value == MOON:
            if not moon_allowed(state):
                raise RuleError("moon_not_allowed", gettext_noop("Moon may only be bid after a bid of 7."), "value")
            return value
        if value > MAX_BID:
            detail = gettext_noop("Bid at most %(max)s tricks, or 21 for moon.")
            raise RuleError("bid_too_high", detail, "value", max=MAX_BID)
        current = state["bid"] or 0
        if value < MIN_BID or value <= current:
            lowest = max(MIN_BID, current + 1)
            raise RuleError("bid_too_low", gettext_noop("Bid at least %(lowest)s."), "value", lowest=lowest)
        return value

    def _apply_bid(self, state: MoonState, seat: int, action: SentAction) -> Applied[MoonState]:
        value = self._check_bid(state, action.get("value"))
        new = _copy(state)
        new["bids"][seat] = value
        new["bid"] = value
        new["bidder"] = seat
        events = [Event({"type": "bid", "seat": seat, "value": value})]
        # A moon ends the auction at once; otherwise the dealer is the last to speak.
        if value == MOON or seat == new["dealer"]:
            self._end_auction(new, events)
        else:
            new["turn"] = (seat + 1) % new["players"]
        return Applied(new, events)

    def _apply_pass(self, state: MoonState, seat: int, action: SentAction) -> Applied[MoonState]:
        new = _copy(state)
        new["bids"][seat] = PASSED
        events = [Event({"type": "pass", "seat": seat})]
        if seat != new["dealer"]:
            new["turn"] = (seat + 1) % new["players"]
        elif new["bidder"] is None:
            self._redeal(new, events)
        else:
            self._end_auction(new, events)
        return Applied(new, events)

    @staticmethod
    def _end_auction(state: MoonState, events: list[Event]) -> None:
        state["phase"] = TRUMP
        state["turn"] = state["bidder"]
        events.append(Event({"type": "bid_won", "seat": state["bidder"], "value": state["bid"]}))

    @staticmethod
    def _redeal(state: MoonState, events: list[Event]) -> None:
        """Everyone passed: the next dealer shuffles and deals again, same round.

        The shuffle comes from the round's seed and the redeal counter, so replaying the
        seed and the actions rebuilds the same hands.
        """
        players = state["players"]
        state["redeals"] += 1
        state["dealer"] = (state["dealer"] + 1) % players
        if "fair" in state:
            hands, rest, state["fair"] = _fair_deal(state["fair"], players, state["redeals"])
        else:
            tiles = dominoes.shuffled(deck_for(players), deal_rng(state["seed"], state["redeals"]))
            hands, rest = dominoes.deal(tiles, players, HAND_SIZE)
        state["hands"] = hands
        state["widow"] = rest[0] if rest else None
        state["bids"] = [None] * players
        state["turn"] = (state["dealer"] + 1) % players
        events.append(Event({"type": "redeal", "dealer": state["dealer"], "redeals": state["redeals"]}))

    # trumps and the widow

    def _apply_trump(self, state: MoonState, seat: int, action: SentAction) -> Applied[MoonState]:
        suit = action.get("suit")
        if not is_int(suit):
            raise RuleError("invalid", gettext_noop("'suit' must be a number from 0 to 6."), "suit")
        if suit not in dominoes.PIPS:
            raise RuleError("bad_suit", gettext_noop("Trumps are a number from 0 to 6."), "suit")
        new = _copy(state)
        new["trump"] = suit
        new["phase"] = WIDOW if new["widow"] is not None else PLAY
        events = [Event({"type": "trump", "seat": seat, "suit": suit})]
        return Applied(new, events)

    @staticmethod
    def _check_widow(state: MoonState, seat: int, action: SentAction) -> str | None:
        """The tile to discard if the widow is taken, None if it is left; else a RuleError."""
        take = action.get("take")
        if not isinstance(take, bool):
            raise RuleError("invalid", gettext_noop("'take' must be true or false."), "take")
        discard = action.get("discard")
        if not take:
            if state["options"]["widow"] == "compulsory":
                raise RuleError("widow_compulsory", gettext_noop("The widow must be taken in this room."), "take")
            if discard is not None:
                raise RuleError("invalid", gettext_noop("Nothing is discarded when the widow is left."), "discard")
            return None
        if discard is None:
            raise RuleError(
                "widow_discard_required", gettext_noop("Taking the widow, name one tile to discard."), "discard"
            )
        if not isinstance(discard, str):
            raise RuleError(
                "invalid", gettext_noop("'discard' must be a tile written \"H-L\", higher pip first."), "discard"
            )
        if discard != state["widow"] and discard not in state["hands"][seat]:
            raise RuleError(
                "tile_not_in_hand", gettext_noop("You can discard only a tile of your hand or the widow."), "discard"
            )
        return discard

    def _apply_widow(self, state: MoonState, seat: int, action: SentAction) -> Applied[MoonState]:
        discard = self._check_widow(state, seat, action)
        take = discard is not None
        new = _copy(state)
        if discard is not None:
            hand = [*new["hands"][seat], present(new["widow"])]
            hand.remove(discard)
            new["hands"][seat] = dominoes.sorted_hand(hand)
            new["discard"] = discard
        new["widow_taken"] = take
        new["phase"] = PLAY
        events = [
            Event({"type": "widow", "seat": seat, "take": take}),
            # The tiles themselves: the bidder's alone, now and in every later look at the log.
            Event({"type": "widow_private", "seat": seat, "widow": new["widow"], "discard": discard}, [seat]),
        ]
        return Applied(new, events)

    # playing

    def _check_play(self, state: MoonState, seat: int, tile: object) -> str:
        """The tile, once the rules allow `seat` to play it now; else a RuleError."""
        if not isinstance(tile, str):
            raise RuleError("invalid", gettext_noop("'tile' must be a tile written \"H-L\", higher pip first."), "tile")
        hand = state["hands"][seat]
        if tile not in hand:
            raise RuleError("tile_not_in_hand", gettext_noop("That tile is not in your hand."), "tile")
        if tile in legal_tiles(state, seat):
            return tile
        trump = present(state["trump"])
        if not state["trick"]:
            # Translators: the trump is a number of pips, 0 to 6.
            detail = gettext_noop("The first trick must be led with a trump (%(trump)s).")
            raise RuleError("must_lead_trump", detail, "tile", trump=trump)
        led = dominoes.led_suit(state["trick"][0]["tile"], trump)
        if led == dominoes.TRUMP:
            # Translators: the trump is a number of pips, 0 to 6.
            detail = gettext_noop("You must follow with a trump (%(trump)s).")
            raise RuleError("must_follow_suit", detail, "tile", trump=trump)
        # Translators: the suit is the number of pips led, 0 to 6 ("You must follow with a 5.").
        raise RuleError("must_follow_suit", gettext_noop("You must follow with a %(suit)s."), "tile", suit=led)

    def _apply_play(self, state: MoonState, seat: int, action: SentAction) -> Applied[MoonState]:
        tile = self._check_play(state, seat, action.get("tile"))
        new = _copy(state)
        new["hands"][seat].remove(tile)
        new["trick"].append({"seat": seat, "tile": tile})
        events = [Event({"type": "play", "seat": seat, "tile": tile})]
        if len(new["trick"]) < new["players"]:
            new["turn"] = (seat + 1) % new["players"]
        else:
            self._finish_trick(new, events)
        return Applied(new, events)

    def _finish_trick(self, state: MoonState, events: list[Event]) -> None:
        trick = state["trick"]
        played = [p["tile"] for p in trick]
        winner = trick[_trick_winner(state, played)]["seat"]
        state["taken"][winner].extend(played)
        state["tricks_taken"][winner] += 1
        state["tricks_played"] += 1
        state["last_trick"] = {"tiles": trick, "winner": winner}
        state["trick"] = []
        events.append(Event({"type": "trick_won", "winner": winner, "trick": state["tricks_played"]}))
        if state["tricks_played"] < TRICKS:
            state["turn"] = winner
            return
        state["turn"] = None
        self._score(state, events)

    def _score(self, state: MoonState, events: list[Event]) -> None:
        players = state["players"]
        points, made = hand_points(state)
        totals = [a + b for a, b in zip(state["scores"], points, strict=True)]
        bidder, bid = present(state["bidder"]), present(state["bid"])
        moon = bid == MOON
        winners, tie = match_winners(totals, bidder, players, moon and made)
        over = bool(winners)
        result: MoonResult = {
            "round": state["round"],
            "dealer": state["dealer"],
            "bidder": bidder,
            "bid": bid,
            "moon": moon,
            "trump": present(state["trump"]),
            "widow_taken": state["widow_taken"],
            "made": made,
            "tricks": list(state["tricks_taken"]),
            "points": points,
            "scores": totals,
            "teams": sides(players) if players == 4 else None,
            "match_over": over,
            "winners": winners,
            "tie": tie,
        }
        record_result(state, events, result)

    # -- what a viewer may know -------------------------------------------------------

    def view(self, state: MoonState, seat: int | None) -> dict[str, Any]:
        players = state["players"]
        to_act = self.to_act(state)
        phase = state["phase"]
        result = state["result"]
        trick = state["trick"]
        trump = state["trump"]
        four = players == 4
        seats = [
            {
                "seat": s,
                "tiles_left": len(state["hands"][s]),
                "tricks_taken": state["tricks_taken"][s],
                "bid": state["bids"][s] or None,
                "passed": state["bids"][s] == PASSED,
                "team": s % 2 if four else None,
                "ready": s in state["ready"],
            }
            for s in range(players)
        ]
        out: dict[str, Any] = {
            "game": self.key,
            "phase": phase,
            "round": state["round"],
            "dealer": state["dealer"],
            "redeals": state["redeals"],
            "to_act": to_act,
            "seats": seats,
            "teams": sides(players) if four else None,
            "bid": state["bid"],
            "bidder": state["bidder"],
            "trump": trump,
            "widow_taken": state["widow_taken"],
            **tricks.trick_view(trick, state["last_trick"]),
            "led_suit": None if not trick else _suit_name(dominoes.led_suit(trick[0]["tile"], present(trump))),
            "tricks_played": state["tricks_played"],
            "scores": running_scores(state),
            "last_round": _copy_result(result)
            if result is not None and phase in (ROUND_OVER, MATCH_OVER, COMPLETE)
            else None,
        }
        if is_int(seat) and 0 <= seat < players:
            # The bidder sees the widow from the moment they decide on it, and keeps knowing it.
            knows_widow = seat == state["bidder"] and phase not in (BID, TRUMP)
            out["you"] = {
                **self.own_view(state, seat, to_act, list(state["hands"][seat])),
                "widow": state["widow"] if knows_widow else None,
                "discard": state["discard"] if knows_widow else None,
            }
        return out

    # -- the computer player ----------------------------------------------------------

    def bot_action(self, state: MoonState, seat: int) -> Action:
        legal = self.bot_legal_actions(state, seat)
        phase = state["phase"]
        players = state["players"]
        hand = list(state["hands"][seat])
        deck = deck_for(players)
        if phase == BID:
            partner = (seat + 2) % 4 if players == 4 else None
            values = [a["value"] for a in legal if a["type"] == "bid"]
            partner_high = partner is not None and state["bidder"] == partner
            value = moon_bot.choose_bid(hand, deck, values, partner_high=partner_high)
            return {"type": "pass"} if value is None else {"type": "bid", "value": value}
        if phase == TRUMP:
            return {"type": "trump", "suit": moon_bot.choose_trump(hand, deck)}
        if phase == WIDOW:
            compulsory = state["options"]["widow"] == "compulsory"
            discard = moon_bot.choose_discard(hand, present(state["widow"]), present(state["trump"]), deck)
            if discard == state["widow"] and not compulsory:
                return {"type": "widow", "take": False}
            return {"type": "widow", "take": True, "discard": discard}
        if phase == PLAY:
            return {"type": "play", "tile": moon_bot.choose_play(self._table(state, seat))}
        return dict(legal[0])

    @staticmethod
    def _table(state: MoonState, seat: int) -> moon_bot.Table:
        """Only what `seat` may know: its hand, the tiles on the table and those played
        before, and (for the bidder) the widow or the discard set aside."""
        players = state["players"]
        aside: set[str] = set()
        if seat == state["bidder"] and state["widow"] is not None:
            aside.add(present(state["discard"]) if state["widow_taken"] else state["widow"])
        return moon_bot.Table(
            seat=seat,
            players=players,
            hand=list(state["hands"][seat]),
            legal=legal_tiles(state, seat),
            trump=present(state["trump"]),
            bidder=present(state["bidder"]),
            trick=[(p["seat"], p["tile"]) for p in state["trick"]],
            played={t for pile in state["taken"] for t in pile},
            aside=aside,
            deck=deck_for(players),
        )


def _suit_name(suit: str) -> str | int:
    """The led suit as the API shows it: "trump" or a number."""
    return "trump" if suit == dominoes.TRUMP else int(suit)


def _copy_result(result: MoonResult) -> dict[str, Any]:
    return {
        **result,
        "tricks": list(result["tricks"]),
        "points": list(result["points"]),
        "scores": list(result["scores"]),
        "winners": list(result["winners"]),
        "teams": None if result["teams"] is None else [list(t) for t in result["teams"]],
    }
