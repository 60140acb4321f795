"""Room codes: what they are made of, so that a code can be checked before any query.

A string that cannot be a code (a NUL, a control character, the wrong length) never
reaches the database: PostgreSQL refuses NUL in text outright, and every other such
string could only miss.
"""

from __future__ import annotations

import re
import secrets

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud safely
CODE_LENGTH = 6
# The shape as a regular expression (URL converters take it as it is).
CODE_PATTERN = f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}"
_CODE = re.compile(CODE_PATTERN)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def is_room_code(value: object) -> bool:
    return isinstance(value, str) and _CODE.fullmatch(value) is not None
