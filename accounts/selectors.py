"""Reads for accounts: the token's user, and what a request that cannot sign in should
be told."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import connection, models
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core import prepared
from core.errors import ServiceError

from . import passwords, usernames
from .models import BannedToken, Block, NameChange, Passkey, SecondFactor, SignIn, User

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

# Named columns, never `u.*`: a prepared statement must keep its result's shape when a
# migration adds a column while a server process holds it.
_COLUMNS: list[str] = [str(f.column) for f in User._meta.concrete_fields]
_ATTNAMES = [f.attname for f in User._meta.concrete_fields]
_COLUMN_LIST = ", ".join(f'u."{c}"' for c in _COLUMNS)
_SIGN_IN = SignIn._meta.db_table
# The account's columns, then the sign-in's id and when it was last used.
_TOKEN_SQL = (
    f'SELECT {_COLUMN_LIST}, t."id", t."last_used_at" FROM "{User._meta.db_table}" u '
    f'JOIN "{_SIGN_IN}" t ON t.user_id = u.id WHERE t.digest = %s'
)


# The same account as one JSON object (NULL for an unknown token), for a statement that
# reads it beside something else: games.store reads a room's table with it, so that a
# table call's authentication and its read are one round trip. One `%s`: the token's
# digest (`token_digest`).
TOKEN_USER_JSON = (
    "(SELECT json_build_object("
    + ", ".join(f"'{c}', u.\"{c}\"" for c in _COLUMNS)
    + ", '.sign_in', t.\"id\", '.sign_in_used', t.\"last_used_at\") "
    f'FROM "{User._meta.db_table}" u JOIN "{_SIGN_IN}" t ON t.user_id = u.id WHERE t.digest = %s)'
)
_TIMES = frozenset(f.column for f in User._meta.concrete_fields if isinstance(f, models.DateTimeField))


def token_digest(key: str) -> str:
    """What is kept of an account token (accounts.models.SignIn)."""
    return SignIn.digest_of(key)


@dataclass(frozen=True)
class SignInRef:
    """Which of the account's sign-ins a token is (`request.auth` of a call made with
    one): the sign-ins list marks it as the caller's own, and its last use is noted at
    most once a minute."""

    id: int
    last_used_at: datetime | None


def _sign_in_of(user: User, sign_in_id: int, last_used: datetime | str | None) -> User:
    if isinstance(last_used, str):
        last_used = datetime.fromisoformat(last_used)
    user.sign_in = SignInRef(sign_in_id, last_used)  # type: ignore[attr-defined]
    return user


def sign_in_of(user: User) -> SignInRef | None:
    """The sign-in a token-authenticated account was read for (None otherwise)."""
    found: SignInRef | None = getattr(user, "sign_in", None)
    return found


def user_from_json(data: dict[str, Any]) -> User:
    """The account as `TOKEN_USER_JSON` wrote it (its times are ISO 8601 text there)."""
    values = [datetime.fromisoformat(data[c]) if c in _TIMES and data[c] is not None else data[c] for c in _COLUMNS]
    return _sign_in_of(User.from_db(connection.alias, _ATTNAMES, values), data[".sign_in"], data[".sign_in_used"])


def user_for_token(*, key: str) -> User | None:
    """The account a token belongs to, active or not; None for an unknown token. The
    account carries which sign-in the token is (`sign_in_of`).

    Every API call and socket asks this, so on PostgreSQL it is one prepared statement
    (DRF's own lookup compiles an ORM query each time, which costs more than running it).
    Nothing is cached: a revoked token or a ban takes effect on the very next request.
    """
    digest = token_digest(key)
    if connection.vendor == "postgresql":
        row = prepared.fetch_one(_TOKEN_SQL, [digest])
        if row is None:
            return None
        return _sign_in_of(User.from_db(connection.alias, _ATTNAMES, row[:-2]), row[-2], row[-1])
    # SQLite (the one-process start) returns dates as text: the ORM converts them.
    found = SignIn.objects.select_related("user").filter(digest=digest).first()
    return None if found is None else _sign_in_of(found.user, found.pk, found.last_used_at)


def user_named(*, username: str) -> User:
    """The account by name, compared as sign-in compares names; 404 `not_found`."""
    # PostgreSQL refuses NUL in text, and no name holds it or runs longer.
    if "\x00" in username or len(username) > (User._meta.get_field("username").max_length or 150):
        raise ServiceError("not_found", _("No such player."), 404)
    try:
        return User.objects.get_by_natural_key(username)
    except User.DoesNotExist:
        raise ServiceError("not_found", _("No such player."), 404) from None


def sign_ins_of(*, user: User) -> models.QuerySet[SignIn]:
    """Where the account is signed in, the latest first."""
    return SignIn.objects.filter(user=user)


@dataclass(frozen=True)
class Clash:
    code: str
    # Lazy: written in the language of the request that reads it (`str(clash.detail)`).
    detail: StrPromise


TAKEN = Clash("username_taken", gettext_lazy("That username is taken."))
CONFUSABLE = Clash("username_confusable", gettext_lazy("That username looks like another account's; choose another."))


def username_clash(*, username: str) -> Clash | None:
    """Why `username` cannot be a new account's name, or None when it can."""
    # An account older than these rules may lack keys (migration 0004), but only where an
    # earlier account has the same ones: looking the keys up finds that one.
    if User.objects.filter(username_key=usernames.canonical(username)).exists():
        return TAKEN
    if User.objects.filter(username_skeleton=usernames.skeleton(username)).exists():
        return CONFUSABLE
    return None


def ban_of_token(*, key: str) -> tuple[str, int] | None:
    """The ban reason and the account, when `key` is a token that a ban revoked (None
    otherwise)."""
    found = BannedToken.objects.filter(digest=BannedToken.digest_of(key), user__banned_at__isnull=False)
    return found.values_list("user__ban_reason", "user_id").first()


def ban_reason_of(*, user_id: int) -> str | None:
    """The ban reason of the account, while it is banned."""
    return User.objects.filter(pk=user_id, banned_at__isnull=False).values_list("ban_reason", flat=True).first()


@dataclass(frozen=True)
class Credentials:
    """What a username and password sign in to: `user` when they are an active account's,
    `ban` (the reason, the account) when they are a banned account's; neither otherwise."""

    user: User | None = None
    ban: tuple[str, int] | None = None
    # The account was closed by its owner within the grace period: signing in restores it.
    closed: bool = False


def credentials_check(*, username: str, password: str) -> Credentials:
    """Check a username and password with exactly one password hash, whatever the
    outcome: an unknown name, a wrong password, an account without a usable password,
    a banned account and a right password all cost the same work (Django's ModelBackend
    does the same for an unknown name; only the right password learns a ban's reason).
    """
    try:
        user = User.objects.get_by_natural_key(username)
    except User.DoesNotExist:
        # The hash a known name would have cost, as django.contrib.auth's backend spends it.
        User().set_password(password)
        return Credentials()
    # Django hashes once here even for an unusable password (a guest's).
    if not user.check_password(password):
        return Credentials()
    return standing_of(user=user)


def standing_of(*, user: User) -> Credentials:
    """What proving to be `user` (its password, its passkey) signs in to."""
    if user.banned_at is not None:
        return Credentials(ban=(user.ban_reason, user.pk))
    if user.closed_at is not None and user.erased_at is None and restorable(user=user, now=timezone.now()):
        return Credentials(user=user, closed=True)
    if not user.is_active:
        return Credentials()
    return Credentials(user=user)


def restorable_until(*, user: User) -> datetime | None:
    """Until when signing in restores the closed account; None for an open one."""
    if user.closed_at is None:
        return None
    return user.closed_at + timedelta(days=settings.ACCOUNT_CLOSURE_GRACE_DAYS)


def restorable(*, user: User, now: datetime) -> bool:
    until = restorable_until(user=user)
    return until is not None and user.erased_at is None and now < until


def closed_accounts_due(*, now: datetime) -> list[User]:
    """Closed accounts whose grace period is over and that are not erased yet."""
    before = now - timedelta(days=settings.ACCOUNT_CLOSURE_GRACE_DAYS)
    return list(User.objects.filter(closed_at__lte=before, erased_at__isnull=True))


def user_of_reset_token(*, token: str) -> User | None:
    """The active account with a password that `token` resets the password of, while the
    token works (accounts.passwords); else None."""
    user_id = passwords.reset_token_account(token)
    if user_id is None:
        return None
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.has_usable_password():
        return None
    return user if passwords.reset_token_valid(user, token) else None


def display_name_changeable_at(*, user: User, now: datetime) -> datetime | None:
    """When the account's display name may change again; None when it may now (a change
    at most once per DISPLAY_NAME_CHANGE_DAYS; choosing it at sign-up is not one)."""
    last = NameChange.objects.filter(user=user).values_list("changed_at", flat=True).first()
    if last is None:
        return None
    allowed = last + timedelta(days=settings.DISPLAY_NAME_CHANGE_DAYS)
    return allowed if allowed > now else None


def name_clash(*, name: str, user: User) -> Clash | None:
    """Why `name` cannot be `user`'s display name: it reads as another account's
    username (the same, or a lookalike); None when it can."""
    others = User.objects.exclude(pk=user.pk)
    if others.filter(username_skeleton=usernames.skeleton(name)).exists():
        return CONFUSABLE
    return None


@dataclass(frozen=True)
class Factors:
    """What signs the account in besides its password."""

    totp: bool
    passkeys: int
    recovery_codes_left: int


def factors_of(*, user: User) -> Factors:
    rows = {f.kind: f for f in SecondFactor.objects.filter(user=user)}
    totp = rows.get(SecondFactor.Kind.TOTP)
    codes = rows.get(SecondFactor.Kind.RECOVERY_CODES)
    totp_on = totp is not None and totp.confirmed_at is not None
    passkeys = Passkey.objects.filter(user=user).count()
    left = len(codes.data.get("digests", [])) if codes and (totp_on or passkeys) else 0
    return Factors(totp=totp_on, passkeys=passkeys, recovery_codes_left=left)


def second_factor_on(*, user: User) -> bool:
    """Whether signing in with the password takes a second step: a code of the
    authenticator app, or a passkey."""
    totp = SecondFactor.objects.filter(user=user, kind=SecondFactor.Kind.TOTP, confirmed_at__isnull=False)
    return totp.exists() or Passkey.objects.filter(user=user).exists()


def passkeys_of(*, user: User) -> list[Passkey]:
    return list(Passkey.objects.filter(user=user).order_by("created_at", "pk"))


def ban_of_browser_mark(*, mark: str) -> tuple[str, int] | None:
    """The ban reason and account of a banned account made from the browser `mark`."""
    found = User.objects.filter(browser_mark=mark, banned_at__isnull=False).order_by("-banned_at")
    return found.values_list("ban_reason", "pk").first()


def accounts_of_browser(*, user: User) -> list[User]:
    """The other accounts made from the browser `user` was made from."""
    if not user.browser_mark:
        return []
    return list(User.objects.filter(browser_mark=user.browser_mark).exclude(pk=user.pk).order_by("date_joined"))


def blocked_either_way(*, user_id: int) -> frozenset[int]:
    """The accounts `user_id` blocked or was blocked by."""
    pairs = Block.objects.filter(models.Q(blocker_id=user_id) | models.Q(blocked_id=user_id))
    return frozenset(a if b == user_id else b for a, b in pairs.values_list("blocker_id", "blocked_id"))


def blocks_of(*, user: User) -> list[Block]:
    """The accounts `user` blocked, the latest first."""
    return list(Block.objects.filter(blocker=user).select_related("blocked").order_by("-created_at", "-pk"))
