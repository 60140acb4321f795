"""A player's choices: which channels, which address, and a quiet period."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from core.errors import ServiceError

from .. import selectors
from ..addresses import address_checked, same_address
from ..models import NotificationSettings
from ..quiet import time_of, zone_check
from . import account_notices, confirmation

FIELDS = frozenset({"push", "email", "email_address", "quiet"})


def _address(value: str) -> str:
    return value if value == "" else address_checked(value)


@transaction.atomic
def preferences_update(*, user: User, changes: dict[str, Any]) -> selectors.Preferences:
    """Apply any of `push`, `email` (bools), `email_address` (an address or "" for none)
    and `quiet` (None, or `{"start": "HH:MM", "end": "HH:MM", "timezone": IANA name}`);
    everything is checked before anything is written. A new address gets its
    confirmation link (services.confirmation), queued after commit."""
    unknown = set(changes) - FIELDS
    if unknown:
        raise ServiceError("invalid", gettext("This field is not part of the settings."), 400, sorted(unknown)[0])
    fields: dict[str, Any] = {}
    for flag in ("push", "email"):
        if flag in changes:
            if not isinstance(changes[flag], bool):
                raise ServiceError("invalid", gettext("Send true or false."), 400, flag)
            fields[flag] = changes[flag]
    if "email_address" in changes:
        if not isinstance(changes["email_address"], str):
            raise ServiceError(
                "invalid", gettext("Send an e-mail address, or an empty string for none."), 400, "email_address"
            )
        fields["email_address"] = _address(changes["email_address"])
    if "quiet" in changes:
        quiet = changes["quiet"]
        if quiet is not None and (
            not isinstance(quiet, dict)
            or set(quiet) != {"start", "end", "timezone"}
            or not all(isinstance(v, str) for v in quiet.values())
        ):
            raise ServiceError("invalid", gettext("Send null, or start, end and timezone as strings."), 400, "quiet")
        if quiet is None:
            fields.update(quiet_start=None, quiet_end=None, quiet_timezone="")
        else:
            start = time_of(quiet["start"], "quiet.start")
            end = time_of(quiet["end"], "quiet.end")
            zone = zone_check(quiet["timezone"])
            if start == end:
                raise ServiceError(
                    "quiet_period_empty",
                    gettext("A quiet period must end at another time than it starts."),
                    400,
                    "quiet.end",
                )
            fields.update(quiet_start=start, quiet_end=end, quiet_timezone=zone)
    if not fields:
        return selectors.preferences_of(user=user)
    row, _ = NotificationSettings.objects.select_for_update().get_or_create(user=user)
    before = selectors.address_of(user, row)
    was_confirmed = bool(before) and same_address(before, row.email_confirmed_address)
    for name, value in fields.items():
        setattr(row, name, value)
    row.save(update_fields=list(fields))
    if "email_address" in fields:
        # A new address is not mailed any notice until its owner opens the link sent to it.
        confirmation.confirmation_after_change(user=user, row=row, before=before, now=timezone.now())
        if was_confirmed and not same_address(selectors.address_of(user, row), before):
            # The address the account had is told, in case the change was not its owner's.
            account_notices.address_changed_after_commit(user_id=user.pk, before=before)
    return selectors.preferences_of(user=user)
