"""Second factors as numbers and strings, nothing stored: TOTP codes (RFC 6238, through
pyotp: 6 digits, 30-second steps, the step before and after accepted for clocks that
drift) and recovery codes (ten random `abcd-efgh`, kept as SHA-256 digests: they are
random enough that a plain digest cannot be reversed)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime
from urllib.parse import quote

import pyotp
import segno

ISSUER = "Trick-taking tables"
RECOVERY_CODES = 10
# The alphabet of recovery codes: no 0/o, 1/l/i to misread.
_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def totp_secret() -> str:
    return pyotp.random_base32()


def otpauth_uri(secret: str, username: str) -> str:
    """What an authenticator app reads (from the QR code, or typed)."""
    return pyotp.TOTP(secret).provisioning_uri(name=quote(username, safe="@.+-_"), issuer_name=ISSUER)


def qr_data_uri(uri: str) -> str:
    return str(segno.make(uri, error="m").svg_data_uri(scale=4, border=2))


def totp_step(secret: str, code: str, *, after: int, now: datetime) -> int | None:
    """The time step `code` belongs to, when it is the code of the step before, at or
    after `now`'s and later than `after` (a step used already); None otherwise."""
    code = code.strip().replace(" ", "")
    if len(code) != 6 or not code.isdigit():
        return None
    totp = pyotp.TOTP(secret)
    current = totp.timecode(now)
    found = None
    for step in (current - 1, current, current + 1):
        # Every candidate compared, whatever matched, so the time says nothing.
        if hmac.compare_digest(totp.generate_otp(step), code) and step > after:
            found = step
    return found


def recovery_codes() -> list[str]:
    return [
        "-".join("".join(secrets.choice(_ALPHABET) for _ in range(4)) for _ in range(2)) for _ in range(RECOVERY_CODES)
    ]


def recovery_digest(code: str) -> str:
    return hashlib.sha256(code.strip().lower().encode()).hexdigest()


def looks_like_recovery_code(code: str) -> bool:
    return len(code.strip()) == 9 and code.strip()[4] == "-"
