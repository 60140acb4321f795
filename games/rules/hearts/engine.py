"""Hearts, as RULES.md §1 describes it: standard rules plus the Sweedo house rules as options.

A hand's state is plain JSON-native data (lists indexed by seat). Phases:
"pass" (simultaneous; absent on hold hands) → "play" → optionally "moon_choice" (the
shooter picks how the moon is scored) → "round_over" (every seat says next_round) →
"complete", or "match_over" when the hand decided the match.
"""

from __future__ import annotations

import random
from typing import Any, cast

from .. import cards, claims, fairness, tricks
from ..base import (
    COMPLETE,
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
from . import bot as hearts_bot
from .points import HEARTS, JACK, QUEEN, card_points
from .state import FourthHand, HeartsOptions, HeartsResult, HeartsState, PassChoice, PassDirection, Received

PLAYERS = 4
HAND_SIZE = 13
PASS_COUNT = 3
TWO_CLUBS = "2C"
MOON_POINTS = 26

PASS = "pass"
PLAY = "play"
MOON_CHOICE = "moon_choice"

# The refusal of a card that does not follow, by the led suit.
FOLLOW = {
    "C": gettext_noop("You must follow clubs."),
    "D": gettext_noop("You must follow diamonds."),
    "H": gettext_noop("You must follow hearts."),
    "S": gettext_noop("You must follow spades."),
}

MINUS_SELF = "minus_self"
PLUS_OTHERS = "plus_others"
MOON_CHOICES = (MINUS_SELF, PLUS_OTHERS)

# Hand n (1-based) passes by PASS_CYCLE[(n - 1) % 4]; the fourth is "hold" or "funky".
PASS_CYCLE: tuple[PassDirection | None, ...] = ("left", "right", "across", None)
PASS_OFFSET = {"left": 1, "right": 3, "across": 2}

# Which action type each phase accepts; anything else known is "wrong_phase".
PHASE_ACTION = {
    PASS: ("pass_cards",),
    PLAY: ("play", claims.CLAIM),
    MOON_CHOICE: ("moon_choice",),
    ROUND_OVER: ("next_round",),
}
# The fields of each action besides its type (a pass names `cards`, and when funky `to`,
# the seat each card goes to; or `to` alone, a map of seat to card, as v1 first had it).
ACTION_FIELDS = {
    "pass_cards": frozenset({"cards", "to"}),
    "play": frozenset({"card"}),
    claims.CLAIM: frozenset(),
    "moon_choice": frozenset({"choice"}),
    "next_round": frozenset(),
}

OPTIONS = OptionSet(
    (
        Option(
            "fourth_hand",
            "hold",
            "Every fourth hand: no pass (hold), or a funky pass of one card to each other player.",
            choices=("hold", "funky"),
        ),
        Option(
            "lead_any_club",
            False,
            "The 2♣ holder may lead any club to the first trick.",
            kind="boolean",
        ),
        Option(
            "queen_breaks_hearts",
            False,
            "Playing Q♠ breaks hearts too.",
            kind="boolean",
        ),
        Option(
            "moon",
            "others_plus_26",
            "Shooting the moon: everyone else +26; the shooter's choice of -26 for themself or +26 "
            "for the others; or the Sweedo moon (needs J♦ too: -36, or -10 and +26 for the others).",
            choices=("others_plus_26", "shooter_choice", "sweedo"),
        ),
        Option(
            "jack_of_diamonds",
            0,
            "Points for taking J♦ (Sweedo: -10).",
            minimum=-20,
            maximum=0,
            kind="integer",
        ),
        Option(
            "no_trick_bonus",
            0,
            "Points for a player who takes no trick, except in a moon hand (Sweedo: -5).",
            minimum=-20,
            maximum=0,
            kind="integer",
        ),
        Option(
            "target",
            100,
            "The match ends after a hand in which someone gets here.",
            minimum=20,
            maximum=500,
            kind="integer",
        ),
        Option(
            "end_when",
            "reached",
            "End the match when a score reaches the target, or only when it exceeds it.",
            choices=("reached", "exceeded"),
        ),
    ),
    presets={
        "short": {"target": 50},
        "sweedo": {
            "queen_breaks_hearts": True,
            "jack_of_diamonds": -10,
            "no_trick_bonus": -5,
            "moon": "sweedo",
            "end_when": "exceeded",
            "target": 100,
        },
        "sweedo_short": {
            "queen_breaks_hearts": True,
            "jack_of_diamonds": -10,
            "no_trick_bonus": -5,
            "moon": "sweedo",
            "end_when": "exceeded",
            "target": 70,
        },
    },
)
OPTION_NAMES = frozenset(o.name for o in OPTIONS.options)


# -- small pure helpers ---------------------------------------------------------------


def pass_direction(hand_number: int, fourth_hand: FourthHand) -> PassDirection:
    direction = PASS_CYCLE[(hand_number - 1) % 4]
    return fourth_hand if direction is None else direction


def may_lead_hearts(hand: list[str]) -> bool:
    """Unbroken hearts may still be led by a hand of nothing but hearts (and Q♠)."""
    return all(c[1] == HEARTS or c == QUEEN for c in hand)


def legal_cards(state: HeartsState, seat: int) -> list[str]:
    """The cards `seat` may play now (empty unless it is their turn to play)."""
    if state["phase"] != PLAY or state["turn"] != seat:
        return []
    hand = state["hands"][seat]
    trick = state["trick"]
    first = state["tricks_played"] == 0
    if not trick:
        if first:
            if state["options"]["lead_any_club"]:
                return [c for c in hand if c[1] == "C"]
            return [TWO_CLUBS]
        if state["hearts_broken"] or may_lead_hearts(hand):
            return list(hand)
        return [c for c in hand if c[1] != HEARTS]
    following = tricks.follow_suit(hand, trick[0]["card"][1])
    if first and following[0][1] != trick[0]["card"][1]:
        safe = [c for c in hand if c[1] != HEARTS and c != QUEEN]
        if safe:
            return safe
    return following


def _plays(state: HeartsState) -> list[Action]:
    """The plays open to the seat to act, in the order of its hand."""
    return [{"type": "play", "card": c} for c in legal_cards(state, present(state["turn"]))]


def _trick_winner(state: HeartsState, pieces: list[str]) -> int:
    """The index of the card that takes a trick of `pieces`, so far: no trumps."""
    return tricks.winning_index(pieces)


def shooter_of(state: HeartsState) -> int | None:
    """The seat that shot the moon this hand, if any (once all tricks are in).

    Every mode needs all 13 hearts and Q♠; the Sweedo moon needs J♦ as well.
    """
    sweedo = state["options"]["moon"] == "sweedo"
    for seat, taken in enumerate(state["taken"]):
        if QUEEN in taken and (not sweedo or JACK in taken) and sum(1 for c in taken if c[1] == HEARTS) == 13:
            return seat
    return None


def hand_points(state: HeartsState, shooter: int | None, choice: str | None) -> tuple[list[int], list[int]]:
    """Each seat's points for the hand, and the seats given the no-trick bonus.

    A moon moves only the 26 heart and Q♠ points; J♦ keeps its value for whoever took
    it, which is how the Sweedo moon comes to -36 (-26 - 10) or -10 and +26 for the rest.
    """
    options = state["options"]
    jack = options["jack_of_diamonds"]
    if shooter is not None:
        points = []
        for seat, taken in enumerate(state["taken"]):
            own_jack = jack if JACK in taken else 0
            if choice == MINUS_SELF:
                base = -MOON_POINTS if seat == shooter else 0
            else:
                base = 0 if seat == shooter else MOON_POINTS
            points.append(base + own_jack)
        return points, []
    points = [sum(card_points(c, jack) for c in taken) for taken in state["taken"]]
    bonus = options["no_trick_bonus"]
    no_trick = [s for s in range(PLAYERS) if state["tricks_taken"][s] == 0] if bonus else []
    for seat in no_trick:
        points[seat] += bonus
    return points, no_trick


def match_decided(totals: list[int], options: HeartsOptions) -> bool:
    target = options["target"]
    if options["end_when"] == "exceeded":
        return any(t > target for t in totals)
    return any(t >= target for t in totals)


def _copy(state: HeartsState) -> HeartsState:
    return copy_state(
        state,
        lists=("passes", "received", "trick", "tricks_taken", "points_taken", "scores", "ready"),
        nested=("hands", "taken"),
    )


def _is_card(value: object) -> bool:
    return isinstance(value, str) and cards.is_card(value)


class Hearts(Game[HeartsState]):
    key = "hearts"
    name = "Hearts"
    min_players = PLAYERS
    max_players = PLAYERS
    option_set = OPTIONS
    action_fields = ACTION_FIELDS
    phase_actions = PHASE_ACTION
    lowest_wins = True  # penalty points

    # -- set-up ---------------------------------------------------------------------

    def seat_count(self, options: dict[str, Any]) -> int:
        return PLAYERS

    def team_choice(self, options: dict[str, Any]) -> TeamChoice | None:
        # Everyone plays alone.
        return None

    def seat_teams(self, state: HeartsState) -> list[int] | None:
        return None

    def result_sides(self, result: dict[str, Any]) -> list[list[int]]:
        return [[seat] for seat in range(len(result["scores"]))]

    def game_options(self, options: dict[str, Any] | None) -> HeartsOptions:
        """The game's own options, complete: a room's validated options (which also hold
        timing options and the preset's name) or a partial dict, as tests pass."""
        raw = {k: v for k, v in (options or {}).items() if k in OPTION_NAMES or k == "preset"}
        checked = self.option_set.validate(raw)
        # Validated against OPTIONS, whose names, kinds and choices HeartsOptions spells.
        return cast(HeartsOptions, {name: checked[name] for name in sorted(OPTION_NAMES)})

    def new_round(
        self,
        *,
        options: dict[str, Any],
        players: int = PLAYERS,
        seed: int,
        carry: dict[str, Any] | None = None,
        deal: object = None,
        fair: fairness.Inputs | None = None,
    ) -> HeartsState:
        if players != PLAYERS:
            raise RuleError("invalid", gettext_noop("Hearts is played by four."), "players")
        opts = self.game_options(options)
        carry = carry or {}
        number = int(carry.get("round", 1))
        scores = [int(s) for s in carry.get("scores", [0] * PLAYERS)]
        dealer = int(carry.get("dealer", 0)) % PLAYERS
        dealt = None
        if deal is not None:
            hands = self._check_deal(deal)
        elif fair is not None:
            dealt = fairness.dealt(fairness.card_deck(1), fair, 0, PLAYERS, HAND_SIZE)
            hands = [cards.sorted_hand(h) for h in dealt["hands"]]
        else:
            hands = cards.deal(cards.shuffled(cards.deck(), random.Random(seed)), PLAYERS)
        direction = pass_direction(number, opts["fourth_hand"])
        state: HeartsState = {
            "game": self.key,
            "players": PLAYERS,
            "options": opts,
            "round": number,
            "dealer": dealer,
            "phase": PASS,
            "pass_direction": direction,
            "hands": hands,
            "passes": [None] * PLAYERS,
            "received": [None] * PLAYERS,
            "trick": [],
            "turn": None,
            "tricks_played": 0,
            "last_trick": None,
            "hearts_broken": False,
            "taken": [[] for _ in range(PLAYERS)],
            "tricks_taken": [0] * PLAYERS,
            "points_taken": [0] * PLAYERS,
            "scores": scores,
            "moon_shooter": None,
            "result": None,
            "ready": [],
        }
        if fair is not None and dealt is not None:
            state["fair"] = {**fair.as_json(), "deals": [dealt]}
        if direction == "hold":
            self._start_play(state)
        return state

    @staticmethod
    def _check_deal(deal: object) -> list[list[str]]:
        hands = tricks.check_deal(deal, players=PLAYERS, stock=cards.deck(), is_piece=_is_card, hand_size=HAND_SIZE)
        return [cards.sorted_hand(h) for h in hands]

    # -- reading the state ------------------------------------------------------------

    def to_act(self, state: HeartsState) -> list[int]:
        phase = state["phase"]
        if phase == PASS:
            return [s for s in range(PLAYERS) if state["passes"][s] is None]
        if phase == PLAY:
            return [present(state["turn"])]
        if phase == MOON_CHOICE:
            return [present(state["moon_shooter"])]
        if phase == ROUND_OVER:
            return round_over_to_act(state)
        return []

    def legal_actions(self, state: HeartsState, seat: int, *, with_claim: bool = True) -> list[Action]:
        if not is_int(seat) or seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == PASS:
            template: Action = {
                "type": "pass_cards",
                "count": PASS_COUNT,
                "choices": list(state["hands"][seat]),
            }
            if state["pass_direction"] == "funky":
                template["to"] = [s for s in range(PLAYERS) if s != seat]
            return [template]
        if phase == PLAY:
            claim = with_claim and self._claim_line(state, seat) is not None
            return [*_plays(state), *([claims.claim_action()] if claim else [])]
        if phase == MOON_CHOICE:
            return [{"type": "moon_choice", "choice": c} for c in MOON_CHOICES]
        if phase == ROUND_OVER:
            return [{"type": "next_round"}]
        return []

    def carry(self, state: HeartsState) -> dict[str, Any]:
        return carry_to_next_dealer(state)

    def _claim_line(self, state: HeartsState, seat: int) -> Line | None:
        # No partnerships in Hearts: the claimant alone must take every trick. All 52
        # cards are dealt: what it cannot see is the other hands together.
        unseen = claims.others_hands(state, seat)
        return claims.judge(
            state, seat, [seat], plays=_plays, step=self._apply_play, winner=_trick_winner, unseen=unseen
        )

    # -- acting -----------------------------------------------------------------------

    def handlers(self) -> dict[str, Handler[HeartsState]]:
        return {
            "pass_cards": self._apply_pass,
            "play": self._apply_play,
            "moon_choice": self._apply_moon_choice,
            claims.CLAIM: self._apply_claim,
        }

    def copied(self, state: HeartsState) -> HeartsState:
        return _copy(state)

    def _apply_claim(self, state: HeartsState, seat: int, action: SentAction) -> Applied[HeartsState]:
        return claims.apply_claim(state, seat, line=self._claim_line(state, seat), plays=_plays, step=self._apply_play)

    # passing

    def _check_pass(self, state: HeartsState, seat: int, action: SentAction) -> PassChoice:
        """The chosen cards, sorted (standard), or seat → card (funky); else a RuleError."""
        funky = state["pass_direction"] == "funky"
        if funky:
            targets, picked, attr = _funky_picks(action, seat)
        else:
            targets, picked, attr = [], _standard_picks(action), "cards"
        if len(set(picked)) != len(picked):
            raise RuleError("bad_pass", gettext_noop("The same card cannot be passed twice."), attr)
        hand = state["hands"][seat]
        for card in picked:
            if card not in hand:
                # Translators: the card is its code, as the API writes it (QS: the queen of spades).
                raise RuleError("card_not_in_hand", gettext_noop("You do not hold %(card)s."), attr, card=card)
        if funky:
            return dict(sorted(zip(targets, picked, strict=True)))
        return cards.sorted_hand(picked)

    def _apply_pass(self, state: HeartsState, seat: int, action: SentAction) -> Applied[HeartsState]:
        chosen = self._check_pass(state, seat, action)
        new = _copy(state)
        new["passes"][seat] = chosen
        private: dict[str, Any] = {"type": "pass_chosen", "seat": seat}
        if isinstance(chosen, dict):
            private["to"] = dict(chosen)
        else:
            private["cards"] = list(chosen)
        events = [Event({"type": "passed", "seat": seat}), Event(private, [seat])]
        if all(p is not None for p in new["passes"]):
            self._exchange(new, events)
        return Applied(new, events)

    def _exchange(self, state: HeartsState, events: list[Event]) -> None:
        """Move every chosen card at once: nobody saw what they get before choosing."""
        hands = state["hands"]
        moves: list[tuple[int, int, list[str]]] = []
        for giver, chosen in enumerate(state["passes"]):
            if isinstance(chosen, dict):
                moves.extend((giver, int(to), [card]) for to, card in chosen.items())
            elif chosen is not None:  # every seat has chosen by now
                moves.append((giver, (giver + PASS_OFFSET[state["pass_direction"]]) % PLAYERS, chosen))
        for giver, _, moved in moves:
            hands[giver] = [c for c in hands[giver] if c not in moved]
        received: list[Received | list[Received] | None] = [None] * PLAYERS
        for giver, receiver, moved in moves:
            hands[receiver].extend(moved)
            entry: Received = {"from": giver, "cards": list(moved)}
            if state["pass_direction"] == "funky":
                earlier = received[receiver]
                received[receiver] = [*(earlier if isinstance(earlier, list) else []), entry]
            else:
                received[receiver] = entry
            events.append(
                Event(
                    {"type": "cards_passed", "from": giver, "to": receiver, "cards": list(moved)},
                    [giver, receiver],
                )
            )
        for seat in range(PLAYERS):
            hands[seat] = cards.sorted_hand(hands[seat])
            got = received[seat]
            if isinstance(got, list):
                got.sort(key=lambda e: e["from"])
        state["received"] = received
        self._start_play(state)
        done = {"type": "pass_complete", "direction": state["pass_direction"], "leader": state["turn"]}
        events.append(Event(done))

    @staticmethod
    def _start_play(state: HeartsState) -> None:
        state["phase"] = PLAY
        state["turn"] = next(s for s, h in enumerate(state["hands"]) if TWO_CLUBS in h)

    # playing

    def _check_play(self, state: HeartsState, seat: int, card: object) -> str:
        """The card, once the rules allow `seat` to play it now; else a RuleError."""
        if not isinstance(card, str):
            raise RuleError("invalid", gettext_noop("'card' must be a card code (rank then suit)."), "card")
        hand = state["hands"][seat]
        if card not in hand:
            raise RuleError("card_not_in_hand", gettext_noop("That card is not in your hand."), "card")
        trick = state["trick"]
        first = state["tricks_played"] == 0
        if not trick:
            if first:
                if state["options"]["lead_any_club"]:
                    if card[1] != "C":
                        detail = gettext_noop("The first trick must be led with a club.")
                        raise RuleError("must_lead_two_of_clubs", detail, "card")
                elif card != TWO_CLUBS:
                    raise RuleError(
                        "must_lead_two_of_clubs", gettext_noop("The first trick must be led with 2♣."), "card"
                    )
                return card
            if card[1] == HEARTS and not state["hearts_broken"] and not may_lead_hearts(hand):
                raise RuleError(
                    "hearts_not_broken", gettext_noop("Hearts may not be led before they are broken."), "card"
                )
            return card
        led = trick[0]["card"][1]
        if card[1] != led and tricks.holds_suit(hand, led):
            raise RuleError("must_follow_suit", FOLLOW[led], "card")
        points_card = card[1] == HEARTS or card == QUEEN
        if first and points_card and any(c[1] != HEARTS and c != QUEEN for c in hand):
            raise RuleError("no_points_on_first_trick", gettext_noop("No heart or Q♠ on the first trick."), "card")
        return card

    def _apply_play(self, state: HeartsState, seat: int, action: SentAction) -> Applied[HeartsState]:
        card = self._check_play(state, seat, action.get("card"))
        new = _copy(state)
        new["hands"][seat].remove(card)
        new["trick"].append({"seat": seat, "card": card})
        events = [Event({"type": "play", "seat": seat, "card": card})]
        if not new["hearts_broken"] and (
            card[1] == HEARTS or (card == QUEEN and new["options"]["queen_breaks_hearts"])
        ):
            new["hearts_broken"] = True
            events.append(Event({"type": "hearts_broken", "seat": seat, "card": card}))
        if len(new["trick"]) < PLAYERS:
            new["turn"] = (seat + 1) % PLAYERS
            return Applied(new, events)
        self._finish_trick(new, events)
        return Applied(new, events)

    def _finish_trick(self, state: HeartsState, events: list[Event]) -> None:
        trick = state["trick"]
        played = [p["card"] for p in trick]
        winner = trick[_trick_winner(state, played)]["seat"]
        jack = state["options"]["jack_of_diamonds"]
        points = sum(card_points(c, jack) for c in played)
        state["taken"][winner].extend(played)
        state["tricks_taken"][winner] += 1
        state["points_taken"][winner] += points
        state["tricks_played"] += 1
        state["last_trick"] = {"cards": trick, "winner": winner}
        state["trick"] = []
        won = {"type": "trick_won", "winner": winner, "points": points, "trick": state["tricks_played"]}
        events.append(Event(won))
        if state["tricks_played"] < HAND_SIZE:
            state["turn"] = winner
            return
        state["turn"] = None
        shooter = shooter_of(state)
        if shooter is not None and state["options"]["moon"] != "others_plus_26":
            state["phase"] = MOON_CHOICE
            state["moon_shooter"] = shooter
            events.append(Event({"type": "moon_shot", "shooter": shooter, "choice": None}))
            return
        if shooter is not None:
            state["moon_shooter"] = shooter
            events.append(Event({"type": "moon_shot", "shooter": shooter, "choice": PLUS_OTHERS}))
        self._score(state, events, shooter, PLUS_OTHERS if shooter is not None else None)

    def _apply_moon_choice(self, state: HeartsState, seat: int, action: SentAction) -> Applied[HeartsState]:
        choice = action.get("choice")
        if not isinstance(choice, str) or choice not in MOON_CHOICES:
            raise RuleError("invalid", gettext_noop("Choose 'minus_self' or 'plus_others'."), "choice")
        new = _copy(state)
        events = [Event({"type": "moon_chosen", "seat": seat, "choice": choice})]
        self._score(new, events, seat, choice)
        return Applied(new, events)

    def _score(self, state: HeartsState, events: list[Event], shooter: int | None, choice: str | None) -> None:
        points, no_trick = hand_points(state, shooter, choice)
        totals = [a + b for a, b in zip(state["scores"], points, strict=True)]
        over = match_decided(totals, state["options"])
        low = min(totals)
        result: HeartsResult = {
            "round": state["round"],
            "points": points,
            "scores": totals,
            "tricks": list(state["tricks_taken"]),
            "moon": None if shooter is None else {"shooter": shooter, "choice": choice},
            "no_trick": no_trick,
            "match_over": over,
            "winners": [s for s, t in enumerate(totals) if t == low] if over else [],
        }
        record_result(state, events, result)

    # -- what a viewer may know -------------------------------------------------------

    def view(self, state: HeartsState, seat: int | None) -> dict[str, Any]:
        to_act = self.to_act(state)
        phase = state["phase"]
        result = state["result"]
        trick = state["trick"]
        seats = [
            {
                "seat": s,
                "cards_left": len(state["hands"][s]),
                "tricks_taken": state["tricks_taken"][s],
                "points_taken": state["points_taken"][s],
                "passed": state["passes"][s] is not None,
                "ready": s in state["ready"],
            }
            for s in range(PLAYERS)
        ]
        out: dict[str, Any] = {
            "game": self.key,
            "phase": phase,
            "round": state["round"],
            "dealer": state["dealer"],
            "to_act": to_act,
            "pass_direction": state["pass_direction"],
            "seats": seats,
            **tricks.trick_view(trick, state["last_trick"]),
            "led_suit": trick[0]["card"][1] if trick else None,
            "tricks_played": state["tricks_played"],
            "hearts_broken": state["hearts_broken"],
            "trump": None,
            "bid": None,
            "moon_shooter": state["moon_shooter"],
            "scores": running_scores(state),
            "last_round": _copy_result(result)
            if result is not None and phase in (ROUND_OVER, MATCH_OVER, COMPLETE)
            else None,
        }
        if is_int(seat) and 0 <= seat < PLAYERS:
            chosen = state["passes"][seat]
            received = state["received"][seat]
            out["you"] = {
                # Hands are kept sorted: dealt sorted, re-sorted after the pass.
                **self.own_view(state, seat, to_act, list(state["hands"][seat])),
                "pass_chosen": _copy_pass(chosen),
                "received": _copy_received(received),
            }
        return out

    # -- the computer player ----------------------------------------------------------

    def bot_action(self, state: HeartsState, seat: int) -> Action:
        legal = self.bot_legal_actions(state, seat)
        phase = state["phase"]
        options = state["options"]
        if phase == PASS:
            return hearts_bot.choose_pass(
                hand=state["hands"][seat],
                to=legal[0].get("to"),
                scores=state["scores"],
                jack=options["jack_of_diamonds"],
            )
        if phase == PLAY:
            return {"type": "play", "card": hearts_bot.choose_play(self._table(state, seat))}
        if phase == MOON_CHOICE:
            outcomes = {}
            for choice in MOON_CHOICES:
                points, _ = hand_points(state, seat, choice)
                totals = [a + b for a, b in zip(state["scores"], points, strict=True)]
                outcomes[choice] = (totals, match_decided(totals, options))
            return {"type": "moon_choice", "choice": hearts_bot.choose_moon(seat, outcomes)}
        return dict(legal[0])

    @staticmethod
    def _table(state: HeartsState, seat: int) -> hearts_bot.Table:
        """Only what `seat` may know: its hand, the cards on the table and those played before."""
        played = {c for pile in state["taken"] for c in pile}
        return hearts_bot.Table(
            seat=seat,
            hand=list(state["hands"][seat]),
            legal=legal_cards(state, seat),
            trick=[(p["seat"], p["card"]) for p in state["trick"]],
            played=played,
            jack=state["options"]["jack_of_diamonds"],
        )


def _standard_picks(action: SentAction) -> list[str]:
    picked = action.get("cards")
    if not isinstance(picked, list) or "to" in action:
        raise RuleError("bad_pass", gettext_noop("Pass a list of card codes: 'cards'."), "cards")
    if not all(_is_card(c) for c in picked):
        raise RuleError("bad_pass", gettext_noop("Every passed card must be a card code."), "cards")
    if len(picked) != PASS_COUNT:
        raise RuleError("wrong_count", gettext_noop("Pass exactly %(count)s cards."), "cards", count=PASS_COUNT)
    return list(picked)


def _funky_picks(action: SentAction, seat: int) -> tuple[list[str], list[str], str]:
    """(receiving seats as strings, cards, the field naming the cards) of a funky pass,
    checked for shape. The pass is `cards` with `to`, a list of seats: `cards[i]` goes to
    `to[i]`; or, as v1 clients first sent it, `to` alone as a map of seat to card."""
    to = action.get("to")
    if isinstance(to, dict) and "cards" not in action:
        return (*_funky_map_picks(to, seat), "to")
    if not isinstance(to, list):
        raise RuleError(
            "bad_pass", gettext_noop("A funky pass names the seat each card goes to: 'to', a list of seats."), "to"
        )
    others = [s for s in range(PLAYERS) if s != seat]
    for target in to:
        if not is_int(target) or target not in others:
            raise RuleError("bad_pass", gettext_noop("Name each of the other three seats in 'to' by its number."), "to")
    if len(set(to)) != len(to):
        raise RuleError("bad_pass", gettext_noop("Name each of the other three seats in 'to' once."), "to")
    if len(to) != PASS_COUNT:
        detail = gettext_noop("Name each of the other %(count)s seats in 'to'.")
        raise RuleError("wrong_count", detail, "to", count=PASS_COUNT)
    picked = action.get("cards")
    if not isinstance(picked, list):
        raise RuleError(
            "bad_pass", gettext_noop("A funky pass names its cards in 'cards', one for each seat of 'to'."), "cards"
        )
    if not all(_is_card(c) for c in picked):
        raise RuleError("bad_pass", gettext_noop("Every passed card must be a card code."), "cards")
    if len(picked) != PASS_COUNT:
        detail = gettext_noop("Pass exactly %(count)s cards, one for each seat of 'to'.")
        raise RuleError("wrong_count", detail, "cards", count=PASS_COUNT)
    return [str(s) for s in to], list(picked), "cards"


def _funky_map_picks(to: dict[Any, Any], seat: int) -> tuple[list[str], list[str]]:
    """(receiving seats as strings, cards) of a funky pass sent as a map of seat to card."""
    others = {str(s) for s in range(PLAYERS) if s != seat}
    chosen: dict[str, str] = {}
    for key, card in to.items():
        # JSON keys are strings; a Python caller may use ints.
        name = str(key) if isinstance(key, int) and not isinstance(key, bool) else key
        if not isinstance(name, str) or name not in others or name in chosen:
            raise RuleError("bad_pass", gettext_noop("Pass one card to each of the other three seats."), "to")
        if not _is_card(card):
            raise RuleError("bad_pass", gettext_noop("Each seat gets one card code."), "to")
        chosen[name] = card
    if len(chosen) != PASS_COUNT:
        detail = gettext_noop("Pass exactly %(count)s cards, one to each other seat.")
        raise RuleError("wrong_count", detail, "to", count=PASS_COUNT)
    return list(chosen), list(chosen.values())


def _copy_result(result: HeartsResult) -> dict[str, Any]:
    return {
        **result,
        "points": list(result["points"]),
        "scores": list(result["scores"]),
        "tricks": list(result["tricks"]),
        "no_trick": list(result["no_trick"]),
        "winners": list(result["winners"]),
        "moon": None if result["moon"] is None else dict(result["moon"]),
    }


def _copy_pass(chosen: PassChoice | None) -> PassChoice | None:
    if chosen is None:
        return None
    return dict(chosen) if isinstance(chosen, dict) else list(chosen)


def _copy_received(received: Received | list[Received] | None) -> dict[str, Any] | list[dict[str, Any]] | None:
    if received is None:
        return None
    if isinstance(received, list):
        return [{"from": e["from"], "cards": list(e["cards"])} for e in received]
    return {"from": received["from"], "cards": list(received["cards"])}
