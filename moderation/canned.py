"""The fixed warnings a moderator starts from (and may write over). A fixed one is sent
by its key, so that the person reads it in their own language, whatever the moderator's;
a moderator's own words go as they were written."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

CANNED_WARNINGS: dict[str, Promise] = {
    "offensive_language": _("Please keep table talk friendly: offensive language is not allowed here."),
    "stalling": _("Please do not stall or leave games: your opponents wait for you."),
    "cheating": _("Sharing cards or playing with a partner outside the rules is cheating, and is not allowed here."),
    "name": _("Your display name is not acceptable here: please change it in Settings."),
}


def canned_text(key: str) -> str:
    """The fixed warning `key` in the active language; empty for no such key."""
    found = CANNED_WARNINGS.get(key)
    return str(found) if found is not None else ""


def canned_english(key: str) -> str:
    """The fixed warning `key` in the server's own language, as the log keeps it."""
    with translation.override(settings.LANGUAGE_CODE):
        return canned_text(key)
