from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from celery import current_app
from django.conf import settings as django_settings
from django.utils import timezone

from core.errors import ServiceError
from games.models import Room, Seat
from games.services import lobby
from notifications import selectors, vapid
from notifications.services import confirmation, subscriptions, turns

from .push_service import Browser, FakePushService, serve

BASE_URL = "https://games.example.org"


@pytest.fixture
def push_service() -> Iterator[FakePushService]:
    service = serve()
    yield service
    service.server.shutdown()
    service.server.server_close()


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch, push_on: str) -> list[tuple[str, tuple[Any, ...]]]:
    """Tasks queued (name, args), each run at once as the worker runs it."""
    sent: list[tuple[str, tuple[Any, ...]]] = []

    def send_task(name: str, args: tuple[Any, ...] = (), **options: Any) -> None:
        sent.append((name, tuple(args)))
        current_app.tasks[name](*args)

    monkeypatch.setattr(current_app, "send_task", send_task)
    return sent


@pytest.fixture
def push_on(settings: Any) -> str:
    """Push configured with a fresh VAPID pair, subscriptions on 127.0.0.1 allowed (the
    fake push service), and a public address for e-mails; the VAPID public key."""
    public, private = vapid.generate()
    settings.VAPID_PUBLIC_KEY = public
    settings.VAPID_PRIVATE_KEY = private
    settings.VAPID_SUBJECT = "mailto:ops@games.example.org"
    settings.PUSH_ALLOW_LOOPBACK = True
    settings.PUBLIC_BASE_URL = BASE_URL
    return public


def start_room(host: Any, game: str = "hearts", name: str = "", **options: Any) -> Room:
    """A match of `game` under way: `host` and computer players in the other seats (they
    move at once in the tests), with a long clock so that no turn times out."""
    room = lobby.room_create(
        host=host, game=game, name=name, options={"turn_seconds": 3600, "abandon_seconds": 7200, **options}
    )
    while True:
        try:
            lobby.room_add_bot(code=room.code, user=host)
        except ServiceError as err:
            assert err.code == "room_full", err.code
            break
    lobby.room_start(code=room.code, user=host)
    room.refresh_from_db()
    return room


def waiting_since(user: Any, room: Room) -> datetime:
    since = Seat.objects.get(room=room, user=user).turn_since
    assert since is not None, "the game does not wait for this player"
    return since


def after_wait(seconds: float = 1) -> datetime:
    """A moment when every turn begun so far has waited NOTIFY_AFTER_SECONDS and more."""
    return timezone.now() + timedelta(seconds=django_settings.NOTIFY_AFTER_SECONDS + seconds)


def confirm_email(user: Any) -> str:
    """Confirm the player's current address as the link mailed to it does; the address."""
    address = selectors.preferences_of(user=user).email_address
    return confirmation.email_confirm(token=confirmation.confirmation_token(user_id=user.pk, address=address))


def subscribe(user: Any, service: FakePushService, path: str) -> Browser:
    browser = Browser()
    sub = browser.subscription(service.url(path))
    subscriptions.push_subscription_save(
        user=user, endpoint=sub["endpoint"], p256dh=sub["keys"]["p256dh"], auth=sub["keys"]["auth"]
    )
    return browser


@pytest.fixture
def notify() -> Callable[..., list[turns.Delivery]]:
    """One scan and the deliveries it asks for, at `now`, as beat and the worker run them."""

    def run(now: datetime | None = None) -> list[turns.Delivery]:
        now = now or after_wait()
        return [turns.turn_notice_delivered(user_id=u, now=now) for u in turns.notices_claim(now=now)]

    return run
