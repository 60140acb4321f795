"""The codes privacy answers: an archive asked for without an address to mail it to, or
too soon after the last, and a download link that no longer works."""

from __future__ import annotations

from core.errors import Catalogue

CODES = Catalogue(
    "privacy",
    {
        "no_confirmed_address": (
            409,
            "The archive's link is mailed to the account's confirmed address, and there is none (set one in "
            "`me/notifications` and open the link mailed to it).",
        ),
        "export_gone": (
            404,
            "No archive at this link (any more): it was used already, is older than EXPORT_LINK_DAYS, or is mistyped.",
        ),
        "export_requested_recently": (
            429,
            "An archive was asked for less than EXPORT_INTERVAL_SECONDS ago; ask again after the Retry-After "
            "header's seconds.",
        ),
    },
)
