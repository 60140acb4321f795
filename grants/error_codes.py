"""The codes grants answer: an app's or a personal token's scopes fall short, and a
person's own app is refused."""

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
        "too_many_apps": (400, "The person has registered as many apps as they may; delete one first."),
        "invalid_redirect_uri": (
            400,
            "A redirect URI is not one an app may register: https, a private-use scheme in reverse-domain form "
            "(com.example.app:/callback) or http to 127.0.0.1 or [::1] (attr `redirect_uris`).",
        ),
        "guest_cannot_register_apps": (
            403,
            "A guest's account cannot register apps; it can become an account with a username first.",
        ),
    },
)
