"""On two of each process (conftest.py): every way a credential ends, taken through the
first web process (or, for a moderator's ban, from a process of its own as the admin
is), closes a socket opened with it on the second socket process within a second, and
that socket receives nothing after the answer that ended it: not even the view of the
next move at its table, which another player makes at once. A ban and an unban leave
every earlier credential dead: tokens, an app's access and refresh tokens, sockets.

Each case seats its person P with Quinn and two computer players in a Hearts room of
its own, both still to pass; P's socket (on the second socket process) pushes P's view,
and Quinn passes right after the credential ends, through the second web process.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest

from tests.api.helpers import concrete

from .client import PASSWORD, Api
from .conftest import Cluster
from .processes import PY

pytestmark = pytest.mark.asyncio

CLOSED_WITHIN_SECONDS = 1.0
ENDED = (4401, "credentials ended")
BANNED = (4401, "banned")
NEW_PASSWORD = "another-long-secret-7"

# Run with the deployment's environment: what a moderator's action in the admin does.
APP_TOKENS = """
import json, secrets
from datetime import timedelta
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_application_model, get_refresh_token_model
from accounts.models import User
user = User.objects.get(username=NAME)
app = get_application_model().objects.create(
    name="Cluster app", client_type="public", authorization_grant_type="authorization-code",
    redirect_uris="http://127.0.0.1:8765/callback")
access, refresh = secrets.token_urlsafe(30), secrets.token_urlsafe(30)
token = get_access_token_model().objects.create(
    user=user, application=app, token=access, expires=timezone.now() + timedelta(hours=1), scope="read play")
get_refresh_token_model().objects.create(user=user, application=app, token=refresh, access_token=token)
print(json.dumps({"app": app.pk, "client_id": app.client_id, "access": access, "refresh": refresh}))
"""
MODERATE = """
from accounts.models import User
from moderation import services
moderator = User.objects.filter(username="cluster-moderator").first() or User.objects.create_superuser(
    "cluster-moderator", password="a-long-secret-9")
user = User.objects.get(username=NAME)
if ACTION == "ban":
    services.user_ban(moderator=moderator, user=user, reason="Abuse in the chat")
else:
    services.user_unban(moderator=moderator, user=user, reason="Appeal granted")
"""


def run_on_deployment(cluster: Cluster, script: str, **names: str) -> str:
    """Run `script` with Django set up as the deployment's processes are; its output."""
    prelude = "".join(f"{name} = {json.dumps(value)}\n" for name, value in names.items())
    done = subprocess.run(
        [PY, "manage.py", "shell", "-c", prelude + script],
        env=cluster.env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


@dataclass
class Heard:
    """A socket read into a list as frames come, each with when it came, and its close."""

    ws: aiohttp.ClientWebSocketResponse
    frames: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    closed: tuple[float, int, str] | None = None

    def start(self) -> None:
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        while True:
            message = await self.ws.receive()
            if message.type == aiohttp.WSMsgType.TEXT:
                self.frames.append((time.monotonic(), message.json()))
                continue
            if message.type == aiohttp.WSMsgType.CLOSE:
                self.closed = (time.monotonic(), int(message.data), str(message.extra or ""))
            else:
                self.closed = (time.monotonic(), self.ws.close_code or 0, message.type.name)
            return

    async def until(self, check: Callable[[], bool], what: str, seconds: float = 15) -> None:
        deadline = time.monotonic() + seconds
        while not check():
            assert time.monotonic() < deadline, f"no {what} within {seconds} s; heard {self.frames}, {self.closed}"
            await asyncio.sleep(0.02)


async def socket(http: aiohttp.ClientSession, base: str, path: str, token: str) -> Heard:
    url = f"{base.replace('http', 'ws', 1)}/{path}?token={token}"
    # As an app opens it: no Origin.
    heard = Heard(await http.ws_connect(url, timeout=aiohttp.ClientWSTimeout(ws_receive=None, ws_close=5)))
    heard.start()
    await heard.until(lambda: bool(heard.frames) or path.startswith("ws/me"), "first frame")
    return heard


@dataclass
class Person:
    name: str
    token: str  # the sign-in made at registration


async def seated_with_quinn(api: Api, web: str, person: Person, quinn: Person) -> str:
    """A started Hearts room of `person`, Quinn and two computer players; its code."""
    room = await api.call(web, "POST", "rooms/", token=person.token, body={"game": "hearts", "options": {}}, status=201)
    code = room["code"]
    await api.call(web, "POST", f"rooms/{code}/join", token=quinn.token, body={}, status=201)
    for _ in range(2):
        await api.call(web, "POST", f"rooms/{code}/bots", token=person.token, body={}, status=201)
    await api.call(web, "POST", f"rooms/{code}/start", token=person.token)
    return code


async def quinn_passes(api: Api, web: str, quinn: Person, code: str) -> int:
    view = await api.call(web, "GET", f"rooms/{code}/state", token=quinn.token)
    body = {"version": view["version"], "action": concrete(view["you"]["legal_actions"][0])}
    return int((await api.call(web, "POST", f"rooms/{code}/actions", token=quinn.token, body=body))["version"])


async def sign_in(api: Api, web: str, name: str, password: str = PASSWORD) -> str:
    body = {"username": name, "password": password}
    return str((await api.call(web, "POST", "auth/token", body=body))["token"])


async def test_every_way_a_credential_ends_closes_its_socket_on_another_process(cluster: Cluster) -> None:
    first_web, second_web = cluster.web
    sockets_at = cluster.sockets[1]
    async with aiohttp.ClientSession() as http:
        api = Api(http)
        quinn = Person("quinn", await api.register(first_web, "quinn"))
        quinn_own = await socket(http, cluster.sockets[0], "ws/me/", quinn.token)
        results: dict[str, float] = {}

        async def case(
            name: str, credential: Callable[[Person], Awaitable[str]], end: Callable[[Person, str], Awaitable[None]]
        ) -> tuple[Person, str]:
            """P's socket opened with the credential `credential` gives; `end` ends it."""
            person = Person(name, await api.register(first_web, name))
            secret = await credential(person)
            code = await seated_with_quinn(api, first_web, person, quinn)
            heard = await socket(http, sockets_at, f"ws/rooms/{code}/", secret)
            await end(person, secret)
            answered = time.monotonic()
            version = await quinn_passes(api, second_web, quinn, code)
            await heard.until(lambda: heard.closed is not None, "close")
            assert heard.closed is not None
            at, close_code, reason = heard.closed
            assert (close_code, reason) == (BANNED if name.startswith("banned") else ENDED), name
            late = [frame for when, frame in heard.frames if when >= answered]
            assert late == [], f"{name}: sent after the credential ended: {late}"
            # Quinn's pass was pushed (P's seat view would have carried it).
            assert version > 0
            results[name] = at - answered
            return person, secret

        async def own_token(person: Person) -> str:
            return person.token

        async def personal(person: Person) -> str:
            body = {"name": "score script", "scopes": ["read"]}
            answer = await api.call(first_web, "POST", "me/tokens", token=person.token, body=body, status=201)
            person.personal_id = answer["id"]  # type: ignore[attr-defined]
            return str(answer["token"])

        apps: dict[str, dict[str, Any]] = {}

        async def app_access(person: Person) -> str:
            made = json.loads(await asyncio.to_thread(run_on_deployment, cluster, APP_TOKENS, NAME=person.name))
            apps[person.name] = made
            return str(made["access"])

        async def sign_out(person: Person, secret: str) -> None:
            await api.call(first_web, "POST", "auth/logout", token=secret, status=204)

        async def revoke_personal(person: Person, secret: str) -> None:
            token_id = person.personal_id  # type: ignore[attr-defined]
            await api.call(first_web, "DELETE", f"me/tokens/{token_id}", token=person.token, status=204)

        async def revoke_token_endpoint(person: Person, secret: str) -> None:
            form = {"token": secret, "client_id": apps[person.name]["client_id"]}
            async with http.post(f"{first_web}/oauth/revoke_token/", data=form) as answer:
                assert answer.status == 200, await answer.text()

        async def revoke_app(person: Person, secret: str) -> None:
            app = apps[person.name]["app"]
            await api.call(first_web, "DELETE", f"me/apps/{app}", token=person.token, status=204)

        async def new_password(person: Person, secret: str) -> None:
            # From the registration's sign-in, which stays; the socket's is another one.
            body = {"current_password": PASSWORD, "new_password": NEW_PASSWORD}
            await api.call(first_web, "POST", "me/password", token=person.token, body=body)

        async def another_sign_in(person: Person) -> str:
            return await sign_in(api, first_web, person.name)

        async def close_account(person: Person, secret: str) -> None:
            await api.call(first_web, "POST", "me/close", token=secret, body={"password": PASSWORD})

        async def ban(person: Person, secret: str) -> None:
            await asyncio.to_thread(run_on_deployment, cluster, MODERATE, NAME=person.name, ACTION="ban")

        await case("signs-out", own_token, sign_out)
        await case("revokes-personal", personal, revoke_personal)
        await case("app-revoke-token", app_access, revoke_token_endpoint)
        await case("app-taken-back", app_access, revoke_app)
        await case("new-password", another_sign_in, new_password)
        await case("closes", own_token, close_account)

        async def every_kind(person: Person) -> str:
            person.personal = await personal(person)  # type: ignore[attr-defined]
            return await app_access(person)

        banned, _ = await case("banned-app", every_kind, ban)

        slow = {name: seconds for name, seconds in results.items() if seconds > CLOSED_WITHIN_SECONDS}
        assert not slow, f"closed later than {CLOSED_WITHIN_SECONDS} s after the answer: {results}"

        # After the unban, nothing the banned person held before works again.
        personal_secret = banned.personal  # type: ignore[attr-defined]
        await asyncio.to_thread(run_on_deployment, cluster, MODERATE, NAME=banned.name, ACTION="unban")
        made = apps[banned.name]
        for header in (f"Token {banned.token}", f"Bearer {made['access']}", f"Bearer {personal_secret}"):
            async with http.get(f"{second_web}/api/v1/me", headers={"Authorization": header}) as answer:
                assert answer.status == 401, (header, answer.status)
        form = {"grant_type": "refresh_token", "refresh_token": made["refresh"], "client_id": made["client_id"]}
        async with http.post(f"{second_web}/oauth/token/", data=form) as answer:
            assert answer.status == 400, await answer.text()
        for secret in (banned.token, made["access"]):
            ws = await http.ws_connect(f"{sockets_at.replace('http', 'ws', 1)}/ws/me/?token={secret}")
            assert (await ws.receive()).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            assert ws.close_code == 4401
        # A new sign-in with the password works.
        assert await sign_in(api, second_web, banned.name)
        await quinn_own.ws.close()
