"""A client of the trick-taking game server's API v1.

- `GameServer`: sign in (password, guest) and out, rooms, moves with idempotency keys,
  the room's log; `.client` is the client generated from the OpenAPI document
  (`gameserver_client.generated`), for every other operation.
- `RoomFeed`: the room socket, with catch-up after a drop.
- `gameserver_client.pkce`: OAuth2 with PKCE for apps acting for players.
- `body_of`: a legal action made into the action body that does it.

The package's version is the API document's `info.version` it was generated from."""

from gameserver_client._version import __version__
from gameserver_client.actions import body_of, is_template
from gameserver_client.errors import ApiError, ErrorDetail, SocketRefused
from gameserver_client.retries import RetryAfterTransport
from gameserver_client.room_feed import RoomFeed, RoomUpdate
from gameserver_client.server import GameServer

__all__ = [
    "ApiError",
    "ErrorDetail",
    "GameServer",
    "RetryAfterTransport",
    "RoomFeed",
    "RoomUpdate",
    "SocketRefused",
    "__version__",
    "body_of",
    "is_template",
]
