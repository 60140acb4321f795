"""Closing an account (GDPR art. 17), across every app that holds something of it.

At once, in one transaction: the account signs in and acts nowhere (accounts), its
sign-ins, personal tokens and apps' access end (grants), no notice or push goes to it
(notifications), its seats in open rooms go as a ban's do (moderation: a computer player
plays on, a lobby frees the seat, a room with nobody else closes), its sockets close, and
its confirmed address is told. Signing in with the password within
ACCOUNT_CLOSURE_GRACE_DAYS restores it (api, `auth/token`).

After the grace period (`closed_accounts_erase`, hourly): its names become "closed
account N", and its address, password, factors, settings, subscriptions, table-talk
lines and blocks are erased.
The account's row stays, so that finished matches, ratings and other players' logs stay
whole and readable, and moderation entries keep its id.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from accounts import selectors as accounts
from accounts.models import User
from accounts.services import closure as account_closure
from grants import services as grants
from moderation import services as moderation
from notifications import selectors as notices
from notifications.services import account_notices, erasure
from talk import services as talk

CLOSED_REASON = "The player closed their account."


@transaction.atomic
def account_close(*, user: User, password: str, now: datetime) -> User:
    """Close the account; the account as closed (`restorable_until` says until when
    signing in restores it)."""
    wanted = notices.preferences_of(user=user)
    address = wanted.email_address if wanted.email_confirmed else ""
    user = account_closure.account_close(user=user, password=password, now=now)
    grants.grants_revoke_all(user=user)
    erasure.delivery_stop(user=user)
    moderation.user_leave_open_rooms(user=user, reason=CLOSED_REASON, banned=False)
    until = accounts.restorable_until(user=user)
    if address and until is not None:
        account_notices.account_closed_after_commit(address=address, username=user.username, until=until)
    return user


def closed_accounts_erase(*, now: datetime) -> int:
    """Erase the accounts whose grace period is over; how many."""
    due = accounts.closed_accounts_due(now=now)
    for user in due:
        with transaction.atomic():
            erasure.personal_data_erase(user=user)
            talk.person_talk_erase(user=user)
            grants.grants_revoke_all(user=user)
            account_closure.account_erase(user=user, now=now)
    return len(due)
