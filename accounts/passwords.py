"""The link that resets a forgotten password: Django's own password-reset tokens
(`PasswordResetTokenGenerator`), which work once and for a short while.

Once: the token is a keyed hash of the account's password hash and last sign-in among
other things, so setting a new password (or signing in) makes it stop working. Short:
it carries its time, and `PASSWORD_RESET_TIMEOUT` (seconds) bounds its age. The account
is named by its id in base 36 before the hash (`<id>-<hash>`); the link carries the token
in its fragment (`/reset-password#<token>`), which no request sends, so it stays out of
every access log on the way.
"""

from __future__ import annotations

from django.contrib.auth.tokens import default_token_generator
from django.utils.http import base36_to_int, int_to_base36

from .models import User

# Where the web client reads the token.
RESET_PATH = "/reset-password#"


def reset_token(user: User) -> str:
    """A token that resets `user`'s password, for the mailed link."""
    return f"{int_to_base36(user.pk)}-{default_token_generator.make_token(user)}"


def reset_token_valid(user: User, token: str) -> bool:
    """Whether `token` resets `user`'s password now."""
    return default_token_generator.check_token(user, token.partition("-")[2])


def reset_token_account(token: str) -> int | None:
    """The id of the account `token` names, or None when it names none."""
    head, _, rest = token.partition("-")
    if not rest or len(token) > 100:
        return None
    try:
        return base36_to_int(head)
    except ValueError:
        return None
