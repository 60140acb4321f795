"""The room's socket, with each listener's own view of the room, and the player's own.

The contract (every message both ways, close codes, catch-up) is api/asyncapi.yaml,
served at /api/asyncapi.yaml; tests/live/test_asyncapi.py holds the sockets to it.

`ws/rooms/CODE/`: after every change, `{"type": "view", "version", "seq", "after",
"events", "view"}` — the socket's person's own view and the events of the change they
may read, made once per viewer per version where the change committed
(games/view_push.py) and routed to that person's sockets alone — or, where no view
came (a socket opening, `?views=0`, a change the server could not push), the room's
notice `{"type": "changed", "version": N, "seq": S}`: the room's version, and the `seq`
of the last event in its log, so a client catches up with `events?after=` the last seq
it has read. A view carries the same two, and stands for its change's notice. A line
said at the table comes as `{"type": "chat", "line": {...}}` to the sockets of those
who read it (talk/selectors.py); `chat?after=` catches up with the lines.

A socket of the room may send a move, `{"type": "action", "id", "version", "action",
"idempotency_key"}`, answered `{"type": "result", "id", "status", "view" or "error"}`:
the HTTP request `POST rooms/CODE/actions` it stands for, served as HTTP serves it
(api/socket_moves.py).

A client may also send `{"type": "ping"}` at any
time; the answer, `{"type": "pong", "version": N, "seq": S}`, is where the room stands
as the database or its notices told this process within LIVE_PING_FRESH_SECONDS
(api/room_versions.py), so a client that hears nothing for a while can tell a quiet room
from a missed notice or a dead connection, and a flood of pings reads nothing.

`ws/me/`: the caller's own notices, from every room they sit in:
`{"type": "your_turn", "room": CODE, "version": N, "deadline": ISO or null}` when the
game starts waiting for them, `{"type": "match_over", "room": CODE}` when a match of
theirs ends. `GET me/turns` lists the same turns. A `{"type": "ping"}` is answered
`{"type": "pong"}`.

Any other path is accepted and closed with 4404, as an unknown room is: a
client with a mistyped URL learns that retrying will not help, and the server logs no
error for it. Both paths are served with and without their trailing slash.

Every frame a client sends, and every socket an account opens, costs a token of the
socket's and the account's buckets (api/socket_limits.py): a socket sending faster than
they allow is closed with 4429, its frames counted before they reach a consumer. A move
is counted apart, as HTTP's throttle counts a POST, with a bucket of its own per socket
against a flood.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import InMemoryChannelLayer
from django.conf import settings
from django.utils import timezone

from accounts.models import User
from games import live, live_watch, selectors
from games.codes import is_room_code
from games.selectors import RoomPosition
from notifications.services import presence
from talk import live as talk_live

from . import socket_closes, socket_credentials, socket_moves
from . import socket_metrics as metrics
from .db_async import database_sync_to_async
from .room_versions import versions_for
from .socket_closes import SocketClose
from .socket_limits import account_buckets, account_sockets

logger = logging.getLogger(__name__)


def _wants_views(scope: dict[str, Any]) -> bool:
    """Views are pushed unless the socket's URL asks for notices alone (`?views=0`): a
    client that fetches what it shows need not be sent it."""
    return "0" not in parse_qs(scope.get("query_string", b"").decode("latin-1")).get("views", [])


def _is_ping(content: Any) -> bool:
    return isinstance(content, dict) and content.get("type") == "ping"


async def _quietly(what: str, step: Awaitable[Any]) -> None:
    """Run one step of a socket's cleanup; one that fails is logged and the next runs."""
    try:
        await step
    except Exception:
        logger.exception("could not %s", what)


class NoticeConsumer(AsyncJsonWebsocketConsumer):
    """What both sockets share: they announce, and take nothing from a client but pings
    (and, on a room's, moves), at a limited rate; a socket whose credential ends (signed
    out, revoked, a new password, a ban, a closure) is closed at once."""

    # The `path` label of gameserver_sockets_open for the sockets a subclass serves.
    path_label = "other"

    async def dispatch(self, message: dict[str, Any]) -> None:
        """channels' own, without its hop to a worker thread before every message to close
        stale database connections: a notice to pass on reads no database, and every read
        these sockets make goes through `database_sync_to_async`, which closes them around
        itself. At a live table that hop was a fifth of the socket process's work."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def join_account(self, user: User) -> None:
        self.account_group = live.account_group_name(user.pk)
        await self.channel_layer.group_add(self.account_group, self.channel_name)

    async def leave_account(self) -> None:
        if hasattr(self, "account_group"):
            leaving = self.channel_layer.group_discard(self.account_group, self.channel_name)
            await _quietly("leave the account's group", leaving)

    async def credentials_check(self, event: dict[str, Any]) -> None:
        """One of the account's credentials may have ended (api/credential_ends.py): read
        this socket's again, and close it if it no longer works. A check begun after the
        message was sent has read what it tells already."""
        if getattr(self, "ended", False) or event.get("at", 0.0) < getattr(self, "checked_at", 0.0):
            return
        self.checked_at = time.time()
        try:
            close = await socket_credentials.ended(self.scope)
        except Exception:
            # The database away: the socket cannot tell, and ends as a server's error does
            # (its client reconnects, and the reconnect reads the credential).
            logger.exception("could not read the credential of a socket of user %s", self.scope["user"].pk)
            close = socket_closes.SERVER_ERROR
        if close is not None:
            await self.end(close)

    async def end(self, close: SocketClose) -> None:
        """Close at once: nothing queued for the socket is sent after this (`send`)."""
        self.ended = True
        await self.close_as(close)

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False) -> None:
        # A socket ended for its credential sends nothing more, whatever its handlers were
        # still given (the close itself goes through channels' own, underneath this).
        if not getattr(self, "ended", False):
            await super().send(text_data, bytes_data, close)

    async def send_json(self, content: Any, close: bool = False) -> None:
        # channels' own goes to the websocket's `send` past the one above.
        if not getattr(self, "ended", False):
            await super().send_json(content, close)

    async def watch_credential(self) -> None:
        """Once served: read the credential again (one that ended while the socket opened
        was checked before the socket could hear of it), and again when it expires."""
        await self.credentials_check({"at": time.time()})
        expires = None if getattr(self, "ended", False) else await socket_credentials.expires(self.scope)
        if expires is not None:
            delay = max(0.0, (expires - timezone.now()).total_seconds())
            self.expiry = asyncio.get_running_loop().call_later(delay, self._expired)

    def _expired(self) -> None:
        self.expiry_check = asyncio.ensure_future(self.credentials_check({"at": time.time()}))

    async def may_open(self, user: User) -> bool:
        """Opening a socket costs its account a token; without one the socket is refused
        with 4429 (a reconnecting flood reads no room for it). An account holds at most
        WS_ACCOUNT_SOCKETS_MAX sockets open on every socket process together; one more is
        refused with 4409 (api/socket_limits.py, AccountSockets)."""
        if not account_buckets().take(user.pk):
            metrics.sockets_closed_rate_limited.labels(metrics.LIMIT_ACCOUNT).inc()
            await self.refuse(socket_closes.RATE_LIMITED)
            return False
        self.holds_slot = True  # released as it closes, whatever the answer
        cap = settings.WS_ACCOUNT_SOCKETS_MAX
        if await account_sockets().hold(self.channel_layer, user.pk, self.channel_name, cap):
            return True
        metrics.sockets_refused_too_many.inc()
        await self.refuse(socket_closes.TOO_MANY_SOCKETS)
        return False

    def refused_meanwhile(self) -> bool:
        """Whether the handshake gate closed this socket with 1013 while it was opening
        (api/socket_limits.py, GateVerdict): its opening stops at the next step, and its
        disconnect undoes what was done."""
        verdict = self.scope.get("handshake_gate")
        return verdict is not None and verdict.closed

    async def serve(self) -> bool:
        """Accept a socket that is served (not refused): it counts as open until it closes.
        False if the gate refused it meanwhile: the opening stops there."""
        if self.refused_meanwhile():
            return False
        await self.accept()
        metrics.sockets_open.labels(self.path_label).inc()
        self.counted_open = True
        return True

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        expiry = getattr(self, "expiry", None)
        if expiry is not None:
            expiry.cancel()
        if getattr(self, "counted_open", False):
            self.counted_open = False
            metrics.sockets_open.labels(self.path_label).dec()
        if getattr(self, "holds_slot", False):
            self.holds_slot = False
            releasing = account_sockets().release(self.channel_layer, self.channel_name)
            await _quietly("release the account's socket", releasing)
        await super().websocket_disconnect(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        # A binary or empty frame is ignored like any unknown message (channels' own
        # receive raises, ending the socket with an error in the server's log).
        if text_data:
            await self.receive_json(await self.decode_json(text_data), **kwargs)

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        # A frame that is not JSON is ignored like any other unknown message, instead of
        # ending the connection with an exception.
        try:
            return await super().decode_json(text_data)
        except ValueError:
            return None

    async def close_as(self, close: SocketClose) -> None:
        """Close with one of the documented closes (api/socket_closes.py), its code and reason."""
        await self.close(code=close.code, reason=close.reason)

    async def refuse(self, close: SocketClose) -> None:
        """Accept, then close. A close before the accept fails the handshake, and a browser
        then only ever sees 1006, whatever the reason; after the accept the client receives
        the code and can tell "sign in again" from "no such room" and from a dropped
        connection worth retrying."""
        await self.accept()
        await self.close_as(close)


class ClosingConsumer(NoticeConsumer):
    """A socket that is only ever refused, as the subclass says."""

    refusal = socket_closes.NO_SUCH_SOCKET

    async def connect(self) -> None:
        await self.refuse(self.refusal)


class UnknownSocketConsumer(ClosingConsumer):
    """Every path that names no socket: closed with 4404, as an unknown room is."""


class ForeignOriginConsumer(ClosingConsumer):
    """A socket without a token from a page on a site the server does not trust
    (api/ws_auth.py): the browser would have lent it the player's session."""

    refusal = socket_closes.ORIGIN_NOT_ALLOWED


class RoomConsumer(NoticeConsumer):
    path_label = "room"

    async def connect(self) -> None:
        self.code = self.scope["url_route"]["kwargs"]["code"]
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(socket_closes.UNAUTHENTICATED)
            return
        if not is_room_code(self.code):
            # Read nothing, join nothing: no room could have that code.
            await self.refuse(socket_closes.NO_SUCH_ROOM)
            return
        if not await self.may_open(user) or self.refused_meanwhile():
            return
        # The room's group, and its person's own group of the room where their view is
        # pushed, are joined before the room is read: a change committed after the read
        # is then always heard (its notice waits until the opening is done), and one
        # committed before is in what is read. Joined after, a change between the two
        # would be neither (the client would learn of it only at its next ping). Left on
        # disconnect, which follows a refusal too.
        self.group = live.group_name(self.code)
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.user_id = user.pk
        self.pushes_views = _wants_views(self.scope)
        if self.pushes_views:
            self.viewer_group = live.viewer_group_name(self.code, user.pk)
            await self.channel_layer.group_add(self.viewer_group, self.channel_name)
        self.versions = versions_for(self.channel_layer)
        # Read, not taken from the record, for the same reason. Sockets opening at once
        # share one read, if it began after they joined.
        answer = await self.versions.position(self.code, fresh_for=0, begun_after=self.versions.mark())
        position = answer.position
        if position is None or await _hidden_from(self.code, user):
            await self.refuse(socket_closes.NO_SUCH_ROOM)
            return
        if self.refused_meanwhile():
            return
        self.versions.listen(self.code, position, confirmed_at=answer.confirmed_at)
        self.listening = True
        await self.join_account(user)
        self.watch = live_watch.watch_for(self.channel_layer)
        if self.watch is not None:
            self.watch.add(self.code, position.version)
        if not await self.serve():
            return
        # Where the room is now, so a client that reconnects knows at once whether it
        # missed anything, and from which event to catch up.
        await self.send_json({"type": "changed", **position._asdict()})
        await self.watch_credential()

    async def disconnect(self, code: int) -> None:
        if getattr(self, "listening", False):
            self.versions.forget(self.code)
        watch = getattr(self, "watch", None)
        if watch is not None:
            watch.discard(self.code)
        if hasattr(self, "group"):
            await _quietly("leave the room's group", self.channel_layer.group_discard(self.group, self.channel_name))
        if hasattr(self, "viewer_group"):
            leaving = self.channel_layer.group_discard(self.viewer_group, self.channel_name)
            await _quietly("leave the viewer's group", leaving)
        await self.leave_account()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if getattr(self, "ended", False):
            return
        if socket_moves.is_action(content) and getattr(self, "listening", False):
            # A move: the HTTP request it stands for, answered here (api/socket_moves.py).
            await self.send(text_data=await socket_moves.submit(self.scope, self.code, content))
            return
        if _is_ping(content) and getattr(self, "listening", False):
            try:
                answer = await self.versions.position(self.code, settings.LIVE_PING_FRESH_SECONDS)
            except Exception:
                # The database away (readiness failing): the socket ends as a server's
                # error does, so that its clean-up runs and its client reconnects later.
                logger.exception("room %s: a ping could not be answered", self.code)
                await self.close_as(socket_closes.SERVER_ERROR)
                return
            metrics.room_pings.labels(metrics.PING_FROM_DATABASE if answer.read else metrics.PING_FROM_RECORD).inc()
            if answer.position is None:  # deleted under an open socket
                await self.close_as(socket_closes.NO_SUCH_ROOM)
                return
            await self.send_json({"type": "pong", **answer.position._asdict()})

    async def seat_view(self, event: dict[str, Any]) -> None:
        """This socket's person's own view (they are seated), from their group alone."""
        await self._pass_view(event)

    async def room_view(self, event: dict[str, Any]) -> None:
        """The view of everyone not seated: a seated person's own comes to their group."""
        if self.user_id not in event["seated"]:
            await self._pass_view(event)

    async def _pass_view(self, event: dict[str, Any]) -> None:
        if getattr(self, "pushes_views", False):
            # The message's text as games/view_push.py made it: nothing to decode or encode here.
            await self.send(text_data=event["frame"])
            self.viewed = RoomPosition(event["version"], event["seq"])

    async def chat_line(self, event: dict[str, Any]) -> None:
        """A line said at the table (talk/live.py), passed on when this socket's person
        reads it."""
        if talk_live.reads(event, self.user_id):
            await self.send(text_data=event["frame"])

    async def room_changed(self, event: dict[str, Any]) -> None:
        position = RoomPosition(event["version"], event["seq"])
        if getattr(self, "listening", False):
            self.versions.heard(self.code, position, sent_at=event.get("at"))
        if getattr(self, "viewed", None) == position:
            return  # the view of this change said as much: one frame a change, not two
        await self.send_json({"type": "changed", **position._asdict()})


@database_sync_to_async
def _turns_and_rooms(user: User) -> tuple[list[dict[str, Any]], set[str]]:
    return selectors.turns_of(user=user), selectors.rooms_playing_of(user=user)


@database_sync_to_async
def _hidden_from(code: str, user: User) -> bool:
    return selectors.room_hidden_from_code(code=code, user=user)


@database_sync_to_async
def _mark_present(user_id: int, channel_name: str) -> None:
    presence.presence_mark(user_id=user_id, channel_name=channel_name)


@database_sync_to_async
def _end_presence(channel_name: str) -> None:
    presence.presence_end(channel_name=channel_name)


class UserConsumer(NoticeConsumer):
    """The caller's turns and finished matches, from every room (ws/me/). While it is
    open, its player is present: notifications send them nothing (docs/notifications.md).

    Its presence record cannot outlive it: closing ends the record before anything else
    (after the refresh that may be writing it), whatever fails after; only a process
    that dies leaves records, which count as gone after NOTIFY_PRESENCE_TTL_SECONDS."""

    path_label = "me"
    presence_write: asyncio.Future[None] | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(socket_closes.UNAUTHENTICATED)
            return
        if not await self.may_open(user) or self.refused_meanwhile():
            return
        self.user = user
        if isinstance(self.channel_layer, InMemoryChannelLayer):
            # That layer carries only this process's notices; the worker's changes are
            # read from the database instead, as games/live_watch.py does for rooms.
            if settings.LIVE_WATCH_SECONDS > 0:
                self.poller = asyncio.get_running_loop().create_task(self._poll(settings.LIVE_WATCH_SECONDS))
        else:
            self.group = live.user_group_name(user.pk)
            await self.channel_layer.group_add(self.group, self.channel_name)
        await self.join_account(user)
        if self.refused_meanwhile():
            return
        await self._say_present()
        self.presence = asyncio.get_running_loop().create_task(self._stay_present())
        if not await self.serve():
            return
        await self.watch_credential()

    async def disconnect(self, code: int) -> None:
        for task in (getattr(self, "poller", None), getattr(self, "presence", None)):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if hasattr(self, "presence"):
            if self.presence_write is not None:
                # A refresh under way would write the record back after its end.
                await self.presence_write
            await _quietly(f"end the presence of user {self.user.pk}", _end_presence(self.channel_name))
        if hasattr(self, "group"):
            await _quietly("leave the player's group", self.channel_layer.group_discard(self.group, self.channel_name))
        await self.leave_account()

    async def _say_present(self) -> None:
        try:
            await _mark_present(self.user.pk, self.channel_name)
        except Exception:  # the next refresh tries again; meanwhile a notice may go out
            logger.exception("could not mark user %s present", self.user.pk)

    async def _stay_present(self) -> None:
        """Refresh the socket's presence while it is open: one that stops being refreshed
        (its process was killed) counts as gone after NOTIFY_PRESENCE_TTL_SECONDS."""
        while True:
            await asyncio.sleep(settings.NOTIFY_PRESENCE_REFRESH_SECONDS)
            # Shielded: cancelling the refresh (the socket closing) lets the write finish,
            # and disconnect waits for it before ending the record.
            self.presence_write = asyncio.ensure_future(self._say_present())
            await asyncio.shield(self.presence_write)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """A ping is answered, so a client can tell a quiet socket from a dead one;
        anything else is ignored."""
        if _is_ping(content) and hasattr(self, "user"):
            await self.send_json({"type": "pong"})

    async def user_notice(self, event: dict[str, Any]) -> None:
        await self.send_json(event["notice"])

    async def _poll(self, interval: float) -> None:
        """Where notices cannot come through the layer: compare the turns and matches
        under way with those read last time, and announce what began or ended."""
        known: dict[str, str | None] | None = None
        playing: set[str] = set()
        while True:
            try:
                turns, now_playing = await _turns_and_rooms(self.user)
                current = {t["code"]: t["since"] for t in turns}
                if known is not None:
                    for turn in turns:
                        if known.get(turn["code"]) != turn["since"]:
                            notice = {k: turn[k] for k in ("version", "deadline")}
                            await self.send_json({"type": "your_turn", "room": turn["code"], **notice})
                    for code in sorted(playing - now_playing):
                        await self.send_json({"type": "match_over", "room": code})
                known, playing = current, now_playing
            except Exception:  # the next round tries again; clients also fetch by themselves
                logger.exception("could not read the turns of user %s", self.user.pk)
            await asyncio.sleep(interval)
