"""The mail that tells a person their password changed (by them, or by a reset), sent to
their confirmed address after the change commits: a change they did not make is then
not a silent one."""

from __future__ import annotations

import logging
from functools import partial

from celery import current_app
from django.db import transaction

from .. import mail, selectors

logger = logging.getLogger(__name__)

SEND_PASSWORD_CHANGED = "notifications.send_password_changed"


def _queue(user_id: int) -> None:
    try:
        current_app.send_task(SEND_PASSWORD_CHANGED, args=(user_id,))
    except Exception:  # the broker is down: the change stands, unannounced
        logger.exception("could not queue the password-change notice of account %s", user_id)


def changed_after_commit(*, user_id: int) -> None:
    """Queue the notice once the change is committed."""
    transaction.on_commit(partial(_queue, user_id))


def changed_mail_send(*, user_id: int) -> bool:
    """Mail the notice to the account's confirmed address; whether it went."""
    user = selectors.user_of(user_id=user_id)
    if user is None:
        return False
    wanted = selectors.preferences_of(user=user)
    if not wanted.email_address or not wanted.email_confirmed:
        return False
    return mail.password_changed_send(address=wanted.email_address, username=user.username)
