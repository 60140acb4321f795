"""One rule for credentials: whatever ends one ends its open sockets too, closed with 4401
and why, before anything more is sent on them (api/credential_ends.py). Each path is
taken as a person or app takes it, through HTTP; the sockets are the site's, an app's
(no `Origin`) and a session's. A ban closes them as `banned`, and an unban brings back
none of the credentials it ended."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_refresh_token_model
from rest_framework.test import APIClient

from games import selectors
from games.services import lobby, play
from grants import services as grants
from tests.api.helpers import concrete
from tests.live.rooms import hearts_of_four
from tests.oauth import allow, code_from, make_app, pkce_pair, signed_in, token_form
from tests.sockets import SITE_ORIGIN, room_socket, socket_client, user_socket
from tests.tokens import new_token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_thread_connections"),
]

ENDED = (4401, "credentials ended")
BANNED = (4401, "banned")
API = "/api/v1"


class Person:
    """One account holding every kind of credential: two sign-ins (a phone's, a
    laptop's), a personal token, an app's access and refresh tokens, and a browser's
    session; each opens a socket of the room."""

    def __init__(self, user: Any, code: str) -> None:
        self.user, self.code = user, code
        self.phone, self.laptop = new_token(user), new_token(user)
        self.personal_id, self.personal = _personal(user)
        self.app, self.access, self.refresh = _app_tokens(user)
        self.browser = signed_in(user)
        self.session = self.browser.cookies["sessionid"].value

    def api(self, token: str | None = None) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token or self.phone}")
        return client

    def sockets(self) -> dict[str, Any]:
        """A socket per credential: the site's, an app's and a script's send no Origin."""
        path = f"/ws/rooms/{self.code}/"
        return {
            "phone": room_socket(self.code, self.phone),
            "phone-own": user_socket(self.phone),
            "laptop": socket_client(path, token=self.laptop),
            "personal": socket_client(path, token=self.personal),
            "app": socket_client(path, token=self.access),
            "session": socket_client(path, origin=SITE_ORIGIN, session=self.session),
        }


def _personal(user: Any) -> tuple[int, str]:
    token, secret = grants.personal_token_create(user=user, name="score script", scope=["read", "play"])
    return token.pk, secret


def _app_tokens(user: Any) -> tuple[Any, str, str]:
    app = make_app()
    verifier, challenge = pkce_pair()
    answer = allow(signed_in(user), app, challenge, "read play")
    assert answer.status_code == 302, answer.content
    tokens = Client().post("/oauth/token/", token_form(app, code_from(answer["Location"]), verifier)).json()
    return app, tokens["access_token"], tokens["refresh_token"]


@database_sync_to_async
def person_in_a_room(make_user) -> Person:
    host = make_user()
    room = lobby.room_create(host=host, game="hearts", options={})
    return Person(host, room.code)


async def opened(sockets: dict[str, Any]) -> None:
    for name, ws in sockets.items():
        connected, _ = await ws.connect()
        assert connected, name
        if not name.endswith("-own"):
            assert (await ws.receive_json_from(timeout=5))["type"] == "changed", name
    # Each has read its credential (once served) and heard nothing more.
    for name, ws in sockets.items():
        assert await ws.receive_nothing(timeout=0.3), name


async def closed(ws: Any, expected: tuple[int, str], what: str) -> None:
    """The socket's very next output is its close, with `expected` (code, reason)."""
    message = await ws.receive_output(timeout=5)
    assert message["type"] == "websocket.close", f"{what}: sent after its credential ended: {message}"
    assert (message["code"], message.get("reason")) == expected, what


async def still_serving(ws: Any, what: str) -> None:
    await ws.send_json_to({"type": "ping"})
    assert (await ws.receive_json_from(timeout=5))["type"] == "pong", what
    await ws.disconnect()


async def outcome(sockets: dict[str, Any], ended: set[str], expected: tuple[int, str] = ENDED) -> None:
    for name, ws in sockets.items():
        if name in ended:
            await closed(ws, expected, name)
        else:
            await still_serving(ws, name)


def _post(client: Any, path: str, data: dict[str, Any] | None = None) -> int:
    return int(client.post(path, data or {}, format="json").status_code)


async def test_signing_out_closes_that_sign_ins_sockets_alone(make_user):
    person = await person_in_a_room(make_user)
    sockets = person.sockets()
    await opened(sockets)
    assert await database_sync_to_async(_post)(person.api(), f"{API}/auth/logout") == 204
    await outcome(sockets, {"phone", "phone-own"})


async def test_revoking_a_personal_token_closes_its_sockets_alone(make_user):
    person = await person_in_a_room(make_user)
    sockets = person.sockets()
    await opened(sockets)
    answer = await database_sync_to_async(person.api().delete)(f"{API}/me/tokens/{person.personal_id}")
    assert answer.status_code == 204
    await outcome(sockets, {"personal"})


@pytest.mark.parametrize("how", ["revoke_token", "me/apps", "moderator"])
async def test_taking_back_an_apps_access_closes_its_sockets_alone(make_user, how):
    person = await person_in_a_room(make_user)
    sockets = person.sockets()
    await opened(sockets)

    def take_back() -> None:
        if how == "revoke_token":
            form = {"token": person.access, "client_id": person.app.client_id}
            assert Client().post("/oauth/revoke_token/", form).status_code == 200
        elif how == "me/apps":
            assert person.api().delete(f"{API}/me/apps/{person.app.pk}").status_code == 204
        else:
            assert grants.apps_revoke(app_ids=[person.app.pk]) == 1

    await database_sync_to_async(take_back)()
    await outcome(sockets, {"app"})


async def test_a_refresh_ends_the_sockets_of_the_access_token_it_replaces(make_user):
    """The replaced access token answers 401 over HTTP; its sockets end as well, and a
    socket opened with the new one is served."""
    person = await person_in_a_room(make_user)
    sockets = person.sockets()
    await opened(sockets)
    form = {"grant_type": "refresh_token", "refresh_token": person.refresh, "client_id": person.app.client_id}
    answer = await database_sync_to_async(Client().post)("/oauth/token/", form)
    assert answer.status_code == 200, answer.content
    await outcome(sockets, {"app"})
    renewed = socket_client(f"/ws/rooms/{person.code}/", token=answer.json()["access_token"])
    await opened({"renewed": renewed})
    await still_serving(renewed, "renewed")


async def test_a_new_password_closes_every_other_credentials_sockets(make_user):
    person = await person_in_a_room(make_user)
    sockets = person.sockets()
    await opened(sockets)
    change = {"current_password": "correct-horse-9", "new_password": "another-horse-42"}
    assert await database_sync_to_async(_post)(person.api(), f"{API}/me/password", change) == 200
    # The sign-in that changed it stays, with its sockets.
    await outcome(sockets, {"laptop", "personal", "app", "session"})


async def test_signing_out_of_a_session_closes_its_sockets(make_user):
    person = await person_in_a_room(make_user)
    sockets = person.sockets()
    await opened(sockets)
    assert await database_sync_to_async(_post)(person.browser, f"{API}/auth/logout") == 204
    await outcome(sockets, {"session"})


async def test_closing_the_account_closes_every_socket(make_user):
    person = await person_in_a_room(make_user)
    sockets = person.sockets()
    await opened(sockets)
    assert await database_sync_to_async(_post)(person.api(), f"{API}/me/close", {"password": "correct-horse-9"}) == 200
    await outcome(sockets, set(sockets))


@database_sync_to_async
def ban(user: Any, moderator: Any) -> None:
    from moderation.services import user_ban

    user_ban(moderator=moderator, user=user, reason="Abuse in the chat")


@database_sync_to_async
def unban(user: Any, moderator: Any) -> None:
    from moderation.services import user_unban

    user_unban(moderator=moderator, user=user, reason="Appeal granted")


def _what_answers(person: Person) -> dict[str, tuple[int, str]]:
    """Each credential's answer: status and error code (or "")."""

    def code(answer: Any) -> tuple[int, str]:
        body = answer.json() if answer["Content-Type"].startswith("application") else {}
        errors = body.get("errors") or [{}]
        return answer.status_code, errors[0].get("code", body.get("error", ""))

    answers = {}
    for name, header in (
        ("phone", f"Token {person.phone}"),
        ("personal", f"Bearer {person.personal}"),
        ("app", f"Bearer {person.access}"),
    ):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=header)
        answers[name] = code(client.get(f"{API}/me"))
    answers["session"] = code(person.browser.get(f"{API}/me"))
    form = {"grant_type": "refresh_token", "refresh_token": person.refresh, "client_id": person.app.client_id}
    answers["refresh"] = code(Client().post("/oauth/token/", form))
    return answers


async def test_a_ban_closes_every_socket_and_an_unban_brings_no_credential_back(make_user):
    person = await person_in_a_room(make_user)
    moderator = await database_sync_to_async(make_user)(is_staff=True, is_superuser=True)
    sockets = person.sockets()
    await opened(sockets)
    await ban(person.user, moderator)
    await outcome(sockets, set(sockets), BANNED)
    during = await database_sync_to_async(_what_answers)(person)
    # Each token says why while the ban lasts; the session and the refresh token are simply over.
    assert {name: during[name] for name in ("phone", "personal", "app")} == {
        "phone": (401, "banned"),
        "personal": (401, "banned"),
        "app": (401, "banned"),
    }
    assert during["session"][0] in (401, 403) and during["refresh"] == (400, "invalid_grant")
    await unban(person.user, moderator)
    after = await database_sync_to_async(_what_answers)(person)
    assert all(status in (400, 401, 403) for status, _ in after.values()), after
    assert after["refresh"] == (400, "invalid_grant")
    # And no socket opens with any of them.
    for name, ws in person.sockets().items():
        connected, _ = await ws.connect()
        assert connected
        await closed(ws, (4401, "unauthenticated"), name)
    # The account signs in anew with its password, and that new sign-in works.
    fresh = await database_sync_to_async(APIClient().post)(
        f"{API}/auth/token", {"username": person.user.username, "password": "correct-horse-9"}, format="json"
    )
    assert fresh.status_code == 200, fresh.content


async def test_a_refresh_during_a_ban_is_refused(make_user):
    person = await person_in_a_room(make_user)
    moderator = await database_sync_to_async(make_user)(is_staff=True, is_superuser=True)
    await ban(person.user, moderator)
    answers = await database_sync_to_async(_what_answers)(person)
    assert answers["refresh"] == (400, "invalid_grant")
    assert not await database_sync_to_async(
        get_refresh_token_model().objects.filter(user=person.user, revoked__isnull=True).exists
    )()


@database_sync_to_async
def expire_access_token(token: str, seconds: float) -> Any:
    from grants.oauth2_validator import checksum

    expires = timezone.now() + timedelta(seconds=seconds)
    get_access_token_model().objects.filter(token_checksum=checksum(token)).update(expires=expires)
    return expires


async def test_an_apps_socket_closes_when_its_access_token_expires(make_user):
    person = await person_in_a_room(make_user)
    expires = await expire_access_token(person.access, 1.0)
    ws = socket_client(f"/ws/rooms/{person.code}/", token=person.access)
    await opened({"app": ws})
    await closed(ws, ENDED, "app")
    # Not before the token's own time (the server's clock, whatever this machine's speed).
    assert timezone.now() >= expires


@database_sync_to_async
def move_by_another(code: str, players: dict[int, Any], but: int) -> int:
    """A legal move of a seat other than `but` (Hearts begins with everyone passing); the
    room's version after it."""
    for index, user in players.items():
        view = selectors.view_by_code(code=code, user=user)
        if index != but and view["you"]["legal_actions"]:
            action = concrete(view["you"]["legal_actions"][0])
            play.action_submit(code=code, user=user, version=view["version"], action=action, idempotency_key=None)
            return int(selectors.view_by_code(code=code, user=user)["version"])
    raise AssertionError("no seat but the signed-out one could move")


async def test_nothing_reaches_a_socket_once_its_sign_in_ended(make_user):
    """Signed out at a live table: the next move's view goes to everyone else, and the
    signed-out socket's only output after the sign-out is its close."""
    code, players, _, tokens, _ = await hearts_of_four(make_user)
    revoked = room_socket(code, tokens[0], views=True)
    watcher = room_socket(code, tokens[1], views=True)
    await opened({"revoked": revoked, "watcher": watcher})
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {tokens[0]}")
    assert await database_sync_to_async(_post)(client, f"{API}/auth/logout") == 204
    await closed(revoked, ENDED, "signed out")
    version = await move_by_another(code, players, but=0)
    heard = await watcher.receive_json_from(timeout=5)
    assert heard["type"] == "view" and heard["version"] == version
    assert await revoked.receive_nothing(timeout=0.3)
    await watcher.disconnect()
