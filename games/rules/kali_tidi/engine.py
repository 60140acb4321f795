"""Kali Tidi ("Moon 3 of Spades"), RULES.md §3: 2 to 7 players, one or two decks,
teams chosen in the lobby, drawn at random, or formed each hand by calling cards.

A match's first hand may open with the removal of the cards that do not deal evenly
("remove"); every hand then runs "bid" → ("call", cards mode) → "trump" → "play" →
"round_over" (every seat says next_round) → "complete", or "match_over".

Hidden partners (cards mode): the bidder calls cards; whoever else plays one becomes a
partner, and only then does anyone but that player learn it. Nothing stored says who a
partner will be: the state only knows hands, and the reveal is decided at the play. So
views, events, results and legal actions cannot leak it as long as they show no hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, cast

from .. import cards, claims, fairness, tricks
from ..base import (
    ENGINE_TEAMS,
    LOBBY_TEAMS,
    ROUND_OVER,
    Action,
    Applied,
    Event,
    Game,
    Handler,
    SentAction,
    TeamChoice,
    copy_state,
    is_int,
    present,
    record_result,
    round_over_to_act,
    running_scores,
)
from ..claim_search import Line
from ..errors import RuleError, gettext_noop, ngettext_lazy
from ..options import Option, OptionSet
from . import bot as kali_tidi_bot
from .points import THREE_OF_SPADES, card_points
from .state import KaliTidiOptions, KaliTidiResult, KaliTidiState

REMOVE = "remove"
BID = "bid"
CALL = "call"
TRUMP = "trump"
PLAY = "play"

PHASE_ACTION = {
    REMOVE: ("remove_cards",),
    BID: ("bid", "pass"),
    CALL: ("call_partners",),
    TRUMP: ("trump",),
    PLAY: ("play", claims.CLAIM),
    ROUND_OVER: ("next_round",),
}
# The fields of each action besides its type.
ACTION_FIELDS = {
    "remove_cards": frozenset({"cards"}),
    "bid": frozenset({"value"}),
    "pass": frozenset(),
    "call_partners": frozenset({"cards"}),
    "trump": frozenset({"suit"}),
    "play": frozenset({"card"}),
    claims.CLAIM: frozenset(),
    "next_round": frozenset(),
}
ACTION_TYPES = frozenset(t for types in PHASE_ACTION.values() for t in types)

TEAMS, RANDOM, CARDS = "teams", "random", "cards"
ZERO_RANKS = frozenset("246789")
BID_STEP = 5
PASSED = "pass"

OPTIONS = OptionSet(
    (
        Option("players", 4, "Players, 2 to 7.", minimum=2, maximum=7, kind="integer"),
        Option(
            "decks",
            None,
            "1 or 2 decks (default, or null: 1 for 2 to 4 players, 2 for 5 to 7).",
            minimum=1,
            maximum=2,
            kind="integer",
        ),
        Option(
            "team_mode",
            TEAMS,
            "teams: chosen in the lobby; random: drawn at the start (3+ players); "
            "cards: each hand the bid winner calls partner cards (3+ players).",
            choices=(TEAMS, RANDOM, CARDS),
        ),
        Option(
            "team_sizes",
            None,
            "teams mode: the two team sizes, e.g. [3, 4] (default an even split).",
            minimum=1,
            maximum=6,
            kind="integer_list",
        ),
        Option(
            "partner_rule",
            "first",
            "cards mode with 2 decks: the first or the last other player to play a called card is the partner.",
            choices=("first", "last"),
        ),
        Option(
            "min_bid",
            None,
            "Lowest bid, a multiple of 5 (default 125 with 1 deck, 250 with 2).",
            minimum=5,
            maximum=500,
            kind="integer",
        ),
        Option(
            "target",
            None,
            "Match target (default 250 with 1 deck, 500 with 2).",
            minimum=5,
            maximum=100000,
            kind="integer",
        ),
        Option(
            "trump_card",
            "none",
            "three_of_spades: 3♠ is always the highest trump (and only a trump).",
            choices=("none", "three_of_spades"),
        ),
    )
)
OPTION_NAMES = frozenset(o.name for o in OPTIONS.options)


# -- pure helpers -----------------------------------------------------------------


def partner_cards_to_call(players: int) -> int:
    return 1 if players <= 4 else 2 if players <= 6 else 3


def max_bid(decks: int) -> int:
    return 250 * decks


def trump_card_on(state: KaliTidiState) -> bool:
    trump_card: str = state["options"]["trump_card"]
    return trump_card == "three_of_spades"


def suit_of(state: KaliTidiState, card: str) -> str:
    """A card's suit in play: with the three_of_spades option 3♠ belongs to trumps."""
    trump: str | None = state["trump"]
    if card == THREE_OF_SPADES and trump is not None and trump_card_on(state):
        return trump
    return card[1]


def rank_of(state: KaliTidiState, card: str) -> int:
    if card == THREE_OF_SPADES and trump_card_on(state):
        return len(cards.RANKS)  # above the ace
    return cards.rank(card)


def legal_cards(state: KaliTidiState, seat: int) -> list[str]:
    if state["phase"] != PLAY or state["turn"] != seat:
        return []
    hand = state["hands"][seat]
    if not state["trick"]:
        return sorted(set(hand), key=cards.sort_key)
    led = suit_of(state, state["trick"][0]["card"])
    following = [c for c in hand if suit_of(state, c) == led]
    return sorted(set(following or hand), key=cards.sort_key)


def _trick_winner(state: KaliTidiState, pieces: list[str]) -> int:
    """The index of the card that takes a trick of `pieces`, so far: of two identical
    cards (two decks), the later."""
    return tricks.winning_index(
        pieces,
        suit_of=lambda c: suit_of(state, c),
        rank_of=lambda c: rank_of(state, c),
        trump=state["trump"],
        later_wins_ties=True,
    )


def _plays(state: KaliTidiState) -> list[Action]:
    """The plays open to the seat to act, each card once, in card order."""
    return [{"type": "play", "card": c} for c in legal_cards(state, present(state["turn"]))]


def callable_cards(state: KaliTidiState, seat: int) -> list[str]:
    """Codes the bidder may call: some copy is held by another player. Decided from what
    the bidder knows (their hand and the removed cards), so refusing reveals nothing."""
    decks = state["options"]["decks"]
    known = Counter(state["hands"][seat]) + Counter(state["removed"])
    return [c for c in cards.deck() if known[c] < decks]


def removable_cards(state: KaliTidiState) -> list[str]:
    """Every zero-point card of the deck(s), one entry per copy."""
    return [c for c in cards.deck(state["options"]["decks"]) if c[0] in ZERO_RANKS]


def _is_card(value: object) -> bool:
    return cards.is_card(value)


class KaliTidi(Game[KaliTidiState]):
    key = "kali_tidi"
    name = "Kali Tidi (Moon 3 of Spades)"
    min_players = 2
    max_players = 7
    option_set = OPTIONS
    action_fields = ACTION_FIELDS
    phase_actions = PHASE_ACTION
    passing_phases = frozenset({BID})

    # -- set-up ---------------------------------------------------------------------

    def validate_options(self, raw: dict[str, Any] | None) -> dict[str, Any]:
        out = super().validate_options(raw)
        return {**out, **self.game_options(out)}

    def game_options(self, options: Mapping[str, Any] | None) -> KaliTidiOptions:
        """The game's own options, complete and cross-checked; derived defaults filled."""
        raw = {k: v for k, v in (options or {}).items() if k in OPTION_NAMES}
        given = {k: v for k, v in raw.items() if v is not None}
        opts = self.option_set.validate(given)
        players = opts["players"]
        mode = opts["team_mode"]
        if opts["decks"] is None:
            opts["decks"] = 1 if players <= 4 else 2
        decks = opts["decks"]
        top = max_bid(decks)
        if mode in (RANDOM, CARDS) and players < 3:
            # Translators: the mode is the option's value, as the API writes it (random, cards).
            detail = gettext_noop("The %(mode)s team mode needs at least 3 players.")
            raise RuleError("invalid", detail, "team_mode", mode=mode)
        if mode == TEAMS:
            sizes = opts["team_sizes"] or [players // 2, players - players // 2]
            if len(sizes) != 2 or any(s < 1 for s in sizes) or sum(sizes) != players:
                detail = gettext_noop("team_sizes: two teams of at least one player, %(players)s in all.")
                raise RuleError("invalid", detail, "team_sizes", players=players)
            opts["team_sizes"] = list(sizes)
        elif opts["team_sizes"] is not None:
            raise RuleError("invalid", gettext_noop("team_sizes applies to the teams mode only."), "team_sizes")
        if opts["partner_rule"] != "first" and not (mode == CARDS and decks == 2):
            raise RuleError(
                "invalid", gettext_noop("partner_rule applies to the cards mode with two decks only."), "partner_rule"
            )
        if opts["min_bid"] is None:
            opts["min_bid"] = top // 2
        if opts["min_bid"] % BID_STEP or not BID_STEP <= opts["min_bid"] <= top:
            detail = gettext_noop("min_bid must be a multiple of 5 from 5 to %(top)s.")
            raise RuleError("invalid", detail, "min_bid", top=top)
        if opts["target"] is None:
            opts["target"] = top
        # Validated against OPTIONS and its defaults derived: the shape KaliTidiOptions spells.
        return cast(KaliTidiOptions, opts)

    def seat_count(self, options: dict[str, Any]) -> int:
        players: int = self.game_options(options)["players"]
        return players

    def partners_hidden(self, options: dict[str, Any]) -> bool:
        # Cards mode: the bid winner's partners are whoever holds the called cards.
        return bool(self.game_options(options)["team_mode"] == CARDS)

    def lobby_teams(self, options: dict[str, Any]) -> list[int] | None:
        opts = self.game_options(options)
        return list(present(opts["team_sizes"])) if opts["team_mode"] == TEAMS else None

    def team_choice(self, options: dict[str, Any]) -> TeamChoice | None:
        # Cards mode has no fixed teams: the bidder's partners are called each hand.
        mode = self.game_options(options)["team_mode"]
        return LOBBY_TEAMS if mode == TEAMS else ENGINE_TEAMS if mode == RANDOM else None

    def seat_teams(self, state: KaliTidiState) -> list[int] | None:
        if state["options"]["team_mode"] == CARDS:
            return None
        return list(present(state["teams"]))

    def result_sides(self, result: dict[str, Any]) -> list[list[int]]:
        # The bidding side and the other, as the hand was scored: whole teams, or in
        # cards mode the bidder with the partners revealed by the end of the hand.
        return [sorted(side) for side in (result["bidding_side"], result["other_side"]) if side]

    def first_carry(
        self, *, options: Mapping[str, Any], players: int, host_seat: int, teams: list[int | None], seed: int
    ) -> dict[str, Any] | None:
        opts = self.game_options(options)
        rng = random.Random(seed ^ 0x6B616C69)
        carry: dict[str, Any] = {"host": host_seat, "teams": None, "first_bidder": host_seat}
        if opts["team_mode"] == TEAMS:
            carry["teams"] = [int(t) if t is not None else 0 for t in teams]
        elif opts["team_mode"] == RANDOM:
            order = list(range(players))
            rng.shuffle(order)
            drawn = [0] * players
            for seat in order[players // 2 :]:
                drawn[seat] = 1
            carry["teams"] = drawn
            carry["first_bidder"] = rng.randrange(players)
        return carry

    def new_round(
        self,
        *,
        options: dict[str, Any],
        players: int | None = None,
        seed: int,
        carry: dict[str, Any] | None = None,
        deal: object = None,
        fair: fairness.Inputs | None = None,
    ) -> KaliTidiState:
        opts = self.game_options(options)
        if players is not None and players != opts["players"]:
            detail = gettext_noop("This room is for %(players)s players.")
            raise RuleError("invalid", detail, "players", players=opts["players"])
        players = opts["players"]
        carry = carry or self.first_carry(options=opts, players=players, host_seat=0, teams=[None] * players, seed=seed)
        assert carry is not None
        if opts["team_mode"] == TEAMS and not carry.get("teams"):
            sizes = present(opts["team_sizes"])
            carry = {**carry, "teams": [0] * sizes[0] + [1] * sizes[1]}
        number = int(carry.get("round", 1))
        removed = list(carry.get("removed", []))
        remove_count = 0 if "removed" in carry else (52 * opts["decks"]) % players
        state: KaliTidiState = {
            "game": self.key,
            "seed": seed,
            "players": players,
            "options": opts,
            "round": number,
            "host": int(carry.get("host", 0)),
            "teams": carry.get("teams"),
            "first_bidder": int(carry.get("first_bidder", 0)) % players,
            "remover": None,
            "remove_count": remove_count,
            "removed": removed,
            "phase": BID,
            "hands": [[] for _ in range(players)],
            "turn": None,
            "bids": [None] * players,
            "bid": None,
            "bidder": None,
            "called": [],
            "partners": [],
            "trump": None,
            "trick": [],
            "tricks_played": 0,
            "last_trick": None,
            "points_taken": [0] * players,
            "tricks_taken": [0] * players,
            "plays_of_called": {},
            "scores": [int(s) for s in carry.get("scores", [0] * players)],
            "result": None,
            "ready": [],
            "deal": deal,
        }
        if fair is not None and deal is None:
            # Kept for the deal, which may wait for the removal of cards.
            state["fair"] = {**fair.as_json(), "deals": []}
        if remove_count:
            # In random mode the drawn first bidder removes; otherwise the host.
            state["remover"] = state["first_bidder"] if opts["team_mode"] == RANDOM else state["host"]
            state["phase"] = REMOVE
            state["turn"] = state["remover"]
        else:
            self._deal(state)
        return state

    def _deal(self, state: KaliTidiState) -> None:
        """Deal the deck less the removed cards, evenly, and open the auction."""
        players = state["players"]
        stock = Counter(cards.deck(state["options"]["decks"])) - Counter(state["removed"])
        deal = state.get("deal")
        state["deal"] = None
        if deal is not None:
            hands = [
                cards.sorted_hand(h)
                for h in tricks.check_deal(deal, players=players, stock=stock.elements(), is_piece=_is_card)
            ]
        elif "fair" in state:
            fair = state["fair"]
            deck = fairness.card_deck(state["options"]["decks"], state["removed"])
            dealt = fairness.dealt(deck, fairness.Inputs.from_json(fair), 0, players, len(deck) // players)
            hands = [cards.sorted_hand(h) for h in dealt["hands"]]
            state["fair"] = {**fair, "deals": [*fair["deals"], dealt]}
        else:
            pack = cards.shuffled(list(stock.elements()), random.Random(state["seed"]))
            hands = cards.deal(pack, players)
        state["hands"] = hands
        state["phase"] = BID
        state["turn"] = state["first_bidder"]

    # -- reading the state ------------------------------------------------------------

    def to_act(self, state: KaliTidiState) -> list[int]:
        phase = state["phase"]
        if phase in (REMOVE, BID, CALL, TRUMP, PLAY):
            return [present(state["turn"])]
        if phase == ROUND_OVER:
            return round_over_to_act(state)
        return []

    def legal_actions(self, state: KaliTidiState, seat: int, *, with_claim: bool = True) -> list[Action]:
        if not is_int(seat) or seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == REMOVE:
            return [{"type": "remove_cards", "count": state["remove_count"], "choices": removable_cards(state)}]
        if phase == BID:
            return [{"type": "pass"}] + [{"type": "bid", "value": v} for v in self._bid_values(state)]
        if phase == CALL:
            count = partner_cards_to_call(state["players"])
            return [{"type": "call_partners", "count": count, "choices": callable_cards(state, seat)}]
        if phase == TRUMP:
            return [{"type": "trump", "suit": s} for s in cards.SUITS]
        if phase == PLAY:
            claim = with_claim and self._claim_line(state, seat) is not None
            return [*_plays(state), *([claims.claim_action()] if claim else [])]
        if phase == ROUND_OVER:
            return [{"type": "next_round"}]
        return []

    @staticmethod
    def _bid_values(state: KaliTidiState) -> list[int]:
        opts = state["options"]
        low = opts["min_bid"] if state["bid"] is None else state["bid"] + BID_STEP
        return list(range(low, max_bid(opts["decks"]) + 1, BID_STEP))

    def carry(self, state: KaliTidiState) -> dict[str, Any]:
        return {
            "round": state["round"] + 1,
            "host": state["host"],
            "teams": state["teams"],
            "first_bidder": (state["first_bidder"] + 1) % state["players"],
            "removed": list(state["removed"]),
            "scores": running_scores(state),
        }

    # -- applying actions -------------------------------------------------------------

    def handlers(self) -> dict[str, Handler[KaliTidiState]]:
        return {
            "remove_cards": self._apply_remove,
            "bid": self._apply_bid,
            "pass": self._apply_pass,
            "call_partners": self._apply_call,
            "trump": self._apply_trump,
            "play": self._apply_play,
            claims.CLAIM: self._apply_claim,
        }

    def copied(self, state: KaliTidiState) -> KaliTidiState:
        return _copy(state)

    def _apply_claim(self, state: KaliTidiState, seat: int, action: SentAction) -> Applied[KaliTidiState]:
        return claims.apply_claim(state, seat, line=self._claim_line(state, seat), plays=_plays, step=self._apply_play)

    @staticmethod
    def _picked(action: SentAction, count: int) -> list[str]:
        picked = action.get("cards")
        if not isinstance(picked, list) or not all(_is_card(c) for c in picked):
            raise RuleError("invalid", gettext_noop("'cards' is a list of card codes."), "cards")
        if len(picked) != count:
            detail = ngettext_lazy("Choose exactly %(count)s card.", "Choose exactly %(count)s cards.", count)
            raise RuleError("wrong_count", detail, "cards", count=count)
        return list(picked)

    def _apply_remove(self, state: KaliTidiState, seat: int, action: SentAction) -> Applied[KaliTidiState]:
        picked = self._picked(action, state["remove_count"])
        if any(card_points(c) for c in picked):
            raise RuleError(
                "card_has_points", gettext_noop("Only zero-point cards (2, 4, 6, 7, 8, 9) may be removed."), "cards"
            )
        decks = state["options"]["decks"]
        if any(n > decks for n in Counter(picked).values()):
            detail = ngettext_lazy(
                "The deck holds %(decks)s copy of each card.", "The deck holds %(decks)s copies of each card.", decks
            )
            raise RuleError("invalid", detail, "cards", decks=decks)
        new = _copy(state)
        new["removed"] = cards.sorted_hand(picked)
        new["remove_count"] = 0
        self._deal(new)
        return Applied(new, [Event({"type": "cards_removed", "seat": seat, "cards": new["removed"]})])

    def _apply_bid(self, state: KaliTidiState, seat: int, action: SentAction) -> Applied[KaliTidiState]:
        value = action.get("value")
        if not is_int(value):
            raise RuleError("invalid", gettext_noop("A bid is a whole number."), "value")
        opts = state["options"]
        top = max_bid(opts["decks"])
        low = opts["min_bid"] if state["bid"] is None else state["bid"] + BID_STEP
        if value > top:
            raise RuleError("bid_too_high", gettext_noop("The highest bid is %(top)s."), "value", top=top)
        if value < low:
            raise RuleError("bid_too_low", gettext_noop("Bid at least %(lowest)s."), "value", lowest=low)
        if value % BID_STEP:
            raise RuleError("bad_bid_step", gettext_noop("Bids go up in fives."), "value")
        new = _copy(state)
        new["bids"][seat] = value
        new["bid"], new["bidder"] = value, seat
        events = [Event({"type": "bid", "seat": seat, "value": value})]
        self._next_bidder(new, events)
        return Applied(new, events)

    def _apply_pass(self, state: KaliTidiState, seat: int, action: SentAction) -> Applied[KaliTidiState]:
        new = _copy(state)
        new["bids"][seat] = PASSED
        events = [Event({"type": "pass", "seat": seat})]
        self._next_bidder(new, events)
        return Applied(new, events)

    def _next_bidder(self, state: KaliTidiState, events: list[Event]) -> None:
        """The next seat still in the auction, or the auction's end."""
        players = state["players"]
        active = [s for s in range(players) if state["bids"][s] != PASSED]
        top = max_bid(state["options"]["decks"])
        if state["bid"] == top or (state["bidder"] is not None and active == [state["bidder"]]):
            self._auction_won(state, events)
            return
        if not active:
            # Everyone passed: the first bidder takes it at the minimum.
            state["bid"], state["bidder"] = state["options"]["min_bid"], state["first_bidder"]
            self._auction_won(state, events, all_passed=True)
            return
        seat = present(state["turn"])
        for _ in range(players):
            seat = (seat + 1) % players
            if state["bids"][seat] != PASSED:
                state["turn"] = seat
                return

    def _auction_won(self, state: KaliTidiState, events: list[Event], all_passed: bool = False) -> None:
        events.append(
            Event({"type": "auction_won", "seat": state["bidder"], "bid": state["bid"], "all_passed": all_passed})
        )
        state["turn"] = state["bidder"]
        state["phase"] = CALL if state["options"]["team_mode"] == CARDS else TRUMP

    def _apply_call(self, state: KaliTidiState, seat: int, action: SentAction) -> Applied[KaliTidiState]:
        picked = self._picked(action, partner_cards_to_call(state["players"]))
        if len(set(picked)) != len(picked):
            raise RuleError("invalid", gettext_noop("Call different cards."), "cards")
        allowed = set(callable_cards(state, seat))
        for card in picked:
            if card not in allowed:
                # Translators: the card is its code, as the API writes it (QS: the queen of spades).
                detail = gettext_noop("%(card)s: no other player can hold it.")
                raise RuleError("not_callable", detail, "cards", card=card)
        new = _copy(state)
        new["called"] = cards.sorted_hand(picked)
        new["phase"] = TRUMP
        return Applied(new, [Event({"type": "partners_called", "seat": seat, "cards": new["called"]})])

    def _apply_trump(self, state: KaliTidiState, seat: int, action: SentAction) -> Applied[KaliTidiState]:
        suit = action.get("suit")
        if not isinstance(suit, str) or suit not in cards.SUITS:
            raise RuleError("bad_suit", gettext_noop("Trumps are one of C, D, H, S."), "suit")
        new = _copy(state)
        new["trump"] = suit
        new["phase"] = PLAY
        new["turn"] = new["bidder"]
        return Applied(new, [Event({"type": "trump", "seat": seat, "suit": suit})])

    def _apply_play(self, state: KaliTidiState, seat: int, action: SentAction) -> Applied[KaliTidiState]:
        card = action.get("card")
        if not _is_card(card):
            raise RuleError("invalid", gettext_noop("'card' is a card code such as 'KD'."), "card")
        if card not in state["hands"][seat]:
            # Translators: the card is its code, as the API writes it (QS: the queen of spades).
            raise RuleError("card_not_in_hand", gettext_noop("%(card)s is not in your hand."), "card", card=str(card))
        if card not in legal_cards(state, seat):
            raise RuleError("must_follow_suit", gettext_noop("You hold the led suit and must play it."), "card")
        new = _copy(state)
        new["hands"][seat].remove(card)
        new["trick"].append({"seat": seat, "card": card})
        events = [Event({"type": "play", "seat": seat, "card": card})]
        if card in new["called"] and seat != new["bidder"]:
            self._called_card_played(new, seat, card, events)
        if len(new["trick"]) < new["players"]:
            new["turn"] = (seat + 1) % new["players"]
        else:
            self._finish_trick(new, events)
        return Applied(new, events)

    @staticmethod
    def _called_card_played(state: KaliTidiState, seat: int, card: str, events: list[Event]) -> None:
        """Reveal a partner: under `first` the first other player to play the card; under
        `last` the play after which no other player still holds a copy."""
        plays = state["plays_of_called"].setdefault(card, [])
        plays.append(seat)
        if state["options"]["partner_rule"] == "first":
            partner = plays[0] if len(plays) == 1 else None
        else:
            others_hold = any(card in state["hands"][s] for s in range(state["players"]) if s != state["bidder"])
            partner = None if others_hold else seat
        if partner is not None and partner not in state["partners"]:
            state["partners"].append(partner)
            events.append(Event({"type": "partner_revealed", "seat": partner, "card": card}))

    def _finish_trick(self, state: KaliTidiState, events: list[Event]) -> None:
        trick = state["trick"]
        plays = [p["card"] for p in trick]
        index = _trick_winner(state, plays)
        winner = trick[index]["seat"]
        points = sum(card_points(c) for c in plays)
        state["points_taken"][winner] += points
        state["tricks_taken"][winner] += 1
        state["tricks_played"] += 1
        state["last_trick"] = {"cards": [p.copy() for p in trick], "winner": winner, "points": points}
        state["trick"] = []
        state["turn"] = winner
        # `winner` and `trick` as in every game; `seat`, the winner too, as earlier events said it.
        events.append(
            Event(
                {
                    "type": "trick_won",
                    "winner": winner,
                    "trick": state["tricks_played"],
                    "points": points,
                    "seat": winner,
                }
            )
        )
        if not any(state["hands"]):
            self._score(state, events)

    def _claim_line(self, state: KaliTidiState, seat: int) -> Line | None:
        # Every card is dealt (those removed are public): what the claimant cannot see
        # is the other hands together.
        unseen = claims.others_hands(state, seat)
        side = self.claim_side(state, seat)
        return claims.judge(state, seat, side, plays=_plays, step=self._apply_play, winner=_trick_winner, unseen=unseen)

    def claim_side(self, state: KaliTidiState, seat: int) -> list[int]:
        """Who may take tricks for `seat`'s claim: its team, or in cards mode the bidder and
        the partners revealed so far for either of them. An unrevealed partner is no side
        of anyone's as far as a claim goes: counting it would tell the table who it is."""
        if state["options"]["team_mode"] != CARDS:
            teams = present(state["teams"])
            return [s for s in range(state["players"]) if teams[s] == teams[seat]]
        bidding = sorted({present(state["bidder"]), *state["partners"]})
        return bidding if seat in bidding else [seat]

    def sides(self, state: KaliTidiState) -> tuple[list[int], list[int]]:
        """(bidding side, other side) as seats; in cards mode as revealed so far."""
        players = state["players"]
        bidder = present(state["bidder"])
        if state["options"]["team_mode"] == CARDS:
            bidding = sorted({bidder, *state["partners"]})
        else:
            teams = present(state["teams"])
            bidding = [s for s in range(players) if teams[s] == teams[bidder]]
        return bidding, [s for s in range(players) if s not in bidding]

    def _score(self, state: KaliTidiState, events: list[Event]) -> None:
        bidding, other = self.sides(state)
        side_points = [sum(state["points_taken"][s] for s in side) for side in (bidding, other)]
        bid = present(state["bid"])
        made = side_points[0] >= bid
        winners_of_hand = bidding if made else other
        totals = list(state["scores"])
        for s in winners_of_hand:
            totals[s] += bid
        target = state["options"]["target"]
        over = max(totals) >= target
        top = max(totals)
        result: KaliTidiResult = {
            "round": state["round"],
            "bidder": present(state["bidder"]),
            "bid": bid,
            "trump": present(state["trump"]),
            "called": list(state["called"]),
            "partners": sorted(state["partners"]),
            "bidding_side": bidding,
            "other_side": other,
            "bidding_points": side_points[0],
            "other_points": side_points[1],
            "points": list(state["points_taken"]),
            "made": made,
            "hand_winners": winners_of_hand,
            "scores": totals,
            "match_over": over,
            "winners": [s for s, t in enumerate(totals) if t == top] if over else [],
        }
        state["turn"] = None
        record_result(state, events, result)

    # -- what a viewer may know -------------------------------------------------------

    def view(self, state: KaliTidiState, seat: int | None) -> dict[str, Any]:
        players = state["players"]
        phase = state["phase"]
        to_act = self.to_act(state)
        mode = state["options"]["team_mode"]
        teams = state["teams"] if mode != CARDS else None
        result = state["result"]
        seats = [
            {
                "seat": s,
                "cards_left": len(state["hands"][s]),
                "points_taken": state["points_taken"][s],
                "tricks_taken": state["tricks_taken"][s],
                "bid": state["bids"][s] if is_int(state["bids"][s]) else None,
                "passed": state["bids"][s] == PASSED,
                "team": teams[s] if teams else None,
                "partner": s in state["partners"],
                "ready": s in state["ready"],
            }
            for s in range(players)
        ]
        trick = state["trick"]
        out: dict[str, Any] = {
            "game": self.key,
            "phase": phase,
            "round": state["round"],
            "dealer": state["first_bidder"],
            "first_bidder": state["first_bidder"],
            "to_act": to_act,
            "seats": seats,
            "team_mode": mode,
            "decks": state["options"]["decks"],
            "remover": state["remover"] if phase == REMOVE else None,
            "remove_count": state["remove_count"] if phase == REMOVE else 0,
            "removed": list(state["removed"]),
            "bid": state["bid"],
            "bidder": state["bidder"],
            "min_bid": state["options"]["min_bid"],
            "max_bid": max_bid(state["options"]["decks"]),
            "called": list(state["called"]),
            "partners": sorted(state["partners"]),
            "trump": state["trump"],
            "trump_card": THREE_OF_SPADES if trump_card_on(state) else None,
            **tricks.trick_view(trick, state["last_trick"]),
            "led_suit": suit_of(state, trick[0]["card"]) if trick else None,
            "tricks_played": state["tricks_played"],
            "scores": running_scores(state),
            "target": state["options"]["target"],
            "last_round": _copy_result(result) if result is not None else None,
        }
        if is_int(seat) and 0 <= seat < players:
            out["you"] = self.own_view(state, seat, to_act, cards.sorted_hand(state["hands"][seat]))
        return out

    # -- the computer player ----------------------------------------------------------

    def bot_action(self, state: KaliTidiState, seat: int) -> Action:
        legal = self.bot_legal_actions(state, seat)
        phase = state["phase"]
        hand = list(state["hands"][seat])
        if phase == REMOVE:
            return {
                "type": "remove_cards",
                "cards": kali_tidi_bot.choose_removal(legal[0]["choices"], legal[0]["count"]),
            }
        if phase == BID:
            values = [a["value"] for a in legal if a["type"] == "bid"]
            value = kali_tidi_bot.choose_bid(hand, values, self._bid_context(state, seat))
            return {"type": "pass"} if value is None else {"type": "bid", "value": value}
        if phase == CALL:
            return {
                "type": "call_partners",
                "cards": kali_tidi_bot.choose_calls(hand, legal[0]["choices"], legal[0]["count"]),
            }
        if phase == TRUMP:
            return {"type": "trump", "suit": kali_tidi_bot.choose_trump(hand)}
        if phase == PLAY:
            return {"type": "play", "card": kali_tidi_bot.choose_play(self._table(state, seat))}
        return dict(legal[0])

    @staticmethod
    def _bid_context(state: KaliTidiState, seat: int) -> kali_tidi_bot.BidContext:
        players = state["players"]
        mode = state["options"]["team_mode"]
        if mode == CARDS:
            side = 1 + partner_cards_to_call(players)
        else:
            teams = present(state["teams"])
            side = teams.count(teams[seat])
        total = 250 * state["options"]["decks"]
        return kali_tidi_bot.BidContext(players=players, side_size=min(side, players), total_points=total)

    def _table(self, state: KaliTidiState, seat: int) -> kali_tidi_bot.Table:
        """Only what `seat` may know: its hand, the table, and who is with it as far as it
        can tell (its team; in cards mode revealed partners, and the bidder for a player
        who holds a called card)."""
        players = state["players"]
        mode = state["options"]["team_mode"]
        bidder = present(state["bidder"])
        if mode == CARDS:
            friends = set(state["partners"]) | {bidder}
            holds_called = any(c in state["called"] for c in state["hands"][seat])
            if seat not in friends and not holds_called:
                friends = set()  # as far as this player knows, everyone else may be against it
            elif seat != bidder and holds_called:
                friends |= {bidder}
        else:
            teams = present(state["teams"])
            friends = {s for s in range(players) if teams[s] == teams[seat]}
        friends.discard(seat)
        return kali_tidi_bot.Table(
            seat=seat,
            hand=list(state["hands"][seat]),
            legal=legal_cards(state, seat),
            trick=[(p["seat"], p["card"]) for p in state["trick"]],
            trump=state["trump"],
            friends=friends,
            players=players,
            suit_of=lambda c: suit_of(state, c),
            rank_of=lambda c: rank_of(state, c),
        )


def _copy(state: KaliTidiState) -> KaliTidiState:
    new = copy_state(
        state,
        lists=("bids", "called", "partners", "removed", "trick", "points_taken", "tricks_taken", "scores", "ready"),
        nested=("hands",),
    )
    # Its lists grow in place as copies of a called card are played.
    new["plays_of_called"] = {card: list(seats) for card, seats in state["plays_of_called"].items()}
    return new


def _copy_result(result: KaliTidiResult) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, list) else v for k, v in result.items()}
