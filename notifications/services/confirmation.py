"""Double opt-in for the address e-mail notices go to: notices are mailed only to an
address whose owner opened the link mailed to it, so that nobody can make the server
mail a stranger by typing the stranger's address.

The link carries a token signed with the server's SECRET_KEY (django.core.signing) that
names the account and the address; it works for EMAIL_CONFIRMATION_MAX_AGE_SECONDS, and
only while that address is still the account's. At most one link is mailed to an account
per EMAIL_CONFIRMATION_RESEND_SECONDS, whether asked for again or set off by a change of
address: that caps what anyone can make the server mail through one account. And at
most EMAIL_CONFIRMATION_ADDRESS_MAX links go to one address (compared ignoring case) per
EMAIL_CONFIRMATION_ADDRESS_SECONDS, from all accounts together (a counter in fixed
windows, core.counters): that caps what anyone can make the server mail a stranger
through many fresh accounts.

Nothing is mailed inside a request: the link is queued after commit (a Celery task,
notifications.tasks) with the address it was counted for, and mailed only while that is
still the account's address (a changed one waits for a link of its own).
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from celery import current_app
from django.conf import settings
from django.core import signing
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.languages import speaking_to
from accounts.models import User
from core.counters import over_limit
from core.errors import ServiceError

from .. import mail, selectors
from ..addresses import address_key, same_address
from ..models import NotificationSettings

logger = logging.getLogger(__name__)

SALT = "notifications.email-confirmation"
# The task that mails the link (notifications/tasks.py). Queued by name: services sit
# below the tasks and do not import them.
SEND_EMAIL_CONFIRMATION = "notifications.send_email_confirmation"
# Where the web client reads the token, from the URL's fragment: a fragment is never
# sent to the server, so the token stays out of every access log on the way.
CONFIRM_PATH = "/confirm-email#"


def confirmation_token(*, user_id: int, address: str) -> str:
    return signing.dumps({"u": user_id, "a": address}, salt=SALT)


def _bad_token() -> ServiceError:
    # One answer whatever failed, so that the link tells nothing about the account.
    return ServiceError(
        "bad_confirmation_token",
        _(
            "This confirmation link does not work (it is mistyped, too old, or for an address changed since); "
            "ask for a new one in your settings."
        ),
        400,
        "token",
    )


def _token_read(token: str) -> tuple[int, str]:
    try:
        data: Any = signing.loads(token, salt=SALT, max_age=settings.EMAIL_CONFIRMATION_MAX_AGE_SECONDS)
    except signing.BadSignature:  # SignatureExpired included
        raise _bad_token() from None
    if not isinstance(data, dict):
        raise _bad_token()
    user_id, address = data.get("u"), data.get("a")
    if isinstance(user_id, bool) or not isinstance(user_id, int) or not isinstance(address, str) or not address:
        raise _bad_token()
    return user_id, address


def _queue(user_id: int, address: str) -> None:
    try:
        current_app.send_task(SEND_EMAIL_CONFIRMATION, args=(user_id, address))
    except Exception:  # the broker is down: the player can ask for the link again
        logger.exception("could not queue the confirmation link of account %s", user_id)


def _address_wait(address: str) -> int | None:
    """Count a link to `address`: the seconds until another may go to it when this one
    is past the cap on one address (from all accounts together), else None."""
    digest = hashlib.sha256(address_key(address).encode()).hexdigest()[:32]
    return over_limit(
        f"confirmation-address:{digest}",
        limit=settings.EMAIL_CONFIRMATION_ADDRESS_MAX,
        seconds=settings.EMAIL_CONFIRMATION_ADDRESS_SECONDS,
        now=time.time(),
    )


def _sent_recently(wait: int, *, to_address: bool) -> ServiceError:
    if to_address:
        # Said without naming who asked: any account may have set this address.
        detail = _("Links went to this address recently; ask again later.")
    else:
        minutes = max(1, round(settings.EMAIL_CONFIRMATION_RESEND_SECONDS / 60))
        detail = ngettext(
            "A link was sent less than %(minutes)s minute ago; look for it, or ask again later.",
            "A link was sent less than %(minutes)s minutes ago; look for it, or ask again later.",
            minutes,
        ) % {"minutes": minutes}
    return ServiceError("confirmation_sent_recently", detail, 429, retry_after=wait)


def _wait(row: NotificationSettings, now: datetime) -> int:
    """Whole seconds until another link may go to the account; 0 when it may now."""
    sent = row.email_confirmation_sent_at
    if sent is None:
        return 0
    left = sent + timedelta(seconds=settings.EMAIL_CONFIRMATION_RESEND_SECONDS) - now
    return max(0, math.ceil(left.total_seconds()))


def _link_queue(row: NotificationSettings, address: str, now: datetime) -> None:
    """Count a link to `address` as sent now and queue it after commit. Expects the row
    locked, and the link counted against the address's cap already."""
    row.email_confirmation_sent_at = now
    row.save(update_fields=["email_confirmation_sent_at"])
    transaction.on_commit(partial(_queue, row.user_id, address))


def confirmation_after_change(*, user: User, row: NotificationSettings, before: str, now: datetime) -> None:
    """After the account's address changed from `before` (the row locked and saved):
    queue a link to the new one, unless it is empty, unchanged, confirmed already, or a
    link went out too recently, to the account or to the address (the address stays;
    asking again later sends it)."""
    address = selectors.address_of(user, row)
    if not address or same_address(address, before) or same_address(address, row.email_confirmed_address):
        return
    if _wait(row, now) or not mail.available():
        return  # nothing is mailed now, so no link is counted as sent
    if _address_wait(address) is not None:
        return
    _link_queue(row, address, now)


@transaction.atomic
def confirmation_resend(*, user: User, now: datetime) -> selectors.Preferences:
    """Queue the link to the account's current address again; the settings."""
    row, _created = NotificationSettings.objects.select_for_update().get_or_create(user=user)
    address = selectors.address_of(user, row)
    if not address:
        raise ServiceError("no_email_address", _("There is no e-mail address to confirm; set one first."), 409)
    if same_address(address, row.email_confirmed_address):
        raise ServiceError("already_confirmed", _("This e-mail address is confirmed already."), 409)
    if not mail.available():
        raise ServiceError("email_unavailable", _("This server sends no e-mail, so no link can be sent."), 409)
    wait = _wait(row, now)
    if wait:
        raise _sent_recently(wait, to_address=False)
    address_wait = _address_wait(address)
    if address_wait is not None:
        raise _sent_recently(address_wait, to_address=True)
    _link_queue(row, address, now)
    return selectors.preferences_of(user=user)


@transaction.atomic
def email_confirm(*, token: str) -> str:
    """Mark the token's address confirmed, if it is still its account's; the address."""
    user_id, address = _token_read(token)
    user = selectors.user_of(user_id=user_id)
    if user is None:
        raise _bad_token()
    row, _created = NotificationSettings.objects.select_for_update().get_or_create(user=user)
    if not same_address(selectors.address_of(user, row), address):
        raise _bad_token()  # the row made above is rolled back with the error
    if selectors.address_of_banned_account(address=address, user=user):
        # A banned person does not come back with a new account under their address.
        raise ServiceError(
            "address_of_banned_account",
            _("This address is a banned account's; it cannot be confirmed."),
            403,
            "token",
        )
    if row.email_confirmed_address != address:
        row.email_confirmed_address = address
        row.save(update_fields=["email_confirmed_address"])
    return address


def confirmation_mail_send(*, user_id: int, address: str | None = None) -> bool:
    """Mail the link for the account's address as it is now, unless there is none, it is
    confirmed already, or it is not the `address` the link was counted for (a task
    queued before a change of address; None: a task queued before tasks named it).
    Whether a mail went."""
    user = selectors.user_of(user_id=user_id)
    if user is None:
        return False
    wanted = selectors.preferences_of(user=user)
    if not wanted.email_address or wanted.email_confirmed:
        return False
    if address is not None and not same_address(wanted.email_address, address):
        return False
    token = confirmation_token(user_id=user.pk, address=wanted.email_address)
    with speaking_to(user):
        return mail.confirmation_send(
            address=wanted.email_address,
            path=CONFIRM_PATH + token,
            max_age_seconds=settings.EMAIL_CONFIRMATION_MAX_AGE_SECONDS,
        )
