"""Whether a host name is one of the public DNS: what a push endpoint's host and an
e-mail address's domain must be, so that the server neither POSTs nor mails inside a
network (its own, or the one it runs in).

A public name has at least two labels of letters, digits and hyphens (IDNA's ASCII
form), at most 253 characters, a top-level label that is not all digits (`127.1`), and
no top-level label of the special-use names that only mean something inside a network
or never resolve (IANA's Special-Use Domain Names registry: RFC 6761's localhost, test,
invalid and example, RFC 6762's local, RFC 7686's onion, RFC 8375's home.arpa and all of
arpa, RFC 9476's alt; ICANN's internal; and those routers and companies use without a
delegation: localdomain, lan, home, corp, intranet). Second-level names reserved for
documentation (example.com, example.org, example.net) are public DNS names that IANA
runs, and are taken.
"""

from __future__ import annotations

import re

_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")
SPECIAL_USE_TOP_LEVEL = frozenset(
    {
        "localhost",
        "test",
        "invalid",
        "example",
        "local",
        "onion",
        "arpa",
        "alt",
        "internal",
        "localdomain",
        "lan",
        "home",
        "corp",
        "intranet",
    }
)


def ascii_name(name: str) -> str | None:
    """The name in IDNA's ASCII form, lowercased; None when it has none."""
    try:
        return name.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return None


def is_public_name(name: str) -> bool:
    """Whether `name` (ASCII, as `ascii_name` gives it) is a public DNS name (above)."""
    labels = name.split(".")
    if len(labels) < 2 or len(name) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        return False
    return not labels[-1].isdigit() and labels[-1] not in SPECIAL_USE_TOP_LEVEL
