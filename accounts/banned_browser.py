"""A browser that a banned account used is marked, so that its person cannot come back
at once as a guest or a new account.

Two cookies, both signed and HTTP-only. `banned` is set by the answer `401 banned`.
`browser` is set by every sign-up and guest start, a random mark stored on the account
made (`User.browser_mark`): a moderator sees, on a player's page, the other accounts made
from the same browser, and a sign-up from a browser that a banned account was made from
is refused too, whether or not that person ever met the `banned` answer.

The answer `401 banned` (a banned account's token, or its sign-in with the right
password) sets a signed, HTTP-only cookie naming the account; `POST auth/guest` from a
browser that carries it is refused with the same `banned` answer while the ban lasts
(an unban lifts it: the cookie is read against the account as it is now).

Its limits, by design: a browser whose cookies are cleared, another browser or device,
or an app that keeps no cookies is not marked. Addresses are not used: many players
share one (a household, a school, a phone carrier), and refusing them all for one ban
would lock out people who did nothing.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponseBase

COOKIE = "banned"
SALT = "accounts.banned-browser"
MARK_COOKIE = "browser"
MARK_SALT = "accounts.browser-mark"
# As long as a ban may last: until a moderator lifts it.
MAX_AGE_SECONDS = 10 * 365 * 24 * 3600


def _cookie_set(response: HttpResponseBase, name: str, value: object, salt: str) -> None:
    response.set_cookie(
        name,
        signing.dumps(value, salt=salt),
        max_age=MAX_AGE_SECONDS,
        httponly=True,
        secure=settings.SESSION_COOKIE_SECURE,
        samesite="Lax",
    )


def mark(response: HttpResponseBase, user_id: int) -> None:
    """Mark the browser that receives `response` as a banned account's."""
    _cookie_set(response, COOKIE, user_id, SALT)


def marked_user_id(request: HttpRequest) -> int | None:
    """The banned account the browser making `request` was marked with, if any."""
    raw = request.COOKIES.get(COOKIE)
    if not raw:
        return None
    try:
        user_id = signing.loads(raw, salt=SALT)
    except signing.BadSignature:
        return None
    return user_id if isinstance(user_id, int) else None


def browser_mark_of(request: HttpRequest) -> str | None:
    """The mark the browser making `request` carries, if it carries a good one."""
    raw = request.COOKIES.get(MARK_COOKIE)
    if not raw:
        return None
    try:
        mark = signing.loads(raw, salt=MARK_SALT)
    except signing.BadSignature:
        return None
    return mark if isinstance(mark, str) and len(mark) == 32 else None


def browser_mark_new() -> str:
    return secrets.token_hex(16)


def browser_mark_set(response: HttpResponseBase, mark: str) -> None:
    """Give the browser that receives `response` its mark (again: the cookie lasts)."""
    _cookie_set(response, MARK_COOKIE, mark, MARK_SALT)
