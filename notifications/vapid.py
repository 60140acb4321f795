"""The server's VAPID key pair (RFC 8292): push services know the server by it, and
browsers subscribe with its public half (the application server key).

Both halves come from the environment as base64url without padding: VAPID_PRIVATE_KEY
the 32-byte private scalar, VAPID_PUBLIC_KEY the 65-byte uncompressed point.
"""

from __future__ import annotations

import base64
import binascii
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings

from .endpoints import b64url


def generate() -> tuple[str, str]:
    """A fresh pair: (public key, private key)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return public_of(key), b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def public_of(key: ec.EllipticCurvePrivateKey) -> str:
    point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(point)


def private_key(value: str) -> ec.EllipticCurvePrivateKey:
    """The private key a VAPID_PRIVATE_KEY value holds; ValueError if it holds none."""
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not base64url") from None
    if len(raw) != 32:
        raise ValueError("not 32 bytes")
    return ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())


def configured() -> bool:
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def public_key() -> str | None:
    """The application server key browsers subscribe with; None while push is off."""
    return settings.VAPID_PUBLIC_KEY.rstrip("=") if configured() else None


def subject() -> str:
    """Who to contact about this server's pushes: VAPID_SUBJECT, else the public site
    (push services take an https origin, no path), else the address e-mails come from."""
    if settings.VAPID_SUBJECT:
        return str(settings.VAPID_SUBJECT)
    site = urlsplit(settings.PUBLIC_BASE_URL)
    if site.scheme == "https" and site.netloc and not site.path:
        return str(settings.PUBLIC_BASE_URL)
    return f"mailto:{settings.DEFAULT_FROM_EMAIL}"
