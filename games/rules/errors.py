"""The one exception type the engines raise for anything a player may not do, and what
its detail may quote of an action (`shown_name`, the API's rule too, kept in core).

A refusal's sentence is English, kept as its template and its parameters apart: the
engines know no language, and the API translates the template into the request's
language before it fills it in (games/errors.py). Each template is marked where it is
written, with `gettext_noop` (or `ngettext_lazy` for a sentence about a number), names
that Django's `makemessages` hands to xgettext, so that the catalogues (locale/) hold
every one. A parameter is a code or a number (a card `QS`, a seat, a bid), never words
to translate."""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import shown_name

__all__ = [
    "SHARED_RULE_CODES",
    "Plural",
    "RuleCodes",
    "RuleError",
    "Template",
    "gettext_noop",
    "ngettext_lazy",
    "shown_name",
]

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


@dataclass(frozen=True)
class Plural:
    """A sentence about a number, in its two English forms; a language may have more,
    and its catalogue chooses among them by `number`."""

    singular: str
    plural: str
    number: int


# A refusal's sentence as the engines write it: English, with `%(name)s` placeholders.
Template = str | Plural
# What fills a template's placeholders: codes and numbers.
Param = str | int


def gettext_noop(template: str) -> str:
    """`template` as it is: the mark of a sentence to translate (xgettext's keyword)."""
    return template


def ngettext_lazy(singular: str, plural: str, number: int) -> Plural:
    """A sentence about `number`, in both English forms, marked for the catalogues
    (the keyword of Django's lazy plural): the form is chosen as it is translated."""
    return Plural(singular, plural, number)


def english(template: Template, params: dict[str, Param]) -> str:
    """The sentence in English, filled in."""
    if isinstance(template, Plural):
        template = template.singular if template.number == 1 else template.plural
    return template % params if params else template


class RuleError(Exception):
    """An action the rules refuse, with a stable machine code and a sentence for people.

    The code is part of the public API (see the error list in the OpenAPI description);
    the detail must never reveal hidden information (another player's cards, a partner).
    `detail` is the sentence in English; `template` and `params` are what the API
    translates (games/errors.py).
    """

    def __init__(self, code: str, template: Template, attr: str | None = None, **params: Param) -> None:
        detail = english(template, params)
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.template = template
        self.params = params
        self.attr = attr

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.detail!r})"
