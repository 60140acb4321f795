"""The codes grants answer: an app's or a personal token's scopes fall short."""

from __future__ import annotations

from core.errors import Catalogue

CODES = Catalogue(
    "grants",
    {
        "insufficient_scope": (
            403,
            "The OAuth2 or personal access token lacks the scope this operation needs (the operation's "
            "security lists it), or the operation is the player's own (their sign-in, not an app's).",
        ),
        "too_many_tokens": (400, "The player has as many personal access tokens as they may; revoke one first."),
    },
)
