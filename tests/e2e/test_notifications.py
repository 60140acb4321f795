"""The notifications page and the service worker, in headless Chromium against daphne on
PostgreSQL: the settings read, saved, and refused with the server's words next to the
field; push offered only where the server has a key and the browser can; the opt-in that
does nothing until clicked; and the worker at /sw.js (scope "/") showing a pushed notice
and opening the site when it is clicked.

Headless Chromium has no push service to subscribe with: it refuses, and the test checks
that the page says so. To follow the opt-in past that point, one part stands a scripted
push service in for the browser vendor's (`PushManager.subscribe` answers with a
subscription holding a real P-256 key, as a browser's does); from there on it is the real
client and the real server. Pushes reach the worker through Chrome DevTools'
`ServiceWorker.deliverPushMessage`, as DevTools' own "Push" button sends them.
"""

from __future__ import annotations

import email
import email.policy
import json
import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.core import signing
from playwright.sync_api import expect

from notifications import vapid
from tests.servers import daphne_argv, database_url, free_port, server_env, serving

from .conftest import ARTIFACTS, MakeRun, orm, sign_up, token_of

NO_KEY = "This server does not send push notifications"


@pytest.fixture(scope="session")
def push_server(django_db_setup: Any, django_db_blocker: Any) -> Iterator[tuple[str, str]]:
    """Daphne on the test database as for `live_url`, with a VAPID key pair: push is on.
    Yields its URL and the public key."""
    public, private = vapid.generate()
    port = free_port()
    with django_db_blocker.unblock():
        env = server_env(database_url(), VAPID_PUBLIC_KEY=public, VAPID_PRIVATE_KEY=private)
    argv = daphne_argv(port)
    log_path = ARTIFACTS / f"server-push-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    with serving("daphne with push", argv, port=port, env=env, log_path=log_path) as url:
        yield url, public


def subscriptions_of(username: str) -> list[str]:
    """The endpoints the server holds for `username`."""
    from notifications.models import PushSubscription

    endpoints = PushSubscription.objects.filter(user__username=username).values_list("endpoint", flat=True)
    return orm(lambda: list(endpoints))


def settings_of(url: str, token: str) -> dict[str, Any]:
    res = httpx.get(f"{url}/api/v1/me/notifications", headers={"Authorization": f"Token {token}"})
    assert res.status_code == 200, res.text
    return res.json()


def shown_when(
    page: Any,
    check: Callable[[list[dict[str, Any]]], bool],
    seconds: float = 30,
    again: Callable[[], None] | None = None,
) -> list[dict[str, Any]]:
    """The notifications the worker shows, once `check` holds for them (30 s at most, by
    the clock: the browser may have to start the worker first, on a busy machine).
    `again` delivers the pushes once more, every 10 s they have not shown: Chromium drops
    a push that reaches a worker it is stopping as idle, and a push service delivers
    again; one notice a tag, so a push delivered twice shows once."""
    began = time.monotonic()
    deadline, retry = began + seconds, began + 10
    while True:
        shown = page.evaluate(NOTIFICATIONS)
        if check(shown):
            return shown
        if time.monotonic() > deadline:
            break
        if again is not None and time.monotonic() > retry:
            again()
            retry = time.monotonic() + 10
        page.wait_for_timeout(100)
    workers = page.evaluate(REGISTRATION)
    raise AssertionError(f"the notifications shown never were as expected: {shown} (workers: {workers})")


def field_error(page: Any, label: str) -> Any:
    """The error line of the field labelled `label`: in the field, tied to its input."""
    field = page.locator(".field", has=page.get_by_label(label, exact=True))
    return field.locator(".field-error")


def test_the_settings_are_read_saved_and_refused_next_to_the_field(
    open_page: Callable[..., Any], live_url: str, shots: Any
) -> None:
    # A phone in Paris: the quiet period's zone is the browser's own until one is saved.
    page = open_page(timezone_id="Europe/Paris")
    sign_up(page, "nadia")
    link = page.get_by_role("navigation", name="Account").get_by_role("link", name="Settings")
    link.click()
    expect(page).to_have_url(re.compile(r"/notifications$"))
    expect(link).to_have_attribute("aria-current", "page")
    expect(page.get_by_role("heading", name="Settings", level=1)).to_be_visible()
    expect(page.get_by_role("heading", name="Notifications", level=2)).to_be_visible()
    expect(page).to_have_title("Settings · Trick-taking tables")
    # What is sent and when, before anything is switched on.
    about = page.locator(".about")
    expect(about).to_contain_text("at most one notice for each of your turns")
    expect(about).to_contain_text("one reminder before your turn runs out")
    expect(about).to_contain_text("one notice naming them all when several tables wait for you")
    expect(about).to_contain_text("never carries your cards")
    # This server has no push key: no opt-in, and it says why; the channel cannot be chosen.
    expect(page.locator(".device")).to_contain_text(NO_KEY)
    expect(page.locator(".device button")).to_have_count(0)
    expect(page.get_by_role("checkbox", name="Push notices")).to_be_disabled()
    expect(page.get_by_role("checkbox", name="Push notices")).not_to_be_checked()

    # What the server holds (its defaults: both channels on, no address, no quiet hours),
    # read into the form.
    token = token_of(page)
    assert settings_of(live_url, token) == {
        "push": True,
        "email": True,
        "email_address": "",
        "email_confirmed": False,
        "email_available": True,
        "quiet": None,
    }
    expect(page.get_by_label("E-mail", exact=True)).to_be_checked()
    expect(page.get_by_label("E-mail address")).to_have_value("")
    expect(page.get_by_label("Send nothing during these hours")).not_to_be_checked()
    expect(page.get_by_label("From")).to_be_hidden()
    shots(page, "settings")

    # Saved: an address, no e-mail for now, and quiet hours in the browser's zone.
    page.get_by_label("E-mail", exact=True).uncheck()
    page.get_by_label("E-mail address").fill("nadia@example.org")
    page.get_by_label("Send nothing during these hours").check()
    expect(page.get_by_label("Time zone")).to_have_value("Europe/Paris")
    page.get_by_label("From").fill("22:30")
    page.get_by_label("Until").fill("07:15")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
    assert settings_of(live_url, token) == {
        "push": True,
        "email": False,
        "email_address": "nadia@example.org",
        "email_confirmed": False,
        "email_available": True,
        "quiet": {"start": "22:30", "end": "07:15", "timezone": "Europe/Paris"},
    }
    # Not mailed until confirmed; saving it sent the link, so another must wait.
    expect(page.locator(".email-status")).to_contain_text("Not confirmed: open the link e-mailed to nadia@example.org")
    page.get_by_role("button", name="Send the link again").click()
    expect(page.locator("#confirm-error")).to_contain_text("A link was sent less than 5 minutes ago")
    shots(page, "address-not-confirmed")

    # Another zone, read back after a reload (from the server, not from the page).
    page.get_by_label("Time zone").select_option("America/Chicago")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
    page.reload()
    expect(page.get_by_label("E-mail address")).to_have_value("nadia@example.org")
    expect(page.get_by_label("E-mail", exact=True)).not_to_be_checked()
    expect(page.get_by_label("Send nothing during these hours")).to_be_checked()
    expect(page.get_by_label("From")).to_have_value("22:30")
    expect(page.get_by_label("Until")).to_have_value("07:15")
    expect(page.get_by_label("Time zone")).to_have_value("America/Chicago")

    # The server refuses a quiet period that ends when it starts: its words, under "Until".
    page.get_by_label("Until").fill("22:30")
    page.get_by_role("button", name="Save").click()
    error = field_error(page, "Until")
    expect(error).to_have_text("A quiet period must end at another time than it starts.")
    expect(page.get_by_label("Until")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_label("Until")).to_be_focused()
    expect(page.get_by_role("status").filter(has_text="Saved.")).to_have_count(0)
    shots(page, "quiet-refused")
    assert settings_of(live_url, token)["quiet"]["end"] == "07:15"

    # An address the browser lets through but the server does not: under the address.
    page.get_by_label("Until").fill("06:00")
    page.get_by_label("E-mail address").fill("nadia@example")
    page.get_by_role("button", name="Save").click()
    expect(field_error(page, "E-mail address")).to_have_text("That is not an e-mail address.")
    expect(field_error(page, "Until")).to_have_text("")  # the last answer's errors only
    expect(page.get_by_label("E-mail address")).to_be_focused()
    # The error is read with the field.
    described = page.get_by_label("E-mail address").get_attribute("aria-describedby") or ""
    assert "email_address-error" in described.split()
    shots(page, "address-refused")
    assert settings_of(live_url, token)["email_address"] == "nadia@example.org"

    # Corrected, it saves, and the errors go.
    page.get_by_label("E-mail address").fill("nadia@example.net")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
    expect(page.locator(".field-error:not(:empty)")).to_have_count(0)
    assert settings_of(live_url, token)["email_address"] == "nadia@example.net"
    assert settings_of(live_url, token)["quiet"]["end"] == "06:00"

    # The link mailed (its token made here as the server makes it) confirms the address.
    user_id = httpx.get(f"{live_url}/api/v1/me", headers={"Authorization": f"Token {token}"}).json()["id"]
    link_token = signing.dumps({"u": user_id, "a": "nadia@example.net"}, salt="notifications.email-confirmation")
    page.goto(f"/confirm-email#{link_token}")
    expect(page.get_by_role("heading", name="Address confirmed")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/confirm-email$"))  # the token leaves the address bar
    shots(page, "address-confirmed")
    assert settings_of(live_url, token)["email_confirmed"] is True
    page.goto("/notifications")
    expect(page.locator(".email-status")).to_have_text("Confirmed: e-mail notices go to nadia@example.net.")
    expect(page.get_by_role("button", name="Send the link again")).to_be_hidden()


def test_a_browser_without_push_is_told_so(open_page: Callable[..., Any], push_server: tuple[str, str]) -> None:
    url, _ = push_server
    page = open_page(width=1280, height=900, base_url=url)
    # A browser with service workers but no Push API (Safari on an iPhone, outside the
    # Home Screen, is one).
    page.add_init_script("delete window.PushManager")
    sign_up(page, "pavel")
    page.goto("/notifications")
    expect(page.locator(".device")).to_contain_text("This browser cannot receive push notifications")
    expect(page.locator(".device button")).to_have_count(0)
    # The account's push channel still serves its other browsers: it can be chosen here.
    expect(page.get_by_role("checkbox", name="Push notices")).to_be_enabled()
    # The rest of the page works as anywhere.
    expect(page.get_by_role("button", name="Save")).to_be_enabled()


# The browser vendor's push service, which headless Chromium lacks: a subscription like a
# browser's (a fresh P-256 key pair and auth secret, an https endpoint of a public host),
# kept in the tab's session storage as a browser keeps it across reloads, and the options
# the page subscribed with.
PUSH_SERVICE = """
(() => {
  const b64url = (bytes) =>
    btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  const unb64url = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const made = (saved) => saved && {
    endpoint: saved.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: unb64url(saved.serverKey).buffer },
    toJSON: () => ({ endpoint: saved.endpoint, expirationTime: null, keys: saved.keys }),
    unsubscribe: async () => {
      sessionStorage.removeItem("fakePush");
      return true;
    },
  };
  PushManager.prototype.getSubscription = async function () {
    return made(JSON.parse(sessionStorage.getItem("fakePush")));
  };
  PushManager.prototype.subscribe = async function (options) {
    const serverKey = b64url(options.applicationServerKey);
    const calls = JSON.parse(sessionStorage.getItem("fakePushCalls") ?? "[]");
    calls.push({ userVisibleOnly: options.userVisibleOnly, key: serverKey });
    sessionStorage.setItem("fakePushCalls", JSON.stringify(calls));
    const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
    const p256dh = b64url(await crypto.subtle.exportKey("raw", pair.publicKey));
    const auth = b64url(crypto.getRandomValues(new Uint8Array(16)));
    const endpoint = `https://push.example.net/send/${b64url(crypto.getRandomValues(new Uint8Array(12)))}`;
    const saved = { endpoint, serverKey, keys: { p256dh, auth } };
    sessionStorage.setItem("fakePush", JSON.stringify(saved));
    return made(saved);
  };
})();
"""

REGISTRATION = """async () => {
  const registrations = await navigator.serviceWorker.getRegistrations();
  return registrations.map((r) => ({ scope: r.scope, script: (r.active ?? r.installing ?? r.waiting)?.scriptURL }));
}"""

NOTIFICATIONS = """async () => {
  const registration = await navigator.serviceWorker.getRegistration("/");
  const shown = await registration.getNotifications();
  return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
}"""

# Clicks the notice the worker shows, inside the worker: the same `notificationclick`
# listener runs, with the notification the push made. (Only a person's click may also
# focus a window; the worker's attempt to is refused here, and nothing else is.)
CLICK = """async () => {
  const [notification] = await self.registration.getNotifications();
  self.dispatchEvent(new NotificationEvent("notificationclick", { notification }));
  return notification.data;
}"""


def test_push_opt_in_the_worker_and_opt_out(
    open_page: Callable[..., Any], push_server: tuple[str, str], shots: Any
) -> None:
    url, public_key = push_server
    page = open_page(width=1280, height=900, base_url=url)
    sign_up(page, "petra")
    page.get_by_role("navigation", name="Account").get_by_role("link", name="Settings").click()
    device = page.locator(".device")
    expect(device).to_contain_text("Off on this browser.")
    expect(device).to_contain_text("Your browser asks for your permission first")
    button = device.get_by_role("button", name="Turn on notifications on this device")
    expect(button).to_be_enabled()
    expect(page.get_by_role("checkbox", name="Push notices")).to_be_enabled()
    # Push notices switched off for the account, to begin with.
    page.get_by_role("checkbox", name="Push notices").uncheck()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
    assert settings_of(url, token_of(page))["push"] is False
    # Nothing has been asked or subscribed before the click. (The worker every page
    # registers, for the offline page, asks the person nothing.)
    assert page.evaluate("Notification.permission") == "default"
    assert page.evaluate(LOCAL_SUBSCRIPTION) is None
    shots(page, "before-opt-in")

    # The person allows notifications when the browser asks; the worker is registered at
    # the root for the whole site. Headless Chromium's own push service then refuses, and
    # the page says so; the server holds nothing.
    page.context.grant_permissions(["notifications"])
    button.click()
    expect(device.get_by_role("alert")).to_contain_text("The browser's push service refused")
    assert page.evaluate(REGISTRATION) == [{"scope": f"{url}/", "script": f"{url}/sw.js"}]
    assert subscriptions_of("petra") == []
    expect(button).to_be_enabled()

    # With a push service standing in for the vendor's, the opt-in goes through: the page
    # subscribes with the server's key, and the server holds the subscription.
    page.add_init_script(PUSH_SERVICE)
    page.reload()
    button = device.get_by_role("button", name="Turn on notifications on this device")
    button.click()
    expect(device.get_by_role("status")).to_have_text("On: this browser receives push notices.")
    assert page.evaluate("JSON.parse(sessionStorage.getItem('fakePushCalls'))") == [
        {"userVisibleOnly": True, "key": public_key}
    ]
    [endpoint] = subscriptions_of("petra")
    assert endpoint.startswith("https://push.example.net/send/")
    # Turning it on for the device switches the account's channel on again.
    expect(page.get_by_role("checkbox", name="Push notices")).to_be_checked()
    assert settings_of(url, token_of(page))["push"] is True
    expect(device.get_by_role("button", name="Turn off on this device")).to_be_focused()
    shots(page, "opted-in")

    # A push reaches the worker, which shows it: title, body, tag, and the room's page.
    context = page.context
    cdp = context.new_cdp_session(page)
    worker_id = registration_id(page, cdp, f"{url}/")

    def push(data: dict[str, Any]) -> None:
        cdp.send(
            "ServiceWorker.deliverPushMessage", {"origin": url, "registrationId": worker_id, "data": json.dumps(data)}
        )

    payload = {
        "title": "Your turn",
        "body": "Friday — 9 minutes left",
        "url": "/rooms/ABC234",
        "rooms": ["ABC234"],
        "tag": "turn-ABC234",
    }
    push(payload)
    assert shown_when(page, lambda shown: len(shown) == 1, again=lambda: push(payload)) == [
        {
            "title": "Your turn",
            "body": "Friday — 9 minutes left",
            "tag": "turn-ABC234",
            "data": {"url": f"{url}/join/ABC234", "rooms": ["ABC234"]},
        }
    ]
    # A second notice for the same turn replaces the first (one per tag)...
    later = {**payload, "body": "Friday — 2 minutes left"}
    push(later)
    [notice] = shown_when(
        page, lambda shown: len(shown) == 1 and "2 minutes" in shown[0]["body"], again=lambda: push(later)
    )
    assert notice["tag"] == "turn-ABC234"
    # ...and a notice pointing away from the site opens the site's home instead.
    away = {**payload, "url": "https://elsewhere.example/", "tag": "x"}
    push(away)
    shown = shown_when(page, lambda shown: len(shown) == 2, again=lambda: (push(later), push(away)))
    assert {n["data"]["url"] for n in shown} == {f"{url}/join/ABC234", f"{url}/"}
    page.evaluate(
        "navigator.serviceWorker.ready.then(async (r) => (await r.getNotifications({ tag: 'x' }))[0].close())"
    )

    # Clicked, the notice brings the open tab to the room's page, without a reload.
    page.evaluate("window.__sameDocument = true")
    [worker] = [w for w in context.service_workers if w.url == f"{url}/sw.js"]
    assert worker.evaluate(CLICK)["url"] == f"{url}/join/ABC234"
    expect(page).to_have_url(f"{url}/join/ABC234")
    expect(page.get_by_role("heading", name="No such room")).to_be_visible()  # the room is made up
    assert page.evaluate("window.__sameDocument === true")
    shown_when(page, lambda shown: shown == [])  # and the notice is closed

    # Turned off: the browser's subscription and the server's copy both go.
    page.get_by_role("navigation", name="Account").get_by_role("link", name="Settings").click()
    page.get_by_role("button", name="Turn off on this device").click()
    expect(device.get_by_role("status")).to_have_text("Off on this browser.")
    assert subscriptions_of("petra") == []
    assert page.evaluate(LOCAL_SUBSCRIPTION) is None
    expect(device.get_by_role("button", name="Turn on notifications on this device")).to_be_focused()
    shots(page, "opted-out")


LOCAL_SUBSCRIPTION = "navigator.serviceWorker.ready.then((r) => r.pushManager.getSubscription())"


def test_push_on_the_device_follows_who_is_signed_in(
    open_page: Callable[..., Any], push_server: tuple[str, str]
) -> None:
    url, _ = push_server
    page = open_page(width=1280, height=900, base_url=url, permissions=["notifications"])
    page.add_init_script(PUSH_SERVICE)
    sign_up(page, "otto")
    page.goto("/notifications")
    status = page.locator(".device").get_by_role("status")
    page.get_by_role("button", name="Turn on notifications on this device").click()
    expect(status).to_have_text("On: this browser receives push notices.")
    [endpoint] = subscriptions_of("otto")

    # The server lets go of it (as when a push service says a subscription expired) while
    # the browser still holds it: the page hands it over again when it is opened.
    headers = {"Authorization": f"Token {token_of(page)}"}
    res = httpx.request("DELETE", f"{url}/api/v1/me/push-subscriptions", json={"endpoint": endpoint}, headers=headers)
    assert res.status_code == 204, res.text
    page.reload()
    expect(status).to_have_text("On: this browser receives push notices.")
    assert subscriptions_of("otto") == [endpoint]

    # Logging out: whoever uses this browser next must not get otto's notices.
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("tab", name="Log in")).to_be_visible()
    assert subscriptions_of("otto") == []
    assert page.evaluate(LOCAL_SUBSCRIPTION) is None

    # Signed out by the server instead (the token ended elsewhere): the browser stops
    # receiving as soon as the page hears of it, though it can no longer tell the server.
    # It hears at once: its socket closes (4401 credentials ended), it asks the API, and
    # the API's 401 signs it out, with no click of the person's.
    sign_up(page, "olga")
    page.goto("/notifications")
    page.get_by_role("button", name="Turn on notifications on this device").click()
    expect(status).to_have_text("On: this browser receives push notices.")
    headers = {"Authorization": f"Token {token_of(page)}"}
    assert httpx.post(f"{url}/api/v1/auth/logout", headers=headers).status_code == 204
    expect(page.get_by_role("tab", name="Log in")).to_be_visible(timeout=30_000)
    for _ in range(50):
        if page.evaluate(LOCAL_SUBSCRIPTION) is None:
            break
        page.wait_for_timeout(100)
    assert page.evaluate(LOCAL_SUBSCRIPTION) is None


def registration_id(page: Any, cdp: Any, scope: str) -> str:
    """The DevTools id of the worker registration for `scope`, once it is known."""
    registrations: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(50):
        found = [r for r in registrations if r["scopeURL"] == scope and not r["isDeleted"]]
        if found:
            # A push to a registration whose worker is not active yet is dropped: wait
            # for it (on a busy machine the worker may still be installing).
            page.evaluate("navigator.serviceWorker.ready.then(() => true)")
            return found[-1]["registrationId"]
        page.wait_for_timeout(100)
    raise AssertionError(f"no worker registration for {scope}: {registrations}")


def mailed_link(folder: Path, address: str, *, seconds: float = 60) -> str:
    """The confirmation link in the mail to `address` written to `folder` (the file mail
    backend's), waiting for the worker by the clock."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for path in sorted(folder.glob("*.log")) if folder.exists() else []:
            # Each file holds messages as sent (quoted-printable bodies), a line of dashes after each.
            for chunk in path.read_text().split("-" * 79):
                message = email.message_from_string(chunk.strip(), policy=email.policy.default)
                if message["To"] != address:
                    continue
                body = message.get_content()  # type: ignore[attr-defined]
                if found := re.search(r"(http://\S+/confirm-email#\S+)", body):
                    return found.group(1)
        time.sleep(0.2)
    raise AssertionError(f"no mail to {address} in {folder} after {seconds} s")


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_the_settings_and_the_worker_under_make_run(
    make_run_page: Callable[..., Any], make_run: MakeRun, size: tuple[int, int]
) -> None:
    """`make run`'s notices work out of the box: it made a push key on its first start, so
    the page offers push; an address saved gets its link as a file in var/mail (as the
    README says), and the link confirms it. The worker is served there as in production,
    and shows what is pushed to it."""
    page = make_run_page(*size)
    name = f"rhea{size[0]}"
    address = f"{name}@example.org"
    sign_up(page, name)
    page.get_by_role("navigation", name="Account").get_by_role("link", name="Settings").click()
    expect(page.locator(".device")).to_be_visible()
    expect(page.locator(".device")).not_to_contain_text(NO_KEY)
    assert (Path(make_run.env["VAR_DIR"]) / "vapid.env").read_text().startswith("VAPID_PUBLIC_KEY=")
    page.get_by_label("E-mail address").fill(address)
    page.get_by_label("Send nothing during these hours").check()
    page.get_by_label("From").fill("23:00")
    page.get_by_label("Until").fill("07:00")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
    expect(page.locator(".email-status")).to_contain_text(f"Not confirmed: open the link e-mailed to {address}")
    quiet = settings_of(make_run.url, token_of(page))["quiet"]
    assert quiet is not None and (quiet["start"], quiet["end"]) == ("23:00", "07:00")

    # Push opts in on localhost: the person's click asks the browser, which subscribes
    # with the key make run made (a push service stands in for the vendor's, which
    # headless Chromium lacks), and the server holds the subscription.
    public_key = (Path(make_run.env["VAR_DIR"]) / "vapid.env").read_text().split("VAPID_PUBLIC_KEY=")[1].split()[0]
    page.context.grant_permissions(["notifications"])
    page.add_init_script(PUSH_SERVICE)
    page.reload()
    page.locator(".device").get_by_role("button", name="Turn on notifications on this device").click()
    expect(page.locator(".device").get_by_role("status")).to_have_text("On: this browser receives push notices.")
    assert page.evaluate("JSON.parse(sessionStorage.getItem('fakePushCalls'))") == [
        {"userVisibleOnly": True, "key": public_key}
    ]
    held = make_run.shell(
        "from notifications.models import PushSubscription;"
        f"print(*PushSubscription.objects.filter(user__username='{name}').values_list('endpoint', flat=True))"
    )
    assert held.split() == [page.evaluate("JSON.parse(sessionStorage.getItem('fakePush')).endpoint")]
    assert settings_of(make_run.url, token_of(page))["push"] is True

    # The worker the opt-in registered covers the whole site.
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == f"{make_run.url}/"
    cdp = page.context.new_cdp_session(page)
    payload = {
        "title": "2 games wait for you",
        "body": "Friday; Quick",
        "url": "/",
        "rooms": ["A", "B"],
        "tag": "turns",
    }
    worker_id = registration_id(page, cdp, scope)
    # DevTools' push can be lost on its way to a worker the browser is still waking (a
    # busy machine); sent again, it replaces the first under its tag, so one is shown.
    for attempt in range(3):
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": make_run.url, "registrationId": worker_id, "data": json.dumps(payload)},
        )
        try:
            [notice] = shown_when(page, lambda shown: len(shown) == 1, seconds=10 if attempt < 2 else 30)
            break
        except AssertionError:
            if attempt == 2:
                raise
    assert notice == {
        "title": "2 games wait for you",
        "body": "Friday; Quick",
        "tag": "turns",
        "data": {"url": f"{make_run.url}/", "rooms": ["A", "B"]},
    }

    # The link mailed for the address saved above, as a file where the README says.
    link = mailed_link(Path(make_run.env["VAR_DIR"]) / "mail", address)
    assert link.startswith(f"{make_run.url}/confirm-email#")
    page.goto(link)
    expect(page.get_by_role("heading", name="Address confirmed")).to_be_visible()
    assert settings_of(make_run.url, token_of(page))["email_confirmed"] is True


def test_the_forced_plays_setting_says_what_it_shows_and_is_kept(open_page: Callable[..., Any], live_url: str) -> None:
    page = open_page()
    sign_up(page, "forcia")
    page.get_by_role("navigation", name="Account").get_by_role("link", name="Settings").click()
    box = page.get_by_role("checkbox", name="Play my forced moves for me")
    expect(box).not_to_be_checked()
    expect(box).to_have_accessible_description(re.compile("The other players can then see that the move was forced"))
    with page.expect_response(lambda r: r.url.endswith("/api/v1/me") and r.request.method == "PATCH") as saved:
        box.check()
    assert saved.value.status == 200
    me = httpx.get(f"{live_url}/api/v1/me", headers={"Authorization": f"Token {token_of(page)}"}).json()
    assert me["auto_play_forced"] is True
    # A fresh page reads it back from the server.
    page.reload()
    expect(page.get_by_role("checkbox", name="Play my forced moves for me")).to_be_checked()
