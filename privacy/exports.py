"""Download my data: a request builds the archive (privacy.archive) in a task, which
mails its link to the person's confirmed address; the link works once, for
EXPORT_LINK_DAYS, and the archive is emptied when downloaded. At most one request per
EXPORT_INTERVAL_SECONDS, so that nobody can make the server build archives in a loop.

The link's token names the export and is kept only as a digest: a copy of the database
downloads nothing. It is the link's only credential, as a mailed link is opened in a
browser that sends no token.
"""

from __future__ import annotations

import logging
import math
import secrets
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.languages import speaking_to
from accounts.models import User
from core.errors import ServiceError
from notifications import mail
from notifications import selectors as notices

from .archive import archive_of
from .models import DataExport

logger = logging.getLogger(__name__)

BUILD_EXPORT = "privacy.build_export"
# Where the mailed link downloads the archive; the token follows.
DOWNLOAD_PATH = "/api/v1/exports/"


def _queue(export_id: int) -> None:
    try:
        current_app.send_task(BUILD_EXPORT, args=(export_id,))
    except Exception:  # the broker is down: the person can ask again after the interval
        logger.exception("could not queue export %s", export_id)


@transaction.atomic
def export_request(*, user: User, now: datetime) -> DataExport:
    """Ask for the archive: `no_confirmed_address` without an address to mail the link
    to, `export_requested_recently` within the interval of the last request."""
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    wanted = notices.preferences_of(user=user)
    if not (wanted.email_address and wanted.email_confirmed and mail.available()):
        raise ServiceError(
            "no_confirmed_address",
            _("The archive's link is mailed: set an e-mail address in Settings and confirm it first."),
            409,
        )
    last = DataExport.objects.filter(user=user).first()
    interval = timedelta(seconds=settings.EXPORT_INTERVAL_SECONDS)
    if last is not None and now - last.requested_at < interval:
        wait = math.ceil((last.requested_at + interval - now).total_seconds())
        raise ServiceError(
            "export_requested_recently",
            _("An archive was asked for recently; look for its mail, or ask again later."),
            429,
            retry_after=wait,
        )
    export = DataExport.objects.create(user=user, requested_at=now)
    transaction.on_commit(partial(_queue, export.pk))
    return export


def export_build(*, export_id: int, now: datetime) -> bool:
    """Build the archive and mail its link; whether a link went."""
    export = DataExport.objects.select_related("user").filter(pk=export_id, ready_at__isnull=True).first()
    if export is None:
        return False
    user = export.user
    wanted = notices.preferences_of(user=user)
    if not (wanted.email_address and wanted.email_confirmed):
        return False
    token = secrets.token_urlsafe(32)
    export.archive = archive_of(user=user, now=now)
    export.digest = DataExport.digest_of(token)
    export.ready_at = now
    export.save(update_fields=["archive", "digest", "ready_at"])
    with speaking_to(user):
        return mail.export_ready_send(
            address=wanted.email_address,
            username=user.username,
            path=DOWNLOAD_PATH + token,
            days=settings.EXPORT_LINK_DAYS,
        )


def _gone() -> ServiceError:
    return ServiceError(
        "export_gone",
        _("This link does not work (used already, too old or mistyped); ask for a new archive in Settings."),
        404,
    )


def export_download(*, token: str, now: datetime) -> dict[str, Any]:
    """The archive of the link's token, once: it is emptied as it is handed out (or
    found too old)."""
    if not token or len(token) > 100:
        raise _gone()
    archive: dict[str, Any] | None = None
    with transaction.atomic():
        export = DataExport.objects.select_for_update().filter(digest=DataExport.digest_of(token)).first()
        if export is not None and export.archive is not None and export.ready_at is not None:
            if now - export.ready_at <= timedelta(days=settings.EXPORT_LINK_DAYS):
                archive = export.archive
                export.downloaded_at = now
            export.archive = None
            export.save(update_fields=["archive", "downloaded_at"])
    if archive is None:
        raise _gone()
    return archive
