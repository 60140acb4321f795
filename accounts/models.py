from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Case, Q, Value, When
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from . import usernames

# A finished trick's pause on the web table (User.trick_pause_ms): long enough to read four
# cards, and never so long that the next trick's clock runs unseen.
TRICK_PAUSE_DEFAULT_MS = 1200
TRICK_PAUSE_MAX_MS = 5000

_SESSION_HASH_SALT = "django.contrib.auth.models.AbstractBaseUser.get_session_auth_hash"

# The models' names, and the fields' of the account moderators read in the admin, in
# their own language; the other models appear there only in the lists of permissions.


class PlayerManager(UserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> User:
        """Sign-in looks the name up case-insensitively (see accounts.usernames).

        An account whose exact username matches wins: that is how an account older
        than case-insensitive names, sharing its canonical form with another, signs in.
        """
        if username is None:  # as Django's own lookup would find: no account has no name
            raise self.model.DoesNotExist
        found = (
            self.filter(Q(username=username) | Q(username_key=usernames.canonical(username)))
            .order_by(Case(When(username=username, then=Value(0)), default=Value(1)))
            .first()
        )
        if found is None:
            raise self.model.DoesNotExist
        return found


class User(AbstractUser):
    """A player. Guests are real accounts without a password, made from an invite link."""

    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    is_guest = models.BooleanField(_("guest"), default=False)
    # A ban also clears is_active, which is what keeps the account out everywhere.
    banned_at = models.DateTimeField(_("banned at"), null=True, blank=True)
    ban_reason = models.CharField(_("ban's reason"), max_length=500, blank=True)
    # A temporary ban's end (moderation.tasks lifts it then); None for a ban for good.
    ban_ends_at = models.DateTimeField(_("ban ends at"), null=True, blank=True)
    # The server plays for them when their only legal action is one play (a card, a
    # tile); others can see such a play was forced (games.services.forced).
    auto_play_forced = models.BooleanField(_("forced moves played automatically"), default=False)
    # How the web table takes a move: a tap raises a card or tile and a second tap plays
    # it (True), a tap plays at once (False), or as the device suits (None: raised on a
    # touch screen, where a finger slips; at once with a mouse).
    confirm_moves = models.BooleanField(_("confirm each move"), null=True, blank=True, default=None)
    # How long a finished trick stays on the table before the next one is drawn, in
    # milliseconds (0: at once), so that whoever wins it, every card can be read.
    trick_pause_ms = models.PositiveSmallIntegerField(
        _("finished trick's pause (ms)"),
        default=TRICK_PAUSE_DEFAULT_MS,
        validators=[MaxValueValidator(TRICK_PAUSE_MAX_MS)],
    )
    # The language the person reads the server in (accounts/languages.py): the page,
    # their notices and mails. A new account starts in the one its sign-up asked in.
    # Not `choices`: adding a language is a catalogue and a line of settings, not a
    # migration (the API takes only settings.LANGUAGES).
    language = models.CharField(_("language"), max_length=8, default="en")
    # Closed by its owner (which also clears is_active): signing in with the password
    # within ACCOUNT_CLOSURE_GRACE_DAYS restores it; after that its personal data is
    # erased for good (privacy.closure) and `erased_at` says when.
    closed_at = models.DateTimeField(_("account closed at"), null=True, blank=True)
    erased_at = models.DateTimeField(_("personal data erased at"), null=True, blank=True)
    # The mark of the browser the account was made from (accounts.banned_browser): a
    # moderator sees the other accounts made from it, and a sign-up from a browser a
    # banned account was made from is refused. Empty for an app that keeps no cookies.
    browser_mark = models.CharField(_("browser's mark"), max_length=32, blank=True, db_index=True)
    # Moved on by a ban and a closure: every session of the account (the admin's, an
    # authorize page's) ends with it, and an unban or a restore brings none back
    # (`get_session_auth_hash`). A new password ends them as Django's own hash does.
    sessions_epoch = models.PositiveIntegerField(_("times every session was ended"), default=0, editable=False)
    # Derived from the username (accounts.usernames) whenever it is set, and unique, so
    # the database itself refuses a second `Alice` or a lookalike (a Cyrillic A). Null only
    # for accounts older than these rules whose name collided with an earlier account's
    # (migration 0004): they keep their name and sign in with it exactly. Null, not "",
    # because a unique column admits any number of nulls.
    username_key = models.CharField(  # noqa: DJ001
        _("username's canonical form"), max_length=150, unique=True, null=True, editable=False
    )
    username_skeleton = models.CharField(  # noqa: DJ001
        _("username's look-alike form"), max_length=150, unique=True, null=True, editable=False
    )

    objects: ClassVar[PlayerManager] = PlayerManager()

    class Meta:
        # AbstractUser's own, said here so that the project's catalogues hold them in
        # every language (Django has no Gujarati).
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def save(self, *args: Any, **kwargs: Any) -> None:
        # A key that migration 0004 left null stays so: it would collide with an older one.
        update_fields = kwargs.get("update_fields")
        if update_fields is None or "username" in update_fields:
            adding = self._state.adding
            if adding or self.username_key is not None:
                self.username_key = usernames.canonical(self.username)
            if adding or self.username_skeleton is not None:
                self.username_skeleton = usernames.skeleton(self.username)
            if update_fields is not None:
                kwargs["update_fields"] = {*update_fields, "username_key", "username_skeleton"}
        super().save(*args, **kwargs)

    def get_session_auth_hash(self) -> str:
        return self._session_hash(None)

    def get_session_auth_fallback_hash(self) -> Iterator[str]:
        for secret in settings.SECRET_KEY_FALLBACKS:
            yield self._session_hash(secret)

    def _session_hash(self, secret: str | bytes | None) -> str:
        """Django's HMAC of the password (as AbstractBaseUser makes it), with the sessions'
        epoch beside the password once a ban or closure moved it: epoch 0 gives Django's
        own hash, so no session ended when the epoch came in."""
        signed = f"{self.password}:{self.sessions_epoch}" if self.sessions_epoch else self.password
        return salted_hmac(_SESSION_HASH_SALT, signed, secret=secret, algorithm="sha256").hexdigest()

    def clean(self) -> None:
        """The admin's check, before the unique keys would refuse the row."""
        super().clean()
        others = User.objects.exclude(pk=self.pk)
        adding = self._state.adding
        if (adding or self.username_key is not None) and others.filter(
            username_key=usernames.canonical(self.username)
        ).exists():
            raise ValidationError(
                {"username": ValidationError(gettext("That username is taken."), code="username_taken")}
            )
        if (adding or self.username_skeleton is not None) and others.filter(
            username_skeleton=usernames.skeleton(self.username)
        ).exists():
            similar = gettext("That username looks like another account's.")
            raise ValidationError({"username": ValidationError(similar, code="username_confusable")})

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username


class BannedToken(models.Model):
    """A digest of a token that a ban revoked.

    The token itself is deleted, so it can never sign anyone in again; its digest lets
    a later request with it be told that the account is banned, and why, where it would
    otherwise read as an unknown token. Unbanning forgets them.
    """

    digest = models.CharField(max_length=64, primary_key=True)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("token revoked by a ban")
        verbose_name_plural = _("tokens revoked by a ban")

    def __str__(self) -> str:
        return f"{self.user_id}:{self.digest[:8]}"

    @staticmethod
    def digest_of(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()


class SignIn(models.Model):
    """One device's sign-in: the token that a sign-in, a sign-up, a guest's invite or a
    password reset gave one client, so that a person can see where they are signed in
    and end any of it (accounts.services.sign_ins).

    Only a digest of the token is kept, as for personal tokens: a copy of the database
    signs nobody in. The device and the address are what the person reads in the list
    (the browser and system the client said it was, the address's network), nothing
    finer.
    """

    class How(models.TextChoices):
        PASSWORD = "password", "password"
        SIGN_UP = "sign_up", "sign-up"
        GUEST = "guest", "guest invite"
        RESET = "reset", "password reset"
        PASSWORD_CHANGE = "password_change", "password change"
        PASSKEY = "passkey", "passkey"
        # A token from before sign-ins were told apart (migration 0007).
        EARLIER = "earlier", "an earlier sign-in"

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="sign_ins")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    how = models.CharField(max_length=20, choices=How.choices)
    device = models.CharField(max_length=300, blank=True)
    address = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Written at most once a minute (accounts.services.sign_ins.sign_in_used).
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")
        verbose_name = _("sign-in")
        verbose_name_plural = _("sign-ins")

    def __str__(self) -> str:
        return f"{self.user_id}:{self.how}:{self.digest[:8]}"

    @staticmethod
    def digest_of(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()


class NameChange(models.Model):
    """A change of a person's display name. Moderators read the names a person went by
    in the admin; the latest change is what holds the next one back a week."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="name_changes")
    before = models.CharField(max_length=40, blank=True)
    after = models.CharField(max_length=40)
    changed_at = models.DateTimeField()

    class Meta:
        ordering = ("-changed_at", "-id")
        indexes = (models.Index(fields=("user", "-changed_at")),)
        verbose_name = _("display name change")
        verbose_name_plural = _("display name changes")

    def __str__(self) -> str:
        return f"{self.before} → {self.after}"


class SecondFactor(models.Model):
    """What signs an account in besides its password (accounts.factors): an
    authenticator app's TOTP secret, and the recovery codes that stand in for it when
    the phone is lost. One of each kind per account."""

    class Kind(models.TextChoices):
        TOTP = "totp", "authenticator app"
        RECOVERY_CODES = "recovery_codes", "recovery codes"

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="second_factors")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    # TOTP: {"secret": base32, "step": the last time step accepted, so no code is used
    # twice}; recovery codes: {"digests": [SHA-256 of each unused code]}.
    data = models.JSONField(default=dict)
    # A TOTP secret shown but not yet confirmed with a code from the app: not in force.
    confirmed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=("user", "kind"), name="one_second_factor_of_a_kind"),)
        verbose_name = _("second sign-in step")
        verbose_name_plural = _("second sign-in steps")

    def __str__(self) -> str:
        return f"{self.user_id}:{self.kind}"


class Passkey(models.Model):
    """A passkey (WebAuthn credential, accounts.passkeys) of an account: it signs in
    with no password, or is the second step after one. Only its public key is kept."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="passkeys")
    name = models.CharField(max_length=60)
    credential_id = models.BinaryField(max_length=1023, unique=True)
    public_key = models.BinaryField()
    # The authenticator's signature counter (0 for those that keep none, as synced
    # passkeys): one that does not grow is a cloned key.
    sign_count = models.BigIntegerField(default=0)
    # The account's WebAuthn user handle (random, the same for each of its passkeys), so
    # an authenticator keeps one passkey per account and site.
    user_handle = models.BinaryField(max_length=64)
    # Hints for the browser ("usb", "internal", "hybrid"…) and what made it (its AAGUID).
    transports = models.JSONField(default=list)
    aaguid = models.CharField(max_length=36, blank=True)
    # Whether it is synced between the person's devices (a "multi-device" passkey).
    backed_up = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("passkey")
        verbose_name_plural = _("passkeys")

    def __str__(self) -> str:
        return f"{self.user_id}:{self.name}"


class PasskeyCeremony(models.Model):
    """A challenge handed out for one passkey ceremony (adding one, signing in, the
    second step), found again by its digest in the answer's client data and taken once:
    a replayed answer finds nothing. WEBAUTHN_CEREMONY_SECONDS long."""

    class Purpose(models.TextChoices):
        ADD = "add", "adding a passkey"
        SIGN_IN = "sign_in", "signing in"
        SECOND_STEP = "second_step", "the second step of signing in"

    digest = models.CharField(max_length=64, primary_key=True)
    challenge = models.BinaryField(max_length=64)
    purpose = models.CharField(max_length=12, choices=Purpose.choices)
    # The account adding a passkey; none for signing in (the passkey names its account).
    user = models.ForeignKey(User, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    # The WebAuthn user handle the options for a new passkey named.
    user_handle = models.BinaryField(max_length=64, default=b"")
    rp_id = models.CharField(max_length=253)
    origins = models.JSONField(default=list)
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("passkey challenge")
        verbose_name_plural = _("passkey challenges")

    def __str__(self) -> str:
        return f"{self.purpose}:{self.digest[:8]}"


class Block(models.Model):
    """`blocker` no longer wants to hear or meet `blocked`: neither reads the other's
    table talk (talk), and neither takes a seat at a table where the other sits
    (games.services.lobby)."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks_against")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=("blocker", "blocked"), name="one_block_per_pair"),)
        verbose_name = _("block")
        verbose_name_plural = _("blocks")

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"
