"""The errors of games' services: a rule's refusal as a ServiceError, and the room's
own refusals (their codes are in games/error_codes.py)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ServiceError

from . import names
from .error_codes import CODES, RULE_CODES
from .rules.errors import Plural, RuleError

__all__ = ["ServiceError", "from_rule", "not_found", "not_host", "not_seated", "rule_detail"]

# Rule codes that are about timing rather than the move itself answer 409.
CONFLICT_RULE_CODES = frozenset(code for code in RULE_CODES if code in CODES and CODES[code][0] == 409)


def from_rule(err: RuleError) -> ServiceError:
    return ServiceError(err.code, rule_detail(err), 409 if err.code in CONFLICT_RULE_CODES else 400, err.attr)


def rule_detail(err: RuleError) -> str:
    """A rule's refusal in the active language: the engine's English template looked up
    in the catalogues (English where they lack it), then filled in with its parameters."""
    template = err.template
    if isinstance(template, Plural):
        sentence = ngettext(template.singular, template.plural, template.number)
    else:
        sentence = _(template)
    if not err.params:
        return sentence
    # A game quoted by its engine's English name is named in the sentence's language.
    params = {**err.params, "game": names.name_for(str(err.params["game"]))} if "game" in err.params else err.params
    return sentence % params


def not_found() -> ServiceError:
    return ServiceError("not_found", _("No such room."), 404)


def not_seated() -> ServiceError:
    return ServiceError("not_seated", _("You do not have a seat in this room."), 403)


def not_host() -> ServiceError:
    return ServiceError("not_host", _("Only the host may do that."), 403)
