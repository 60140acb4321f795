"""What notifications hold of a person, taken away when they close their account: where
notices go (their address, push subscriptions) at once; the rest (which turns they were
told of, their sockets' presence) when the account is erased for good."""

from __future__ import annotations

from accounts.models import User

from ..models import NotificationSettings, PushSubscription, SocketPresence, TurnNotice, TurnReminder


def delivery_stop(*, user: User) -> None:
    """Nothing more is sent to the person: no push subscription is kept. (The address
    stays until the erasure, so that the closure notice can name it and signing in
    within the grace period finds the account as it was.)"""
    PushSubscription.objects.filter(user=user).delete()


def personal_data_erase(*, user: User) -> None:
    """Erase every row of the person's: settings with their address, subscriptions,
    presence, the notices and reminders sent."""
    NotificationSettings.objects.filter(user=user).delete()
    PushSubscription.objects.filter(user=user).delete()
    SocketPresence.objects.filter(user=user).delete()
    TurnNotice.objects.filter(user=user).delete()
    TurnReminder.objects.filter(user=user).delete()
