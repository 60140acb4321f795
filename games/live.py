"""Announcing changes to WebSocket listeners, from web processes and workers alike: a
room's changes to the room's sockets, and a player's turns and finished matches to the
player's own socket (ws/me/)."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from datetime import datetime
from typing import Any

import uvloop
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

from core.times import iso

logger = logging.getLogger(__name__)


def group_name(code: str) -> str:
    return f"room.{code}"


def user_group_name(user_id: int) -> str:
    return f"user.{user_id}"


def account_group_name(user_id: int) -> str:
    """Every socket of the account, its rooms' and its own: where its credentials are
    checked again when one of them ends."""
    return f"account.{user_id}"


# How long a change that ends a credential waits for the sockets to be told: the answer
# to the request that ended it comes after, so nothing is pushed to such a socket later.
CREDENTIALS_CHECK_WAIT_SECONDS = 2.0


def credentials_check_after_commit(user_id: int) -> None:
    """Once this commits, every open socket of the account checks the credential it was
    opened with, on every socket process, and closes when it no longer works
    (api/credential_ends.py says which changes call this). The check is sent before
    the caller goes on, so a socket hears it before any change committed afterwards."""
    connection = transaction.get_connection()
    # One check per account per transaction, however many of its rows it deletes (a ban
    # ends every token and session at once). Read from the callbacks still pending, not
    # from a record of our own: a savepoint rolled back takes its callbacks with it.
    if any(check == _CredentialsCheck(user_id) for _, check, _ in connection.run_on_commit):
        return
    transaction.on_commit(_CredentialsCheck(user_id))


class _CredentialsCheck:
    """The commit callback of `credentials_check_after_commit`."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _CredentialsCheck) and other.user_id == self.user_id

    def __hash__(self) -> int:
        return hash(self.user_id)

    def __call__(self) -> None:
        _send_now(account_group_name(self.user_id), credentials_check_message())


def credentials_check_message() -> dict[str, Any]:
    """`at` (wall-clock seconds): a socket that checked since need not check again."""
    return {"type": "credentials.check", "at": time.time()}


class _Announcer:
    """A thread with its own event loop that sends notices in order.

    `async_to_sync` from a sync worker makes a new event loop per call, and the Redis
    layer a new connection per loop: milliseconds on every move. This loop lives as long
    as the process, so its connections do too, and the request only queues the notice.
    A notice still queued when the process exits is lost; clients catch up from the
    event log (they poll it when the socket is quiet or reconnects).
    """

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.pid = os.getpid()
        # uvloop: the same loop in C, a few per cent of a move's CPU less (docs/speed.md).
        self.loop = uvloop.new_event_loop()
        self.queue: asyncio.Queue[list[tuple[str, dict[str, Any]]]] | None = None
        ready = threading.Event()
        threading.Thread(target=self._run, args=(ready,), name="room-announcer", daemon=True).start()
        ready.wait()

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.queue = asyncio.Queue()
        ready.set()
        self.loop.run_until_complete(self._drain())

    async def _drain(self) -> None:
        assert self.queue is not None
        while True:
            sends = await self.queue.get()
            try:
                await _group_send_many(self.layer, sends)
            except Exception:  # a notice lost is caught up by the client's poll of the event log
                logger.exception("could not announce %s", [(group, message["type"]) for group, message in sends])

    def send(self, sends: list[tuple[str, dict[str, Any]]]) -> None:
        assert self.queue is not None
        self.loop.call_soon_threadsafe(self.queue.put_nowait, sends)

    def send_now(self, sends: list[tuple[str, dict[str, Any]]], timeout: float) -> None:
        """Send ahead of the queue and wait until the layer has it (or `timeout`)."""
        asyncio.run_coroutine_threadsafe(_group_send_many(self.layer, sends), self.loop).result(timeout)


async def _group_send_many(layer: Any, sends: list[tuple[str, dict[str, Any]]]) -> None:
    """Each (group, message) in order: at once where the layer can (api/channel_layer.py)."""
    if hasattr(layer, "group_send_many"):
        await layer.group_send_many(sends)
        return
    for group, message in sends:
        await layer.group_send(group, message)


_announcer: _Announcer | None = None
_announcer_lock = threading.Lock()


def _announcer_for(layer: Any) -> _Announcer:
    global _announcer
    with _announcer_lock:
        # A forked process (gunicorn or Celery worker) has no copy of the thread.
        if _announcer is None or _announcer.pid != os.getpid() or _announcer.layer is not layer:
            _announcer = _Announcer(layer)
        return _announcer


def room_changed_message(version: int, seq: int) -> dict[str, Any]:
    """The layer's message for a room's sockets (api/consumers.py), which they pass on
    as `{"type": "changed", "version": …, "seq": …}`.

    `seq` is the room-wide counter of the event log, private events included. Telling it
    to everyone reveals nothing the public log does not: every private event is written
    in the same commit as the public event it accompanies (a pass, a widow taken), how
    many there are follows from that public event and the rules, and a spectator's log
    already shows them as gaps in the public events' `seq`.

    `at` (wall-clock seconds) says when it was sent: a socket process trusts the version
    a notice told it for pings only for a while after that (api/room_versions.py), so
    one delivered late, or a later one lost, is caught by the next ping's read."""
    return {"type": "room.changed", "version": version, "seq": seq, "at": time.time()}


def _send(group: str, message: dict[str, Any]) -> None:
    _send_many([(group, message)])


def _send_now(group: str, message: dict[str, Any]) -> None:
    """Send and wait until the layer has the message, for what must reach sockets before
    the caller answers (a credential ended)."""
    layer = get_channel_layer()
    if layer is None or isinstance(layer, InMemoryChannelLayer):
        _send_many([(group, message)])  # in the serving loop, and so sent on return
        return
    try:
        _announcer_for(layer).send_now([(group, message)], CREDENTIALS_CHECK_WAIT_SECONDS)
    except Exception:
        logger.exception("could not announce %s to %s", message["type"], group)


def _send_many(sends: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer):
        # Its queues belong to the serving event loop (the one-process start), which
        # async_to_sync reaches from a request thread.
        try:
            async_to_sync(_group_send_many)(layer, sends)
        except Exception:
            logger.exception("could not announce %s", [(group, message["type"]) for group, message in sends])
        return
    _announcer_for(layer).send(sends)


def members_now(groups: list[str]) -> dict[str, list[str]] | None:
    """Each group's members (channel names) as the channel layer holds them now, for
    making only the views someone will receive (games/view_push.py); None where the layer
    cannot tell (every group then counts as listening). A socket that joins just after
    this read misses nothing: it reads where the room stands as it joins, and a change
    whose view it was not sent reaches it as the room's `changed`, which it catches up
    from over HTTP."""
    layer = get_channel_layer()
    if layer is None:
        return {group: [] for group in groups}
    if isinstance(layer, InMemoryChannelLayer):
        # The one-process start: the sockets of this process are all there are (a worker
        # process's own layer has none, and its notices reach nobody: live_watch.py).
        return {group: list(layer.groups.get(group, {})) for group in groups}
    members = getattr(layer, "members_now", None)
    if members is None:
        return None
    try:
        found: dict[str, list[str]] | None = members(groups)
    except Exception:  # Redis away: make every view, as before; sending reports its own failure
        logger.exception("could not read who listens to %s", groups)
        return None
    return found


def room_send_after_commit(code: str, message: dict[str, Any]) -> None:
    """Send `message` to the room's sockets once this commits (a line of its table talk)."""
    transaction.on_commit(lambda: _send(group_name(code), message))


def your_turn_after_commit(user_id: int, room: Any, deadline: datetime | None) -> None:
    """Tell the player on ws/me/, once this commits, that the game waits for them in
    `room` (its version as it stands at commit)."""

    def send() -> None:
        notice = {
            "type": "your_turn",
            "room": room.code,
            "version": room.version,
            "deadline": iso(deadline),
        }
        _send(user_group_name(user_id), {"type": "user.notice", "notice": notice})

    transaction.on_commit(send)


def match_over_after_commit(user_id: int, code: str) -> None:
    """Tell the player on ws/me/, once this commits, that a match of theirs is over."""
    notice = {"type": "match_over", "room": code}
    transaction.on_commit(lambda: _send(user_group_name(user_id), {"type": "user.notice", "notice": notice}))


# A field of a message sent with others (`announce`): groups whose members it skips,
# honoured where the layer sends a change's messages together (api/channel_layer.py);
# elsewhere the receiving socket skips it itself.
EXCEPT_GROUPS = "__except_groups__"


def viewer_group_name(code: str, user_id: int) -> str:
    """One person's sockets of one room: where their own view of it is pushed."""
    return f"room.{code}.user.{user_id}"


def announce(notices: list[tuple[str, dict[str, Any]]], code: str, version: int, seq: int) -> None:
    """Send `notices` ((group, message) pairs: the viewers' views), then the room's
    `changed` at `version` and `seq`. One process's notices go out in the order sent, so
    a socket hears its view before the notice of the same change."""
    _send_many([*notices, (group_name(code), room_changed_message(version, seq))])
