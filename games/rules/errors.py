"""The one exception type the engines raise for anything a player may not do, and what
its detail may quote of an action (`shown_name`, the API's rule too, kept in core)."""

from __future__ import annotations

from core.errors import shown_name

__all__ = ["SHARED_RULE_CODES", "RuleCodes", "RuleError", "shown_name"]

# A rule code: its HTTP status (400 for the move itself, 409 for its timing) and what it
# means, for the API's document.
RuleCodes = dict[str, tuple[int, str]]

# The codes of the shared rules (`base`, `claims`, `options`) and of what trick games
# have in common. A game declares its own beside its schema (`GameSchema.rule_codes`).
SHARED_RULE_CODES: RuleCodes = {
    "must_follow_suit": (400, "You hold the led suit and must play it."),
    "card_not_in_hand": (400, "That card is not in your hand."),
    "tile_not_in_hand": (400, "That tile is not in your hand."),
    "wrong_count": (400, "The wrong number of cards."),
    "bad_suit": (400, "Not a suit of this game."),
    "bid_too_low": (400, "The bid must be higher than the current bid and at least the minimum."),
    "bid_too_high": (400, "The bid is above the maximum."),
    "claim_not_certain": (
        400,
        "A claim of the remaining tricks was refused: it is not certain (or too long to prove) that "
        "your side takes every one whatever anyone plays. Nothing changed; play on.",
    ),
    "unknown_action": (400, "The action's type is not known or the action is malformed."),
    # About timing rather than the move itself.
    "not_your_turn": (409, "It is not your turn (checked before the phase)."),
    "wrong_phase": (409, "That action is not possible in the current phase."),
}


class RuleError(Exception):
    """An action the rules refuse, with a stable machine code and a sentence for people.

    The code is part of the public API (see the error list in the OpenAPI description);
    the detail must never reveal hidden information (another player's cards, a partner).
    """

    def __init__(self, code: str, detail: str, attr: str | None = None) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.attr = attr

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.detail!r})"
