"""Reports, warnings and a person's standing in the browser (web/static/web/report.js,
standing.js), at a phone's size and on a desktop.

Ann reports Ben for a line of table talk, from his seat's name in the lobby and at the
table, and Cleo from her page: a small dialog asks what is wrong and for a note, then
thanks her. Settings' "Your standing" lists her reports, Waiting until a moderator acts
and Handled after, and the players she blocked; Ben's lists the warning and the chat
timeout he was given. A moderator's warning shows as a modal dialog before the next
table: when a page loads, and when taking a seat or making a room is refused for it
(then the step is done once it is read). A playban's refusal says until when, in the
reader's own time, and why. Axe checks the dialogs and the pages, and nothing sticks out
sideways at 390 px.

The last test is the whole journey on the README's `make run`: two people talk at a
table, one reports the other's line, a moderator (staff in the Moderators group, not a
superuser) works the entry in /admin/, and each person sees what follows.

People and rooms are set up over the public API, a moderator's actions through the
services (as the admin calls them) except under `make run`, where the admin itself is
used. Each step waits for what a page shows; nothing sleeps but the wait for the worker
to write a mail, as test_make_run_password.py does."""

from __future__ import annotations

import email
import json
import re
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings as django_settings
from django.utils import timezone
from playwright.sync_api import expect

from .account_pages import LAPTOP, PHONE, SIZES, fits
from .conftest import ARTIFACTS, PASSWORD, MakeRun, Shots, add_bots, create_room, orm, sign_up, table
from .test_moderation_admin import sign_in_admin
from .test_table_talk import (
    LIVE_MS,
    Person,
    close_talk,
    error_line,
    hearts_table,
    line,
    open_talk,
    people,
    room_page,
    say,
    started,
)

THANKS = "Thanks — a moderator will look at it. You'll be told when it's handled."
# A line that is all markup and an address: the dialog quotes it as written.
RUDE = "You play like a <b>fool</b> https://example.com"
CANNED = "Please keep table talk friendly: offensive language is not allowed here."
# A zone half an hour off UTC, and a 24-hour clock: a time said in UTC would not match.
LOCAL = {"timezone_id": "Asia/Kolkata", "locale": "en-GB"}
KOLKATA = ZoneInfo("Asia/Kolkata")


def signed_in(open_page: Callable[..., Any], size: dict[str, int], who: Person, path: str, **options: Any) -> Any:
    """A page of its own signed in as `who` at `path`, its context given `options` (a
    time zone, a locale), once it has asked for `who`'s unread warnings (as every page
    load does): a warning given after this is not one it could have seen yet."""
    page = open_page(**size, **options)
    page.add_init_script(f"localStorage.setItem('tt.token', {json.dumps(who.token)})")
    with page.expect_response(lambda res: res.url.endswith("/api/v1/me/sanctions")):
        page.goto(path)
    return page


def clock_pattern(at: datetime) -> str:
    """`at` as the page writes a time in Kolkata with en-GB's clock: "14:05" (or "9:05")
    today, and with its day on any other ("30 Nov 2026, 00:05": ten minutes from now can
    be tomorrow). Within a minute of midnight either, as the page and the test may read
    the clock on either side of it."""
    local = at.astimezone(KOLKATA)
    clock = rf"\b0?{local.hour}:{local.minute:02d}\b"
    day = rf"{local.day} {local:%b} {local.year}, "
    now = datetime.now(KOLKATA)
    midnight = datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), KOLKATA)
    if min(now - now.replace(hour=0, minute=0, second=0, microsecond=0), midnight - now) < timedelta(minutes=1):
        return rf"(?:{day})?{clock}"
    return clock if local.date() == now.date() else day + clock


def report_dialog(page: Any, name: str) -> Any:
    dialog = page.get_by_role("dialog", name=f"Report {name}")
    expect(dialog).to_be_visible()
    return dialog


def fill_report(dialog: Any, reason: str, note: str) -> None:
    dialog.get_by_role("radio", name=reason).check()
    dialog.get_by_label("Anything to add? (optional)").fill(note)
    expect(dialog.locator(".field small")).to_have_text(f"{len(note)}/500")


def send_report(page: Any, dialog: Any, shots: Shots | None = None, what: str = "") -> None:
    """Send the report in `dialog`; the thanks take its place, then Close closes it."""
    dialog.get_by_role("button", name="Send the report").click()
    sent = page.get_by_role("dialog", name="Report sent")
    expect(sent.locator(".report-thanks")).to_have_text(THANKS)
    expect(sent.get_by_role("button", name="Close")).to_be_focused()
    if shots is not None:
        shots(page, what)
    sent.get_by_role("button", name="Close").click()
    expect(page.locator("dialog")).to_have_count(0)


def tab_goes_round(page: Any, dialog: Any, first: Any, last: Any) -> None:
    """The focus stays in the dialog: Shift+Tab from its first control reaches its last,
    and Tab from its last its first."""
    first.focus()
    page.keyboard.press("Shift+Tab")
    expect(last).to_be_focused()
    page.keyboard.press("Tab")
    expect(first).to_be_focused()
    assert dialog.evaluate("el => el.contains(document.activeElement)")


def users(*names: str) -> dict[str, Any]:
    from accounts.models import User

    return {u.username: u for u in User.objects.filter(username__in=names)}


def moderator_acts(target: str, room: str | None, warning: str = CANNED) -> datetime:
    """A moderator (staff in the Moderators group) claims the open entry about `target` and
    gives a 10-minute chat timeout in `room` with a warning, as the admin's form does; when
    the timeout ends."""
    from accounts.models import User
    from games.models import Room
    from moderation import queue
    from moderation.models import Case
    from talk.models import ChatTimeout

    def work() -> datetime:
        mia = User.objects.filter(username="mia").first() or User.objects.create_user(
            "mia", password=PASSWORD, is_staff=True
        )
        case = Case.objects.get(target_user__username=target, status=Case.Status.OPEN)
        now = timezone.now()
        queue.case_claim(case_id=case.pk, moderator=mia, now=now)
        queue.case_chat_timeout(
            case_id=case.pk,
            moderator=mia,
            length="10m",
            room=Room.objects.get(code=room) if room else None,
            reason="Rude words at the table",
            now=now,
            warning=warning,
        )
        return ChatTimeout.objects.filter(user__username=target).latest("until").until

    return orm(work)


def warn(username: str, text: str) -> int:
    from moderation.models import Warning

    return orm(lambda: Warning.objects.create(user=users(username)[username], text=text, created_at=timezone.now()).pk)


def warning_read(pk: int) -> bool:
    from moderation.models import Warning

    return orm(lambda: Warning.objects.get(pk=pk).read_at is not None)


def standing(page: Any) -> Any:
    section = page.locator("section.standing")
    expect(section.get_by_role("heading", name="Your standing")).to_be_visible()
    return section


def reports_part(page: Any) -> Any:
    part = standing(page).locator(".standing-reports")
    expect(part.get_by_role("heading", name="Your reports")).to_be_visible()
    return part


# -- reporting ----------------------------------------------------------------------


@SIZES
def test_a_line_of_table_talk_is_reported_from_its_menu(
    open_page: Callable[..., Any], live_url: str, shots: Shots, size: dict[str, int]
) -> None:
    with people(live_url, ("ann", "Ann"), ("ben", "Ben")) as (ann, ben):
        code = hearts_table(ann, ben)
        a, b = (room_page(open_page, size, who, code) for who in (ann, ben))
        say(b, RUDE)
        said = line(a, RUDE)
        open_talk(a)
        expect(said).to_have_count(1, timeout=LIVE_MS)
        line_id = int(said.get_attribute("data-id"))

        # Beside "Block Ben": "Report Ben…", which opens a dialog labelled by its title.
        menu = said.locator("details.talk-menu")
        menu.locator("summary").click()
        expect(menu.get_by_role("button", name="Block Ben", exact=True)).to_be_visible()
        opener = menu.get_by_role("button", name="Report Ben…")
        opener.click()
        dialog = report_dialog(a, "Ben")
        # The line reported is quoted as written: no element is made of its markup.
        quote = dialog.locator(".reported-line")
        expect(quote).to_have_text(RUDE)
        assert quote.evaluate("el => el.childElementCount") == 0
        reasons = dialog.get_by_role("group", name="What is wrong?").get_by_role("radio")
        expect(reasons).to_have_count(5)
        assert [
            dialog.locator(f"label[for='{reasons.nth(i).get_attribute('id')}']").inner_text() for i in range(5)
        ] == [
            "Offensive or abusive language",
            "Cheating, such as sharing cards with a partner",
            "Stalling or leaving games",
            "An offensive name",
            "Something else",
        ]
        # The focus starts in the dialog and stays there.
        expect(reasons.first).to_be_focused()
        tab_goes_round(a, dialog, reasons.first, dialog.get_by_role("button", name="Send the report"))
        box = dialog.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box
        fits(a, size)
        shots(a, "report-dialog")

        # No reason chosen: said under the reasons, and the focus goes there.
        dialog.get_by_role("button", name="Send the report").click()
        expect(dialog.locator(".report-reasons .field-error")).to_have_text("Choose what is wrong.")
        expect(reasons.first).to_be_focused()
        expect(reasons.first).to_have_attribute("aria-invalid", "true")
        # The note takes 500 characters and no more; its counter says how many.
        note = dialog.get_by_label("Anything to add? (optional)")
        note.fill("x" * 600)
        expect(note).to_have_value("x" * 500)
        expect(dialog.locator(".field small")).to_have_text("500/500")
        fill_report(dialog, "Offensive or abusive language", "He said it twice. <i>Really</i>.")
        # A reason chosen, the request for one goes.
        expect(dialog.locator(".report-reasons .field-error")).to_be_hidden()
        expect(reasons.first).not_to_have_attribute("aria-invalid", "true")
        fits(a, size)
        shots(a, "report-filled")
        send_report(a, dialog, shots, "report-sent")
        # Closed, the focus is back on the button that opened it.
        expect(opener).to_be_focused()

        (made,) = ann.call("GET", "reports")
        assert made["line"] == line_id and made["username"] == "ben" and made["room"] == code
        assert made["reason"] == "offensive_language"
        assert made["note"] == "He said it twice. <i>Really</i>."
        assert made["handled"] is False

        # Cancel sends nothing, and Escape closes the dialog as well.
        opener.click()
        report_dialog(a, "Ben").get_by_role("button", name="Cancel").click()
        expect(a.locator("dialog")).to_have_count(0)
        expect(opener).to_be_focused()
        opener.click()
        report_dialog(a, "Ben")
        a.keyboard.press("Escape")
        expect(a.locator("dialog")).to_have_count(0)
        assert len(ann.call("GET", "reports")) == 1


@SIZES
def test_a_player_is_reported_from_a_seat_and_from_their_page(
    open_page: Callable[..., Any], live_url: str, shots: Shots, size: dict[str, int]
) -> None:
    with people(live_url, ("ann", "Ann"), ("ben", "Ben"), ("cleo", "Cleo")) as (ann, ben, cleo):
        code = hearts_table(ann, ben, bots=2)
        a = room_page(open_page, size, ann, code)

        # In the lobby: Ben's name at his seat opens what can be done about him.
        seat = a.locator(".lobby-seat", has_text="Ben")
        name = seat.get_by_role("button", name="Ben", exact=True)
        expect(a.locator(".lobby-seat.me").get_by_role("button")).to_have_count(0)
        expect(a.locator(".lobby-seat", has_text="computer").get_by_role("button")).to_have_count(0)
        name.click()
        player = a.get_by_role("dialog", name="Ben")
        expect(player.get_by_role("link", name="See Ben's page")).to_have_attribute("href", "/players/ben")
        fits(a, size)
        shots(a, "lobby-player")
        player.get_by_role("button", name="Report Ben…").click()
        dialog = report_dialog(a, "Ben")
        expect(dialog.get_by_role("radio").first).to_be_focused()
        fill_report(dialog, "Stalling or leaving games", "He never starts.")
        fits(a, size)
        send_report(a, dialog, shots, "lobby-report-sent")
        expect(name).to_be_focused()

        # At the table: his name in the ring, the same way.
        started(ann, code, a)
        at_table = table(a).locator(".seat").get_by_role("button", name="Ben", exact=True)
        expect(table(a).locator(".seat.me .name")).to_have_text("You")
        expect(table(a).locator(".seat button.player-name")).to_have_count(1)
        fits(a, size)
        at_table.click()
        a.get_by_role("dialog", name="Ben").get_by_role("button", name="Report Ben…").click()
        dialog = report_dialog(a, "Ben")
        fill_report(dialog, "Cheating, such as sharing cards with a partner", "")
        send_report(a, dialog, shots, "table-report-sent")
        expect(table(a).locator(".seat").get_by_role("button", name="Ben", exact=True)).to_be_focused()

        made = ann.call("GET", "reports")
        assert [(r["username"], r["room"], r["line"], r["reason"], r["note"]) for r in made] == [
            ("ben", code, None, "cheating", ""),
            ("ben", code, None, "stalling", "He never starts."),
        ]
        # The dialog's link shows his page in place, and the dialog goes with the table.
        at_table.click()
        a.get_by_role("dialog", name="Ben").get_by_role("link", name="See Ben's page").click()
        expect(a).to_have_url(re.compile(r"/players/ben$"))
        expect(a.get_by_role("heading", name="Ben")).to_be_visible()
        expect(a.locator("dialog")).to_have_count(0)

        # From Cleo's page: "Report Cleo…".
        a.goto("/players/cleo")
        button = a.get_by_role("button", name="Report Cleo…")
        button.click()
        dialog = report_dialog(a, "Cleo")
        expect(dialog.locator(".reported-line")).to_have_count(0)
        fill_report(dialog, "An offensive name", "Her name is a slur.")
        fits(a, size)
        send_report(a, dialog, shots, "profile-report-sent")
        expect(button).to_be_focused()
        latest = ann.call("GET", "reports")[0]
        assert (latest["username"], latest["room"], latest["reason"]) == ("cleo", None, "name")
        # One's own page offers no such thing.
        a.goto("/players/ann")
        expect(a.get_by_role("heading", name="Ann")).to_be_visible()
        expect(a.get_by_role("button", name=re.compile("^Report"))).to_have_count(0)

        # Past the server's limit on reports, the dialog says so calmly and stays open.
        for _ in range(20):
            res = ann.client.post("reports", json={"username": "cleo", "reason": "other"})
            if res.status_code == 429:
                break
            assert res.status_code == 201, res.text
        else:
            raise AssertionError("20 reports in a row were never throttled")
        a.goto("/players/cleo")
        a.get_by_role("button", name="Report Cleo…").click()
        dialog = report_dialog(a, "Cleo")
        fill_report(dialog, "Something else", "")
        dialog.get_by_role("button", name="Send the report").click()
        expect(dialog.locator(":scope > form > .form-error")).to_have_text(
            "You have sent many reports in a short time. Please wait a while, then try again."
        )
        expect(dialog.get_by_role("button", name="Send the report")).to_be_focused()
        fits(a, size)
        shots(a, "report-throttled")
        assert ben.call("GET", "reports") == [] and cleo.call("GET", "reports") == []


# -- your standing ------------------------------------------------------------------


@SIZES
def test_your_standing_shows_reports_warnings_timeouts_and_blocks(
    open_page: Callable[..., Any], live_url: str, shots: Shots, size: dict[str, int]
) -> None:
    with people(live_url, ("ann", "Ann"), ("ben", "Ben"), ("cleo", "Cleo")) as (ann, ben, cleo):
        code = hearts_table(ann, ben)
        ann.call(
            "POST", "reports", json={"username": "ben", "room": code, "reason": "offensive_language", "note": RUDE}
        )
        ann.call("POST", "me/blocks", json={"username": "cleo"})
        a = signed_in(open_page, size, ann, "/notifications")
        reports = reports_part(a)
        report = reports.locator("li.report")
        expect(report).to_have_count(1)
        expect(report).to_contain_text(f"ben · Offensive or abusive language · at table {code} · sent ")
        # The note as written: text, never markup.
        expect(report.locator(".report-note")).to_have_text(RUDE)
        assert report.locator(".report-note").evaluate("el => el.childElementCount") == 0
        expect(report.locator(".report-state")).to_have_text("Waiting")
        blocked = standing(a).locator(".block-list li")
        expect(blocked).to_have_count(1)
        expect(blocked).to_contain_text("Cleo @cleo · blocked")
        expect(standing(a).locator(".standing-warnings")).to_contain_text("No warnings.")
        expect(standing(a).locator(".standing-timeouts")).to_contain_text("None: you can talk at every table.")
        expect(standing(a).locator(".standing-playban")).to_contain_text("Open to you.")
        standing(a).scroll_into_view_if_needed()
        fits(a, size)
        shots(a, "standing-waiting")

        # Ben has his page open (no warning yet) when a moderator acts on the report.
        b = signed_in(open_page, size, ben, "/", **LOCAL)
        b.get_by_role("button", name="Create the room").wait_for()
        expect(b.locator("dialog")).to_have_count(0)
        until = moderator_acts("ben", code, warning="Mind your <b>words</b>, please.")

        a.reload()
        expect(reports_part(a).locator("li.report .report-state")).to_have_text("Handled")
        shots(a, "standing-handled")
        # Unblocking Cleo: she leaves the list, and the server agrees.
        standing(a).get_by_role("button", name="Unblock Cleo").click()
        expect(standing(a).locator(".saved")).to_have_text(
            "You unblocked Cleo. You can read each other's messages again."
        )
        expect(standing(a).locator(".standing-blocks")).to_contain_text("You haven't blocked anyone.")
        assert ann.call("GET", "me/blocks") == []

        # Ben opens Settings from the top bar (no new page load: no dialog): his warning,
        # unread, with the moderator's words as text, and the timeout with its end in his time.
        b.locator("#account").get_by_role("link", name="Settings").click()
        warning = standing(b).locator(".warning-list li")
        expect(warning).to_have_count(1)
        expect(warning.locator(".warning-text")).to_have_text("Mind your <b>words</b>, please.")
        assert warning.locator(".warning-text").evaluate("el => el.childElementCount") == 0
        expect(warning).to_contain_text("not read yet")
        timeout = standing(b).locator(".chat-timeout")
        expect(timeout).to_contain_text(re.compile(rf"^No table talk at table {code} until {clock_pattern(until)} "))
        expect(timeout).to_contain_text(re.compile(r"\(in (9|10) minutes\)\."))
        expect(timeout.locator(".sanction-reason")).to_have_text("Why: Rude words at the table")
        expect(b.locator("dialog")).to_have_count(0)
        fits(b, size)
        shots(b, "standing-warned")
        warning.get_by_role("button", name="I have read this").click()
        expect(standing(b).locator(".saved")).to_have_text("Marked as read. You can take a seat again.")
        expect(standing(b).locator(".warning-list li")).to_contain_text("read ")
        expect(standing(b).locator(".warning-list li").get_by_role("button")).to_have_count(0)
        assert all(w["read_at"] for w in ben.call("GET", "me/sanctions")["warnings"])
        # Read, it is not shown again when a page loads.
        b.reload()
        expect(standing(b).locator(".warning-list li")).to_have_count(1)
        expect(b.locator("dialog")).to_have_count(0)
        assert cleo.call("GET", "reports") == []


# -- a warning before the next table --------------------------------------------------


@SIZES
def test_a_warning_is_read_before_the_next_table(
    open_page: Callable[..., Any], live_url: str, shots: Shots, size: dict[str, int]
) -> None:
    with people(live_url, ("ann", "Ann"), ("ben", "Ben")) as (ann, ben):
        first = warn("ben", "Please stop <script>alert(1)</script> shouting at the table.")
        alerts: list[str] = []
        b = signed_in(open_page, size, ben, "/")
        b.on("dialog", lambda d: alerts.append(d.message))

        # On page load: the warning as a modal dialog, its words as text.
        dialog = b.get_by_role("dialog", name="A moderator's warning")
        expect(dialog).to_be_visible()
        expect(dialog.locator(".warning-text")).to_have_text(
            "Please stop <script>alert(1)</script> shouting at the table."
        )
        assert dialog.locator(".warning-text").evaluate("el => el.childElementCount") == 0
        button = dialog.get_by_role("button", name="I have read this")
        expect(button).to_be_focused()
        # Its one button keeps the focus, and Escape does not close it.
        tab_goes_round(b, dialog, button, button)
        b.keyboard.press("Escape")
        expect(dialog).to_be_visible()
        # Shown as a modal: the page behind it is inert.
        assert dialog.evaluate("el => el.matches(':modal')")
        fits(b, size)
        shots(b, "warning-on-load")
        button.click()
        expect(dialog).to_have_count(0)
        assert warning_read(first)
        assert alerts == []

        # A warning given while the page is open: taking a seat shows it, then takes the seat.
        code = hearts_table(ann)
        second = warn("ben", "Second warning: be kind.")
        join = b.get_by_role("textbox", name="Room code")
        join.fill(code)
        b.get_by_role("button", name="Go").click()
        b.locator("[data-action=join]").click()
        dialog = b.get_by_role("dialog", name="A moderator's warning")
        expect(dialog.locator(".warning-text")).to_have_text("Second warning: be kind.")
        expect(b.locator(".lobby-seat.me")).to_have_count(0)
        fits(b, size)
        shots(b, "warning-on-join")
        dialog.get_by_role("button", name="I have read this").click()
        expect(b.locator(".lobby-seat.me")).to_contain_text("Ben")
        assert warning_read(second)

        # Making a room: the same, and the room is made once the warning is read.
        third = warn("ben", "Third warning.")
        b.locator("a.brand").click()
        b.get_by_role("button", name="Create the room").click()
        dialog = b.get_by_role("dialog", name="A moderator's warning")
        expect(dialog.locator(".warning-text")).to_have_text("Third warning.")
        dialog.get_by_role("button", name="I have read this").click()
        b.locator(".lobby").wait_for()
        expect(b.locator(".lobby-seat.me .badge", has_text="host")).to_be_visible()
        assert warning_read(third)

        # Two unread at a page load: one after the other, the oldest first.
        warn("ben", "Fourth.")
        warn("ben", "Fifth.")
        b.reload()
        dialog = b.get_by_role("dialog", name="A moderator's warning (1 of 2)")
        expect(dialog.locator(".warning-text")).to_have_text("Fourth.")
        dialog.get_by_role("button", name="I have read this").click()
        dialog = b.get_by_role("dialog", name="A moderator's warning (2 of 2)")
        expect(dialog.locator(".warning-text")).to_have_text("Fifth.")
        dialog.get_by_role("button", name="I have read this").click()
        expect(b.locator("dialog")).to_have_count(0)
        assert not [w for w in ben.call("GET", "me/sanctions")["warnings"] if not w["read_at"]]


# -- a playban --------------------------------------------------------------------------


@SIZES
def test_a_playban_says_until_when_and_why_and_that_unrated_tables_are_open(
    open_page: Callable[..., Any], live_url: str, shots: Shots, size: dict[str, int]
) -> None:
    from moderation.models import Abandonment

    with people(live_url, ("ann", "Ann"), ("ben", "Ben")) as (ann, ben):
        threshold = django_settings.PLAYBAN_THRESHOLD
        now = timezone.now()
        ats = [now - timedelta(minutes=threshold - k) for k in range(threshold)]

        def abandon() -> None:
            user = users("ben")["ben"]
            for at in ats:
                Abandonment.objects.create(user=user, at=at)

        orm(abandon)
        until = ats[-1] + timedelta(minutes=django_settings.PLAYBAN_MINUTES[0])
        why = f"Why: {threshold} rated matches abandoned within {django_settings.PLAYBAN_WINDOW_HOURS} hours."
        said = re.compile(
            rf"^You can take a seat at a rated table again at {clock_pattern(until)} \(in \d+ minutes\)\. "
            rf"{re.escape(why)} Unrated tables are open to you meanwhile"
        )
        code = hearts_table(ann)  # rated: "Automatic", so it may become rated

        b = signed_in(open_page, size, ben, f"/join/{code}", **LOCAL)
        b.locator(".lobby").wait_for()
        b.locator("[data-action=join]").click()
        notice = b.locator(".lobby-notice")
        expect(notice).to_have_text(said)
        expect(notice).to_be_focused()
        expect(b.locator(".lobby-seat.me")).to_have_count(0)
        fits(b, size)
        shots(b, "playban-on-join")

        # Making a room that may become rated: said under the form; an unrated one is made.
        b.locator("a.brand").click()
        b.get_by_role("button", name="Create the room").click()
        expect(b.locator(".create-room .form-error")).to_have_text(said)
        fits(b, size)
        shots(b, "playban-on-create")
        b.get_by_label("Rated", exact=True).select_option(label="Not rated")
        b.get_by_role("button", name="Create the room").click()
        b.locator(".lobby").wait_for()
        expect(b.locator(".rated-note")).to_have_text("Not rated.")

        # Settings says it too.
        b.locator("#account").get_by_role("link", name="Settings").click()
        expect(standing(b).locator(".standing-playban .playban")).to_have_text(said)


# -- the whole journey under `make run` ---------------------------------------------------


def mails_to(mail_dir: Path, address: str, subject: str) -> list[str]:
    """The bodies of the mails with `subject` to `address` that Django's file backend
    wrote to `mail_dir` (several a file, each followed by a line of dashes)."""
    found = []
    for name in sorted(mail_dir.glob("*")):
        for raw in name.read_text(errors="replace").split("\n" + "-" * 79 + "\n"):
            if not raw.strip():
                continue
            message = email.message_from_string(raw.lstrip())
            if message["Subject"] == subject and address in (message["To"] or ""):
                payload = message.get_payload(decode=True)
                found.append(payload.decode() if isinstance(payload, bytes) else str(message.get_payload()))
    return found


def test_a_report_is_handled_by_a_moderator_under_make_run(
    make_run_page: Callable[..., Any], make_run: MakeRun
) -> None:
    shots = Shots(ARTIFACTS / "make_run_reports")
    mail_dir = Path(make_run.env["VAR_DIR"]) / "mail"
    address = "rep.ann@example.org"

    # Two people at a table: Ann on a phone, Ben on a laptop.
    ann = make_run_page(PHONE["width"], PHONE["height"])
    sign_up(ann, "rep_ann")
    code = create_room(ann, "hearts")
    ben = make_run_page(LAPTOP["width"], LAPTOP["height"])
    sign_up(ben, "rep_ben")
    ben.goto(f"/join/{code}")
    ben.locator("[data-action=join]").click()
    expect(ann.locator(".lobby-seat", has_text="rep_ben")).to_be_visible()
    add_bots(ann, 2)
    ann.locator("[data-action=start]").click()
    for page in (ann, ben):
        expect(table(page)).to_be_visible(timeout=15_000)
        expect(page.locator("[data-live]")).to_have_text("live")

    # A moderator (staff in the Moderators group, not a superuser), and Ann's address
    # confirmed, as its mailed link would.
    make_run.shell(
        "from django.contrib.auth.models import Group; from accounts.models import User;"
        "from notifications.models import NotificationSettings;"
        f"u = User.objects.create_user('rep_mod', password='{PASSWORD}', is_staff=True);"
        "u.groups.add(Group.objects.get(name='Moderators'));"
        "NotificationSettings.objects.update_or_create(user=User.objects.get(username='rep_ann'),"
        f" defaults={{'email_address': '{address}', 'email_confirmed_address': '{address}'}})"
    )

    # They talk; Ben's line is rude, and Ann reports it from its menu.
    say(ann, "Good luck, everyone")
    expect(line(ben, "Good luck, everyone")).to_have_count(1, timeout=LIVE_MS)
    say(ben, RUDE)
    rude = line(ann, RUDE)
    expect(rude).to_have_count(1, timeout=LIVE_MS)
    rude.locator("details.talk-menu summary").click()
    rude.get_by_role("button", name="Report rep_ben…").click()
    dialog = report_dialog(ann, "rep_ben")
    expect(dialog.locator(".reported-line")).to_have_text(RUDE)
    fill_report(dialog, "Offensive or abusive language", "Insults at the table.")
    send_report(ann, dialog, shots, "reported")
    close_talk(ann)

    # The moderator works the entry in the admin: claim, then a 10-minute chat timeout
    # with the canned warning about offensive language.
    mod = make_run_page(LAPTOP["width"], LAPTOP["height"])
    sign_in_admin(mod, "rep_mod", PASSWORD)
    mod.get_by_role("link", name="Reports' queue").first.click()
    mod.get_by_role("link", name="rep_ben", exact=True).click()
    box = mod.locator("#moderation")
    expect(box).to_contain_text("Open: 1 report since")
    shots(mod, "queue-entry")
    # Claim is a POST to the entry's own claim address; the entry then offers Release.
    box.get_by_role("button", name="Claim").click()
    expect(mod.locator(".messagelist")).to_contain_text("Claimed.")
    expect(mod.locator("#moderation").get_by_role("button", name="Release")).to_be_visible()
    mod.locator("#moderation").get_by_role("link", name="Chat timeout…").click()
    mod.get_by_label("Length").select_option("10m")
    mod.get_by_label("Reason").fill("Insults at the table")
    mod.get_by_label("And a warning").select_option("offensive_language")
    shots(mod, "timeout-form")
    mod.get_by_role("button", name="Time out").click()
    expect(mod.locator(".messagelist")).to_contain_text("Timed out.")
    expect(mod.locator("#moderation")).to_contain_text("Closed:")

    # Ben tries to talk: refused, with the time left.
    say(ben, "Sorry")
    expect(error_line(ben)).to_have_text(
        re.compile(r"^A moderator has paused your chat\. You can talk again in (9|10) minutes\.$"), timeout=LIVE_MS
    )
    expect(line(ben, "Sorry")).to_have_count(0)
    shots(ben, "timed-out")
    # His next table: the warning first, then the room is made.
    ben.locator("a.brand").click()
    ben.get_by_role("button", name="Create the room").click()
    warning = ben.get_by_role("dialog", name="A moderator's warning")
    expect(warning.locator(".warning-text")).to_have_text(CANNED)
    shots(ben, "warning")
    warning.get_by_role("button", name="I have read this").click()
    ben.locator(".lobby").wait_for()
    expect(ben.locator(".lobby-seat.me .badge", has_text="host")).to_be_visible()

    # Ann's standing: the report, handled.
    ann.locator("#account").get_by_role("link", name="Settings").click()
    report = reports_part(ann).locator("li.report")
    expect(report).to_have_count(1)
    expect(report).to_contain_text(f"rep_ben · Offensive or abusive language · for a message at table {code} · sent ")
    expect(report.locator(".report-state")).to_have_text("Handled")
    shots(ann, "standing-handled")

    # And a mail told her so, written by the worker to make run's mail folder.
    deadline = time.monotonic() + 60
    while not (mails := mails_to(mail_dir, address, "Your report was handled")):
        assert time.monotonic() < deadline, f"no 'Your report was handled' mail to {address} in {mail_dir}"
        time.sleep(0.2)
    assert "handled it" in mails[0] and "rep_ben" not in mails[0]
