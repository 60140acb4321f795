"""The languages a person reads the server in (settings.LANGUAGES), and which one a
request, an account or a notice is answered in.

A person's language is their account's (`User.language`, chosen in Settings or through
`me`; a new account starts in the language its sign-up asked in). A page for someone
signed in with a session is in their account's language; for anyone else in the
language their browser asks for (`Accept-Language`, or the `django_language` cookie a
page set), else English. The API answers each request in the language it asks for
(`Accept-Language`), else English: an app chooses its own. Whatever a person is sent
without asking (a mail, a push notice, a notice on their socket) is in their account's
language, whoever or whatever caused it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.utils import translation


def codes() -> list[str]:
    """The codes of the languages the server speaks, English first."""
    return [code for code, _ in settings.LANGUAGES]


def supported(code: str | None) -> str | None:
    """`code` as one of the server's languages (`es-MX` is `es`), or None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def of_user(user: Any) -> str:
    """The language to write to `user` in: their account's, else the server's default."""
    return supported(getattr(user, "language", "")) or settings.LANGUAGE_CODE


@contextmanager
def speaking_to(user: Any) -> Iterator[str]:
    """Translate what is made inside the block for `user` (a mail, a push notice), then
    go back to the language that was active."""
    language = of_user(user)
    with translation.override(language):
        yield language
