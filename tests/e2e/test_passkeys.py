"""Passkeys in the browser, with Chromium's own virtual authenticator (over CDP) standing
in for a phone's or a laptop's: added from Settings (the recovery codes shown once),
logging in with the passkey alone (nothing typed) and as the second step after the
password, a replayed answer refused, renamed, and removed (the password alone logs in
again), at a phone's size and on a desktop. Then the admin's and an app's form sign-ins
with the passkey as their second step; an authenticator that cannot check its person
(refused alone, a second step all the same); no passkey button where the browser or the
address cannot have passkeys; and a newcomer's whole journey under `make run`.

A passkey's relying party is the site's name, never an IP address: the pages browse the
servers as `http://localhost:<port>` (which Chromium holds a secure context), while the
API calls of the tests themselves go to 127.0.0.1."""

from __future__ import annotations

import base64
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
from playwright.sync_api import expect

from tests.accounts.soft_authenticator import SoftAuthenticator

from .account_pages import SIZES, field_error, fits, me, settings
from .axe import AXE
from .conftest import PASSWORD, MakeRun, orm, sign_up, token_of
from .test_make_run_password import NEW_PASSWORD, mailed_link, mails_in
from .test_two_factor import APP_CODE, error_code, factors, log_in, log_out, sign_in

# A platform authenticator (a laptop's or a phone's screen lock) that keeps discoverable
# passkeys and checks its person, answering at once as if touched.
AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}
# What axe checks, as tests/e2e/axe.py does for whole pages.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def by_name(url: str) -> str:
    """The same server by name: `http://127.0.0.1:8000` as `http://localhost:8000`."""
    return url.replace("://127.0.0.1:", "://localhost:")


@dataclass
class Authenticator:
    """One virtual authenticator of a page, through its CDP session."""

    cdp: Any
    id: str

    def passkeys(self) -> list[dict[str, Any]]:
        return self.cdp.send("WebAuthn.getCredentials", {"authenticatorId": self.id})["credentials"]

    def verifies(self, verified: bool) -> None:
        """Whether it checks its person (a fingerprint read, a PIN typed) from now on."""
        self.cdp.send("WebAuthn.setUserVerified", {"authenticatorId": self.id, "isUserVerified": verified})

    def sync_to(self, other: Authenticator) -> None:
        """Its passkeys, copied to `other` (as a password manager syncs them between devices)."""
        for passkey in self.passkeys():
            other.cdp.send("WebAuthn.addCredential", {"authenticatorId": other.id, "credential": passkey})


def page_id(cdp_id: str) -> str:
    """A credential id as CDP gives it (base64), as the page's JSON writes it (base64url)."""
    return base64.urlsafe_b64encode(base64.b64decode(cdp_id)).rstrip(b"=").decode()


def authenticator(page: Any, **options: Any) -> Authenticator:
    """A virtual authenticator for `page`, in place of the platform's (`options` change
    AUTHENTICATOR's)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {**AUTHENTICATOR, **options}})
    return Authenticator(cdp, added["authenticatorId"])


def section_violations(page: Any, selector: str) -> list[dict[str, Any]]:
    """Every violation axe finds in the part of the page `selector` names, whatever its
    impact."""
    if page.evaluate("typeof window.axe") == "undefined":
        page.add_script_tag(path=str(AXE))
    return page.evaluate(
        """async ([selector, tags]) => {
            const only = { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] };
            const result = await axe.run(selector, only);
            return result.violations.map((v) => ({
                id: v.id,
                impact: v.impact,
                nodes: v.nodes.map((n) => n.target.join(" ")),
            }));
        }""",
        [selector, AXE_TAGS],
    )


def passkeys_fit(page: Any, size: dict[str, int]) -> None:
    """The passkeys' panel as it stands: within the screen's width, and no axe violation
    in it (nor a serious one elsewhere)."""
    box = page.locator("section.passkeys").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box
    found = section_violations(page, "section.passkeys")
    assert not found, found
    fits(page, size)


def signed_in(page: Any) -> None:
    expect(page.get_by_role("navigation", name="Account").get_by_role("button", name="Log out")).to_be_visible()


def add_passkey(page: Any, name: str, password: str = PASSWORD) -> list[str]:
    """Add a passkey named `name` from Settings; the recovery codes shown (when it is the
    account's first second step), the list shown again after."""
    settings(page)
    panel = page.locator("section.passkeys")
    panel.get_by_role("button", name="Add a passkey").click()
    panel.get_by_label("Your password").fill(password)
    panel.get_by_label("Name (optional)").fill(name)
    panel.get_by_role("button", name="Continue").click()
    done = panel.get_by_role("button", name="Done").or_(panel.get_by_role("button", name="Add a passkey"))
    expect(done).to_be_visible()
    codes = panel.get_by_role("list", name="Recovery codes").get_by_role("listitem").all_text_contents()
    if codes:
        panel.get_by_role("button", name="Done").click()
    expect(panel.get_by_role("listitem").filter(has_text=name)).to_be_visible()
    return [code.strip() for code in codes]


def api(base: str, token: str) -> httpx.Client:
    return httpx.Client(base_url=f"{base}/api/v1/", headers={"Authorization": f"Token {token}"}, timeout=30)


@SIZES
def test_a_passkey_is_added_logs_in_alone_and_as_the_second_step_then_is_renamed_and_removed(
    open_page: Callable[..., Any], live_url: str, shots: Any, size: dict[str, int]
) -> None:
    page = open_page(**size, base_url=by_name(live_url))
    key = authenticator(page)
    name = f"pk{size['width']}"
    sign_up(page, name)
    settings(page)
    panel = page.locator("section.passkeys")
    expect(page.locator("section.security").get_by_role("heading", name="Passkeys", level=3)).to_be_visible()
    expect(panel).to_contain_text("You have no passkeys yet.")
    shots(page, "none-yet")
    passkeys_fit(page, size)

    # The password first: a wrong one is said under it, and the browser is not asked.
    panel.get_by_role("button", name="Add a passkey").click()
    expect(panel.get_by_label("Your password")).to_be_focused()
    panel.get_by_label("Your password").fill("not-the-password-1")
    panel.get_by_label("Name (optional)").fill("Work laptop")
    panel.get_by_role("button", name="Continue").click()
    expect(field_error(page, "Your password")).not_to_have_text("")
    expect(panel.get_by_label("Your password")).to_have_attribute("aria-invalid", "true")
    expect(panel.get_by_label("Your password")).to_be_focused()
    assert key.passkeys() == []
    shots(page, "wrong-password")
    passkeys_fit(page, size)

    # The right one: the browser's prompt makes the passkey, and the account's first second
    # step brings its recovery codes, shown this once.
    panel.get_by_label("Your password").fill(PASSWORD)
    panel.get_by_role("button", name="Continue").click()
    expect(panel.get_by_role("heading", name="Your recovery codes")).to_be_focused()
    expect(panel).to_contain_text("Your passkey “Work laptop” is added")
    expect(panel).to_contain_text("Keep them somewhere safe")
    shown = panel.get_by_role("list", name="Recovery codes").get_by_role("listitem")
    expect(shown).to_have_count(10)
    codes = [text.strip() for text in shown.all_text_contents()]
    assert all(len(one) == 9 and one[4] == "-" for one in codes), codes
    made = key.passkeys()
    assert len(made) == 1 and made[0]["isResidentCredential"] and made[0]["rpId"] == "localhost", made
    shots(page, "recovery-codes")
    passkeys_fit(page, size)
    panel.get_by_role("button", name="Done").click()
    expect(panel.get_by_role("heading", name="Passkeys")).to_be_focused()
    listed = panel.get_by_role("list", name="Your passkeys").get_by_role("listitem")
    expect(listed).to_have_count(1)
    expect(listed).to_contain_text("Work laptop")
    expect(listed).to_contain_text("This device only")
    expect(listed).to_contain_text("last used never")
    # Two-step sign-in's panel follows: on, with the passkey.
    expect(page.locator("section.two-factor")).to_contain_text("On, with your passkeys.")
    expect(page.locator("section.two-factor")).to_contain_text("10 recovery codes left.")
    shots(page, "listed")
    passkeys_fit(page, size)
    assert factors(live_url, token_of(page)) == {"totp": False, "passkeys": 1, "recovery_codes_left": 10}
    assert error_code(sign_in(live_url, name)) == "second_factor_required"
    # Shown once: Settings opened again lists the passkey, and no codes.
    settings(page)
    expect(listed).to_have_count(1)
    expect(panel.get_by_role("list", name="Recovery codes")).to_have_count(0)

    # Logging in with the passkey alone: nothing typed, the passkey names its account.
    log_out(page)
    expect(page.get_by_label("Username")).to_have_value("")
    shots(page, "log-in-form")
    fits(page, size)
    with page.expect_request(lambda r: r.url.endswith("/api/v1/auth/passkey") and r.method == "POST") as sent:
        page.get_by_role("button", name="Sign in with a passkey").click()
    signed_in(page)
    expect(page.get_by_role("navigation", name="Account").locator(".who")).to_have_text(name)
    assert me(live_url, token_of(page)).json()["username"] == name
    # The answer it sent works once: the same body again signs nobody in.
    replayed = httpx.post(f"{live_url}/api/v1/auth/passkey", json=sent.value.post_data_json)
    assert replayed.status_code == 401, replayed.text
    assert error_code(replayed) == "passkey_refused"
    settings(page)
    expect(listed).not_to_contain_text("last used never")
    expect(page.locator(".sign-in.current")).to_contain_text("Logged in with a passkey")

    # The password asks for a second step: the passkey instead of a code.
    log_out(page)
    log_in(page, name)
    expect(page.get_by_label(APP_CODE)).to_be_focused()
    instead = page.get_by_role("button", name="Use a passkey instead")
    expect(instead).to_be_visible()
    assert token_of(page) is None
    shots(page, "second-step")
    fits(page, size)
    with page.expect_request(lambda r: r.url.endswith("/api/v1/auth/token")) as sent:
        instead.click()
    signed_in(page)
    body = sent.value.post_data_json
    assert set(body) == {"username", "password", "passkey"} and body["username"] == name
    assert body["passkey"]["type"] == "public-key" and body["passkey"]["id"] == page_id(made[0]["credentialId"])

    # Renamed.
    settings(page)
    panel.get_by_role("button", name="Rename the passkey Work laptop").click()
    new_name = panel.get_by_label("New name")
    expect(new_name).to_be_focused()
    expect(new_name).to_have_value("Work laptop")
    shots(page, "rename")
    passkeys_fit(page, size)
    new_name.fill("Phone")
    panel.get_by_role("button", name="Save the name").click()
    expect(panel.get_by_role("status").first).to_have_text("Renamed to “Phone”.")
    expect(listed).to_contain_text("Phone")

    # Removed with the password: a wrong one keeps it.
    panel.get_by_role("button", name="Remove the passkey Phone").click()
    expect(panel.get_by_label("Your password")).to_be_focused()
    expect(panel).to_contain_text("It is your last second step")
    panel.get_by_label("Your password").fill("not-the-password-1")
    panel.get_by_role("button", name="Remove the passkey").click()
    expect(field_error(page, "Your password")).not_to_have_text("")
    assert factors(live_url, token_of(page))["passkeys"] == 1
    shots(page, "remove")
    passkeys_fit(page, size)
    panel.get_by_label("Your password").fill(PASSWORD)
    panel.get_by_role("button", name="Remove the passkey").click()
    expect(panel.get_by_role("status").first).to_have_text("“Phone” is removed. Your password alone logs you in again.")
    expect(panel).to_contain_text("You have no passkeys yet.")
    expect(page.locator("section.two-factor")).to_contain_text("Off.")
    shots(page, "removed")
    passkeys_fit(page, size)
    assert factors(live_url, token_of(page)) == {"totp": False, "passkeys": 0, "recovery_codes_left": 0}
    assert sign_in(live_url, name, codes[0]).status_code == 200

    # The password alone logs in again, here too.
    log_out(page)
    log_in(page, name)
    signed_in(page)
    expect(page.get_by_label(APP_CODE)).to_have_count(0)


def test_the_admins_and_an_apps_form_sign_ins_take_a_passkey_as_their_second_step(
    open_page: Callable[..., Any], live_url: str, shots: Any
) -> None:
    from accounts.models import User

    orm(lambda: User.objects.create_user("sam", password=PASSWORD, display_name="Sam", is_staff=True))
    site = by_name(live_url)
    page = open_page(1280, 800, base_url=site)
    key = authenticator(page)
    page.goto("/")
    page.get_by_role("tab", name="Log in").click()
    log_in(page, "sam")
    signed_in(page)
    assert len(add_passkey(page, "Security key")) == 10

    # The password alone is not enough for an account with a passkey.
    page.goto("/admin/login/")
    page.get_by_label("Username").fill("sam")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#sign-in-errors .errornote")).to_contain_text("This account signs in in two steps")
    shots(page, "admin-second-step-asked")

    # The passkey's answer fills the hidden field, and the form is sent with it.
    page.get_by_label("Username").fill("sam")
    page.get_by_label("Password").fill(PASSWORD)
    with page.expect_request(lambda r: r.url.endswith("/admin/login/") and r.method == "POST") as sent:
        page.get_by_role("button", name="Use a passkey").click()
    expect(page.get_by_role("heading", name="Site administration")).to_be_visible()
    form = parse_qs(sent.value.post_data, keep_blank_values=True)
    assert form["code"] == [""], form
    assert json.loads(form["passkey"][0])["id"] == page_id(key.passkeys()[0]["credentialId"])
    shots(page, "admin-signed-in")

    # Another browser, whose prompt ends without a passkey (closed, or none kept there):
    # said calmly in the form's one error line, and the form is not sent.
    phone = open_page(390, 844, base_url=site)
    synced = authenticator(phone)
    phone.goto("/oauth/login/?next=/leaderboard")
    phone.get_by_label("Username").fill("sam")
    phone.get_by_label("Password").fill(PASSWORD)
    phone.get_by_role("button", name="Use a passkey").click()
    expect(phone.locator("#sign-in-errors")).to_have_text(
        "Your passkey was not used: its prompt was closed before it answered. "
        "Try again, or type the code from your authenticator app."
    )
    expect(phone).to_have_url(f"{site}/oauth/login/?next=/leaderboard")
    shots(phone, "app-sign-in-prompt-closed")
    fits(phone, {"width": 390, "height": 844})

    # The passkey synced to it: an app's sign-in takes it as the second step too.
    key.sync_to(synced)
    phone.get_by_role("button", name="Use a passkey").click()
    expect(phone).to_have_url(f"{site}/leaderboard")


def test_an_authenticator_that_cannot_check_its_person_is_refused_alone_but_is_a_second_step(
    open_page: Callable[..., Any], live_url: str, shots: Any
) -> None:
    size = {"width": 390, "height": 844}
    page = open_page(**size, base_url=by_name(live_url))
    # Made while it could: Chromium makes no discoverable passkey on an authenticator
    # whose check of its person fails.
    key = authenticator(page)
    sign_up(page, "nouv")
    add_passkey(page, "Old key")
    key.verifies(False)
    assert key.passkeys()

    # Alone, the browser itself refuses a passkey that cannot check its person.
    log_out(page)
    page.get_by_role("button", name="Sign in with a passkey").click()
    said = page.locator("form[aria-label='Log in'] > .form-error")
    expect(said).to_have_text(
        "Your passkey did not log you in: its prompt was closed, or your device could not check that it is you "
        "(with your fingerprint, face or PIN). Try again, or log in with your password."
    )
    assert token_of(page) is None
    shots(page, "refused-by-the-browser")
    fits(page, size)

    # And the server refuses its answer, should the page not ask for the check.
    def unchecked(route: Any) -> None:
        answer = route.fetch()
        body = answer.json()
        if not json.loads(route.request.post_data or "{}").get("second_step"):
            body["publicKey"]["userVerification"] = "discouraged"
        route.fulfill(response=answer, json=body)

    page.route("**/api/v1/auth/passkey/options", unchecked)
    with page.expect_response(lambda r: r.url.endswith("/api/v1/auth/passkey")) as answer:
        page.get_by_role("button", name="Sign in with a passkey").click()
    assert answer.value.status == 401 and answer.value.json()["errors"][0]["code"] == "passkey_refused"
    expect(said).to_contain_text("That passkey did not log you in.")
    expect(said).to_contain_text("use the passkey as the second step")
    assert token_of(page) is None
    shots(page, "refused-by-the-server")
    page.unroute("**/api/v1/auth/passkey/options")

    # After the password, its presence is enough.
    log_in(page, "nouv")
    page.get_by_role("button", name="Use a passkey instead").click()
    signed_in(page)
    assert me(live_url, token_of(page)).json()["username"] == "nouv"


def test_no_passkey_button_shows_where_the_browser_or_the_address_cannot_have_passkeys(
    open_page: Callable[..., Any], live_url: str, shots: Any
) -> None:
    size = {"width": 390, "height": 844}
    sign_up(open_page(**size), "nokeys")
    signed = httpx.post(f"{live_url}/api/v1/auth/token", json={"username": "nokeys", "password": PASSWORD})
    token = signed.json()["token"]
    # A passkey made elsewhere: over the API, by a software authenticator.
    with api(live_url, token) as client:
        options = client.post("me/passkeys/options", json={"password": PASSWORD}).json()["publicKey"]
        made = SoftAuthenticator(origin=live_url).create(options)
        assert client.post("me/passkeys", json={"credential": made, "name": "Made elsewhere"}).status_code == 201

    # By its numeric address: the browser refuses passkeys there, so none is offered, and
    # Settings says where they work.
    numeric = open_page(**size)
    log_in_asked(numeric)
    expect(numeric.get_by_role("button", name="Sign in with a passkey")).to_have_count(0)
    expect(numeric.get_by_role("button", name="Use a passkey instead")).to_have_count(0)
    expect(numeric.get_by_label(APP_CODE)).to_be_focused()
    numeric.evaluate("token => localStorage.setItem('tt.token', token)", token)
    settings(numeric)
    panel = numeric.locator("section.passkeys")
    expect(panel.get_by_role("listitem")).to_contain_text("Made elsewhere")
    expect(panel.get_by_role("button", name="Add a passkey")).to_have_count(0)
    expect(panel.get_by_role("link", name=by_name(live_url))).to_have_attribute(
        "href", f"{by_name(live_url)}/notifications"
    )
    shots(numeric, "numeric-address")
    passkeys_fit(numeric, size)
    numeric.goto("/oauth/login/")
    expect(numeric.get_by_role("button", name="Use a passkey")).to_have_count(0)

    # By name, in a browser without WebAuthn's JSON helpers: the same.
    older = open_page(**size, base_url=by_name(live_url))
    older.add_init_script(
        "delete PublicKeyCredential.parseCreationOptionsFromJSON;"
        " delete PublicKeyCredential.parseRequestOptionsFromJSON;"
    )
    log_in_asked(older)
    expect(older.get_by_role("button", name="Sign in with a passkey")).to_have_count(0)
    expect(older.get_by_role("button", name="Use a passkey instead")).to_have_count(0)
    older.evaluate("token => localStorage.setItem('tt.token', token)", token)
    settings(older)
    panel = older.locator("section.passkeys")
    expect(panel.get_by_role("listitem")).to_contain_text("Made elsewhere")
    expect(panel.get_by_role("button", name="Add a passkey")).to_have_count(0)
    expect(panel).to_contain_text("This browser cannot make passkeys.")
    # What needs no prompt still works: renaming.
    panel.get_by_role("button", name="Rename the passkey Made elsewhere").click()
    panel.get_by_label("New name").fill("Old phone")
    panel.get_by_role("button", name="Save the name").click()
    expect(panel.get_by_role("listitem")).to_contain_text("Old phone")
    for path in ("/admin/login/", "/oauth/login/"):
        older.goto(path)
        expect(older.get_by_label("Username")).to_be_visible()
        expect(older.get_by_role("button", name="Use a passkey")).to_have_count(0)
        expect(older.locator("input[type=hidden][name=passkey]")).to_have_value("")


def log_in_asked(page: Any) -> None:
    """The log-in form, filled in with nokeys's password: its second step asked."""
    page.goto("/")
    page.get_by_role("tab", name="Log in").click()
    log_in(page, "nokeys")


def links_to(mail_dir: Path, path: str) -> int:
    """How many links to `path` the mails in `mail_dir` hold so far."""
    pattern = re.compile(r"http://127\.0\.0\.1:\d+" + re.escape(path) + r"\S+")
    return sum(len(pattern.findall(text)) for text in mails_in(mail_dir))


def next_link(mail_dir: Path, path: str, action: Callable[[], Any]) -> str:
    """The link to `path` in the mail that `action` makes the server send."""
    seen = links_to(mail_dir, path)
    action()
    return mailed_link(mail_dir, path, seen)


def test_a_newcomer_on_make_run_adds_a_passkey_logs_in_with_it_signs_out_everywhere_downloads_the_data_and_closes(
    make_run_page: Callable[..., Any], make_run: MakeRun, tmp_path: Path
) -> None:
    mail_dir = Path(make_run.env["VAR_DIR"]) / "mail"
    site = by_name(make_run.url)
    name = "keynewcomer"

    # The start of the journey (test_make_run_password's): an address confirmed from its
    # mail, the password forgotten and reset from another.
    phone = make_run_page(390, 844, base_url=site)
    sign_up(phone, name)
    with api(make_run.url, token_of(phone)) as client:
        confirm = next_link(
            mail_dir,
            "/confirm-email#",
            lambda: client.patch("me/notifications", json={"email_address": f"{name}@example.org"}),
        )
        phone.goto(by_name(confirm))
        deadline = time.monotonic() + 15
        while not client.get("me/notifications").json()["email_confirmed"]:
            assert time.monotonic() < deadline, "the confirmation link did not confirm the address"
            time.sleep(0.2)
    laptop = make_run_page(1280, 800, base_url=site)
    authenticator(laptop)
    laptop.goto("/")
    laptop.get_by_role("tab", name="Log in").click()
    laptop.get_by_role("button", name="Forgot your password?").click()
    laptop.get_by_label("E-mail address").fill(f"{name}@example.org")

    def ask_reset() -> None:
        laptop.get_by_role("button", name="E-mail me a link").click()
        expect(laptop.locator(".reset-sent")).to_be_visible()

    laptop.goto(by_name(next_link(mail_dir, "/reset-password#", ask_reset)))
    laptop.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    laptop.get_by_label("New password again").fill(NEW_PASSWORD)
    laptop.get_by_role("button", name="Save my new password").click()
    expect(laptop.get_by_role("button", name="Create the room")).to_be_visible()

    # A passkey, then logging in with it alone.
    codes = add_passkey(laptop, "Laptop", password=NEW_PASSWORD)
    assert len(codes) == 10
    log_out(laptop)
    laptop.get_by_role("button", name="Sign in with a passkey").click()
    signed_in(laptop)

    # The phone (the reset signed it out) logs in with the password and a recovery code.
    to_log_in(phone)
    phone.get_by_label("Username").fill(name)
    phone.get_by_label("Password").fill(NEW_PASSWORD)
    phone.get_by_role("button", name="Log in", exact=True).click()
    phone.get_by_role("button", name="Use a recovery code").click()
    phone.get_by_label("Recovery code", exact=True).fill(codes[0])
    phone.get_by_role("button", name="Log in", exact=True).click()
    signed_in(phone)
    phone_token = token_of(phone)

    # Signed out everywhere else, from the laptop's list of sign-ins.
    settings(laptop)
    sign_ins = laptop.locator("section.sign-ins")
    expect(sign_ins.locator(".sign-in")).to_have_count(2)
    expect(sign_ins.locator(".sign-in.current")).to_contain_text("Logged in with a passkey")
    sign_ins.get_by_role("button", name="Sign out everywhere else").click()
    expect(sign_ins.get_by_role("status")).to_have_text("Signed out on 1 other device.")
    expect(sign_ins.locator(".sign-in")).to_have_count(1)
    assert httpx.get(f"{make_run.url}/api/v1/me", headers={"Authorization": f"Token {phone_token}"}).status_code == 401

    # The data, from the link mailed to the confirmed address.
    def ask_export() -> None:
        laptop.locator("section.data-export").get_by_role("button", name="E-mail me a link to my data").click()
        expect(laptop.locator(".export-status")).not_to_have_text("")

    link = next_link(mail_dir, "/api/v1/exports/", ask_export)
    with laptop.expect_download() as download:
        laptop.evaluate("url => Object.assign(document.createElement('a'), { href: url }).click()", link)
    # The browser is Playwright's server's: its download is saved here to be read.
    saved = tmp_path / "export.json"
    download.value.save_as(saved)
    archive = json.loads(saved.read_text())
    assert archive["account"]["username"] == name
    assert [p["name"] for p in archive["access"]["passkeys"]] == ["Laptop"]
    assert "passkey" in {s["how"] for s in archive["access"]["sign_ins"]}
    assert httpx.get(link).status_code == 404  # it works once

    # Closed, with the password: every sign-in ends.
    laptop_token = token_of(laptop)
    box = laptop.locator("section.close-account")
    box.get_by_role("button", name="Close my account…").click()
    box.get_by_label("Your password").fill(NEW_PASSWORD)
    box.get_by_role("button", name="Close my account", exact=True).click()
    expect(laptop.get_by_role("heading", name="Your account is closed", level=1)).to_be_focused()
    assert token_of(laptop) is None
    assert httpx.get(f"{make_run.url}/api/v1/me", headers={"Authorization": f"Token {laptop_token}"}).status_code == 401


def to_log_in(page: Any) -> None:
    """The log-in form, on a page whose sign-in was ended elsewhere."""
    page.goto("/")
    page.get_by_role("tab", name="Log in").click()
