"""The Django admin as moderators use it: players, rooms, hands, actions and events, and
the moderation log, with the moderators' actions on a player's or a room's page.

It lives here rather than in `accounts` and `games` so those apps never import
moderation: moderation sits above them and calls their services.
"""

import core.ids  # noqa: F401  (registers `<id:…>`, which the pages' URLs use)

from . import groups, log, oauth_apps, outages, queue, rooms, tokens, users

__all__ = ["groups", "log", "oauth_apps", "outages", "queue", "rooms", "tokens", "users"]
