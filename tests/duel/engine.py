"""Duel's rules. A hand: the dealer's left leads; each player follows suit if able; the
highest card of the suit led wins the trick and leads the next. Each trick taken scores a
point; the match is `hands` hands long and the lowest total wins (ties share it)."""

from __future__ import annotations

import random
from typing import Any, cast

from games.rules import cards, fairness, tricks
from games.rules.base import (
    ROUND_OVER,
    Action,
    Applied,
    Event,
    Game,
    Handler,
    ScoredHand,
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
from games.rules.errors import RuleError, gettext_noop
from games.rules.options import Option, OptionSet

from . import bot
from .state import DuelOptions, DuelState

PLAY = "play"
DECK = tuple(r + s for s in "SH" for r in "9TJQKA")
PHASE_ACTION = {PLAY: (PLAY,), ROUND_OVER: ("next_round",)}
ACTION_FIELDS = {PLAY: frozenset({"card"}), "next_round": frozenset()}
OPTIONS = OptionSet(
    (
        Option("players", 2, "Two players, six cards each; or three, four each.", choices=(2, 3), kind="integer"),
        Option("hands", 2, "Hands in a match.", choices=(1, 2), kind="integer"),
    ),
)
OPTION_NAMES = frozenset(o.name for o in OPTIONS.options)


def _copy(state: DuelState) -> DuelState:
    return copy_state(state, lists=("trick", "tricks_taken", "taken"), nested=("hands",))


def legal_cards(state: DuelState, seat: int) -> list[str]:
    hand = state["hands"][seat]
    if not state["trick"]:
        return list(hand)
    return tricks.follow_suit(hand, state["trick"][0]["card"][1])


def _copy_result(result: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, list) else v for k, v in result.items()}


class Duel(Game[DuelState]):
    key = "duel"
    name = "Duel"
    min_players = 2
    max_players = 3
    option_set = OPTIONS
    action_fields = ACTION_FIELDS
    phase_actions = PHASE_ACTION
    lowest_wins = True  # every trick is a point against

    def team_choice(self, options: dict[str, Any]) -> TeamChoice | None:
        return None  # two players, each alone

    def seat_teams(self, state: DuelState) -> list[int] | None:
        return None

    def result_sides(self, result: dict[str, Any]) -> list[list[int]]:
        return [[seat] for seat in range(len(result["scores"]))]

    def seat_count(self, options: dict[str, Any]) -> int:
        return int(options.get("players", 2))

    def new_round(
        self,
        *,
        options: dict[str, Any],
        players: int,
        seed: int,
        carry: dict[str, Any] | None,
        deal: Any = None,
        fair: fairness.Inputs | None = None,
    ) -> DuelState:
        opts = cast(DuelOptions, {o.name: options.get(o.name, o.default) for o in OPTIONS.options})
        if players != opts["players"]:
            detail = gettext_noop("The table has as many seats as the 'players' option says.")
            raise RuleError("invalid", detail, "players")
        size = len(DECK) // players
        carry = carry or {}
        dealer = int(carry.get("dealer", 0)) % players
        dealt = None
        if deal is not None:
            hands = [list(h) for h in deal]
        elif fair is not None:
            dealt = fairness.dealt(DECK, fair, 0, players, size)
            hands = dealt["hands"]
        else:
            shuffled = list(DECK)
            random.Random(seed).shuffle(shuffled)
            hands = [shuffled[s * size : (s + 1) * size] for s in range(players)]
        state: DuelState = {
            "game": self.key,
            "players": players,
            "options": opts,
            "round": int(carry.get("round", 1)),
            "dealer": dealer,
            "phase": PLAY,
            "hands": [cards.sorted_hand(h) for h in hands],
            "trick": [],
            "turn": (dealer + 1) % players,
            "tricks_played": 0,
            "last_trick": None,
            "tricks_taken": [0] * players,
            "taken": [[] for _ in range(players)],
            "scores": [int(s) for s in carry.get("scores", [0] * players)],
            "result": None,
            "ready": [],
        }
        if fair is not None and dealt is not None:
            state["fair"] = {**fair.as_json(), "deals": [dealt]}
        return state

    def to_act(self, state: DuelState) -> list[int]:
        if state["phase"] == PLAY:
            return [present(state["turn"])]
        if state["phase"] == ROUND_OVER:
            return round_over_to_act(state)
        return []

    def legal_actions(self, state: DuelState, seat: int, *, with_claim: bool = True) -> list[Action]:
        if not is_int(seat) or seat not in self.to_act(state):
            return []
        if state["phase"] == PLAY:
            return [{"type": PLAY, "card": c} for c in legal_cards(state, seat)]
        return [{"type": "next_round"}]

    # `apply`, the base's, checks each action (its shape, the turn, its type and fields,
    # the phase) and hands it to the handler of its type; `next_round` is the base's too.
    def handlers(self) -> dict[str, Handler[DuelState]]:
        return {PLAY: self._apply_play}

    def copied(self, state: DuelState) -> DuelState:
        return _copy(state)

    def _apply_play(self, state: DuelState, seat: int, action: SentAction) -> Applied[DuelState]:
        card = action.get("card")
        if not isinstance(card, str) or card not in state["hands"][seat]:
            raise RuleError("card_not_in_hand", gettext_noop("That card is not in your hand."), "card")
        if card not in legal_cards(state, seat):
            raise RuleError("must_follow_suit", gettext_noop("You must follow suit."), "card")
        new = _copy(state)
        new["hands"][seat].remove(card)
        new["trick"].append({"seat": seat, "card": card})
        events = [Event({"type": "play", "seat": seat, "card": card})]
        if len(new["trick"]) < new["players"]:
            new["turn"] = (seat + 1) % new["players"]
        else:
            self._finish_trick(new, events)
        return Applied(new, events)

    def _finish_trick(self, state: DuelState, events: list[Event]) -> None:
        played = [p["card"] for p in state["trick"]]
        winner = state["trick"][tricks.winning_index(played)]["seat"]
        state["tricks_taken"][winner] += 1
        state["taken"][winner] = [*state["taken"][winner], *played]
        state["tricks_played"] += 1
        state["last_trick"] = {"cards": state["trick"], "winner": winner}
        state["trick"] = []
        state["turn"] = winner
        events.append(Event({"type": "trick_won", "winner": winner, "trick": state["tricks_played"]}))
        if any(state["hands"]):
            return
        state["turn"] = None
        totals = [a + b for a, b in zip(state["scores"], state["tricks_taken"], strict=True)]
        over = state["round"] >= state["options"]["hands"]
        result: ScoredHand = {
            "round": state["round"],
            "points": list(state["tricks_taken"]),
            "scores": totals,
            "match_over": over,
            "winners": [s for s, t in enumerate(totals) if t == min(totals)] if over else [],
        }
        record_result(state, events, result)

    def carry(self, state: DuelState) -> dict[str, Any]:
        return carry_to_next_dealer(state)

    def view(self, state: DuelState, seat: int | None) -> dict[str, Any]:
        to_act = self.to_act(state)
        players = state["players"]
        result = state["result"]
        out: dict[str, Any] = {
            "game": self.key,
            "phase": state["phase"],
            "round": state["round"],
            "dealer": state["dealer"],
            "to_act": to_act,
            "seats": [
                {"seat": s, "cards_left": len(state["hands"][s]), "tricks_taken": state["tricks_taken"][s]}
                for s in range(players)
            ],
            **tricks.trick_view(state["trick"], state["last_trick"]),
            "trump": None,
            "bid": None,
            "scores": running_scores(state),
            "last_round": None
            if result is None
            else {k: list(v) if isinstance(v, list) else v for k, v in result.items()},
        }
        if is_int(seat) and 0 <= seat < players:
            out["you"] = self.own_view(state, seat, to_act, list(state["hands"][seat]))
        return out

    def bot_action(self, state: DuelState, seat: int) -> Action:
        legal = self.bot_legal_actions(state, seat)
        if state["phase"] != PLAY:
            return dict(legal[0])
        card = bot.choose_play(legal_cards(state, seat), [p["card"] for p in state["trick"]])
        return {"type": PLAY, "card": card}
