"""Celery tasks: thin, each calls one service. Nothing is sent inside a request."""

from __future__ import annotations

from functools import partial

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from .services import account_notices, confirmation, moderation_notices, password_reset, turns


@shared_task(name="notifications.notify_waiting_turns", ignore_result=True)
def notify_waiting_turns() -> int:
    """Beat, every NOTIFY_SCAN_SECONDS: claim the turns to tell and the reminders due,
    then one delivery per player (the claims are committed by then; each delivery sends
    only what it takes)."""
    players = turns.notices_claim(now=timezone.now())
    for user_id in players:
        transaction.on_commit(partial(deliver_turn_notice.delay, user_id))
    return len(players)


@shared_task(name="notifications.deliver_turn_notice", ignore_result=True)
def deliver_turn_notice(user_id: int) -> int:
    """One notice or reminder (or a digest) to one player, by push and e-mail; how many
    pushes went."""
    return turns.turn_notice_delivered(user_id=user_id, now=timezone.now()).pushed


@shared_task(name=confirmation.SEND_EMAIL_CONFIRMATION, ignore_result=True)
def send_email_confirmation(user_id: int, address: str | None = None) -> bool:
    """Mail the link that confirms the player's current address, if it is still the one
    counted when the link was queued (after commit, by a change of address or a request
    for the link again); whether a mail went."""
    return confirmation.confirmation_mail_send(user_id=user_id, address=address)


@shared_task(name=password_reset.SEND_PASSWORD_RESET, ignore_result=True)
def send_password_reset(address: str) -> int:
    """Mail the password-reset link to each account confirmed at `address`; how many
    went (none for an address no account confirmed)."""
    return password_reset.reset_mail_send(address=address)


@shared_task(name=account_notices.SEND_PASSWORD_CHANGED, ignore_result=True)
def send_password_changed(user_id: int) -> bool:
    """Tell the account's confirmed address that its password changed."""
    return account_notices.password_changed_mail_send(user_id=user_id)


@shared_task(name=account_notices.SEND_ADDRESS_CHANGED, ignore_result=True)
def send_address_changed(user_id: int, before: str) -> bool:
    """Tell the confirmed address an account had that it has another now."""
    return account_notices.address_changed_mail_send(user_id=user_id, before=before)


@shared_task(name=account_notices.SEND_SECOND_FACTOR_CHANGED, ignore_result=True)
def send_second_factor_changed(user_id: int, change: str | bool) -> bool:
    """Tell the account's confirmed address of a change to its two-step sign-in. A
    message queued before passkeys says only on (True) or off (False)."""
    if isinstance(change, bool):
        change = "totp_on" if change else "totp_off"
    return account_notices.second_factor_changed_mail_send(user_id=user_id, change=change)


@shared_task(name=account_notices.SEND_ACCOUNT_CLOSED, ignore_result=True)
def send_account_closed(address: str, username: str, until: str) -> bool:
    """Tell the address a closed account had confirmed that it is closed, and until when
    signing in restores it."""
    return account_notices.account_closed_mail_send(address=address, username=username, until=until)


@shared_task(name=account_notices.SEND_NEW_SIGN_IN, ignore_result=True)
def send_new_sign_in(user_id: int, device: str, network: str) -> bool:
    """Tell the account's confirmed address of a sign-in from a new place."""
    return account_notices.new_sign_in_mail_send(user_id=user_id, device=device, network=network)


@shared_task(name=moderation_notices.SEND_SANCTION, ignore_result=True)
def send_sanction(user_id: int, kind: str, text: str, until: str | None) -> int:
    """Tell a person of a moderator's warning, chat timeout or ban."""
    return moderation_notices.sanction_send(user_id=user_id, kind=kind, text=text, until=until)


@shared_task(name=moderation_notices.SEND_REPORT_HANDLED, ignore_result=True)
def send_report_handled(user_id: int) -> int:
    """Tell a reporter that their report was handled (never how)."""
    return moderation_notices.report_handled_send(user_id=user_id)
