"""Sending one Web Push message (RFC 8030), encrypted for the browser (RFC 8291,
aes128gcm) and signed with the server's VAPID key (RFC 8292), by pywebpush."""

from __future__ import annotations

import enum
import json
import logging
from typing import Any

import requests
from django.conf import settings
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from . import endpoints, vapid

logger = logging.getLogger(__name__)

# How long a push service keeps a message for a device that is offline: until the
# soonest turn runs out, within these bounds.
TTL_MIN, TTL_MAX = 60, 24 * 3600


class Outcome(enum.Enum):
    SENT = "sent"
    # The push service no longer knows the subscription (404, 410): remove it.
    GONE = "gone"
    FAILED = "failed"


class _NoRedirects(requests.Session):
    """A redirect would send the message, and the server's request, to a host no check
    ever saw: the answer is taken as it is (a 3xx is a failure)."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


def push_send(*, endpoint: str, p256dh: str, auth: str, payload: dict[str, Any], ttl: int, topic: str) -> Outcome:
    """POST `payload` to one subscription; never raises for what the push service or the
    network answers."""
    if not vapid.configured():
        return Outcome.FAILED
    if not endpoints.host_resolves_public(endpoint):
        logger.warning("push endpoint host resolves to a non-public address; not sent")
        return Outcome.FAILED
    signer = Vapid02(vapid.private_key(settings.VAPID_PRIVATE_KEY))
    with _NoRedirects() as session:
        try:
            webpush(
                subscription_info={"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
                data=json.dumps(payload, ensure_ascii=False),
                vapid_private_key=signer,
                # pywebpush adds the audience (the endpoint's origin) and the expiry.
                vapid_claims={"sub": vapid.subject()},
                ttl=max(TTL_MIN, min(TTL_MAX, ttl)),
                timeout=settings.PUSH_TIMEOUT_SECONDS,
                headers={"Urgency": "normal", "Topic": topic},
                requests_session=session,
            )
        except WebPushException as err:
            status = err.status_code
            if status in (404, 410):
                return Outcome.GONE
            logger.warning("push service answered %s", status)
            return Outcome.FAILED
        except requests.RequestException as err:
            logger.warning("push service unreachable: %s", type(err).__name__)
            return Outcome.FAILED
    return Outcome.SENT
