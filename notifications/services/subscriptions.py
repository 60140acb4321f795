"""Browsers' push subscriptions: kept per account, checked before they are stored
(notifications.endpoints), removed when the push service says they are gone.

A subscription belongs to the account that registered it first. Another account may
take it over only by proving it holds the browser's subscription: by sending the same
keys (`p256dh` and `auth`, which the browser made and only it and this server know) with
the endpoint, as a browser shared by two people does when the second signs in. Knowing
the endpoint alone (a URL that may leak through a log or a proxy) is not enough: that is
refused with `push_endpoint_taken`, and the owner keeps the subscription. Endpoints are
stored and compared normalised (notifications.endpoints.normalised): another spelling of
the same URL (`:443`, an empty query, the host in capitals) is the same endpoint.
"""

from __future__ import annotations

import hmac
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.models import User
from core.errors import ServiceError

from .. import selectors
from ..endpoints import endpoint_check, keys_check, normalised
from ..models import PushSubscription
from ..push import Outcome, push_send

# PushSubscription.expirationTime is milliseconds since the epoch; this is 9999-12-31.
EXPIRATION_MAX_MS = 253402300799999


def _expiry(expiration_ms: float | None) -> datetime | None:
    if expiration_ms is None:
        return None
    if isinstance(expiration_ms, bool) or not 0 <= expiration_ms <= EXPIRATION_MAX_MS:
        raise ServiceError(
            "invalid", gettext("expirationTime is null or milliseconds since 1970."), 400, "expirationTime"
        )
    return datetime.fromtimestamp(expiration_ms / 1000, tz=UTC)


def push_subscription_save(
    *, user: User, endpoint: str, p256dh: str, auth: str, expiration_ms: float | None = None
) -> tuple[PushSubscription, bool]:
    """Store a browser's subscription for `user`: (the subscription, whether it is new to
    them). An endpoint another account registered moves to `user` only with the same keys
    (the browser is theirs now; see above). Refused: a bad endpoint (`bad_push_endpoint`)
    or key (`bad_push_key`), another account's endpoint with other keys
    (`push_endpoint_taken`), or one subscription more than PUSH_SUBSCRIPTIONS_MAX
    (`too_many_push_subscriptions`)."""
    endpoint = endpoint_check(endpoint)
    p256dh, auth = keys_check(p256dh, auth)
    expires_at = _expiry(expiration_ms)
    for _ in range(2):
        try:
            return _save(user, endpoint, p256dh, auth, expires_at)
        except IntegrityError:
            # Another request stored the same endpoint between the read and the insert:
            # read it again, now that it exists.
            continue
    raise ServiceError("server_busy", gettext("The subscription could not be stored; retry."), 503)


@transaction.atomic
def _save(
    user: User, endpoint: str, p256dh: str, auth: str, expires_at: datetime | None
) -> tuple[PushSubscription, bool]:
    # The account's row, locked, so that two requests at once cannot pass the cap together.
    User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True).get()
    found = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
    if found is not None and found.user_id == user.pk:
        found.p256dh, found.auth, found.expires_at = p256dh, auth, expires_at
        found.save(update_fields=["p256dh", "auth", "expires_at"])
        return found, False
    if found is not None and not _same_keys(found, p256dh, auth):
        raise ServiceError(
            "push_endpoint_taken",
            gettext(
                "Another account has registered this push endpoint; only the browser that holds it can move it "
                "(with its own keys)."
            ),
            409,
        )
    if PushSubscription.objects.filter(user=user).count() >= settings.PUSH_SUBSCRIPTIONS_MAX:
        raise ServiceError(
            "too_many_push_subscriptions",
            ngettext(
                "An account may have at most %(n)s push subscription; remove one first.",
                "An account may have at most %(n)s push subscriptions; remove one first.",
                settings.PUSH_SUBSCRIPTIONS_MAX,
            )
            % {"n": settings.PUSH_SUBSCRIPTIONS_MAX},
            409,
        )
    now = timezone.now()
    if found is not None:
        found.user, found.p256dh, found.auth, found.expires_at, found.created_at = user, p256dh, auth, expires_at, now
        found.save(update_fields=["user", "p256dh", "auth", "expires_at", "created_at"])
        return found, True
    made = PushSubscription(
        user=user, endpoint=endpoint, p256dh=p256dh, auth=auth, expires_at=expires_at, created_at=now
    )
    made.save(force_insert=True)
    return made, True


def _same_keys(found: PushSubscription, p256dh: str, auth: str) -> bool:
    """Whether the keys sent are those stored (both canonical base64url), compared in
    constant time: the auth secret is a secret."""
    return hmac.compare_digest(found.p256dh, p256dh) & hmac.compare_digest(found.auth, auth)


@transaction.atomic
def push_subscription_delete(*, user: User, endpoint: str) -> None:
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=normalised(endpoint)).delete()
    if not deleted:
        raise ServiceError("not_found", gettext("You have no push subscription with this endpoint."), 404)


def push_subscriptions_remove(*, ids: list[int]) -> int:
    """Forget subscriptions the push service no longer knows, or that expired."""
    deleted, _ = PushSubscription.objects.filter(id__in=ids).delete()
    return deleted


def push_to_all(*, user_id: int, payload: dict[str, Any], ttl: int, topic: str, now: datetime) -> tuple[int, list[int]]:
    """Push `payload` to every subscription of the account; how many took it, and the
    subscriptions found gone or expired (forgotten here)."""
    pushed, removed = 0, []
    for sub in selectors.subscriptions_of(user_id=user_id):
        if sub.expires_at is not None and sub.expires_at <= now:
            removed.append(sub.pk)
            continue
        outcome = push_send(
            endpoint=sub.endpoint, p256dh=sub.p256dh, auth=sub.auth, payload=payload, ttl=ttl, topic=topic
        )
        if outcome is Outcome.SENT:
            pushed += 1
        elif outcome is Outcome.GONE:
            removed.append(sub.pk)
    if removed:
        push_subscriptions_remove(ids=removed)
    return pushed, removed
