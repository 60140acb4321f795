"""Mails that tell a person something changed in their account, sent after the change
commits, so that a change they did not make is not a silent one: their password changed
(by them, or by a reset), told to their confirmed address; their address changed, told
to the address it changed from, when that one was confirmed; two-step sign-in turned on
or off, a sign-in from a new place, told to the confirmed address; the account closed,
told to the address it had confirmed. Each in the account's language, whoever made the
change."""

from __future__ import annotations

import logging
from datetime import datetime
from functools import partial
from typing import Any

from celery import current_app
from django.db import transaction

from accounts.languages import speaking_to
from accounts.models import User

from .. import mail, selectors

logger = logging.getLogger(__name__)

SEND_PASSWORD_CHANGED = "notifications.send_password_changed"
SEND_ADDRESS_CHANGED = "notifications.send_address_changed"
SEND_SECOND_FACTOR_CHANGED = "notifications.send_second_factor_changed"
SEND_ACCOUNT_CLOSED = "notifications.send_account_closed"
SEND_NEW_SIGN_IN = "notifications.send_new_sign_in"


def _queue(task: str, *args: Any) -> None:
    try:
        current_app.send_task(task, args=args)
    except Exception:  # the broker is down: the change stands, unannounced
        logger.exception("could not queue %s", task)


def password_changed_after_commit(*, user_id: int) -> None:
    """Queue the password notice once the change is committed."""
    transaction.on_commit(partial(_queue, SEND_PASSWORD_CHANGED, user_id))


def address_changed_after_commit(*, user_id: int, before: str) -> None:
    """Queue the notice to `before`, the confirmed address the account had, once the
    change is committed."""
    transaction.on_commit(partial(_queue, SEND_ADDRESS_CHANGED, user_id, before))


def new_sign_in_after_commit(*, user_id: int, device: str, network: str) -> None:
    """Queue the notice of a sign-in from an address that never signed in to the account
    (within THROTTLE_AUTH_KNOWN_DAYS)."""
    transaction.on_commit(partial(_queue, SEND_NEW_SIGN_IN, user_id, device, network))


def new_sign_in_mail_send(*, user_id: int, device: str, network: str) -> bool:
    found = _confirmed_address(user_id)
    if found is None:
        return False
    user, address = found
    with speaking_to(user):
        return mail.new_sign_in_send(address=address, username=user.username, device=device, network=network)


def account_closed_after_commit(*, address: str, username: str, until: datetime) -> None:
    """Queue the closure notice to the address the account had confirmed (read before
    the closure: a closed account is mailed nothing else)."""
    transaction.on_commit(partial(_queue, SEND_ACCOUNT_CLOSED, address, username, until.isoformat()))


def account_closed_mail_send(*, address: str, username: str, until: str) -> bool:
    # The closed account keeps its name and language until it is erased, after the grace
    # period: found by the name the task carries (one query, for a rare mail).
    closed = User.objects.filter(username=username).only("language").first()
    with speaking_to(closed):
        return mail.account_closed_send(address=address, username=username, until=datetime.fromisoformat(until))


def second_factor_changed_after_commit(*, user_id: int, change: str) -> None:
    """Queue the notice of a change to two-step sign-in (mail.SECOND_FACTOR_CHANGES)."""
    transaction.on_commit(partial(_queue, SEND_SECOND_FACTOR_CHANGED, user_id, change))


def _confirmed_address(user_id: int) -> tuple[User, str] | None:
    """The account and its confirmed address, while it is active and has one."""
    user = selectors.user_of(user_id=user_id)
    if user is None:
        return None
    wanted = selectors.preferences_of(user=user)
    if not wanted.email_address or not wanted.email_confirmed:
        return None
    return user, wanted.email_address


def second_factor_changed_mail_send(*, user_id: int, change: str) -> bool:
    found = _confirmed_address(user_id)
    if found is None:
        return False
    user, address = found
    with speaking_to(user):
        return mail.second_factor_changed_send(address=address, username=user.username, change=change)


def password_changed_mail_send(*, user_id: int) -> bool:
    """Mail the notice to the account's confirmed address; whether it went."""
    found = _confirmed_address(user_id)
    if found is None:
        return False
    user, address = found
    with speaking_to(user):
        return mail.password_changed_send(address=address, username=user.username)


def address_changed_mail_send(*, user_id: int, before: str) -> bool:
    """Tell `before` that the account's address is another now (or none); whether it
    went. Nothing goes when the address is `before` again by now."""
    user = selectors.user_of(user_id=user_id)
    if user is None:
        return False
    now = selectors.preferences_of(user=user).email_address
    if now.casefold() == before.casefold():
        return False
    with speaking_to(user):
        return mail.address_changed_send(address=before, username=user.username)
