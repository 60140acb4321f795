"""A forgotten password: the link that resets it, mailed to the account's confirmed
address (double opt-in, notifications.services.confirmation), and to nothing else, so
that nobody can have the server mail a stranger a way into an account.

The request answers the same whoever asks and whatever the address: it only counts the
address and queues a task with it; the task looks the accounts up. So neither the answer
nor its time tells whether an account has that address. Limits: per requester (the
`password_reset` throttle, api) and per address, from all requesters together:
PASSWORD_RESET_ADDRESS_MAX links per PASSWORD_RESET_ADDRESS_SECONDS (core.counters), so
that an address cannot be flooded with mail.
"""

from __future__ import annotations

import hashlib
import logging
import time

from celery import current_app
from django.conf import settings
from django.utils.translation import gettext as _

from accounts.languages import speaking_to
from accounts.passwords import RESET_PATH, reset_token
from core.counters import over_limit
from core.errors import ServiceError

from .. import mail, selectors
from ..addresses import EMAIL_MAX, address_key

logger = logging.getLogger(__name__)

# The task that mails the links (notifications/tasks.py), queued by name.
SEND_PASSWORD_RESET = "notifications.send_password_reset"


def reset_request(*, address: str) -> None:
    """Queue the links for `address`, unless it was asked for too often
    (`reset_sent_recently`, whether any account has it or not)."""
    address = address.strip()
    if not address or len(address) > EMAIL_MAX:
        return
    digest = hashlib.sha256(address_key(address).encode()).hexdigest()[:32]
    wait = over_limit(
        f"password-reset-address:{digest}",
        limit=settings.PASSWORD_RESET_ADDRESS_MAX,
        seconds=settings.PASSWORD_RESET_ADDRESS_SECONDS,
        now=time.time(),
    )
    if wait is not None:
        detail = _("Links went to this address recently; look for them, or ask again later.")
        raise ServiceError("reset_sent_recently", detail, 429, retry_after=wait)
    try:
        current_app.send_task(SEND_PASSWORD_RESET, args=(address,))
    except Exception:  # the broker is down: the person can ask again
        logger.exception("could not queue a password-reset link")


def reset_mail_send(*, address: str) -> int:
    """Mail each account confirmed at `address` its link, in that account's language; how
    many went."""
    sent = 0
    for user in selectors.accounts_confirmed_at(address=address):
        path = RESET_PATH + reset_token(user)
        with speaking_to(user):
            if mail.password_reset_send(
                address=address, username=user.username, path=path, max_age_seconds=settings.PASSWORD_RESET_TIMEOUT
            ):
                sent += 1
    return sent
