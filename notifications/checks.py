"""`manage.py check`: the VAPID keys make a pair, and the tests' push setting stays in
the tests."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, Warning, register

from . import vapid


@register()
def vapid_keys(app_configs: Any, **kwargs: Any) -> list[CheckMessage]:
    public, private = settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY
    if not public and not private:
        return []
    if not (public and private):
        return [Error("Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither.", id="notifications.E001")]
    try:
        key = vapid.private_key(private)
    except ValueError:
        return [
            Error(
                "VAPID_PRIVATE_KEY is not a P-256 private key in base64url.",
                hint="manage.py vapid_keys prints a pair.",
                id="notifications.E002",
            )
        ]
    if vapid.public_of(key) != public.rstrip("="):
        return [
            Error(
                "VAPID_PUBLIC_KEY is not the public half of VAPID_PRIVATE_KEY.",
                hint="manage.py vapid_keys prints a pair.",
                id="notifications.E003",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def loopback_push(app_configs: Any, **kwargs: Any) -> list[CheckMessage]:
    if settings.PUSH_ALLOW_LOOPBACK:
        return [
            Warning(
                "PUSH_ALLOW_LOOPBACK lets any account make the server send requests to its own loopback address.",
                hint="It is for the tests' fake push service: unset it.",
                id="notifications.W001",
            )
        ]
    return []
