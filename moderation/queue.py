"""Writes: the moderators' work on the reports' queue (Case). A moderator claims an
entry, so that two do not work the same one, and closes it with one action: dismiss,
warn, a chat timeout (in a room or everywhere), a shadow mute, a temporary ban or a ban
for good. Each action writes the moderation log with its reason, closes every report of
the entry, tells the person (in the page, by push and by mail: moderation/notices.py)
and tells each reporter that it was handled, never how."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.languages import speaking_to
from accounts.models import User
from core.errors import ServiceError
from games.models import Room
from talk import services as talk

from . import entry_facts, notices, services
from .canned import CANNED_WARNINGS, canned_english, canned_text
from .models import Case, ModerationEntry, Report, Warning
from .services import require_reason

TIMEOUT_CHOICES = {"10m": timedelta(minutes=10), "1h": timedelta(hours=1), "24h": timedelta(hours=24)}


def _case(case_id: int, moderator: User) -> Case:
    case = Case.objects.select_for_update().select_related("target_user").filter(pk=case_id).first()
    if case is None or case.status != Case.Status.OPEN:
        raise ServiceError("invalid", _("This entry is closed already."), 409)
    if case.target_user_id == moderator.pk:
        raise ServiceError("invalid", _("Another moderator works an entry about you."), 403)
    if case.claimed_by_id not in (None, moderator.pk):
        # Translators: the moderator is the username of the one who claimed the entry.
        raise ServiceError("invalid", _("%(moderator)s works this entry.") % {"moderator": case.claimed_by}, 409)
    return case


@transaction.atomic
def case_claim(*, case_id: int, moderator: User, now: datetime) -> Case:
    case = _case(case_id, moderator)
    case.claimed_by, case.claimed_at = moderator, now
    case.save(update_fields=["claimed_by", "claimed_at"])
    return case


@transaction.atomic
def case_release(*, case_id: int, moderator: User) -> Case:
    case = _case(case_id, moderator)
    case.claimed_by, case.claimed_at = None, None
    case.save(update_fields=["claimed_by", "claimed_at"])
    return case


def _close(case: Case, moderator: User, outcome: str, entry: ModerationEntry, now: datetime) -> Case:
    case.status, case.outcome, case.entry = Case.Status.CLOSED, outcome, entry
    case.closed_by, case.closed_at = moderator, now
    case.save(update_fields=["status", "outcome", "entry", "closed_by", "closed_at"])
    reporters = set(case.reports.filter(handled_at__isnull=True).values_list("reporter_id", flat=True))
    case.reports.update(handled_at=now)
    for reporter_id in reporters:
        notices.report_handled_after_commit(user_id=reporter_id)
    return case


def _entry(
    moderator: User,
    kind: str,
    reason: str,
    user: User,
    facts: list[entry_facts.Fact] | None = None,
    room: Room | None = None,
) -> ModerationEntry:
    return ModerationEntry.objects.create(
        moderator=moderator, kind=kind, reason=reason, target_user=user, facts=facts or [], room=room
    )


def _warning_give(case: Case, moderator: User, text: str, canned: str, now: datetime) -> ModerationEntry:
    """A warning to the entry's person, logged and told; read before their next table.
    With `canned` (a key of CANNED_WARNINGS), that fixed warning, which the person reads
    in their own language; else the moderator's own words, `text`."""
    if canned:
        if canned not in CANNED_WARNINGS:
            raise ServiceError("invalid", _("There is no fixed warning of that name."), 400, "canned")
        text = canned_english(canned)
    text = require_reason(text, limit=500)
    Warning.objects.create(user=case.target_user, text=text, canned=canned, created_at=now)
    with speaking_to(case.target_user):
        told = canned_text(canned) or text
    notices.sanction_after_commit(user_id=case.target_user_id, kind="warning", text=told, until=None)
    return _entry(moderator, ModerationEntry.Kind.WARN, text, case.target_user)


@transaction.atomic
def case_dismiss(*, case_id: int, moderator: User, reason: str, now: datetime) -> Case:
    """Nothing to act on; the reporters are told it was looked at."""
    case = _case(case_id, moderator)
    entry = _entry(moderator, ModerationEntry.Kind.DISMISS, require_reason(reason), case.target_user)
    return _close(case, moderator, Case.Outcome.DISMISSED, entry, now)


@transaction.atomic
def case_warn(*, case_id: int, moderator: User, text: str, now: datetime, canned: str = "") -> Case:
    """A warning the person reads once before their next table: the moderator's words
    (`text`), or the fixed warning `canned`."""
    case = _case(case_id, moderator)
    entry = _warning_give(case, moderator, text, canned, now)
    return _close(case, moderator, Case.Outcome.WARNED, entry, now)


@transaction.atomic
def case_chat_timeout(
    *,
    case_id: int,
    moderator: User,
    length: str,
    room: Room | None,
    reason: str,
    now: datetime,
    warning: str = "",
    canned: str = "",
) -> Case:
    """No talk from the person, in `room` or everywhere, for one of TIMEOUT_CHOICES;
    with `warning` (the moderator's words) or `canned` (a fixed warning's key), a
    warning too, read before their next table."""
    case = _case(case_id, moderator)
    if length not in TIMEOUT_CHOICES:
        raise ServiceError("invalid", _("A timeout lasts 10 minutes, an hour or a day."), 400, "length")
    reason = require_reason(reason)
    until = now + TIMEOUT_CHOICES[length]
    talk.timeout_give(user=case.target_user, room=room, until=until, reason=reason)
    timed_out = [entry_facts.chat_timeout(length, room.code if room is not None else None)]
    entry = _entry(moderator, ModerationEntry.Kind.CHAT_TIMEOUT, reason, case.target_user, timed_out, room)
    notices.sanction_after_commit(user_id=case.target_user_id, kind="chat_timeout", text=reason, until=until)
    if warning.strip() or canned:
        _warning_give(case, moderator, warning, canned, now)
    return _close(case, moderator, Case.Outcome.CHAT_TIMEOUT, entry, now)


@transaction.atomic
def case_shadow_mute(*, case_id: int, moderator: User, reason: str, now: datetime) -> Case:
    """The person's lines reach only themselves from now on. They are not told."""
    case = _case(case_id, moderator)
    reason = require_reason(reason)
    talk.shadow_mute(user=case.target_user, reason=reason)
    entry = _entry(moderator, ModerationEntry.Kind.SHADOW_MUTE, reason, case.target_user)
    return _close(case, moderator, Case.Outcome.SHADOW_MUTE, entry, now)


@transaction.atomic
def case_ban(*, case_id: int, moderator: User, reason: str, hours: int | None, now: datetime) -> Case:
    """A ban for `hours` (lifted on time by moderation.tasks), or for good."""
    case = _case(case_id, moderator)
    until = now + timedelta(hours=hours) if hours is not None else None
    entry = services.user_ban(moderator=moderator, user=case.target_user, reason=reason, until=until)
    notices.sanction_after_commit(user_id=case.target_user_id, kind="ban", text=entry.reason, until=until)
    outcome = Case.Outcome.TEMP_BAN if until is not None else Case.Outcome.BAN
    return _close(case, moderator, outcome, entry, now)


def reports_made_by(*, user: User) -> list[Report]:
    return list(Report.objects.filter(reporter=user).select_related("case__target_user").order_by("-created_at"))


def warnings_of(*, user: User) -> list[Warning]:
    return list(Warning.objects.filter(user=user).order_by("-created_at"))


@transaction.atomic
def warning_read(*, user: User, warning_id: int, now: datetime) -> Warning:
    found = Warning.objects.select_for_update().filter(user=user, pk=warning_id).first()
    if found is None:
        raise ServiceError("not_found", _("You have no warning with that id."), 404)
    if found.read_at is None:
        found.read_at = now
        found.save(update_fields=["read_at"])
    return found


def require_no_unread_warning(*, user: User) -> None:
    """A person with a warning they have not read takes no seat until they read it."""
    if Warning.objects.filter(user=user, read_at__isnull=True).exists():
        raise ServiceError(
            "unread_warning",
            _("A moderator sent you a warning: read it (GET me/sanctions, then POST me/warnings/{id}/read) first."),
            409,
        )
