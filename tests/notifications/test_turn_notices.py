"""Turn notices end to end in one process: real matches through the services, the scan
and the deliveries as beat and the worker run them, pywebpush's real requests to a push
service on 127.0.0.1 (decrypted here with the subscribing browser's keys), and e-mail
through Django's test mailbox."""

from __future__ import annotations

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.utils import timezone

from games import selectors as game_selectors
from notifications.models import PushSubscription, SocketPresence, TurnNotice
from notifications.services import preferences, presence, turns
from tests.game_params import game_params

from .conftest import BASE_URL, after_wait, confirm_email, start_room, subscribe, waiting_since
from .play import act_and_wait_again, act_once
from .push_service import vapid_claims

pytestmark = pytest.mark.django_db

# Card codes ("QS", "TH", "2C") and domino tiles ("6-4") as they appear in views.
CARD_OR_TILE = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][CDHS]|10[CDHS]|[0-6]-[0-6])(?![A-Za-z0-9])")
NOTICE_KEYS = {"title", "body", "url", "rooms", "tag"}


def test_a_turn_waiting_a_minute_is_pushed_encrypted_for_the_browser_and_signed(
    push_on, push_service, make_user, notify
):
    player = make_user()
    room = start_room(player, name="Friday game")
    browser = subscribe(player, push_service, "/push/friday")
    since = waiting_since(player, room)

    # Before NOTIFY_AFTER_SECONDS a player at the table moves by themselves.
    assert notify(since + timedelta(seconds=30)) == []
    assert push_service.received == []

    now = since + timedelta(seconds=61)
    [delivery] = notify(now)
    assert delivery.pushed == 1
    [message] = push_service.at("/push/friday")
    payload = browser.decrypt(message)
    assert set(payload) == NOTICE_KEYS
    assert payload["title"] == "Your turn"
    assert re.fullmatch(r"Friday game — 5[89] minutes left", payload["body"]), payload["body"]
    assert payload["url"] == f"/rooms/{room.code}"
    assert payload["rooms"] == [room.code]
    assert payload["tag"] == f"turn-{room.code}"

    # The push service keeps it until the turn runs out, and may replace it by topic.
    deadline = game_selectors.turns_of(user=player)[0]["deadline"]
    assert deadline is not None
    assert 3400 < int(message.headers["ttl"]) <= 3540
    assert message.headers["topic"] == f"turn-{room.code}"
    assert message.headers["urgency"] == "normal"

    claims = vapid_claims(message, push_on)
    assert claims["aud"] == push_service.origin
    assert claims["sub"] == "mailto:ops@games.example.org"
    assert timezone.now().timestamp() < claims["exp"] <= timezone.now().timestamp() + 24 * 3600
    # The account gave no e-mail address.
    assert mail.outbox == []


def test_a_turn_is_told_once_and_the_next_turn_again(push_on, push_service, make_user, notify):
    player = make_user()
    room = start_room(player)
    browser = subscribe(player, push_service, "/push/once")
    assert len(notify()) == 1
    assert notify() == []
    assert notify(after_wait(600)) == []
    assert len(push_service.at("/push/once")) == 1

    act_and_wait_again(player, room)
    assert len(notify(after_wait())) == 1
    assert notify(after_wait()) == []
    messages = push_service.at("/push/once")
    assert len(messages) == 2
    assert browser.decrypt(messages[1])["rooms"] == [room.code]


def test_several_rooms_make_one_digest_by_push_and_by_mail(push_on, push_service, make_user, notify):
    player = make_user(email="player@example.org")
    confirm_email(player)
    rooms = [
        start_room(player, "hearts", name="Alpha"),
        start_room(player, "moon"),
        start_room(player, "kali_tidi", name="Gamma", turn_seconds=600),
    ]
    browser = subscribe(player, push_service, "/push/digest")
    [delivery] = notify()
    assert delivery.pushed == 1 and delivery.emailed_to == "player@example.org"

    payload = browser.decrypt(push_service.at("/push/digest")[0])
    soonest_first = [t["code"] for t in game_selectors.turns_of(user=player)]
    assert soonest_first[0] == rooms[2].code  # the shortest clock
    assert payload == {
        "title": "3 games wait for you",
        "body": payload["body"],
        "url": "/",
        "rooms": soonest_first,
        "tag": "turns",
    }
    body = r"Gamma, [89] minutes left; Alpha, 5[89] minutes left; Moon \(dominoes\), 5[89] minutes left"
    assert re.fullmatch(body, payload["body"]), payload["body"]

    [email] = mail.outbox
    assert email.to == ["player@example.org"]
    assert email.subject == "3 games wait for you"
    for room in rooms:
        assert f"{BASE_URL}/rooms/{room.code}" in email.body
    assert "Alpha — " in email.body and "Gamma — " in email.body and "Moon (dominoes) — " in email.body


def test_one_room_by_mail_to_the_address_given_or_the_account_s(push_on, make_user, notify):
    player = make_user(email="account@example.org")
    confirm_email(player)
    room = start_room(player, name="Evening")
    notify()
    [email] = mail.outbox
    assert email.to == ["account@example.org"]
    assert email.subject == "Your turn"
    assert email.body.startswith("Evening — ")
    assert f"{BASE_URL}/rooms/{room.code}\n" in email.body

    preferences.preferences_update(user=player, changes={"email_address": "elsewhere@example.org"})
    confirm_email(player)
    act_and_wait_again(player, room)
    notify()
    assert mail.outbox[-1].to == ["elsewhere@example.org"]

    preferences.preferences_update(user=player, changes={"email_address": ""})
    act_and_wait_again(player, room)
    notify()
    assert len(mail.outbox) == 2


def test_channels_switched_off_send_nothing(push_on, push_service, make_user, notify):
    player = make_user(email="player@example.org")
    confirm_email(player)
    room = start_room(player)
    subscribe(player, push_service, "/push/off")
    preferences.preferences_update(user=player, changes={"push": False})
    notify()
    assert push_service.received == [] and len(mail.outbox) == 1

    preferences.preferences_update(user=player, changes={"push": True, "email": False})
    act_and_wait_again(player, room)
    notify()
    assert len(push_service.at("/push/off")) == 1 and len(mail.outbox) == 1


def test_a_subscription_the_push_service_no_longer_knows_is_removed(push_on, push_service, make_user, notify):
    player = make_user()
    start_room(player)
    for path in ("/push/gone", "/push/unknown", "/push/failing", "/push/fine"):
        subscribe(player, push_service, path)
    push_service.answer("/push/gone", 410)
    push_service.answer("/push/unknown", 404)
    push_service.answer("/push/failing", 500)
    [delivery] = notify()
    assert delivery.pushed == 1
    assert len(delivery.removed) == 2
    left = set(PushSubscription.objects.filter(user=player).values_list("endpoint", flat=True))
    assert left == {push_service.url("/push/failing"), push_service.url("/push/fine")}
    # Every one of them was tried.
    assert all(len(push_service.at(p)) == 1 for p in ("/push/gone", "/push/unknown", "/push/failing", "/push/fine"))


def test_a_redirect_from_the_push_service_is_not_followed(push_on, push_service, make_user, notify):
    player = make_user()
    start_room(player)
    subscribe(player, push_service, "/push/moved")
    push_service.answer("/push/moved", 307, {"Location": push_service.url("/elsewhere")})
    [delivery] = notify()
    assert delivery.pushed == 0 and delivery.removed == []
    assert push_service.at("/elsewhere") == []
    assert PushSubscription.objects.filter(user=player).count() == 1


def test_an_expired_subscription_is_removed_unsent(push_on, push_service, make_user, notify):
    player = make_user()
    start_room(player)
    subscribe(player, push_service, "/push/fresh")
    PushSubscription.objects.filter(user=player).update(expires_at=timezone.now())
    [delivery] = notify()
    assert delivery.pushed == 0 and len(delivery.removed) == 1
    assert push_service.received == [] and not PushSubscription.objects.filter(user=player).exists()


def test_without_vapid_keys_nothing_is_pushed_and_mail_still_goes(push_on, push_service, make_user, notify, settings):
    settings.VAPID_PRIVATE_KEY = ""
    player = make_user(email="player@example.org")
    confirm_email(player)
    start_room(player)
    subscribe(player, push_service, "/push/nokeys")
    [delivery] = notify()
    assert delivery.pushed == 0 and delivery.emailed_to == "player@example.org"
    assert push_service.received == []
    assert PushSubscription.objects.filter(user=player).count() == 1


def test_a_fresh_socket_holds_notices_back_and_a_stale_one_does_not(push_on, push_service, make_user, notify, settings):
    player = make_user()
    start_room(player)
    subscribe(player, push_service, "/push/present")
    now = after_wait()
    presence.presence_mark(user_id=player.pk, channel_name="specific.a!1", now=now - timedelta(seconds=5))
    assert notify(now) == []
    # Nothing claimed: the turn is told once the player is away.
    assert not TurnNotice.objects.exists()

    # A socket unheard of for the TTL died with its process: it silences nobody, and goes.
    later = now + timedelta(seconds=settings.NOTIFY_PRESENCE_TTL_SECONDS)
    assert len(notify(later)) == 1
    assert len(push_service.at("/push/present")) == 1
    assert not SocketPresence.objects.exists()


def test_a_socket_closed_lets_the_waiting_turn_be_told(push_on, push_service, make_user, notify):
    player = make_user()
    start_room(player)
    subscribe(player, push_service, "/push/closed")
    presence.presence_mark(user_id=player.pk, channel_name="specific.b!1")
    assert notify() == []
    presence.presence_end(channel_name="specific.b!1")
    assert len(notify()) == 1


def test_nothing_inside_the_quiet_period_and_the_turn_told_after_it(push_on, push_service, make_user, notify):
    player = make_user()
    start_room(player)
    subscribe(player, push_service, "/push/quiet")
    preferences.preferences_update(
        user=player, changes={"quiet": {"start": "22:00", "end": "07:00", "timezone": "Europe/Paris"}}
    )
    paris = ZoneInfo("Europe/Paris")
    local = after_wait().astimezone(paris)
    night = local.replace(hour=23, minute=30, second=0, microsecond=0)
    if night < local:
        night += timedelta(days=1)
    assert notify(night) == []
    assert notify(night + timedelta(hours=7, minutes=29)) == []  # 06:59
    assert not TurnNotice.objects.exists()
    morning = night + timedelta(hours=7, minutes=30)  # 07:00
    assert len(notify(morning)) == 1
    assert len(push_service.at("/push/quiet")) == 1


def test_a_banned_player_hears_nothing(push_on, push_service, make_user, notify):
    player = make_user(email="player@example.org")
    confirm_email(player)
    start_room(player)
    subscribe(player, push_service, "/push/banned")
    type(player).objects.filter(pk=player.pk).update(is_active=False)
    assert notify() == []
    assert push_service.received == [] and mail.outbox == []


def test_a_turn_over_before_the_delivery_is_not_told(push_on, push_service, make_user):
    player = make_user()
    room = start_room(player)
    subscribe(player, push_service, "/push/late")
    now = after_wait()
    assert turns.waiting_turns_claim(now=now) == [player.pk]
    act_and_wait_again(player, room)
    assert turns.turn_notice_delivered(user_id=player.pk, now=now).notice is None
    assert push_service.received == []


def test_a_delivery_run_twice_sends_once(push_on, push_service, make_user):
    player = make_user(email="player@example.org")
    confirm_email(player)
    start_room(player)
    subscribe(player, push_service, "/push/twice")
    now = after_wait()
    assert turns.waiting_turns_claim(now=now) == [player.pk]
    assert turns.turn_notice_delivered(user_id=player.pk, now=now).pushed == 1
    assert turns.turn_notice_delivered(user_id=player.pk, now=now).notice is None
    assert len(push_service.at("/push/twice")) == 1 and len(mail.outbox) == 1


@pytest.mark.parametrize("game", game_params())
def test_no_notice_holds_a_card_or_a_tile(push_on, push_service, make_user, notify, game):
    """Real hands: after each of the player's turns, the notice says where and until
    when, and nothing of any hand (the texts are built from the room's name alone)."""
    player = make_user(email="player@example.org")
    confirm_email(player)
    room = start_room(player, game, name="Table one")
    second = start_room(player, game)
    browser = subscribe(player, push_service, "/push/cards")
    seen_phases = set()
    for _ in range(8):
        notify()
        seen_phases.update(t["phase"] for t in game_selectors.turns_of(user=player))
        act_and_wait_again(player, room)
        act_once(player, second)
    assert len(seen_phases) >= 2, seen_phases
    messages = push_service.at("/push/cards")
    assert len(messages) >= 8 and len(mail.outbox) == len(messages)
    for message, email in zip(messages, mail.outbox, strict=True):
        payload = browser.decrypt(message)
        assert set(payload) == NOTICE_KEYS
        texts = [payload["title"], payload["body"], payload["url"], payload["tag"], *payload["rooms"]]
        texts += [email.subject, email.body]
        for text in texts:
            assert not CARD_OR_TILE.search(text), text
        assert set(payload["rooms"]) <= {room.code, second.code}
