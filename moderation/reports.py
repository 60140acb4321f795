"""Writes: a person's report of another, added to the open queue entry (Case) about
that account, or opening one. Read by moderators in the admin (moderation/admin/queue.py).

A report names its reason and, where it was made from, a room and a line of its talk;
a line must be one the reporter reads and the reported person said. Nobody reports
themselves. Reports of a moderator land in the queue as any other; a moderator does not
work an entry about themselves."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User
from core.errors import ServiceError
from games.models import Room
from talk import selectors as talk
from talk.models import ChatMessage

from .models import Case, Report


@transaction.atomic
def report_make(
    *,
    reporter: User,
    target: User,
    reason: str,
    note: str,
    now: datetime,
    room: Room | None = None,
    line_id: int | None = None,
) -> Report:
    if target.pk == reporter.pk:
        raise ServiceError("report_self", gettext("You cannot report yourself."), 400, "username")
    line = None
    if line_id is not None:
        line = ChatMessage.objects.select_related("room").filter(pk=line_id).first()
        readable = (
            line is not None
            and line.author_id == target.pk
            and (room is None or line.room_id == room.pk)
            and line_id in {seen.pk for seen in _readable(line, reporter)}
        )
        if not readable or line is None:
            raise ServiceError("not_found", gettext("No line of theirs that you read has that id."), 404)
        room = line.room
    # One open entry per account: taken for update, or made, so that reports made at
    # once add up instead of opening two.
    case = Case.objects.select_for_update().filter(target_user=target, status=Case.Status.OPEN).first()
    if case is None:
        case, _ = Case.objects.get_or_create(
            target_user=target,
            status=Case.Status.OPEN,
            defaults={"opened_at": now, "last_report_at": now},
        )
        case = Case.objects.select_for_update().get(pk=case.pk)
    case.reports_count += 1
    case.last_report_at = now
    case.save(update_fields=["reports_count", "last_report_at"])
    return Report.objects.create(
        case=case, reporter=reporter, reason=reason, note=note, room=room, line=line, created_at=now
    )


def _readable(line: ChatMessage, reader: User) -> list[ChatMessage]:
    """The line, if `reader` reads it (talk's rules), as a one-item list."""
    room = line.room
    found = talk.lines_for(room=room, reader=talk.reader_of(room=room, user=reader), after=line.pk - 1, limit=1)
    return [seen for seen in found if seen.pk == line.pk]


def nobody_named() -> ServiceError:
    return ServiceError(
        "required", gettext("Name whom you report: `username`, or the `line` they said."), 400, "username"
    )
