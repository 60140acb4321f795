"""Every language at a phone's size (390x844): English, Spanish, Hindi, Gujarati and the
two pseudo-locales (tests/i18n/pseudo_locales.py: every string 40% longer; everything
right to left). In each, a person's evening: the Settings page, a notice (the toast that
says a guest's account is kept), then a whole hand of Hearts, Moon and Kali Tidi played
by tapping against computer players, and the last one's replay; the replay and the
Settings again at a desktop's size (1280x900). At each of the person's turns and on each page
nothing is cut, nothing overlaps and nothing is wider than the screen (`LAYOUT`, one
script in the page); axe-core finds nothing serious once per kind of page and language."""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import httpx
import polib
import pytest
from django.conf import settings
from playwright.sync_api import expect

from games.models import Room
from tests.i18n import pseudo_locales
from tests.servers import daphne_argv, database_url, free_port, server_env, serving

from .axe import AXE, SERIOUS, assert_none
from .conftest import (
    ARTIFACTS,
    DESKTOP,
    PASSWORD,
    PHONE,
    Shots,
    click_and_wait,
    new_match,
    orm,
    play_piece,
    table,
)

# Each language, and the browser's own language set to it (its Accept-Language).
BROWSER = {"en": "en-US", "es": "es-ES", "hi": "hi-IN", "gu": "gu-IN", "en-xa": "en-XA", "ar-xb": "ar-XB"}
RIGHT_TO_LEFT = {"ar-xb"}
PSEUDO = {locale.code for locale in pseudo_locales.LOCALES}

# A hand of each game at its quickest that still shows its kinds of turn: Moon for three,
# where her top bid mostly wins her the trumps and the widow; Kali Tidi for seven from one
# deck (7 cards each, the widest ring), in which the host removes the extra cards and bids
# first, so that her top bid wins: then she calls her partners and names trumps.
GAMES: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("hearts", {}, 3),
    ("moon", {"players": 3}, 2),
    ("kali_tidi", {"players": 7, "decks": 1, "team_mode": "cards"}, 6),
)
MY_TURN_OR_OVER = (
    "section.table[data-my-turn=true], section.table[data-phase=round_over], section.table[data-phase=match_over]"
)

# What a person would call a broken layout, read from the page as it is drawn, scrolled
# to the top: the page wider than the screen; a text cut by its box (clipped or ended
# with an ellipsis), or a box scrolling sideways; a text or control partly off the screen;
# two texts or controls drawn over each other. Inside an open modal dialog only, when one
# is (the page behind it is inert); a fixed layer (the toasts) is compared with itself.
# Not looked at: what is hidden from sight (`.sr-only`), and the pieces of a hand, which
# overlap by design where a row is narrower than they are (style.css), each still showing
# its rank and suit.
LAYOUT = """(present) => {
    window.scrollTo(0, 0);
    const view = document.documentElement.clientWidth;
    const problems = [];
    const told = new Set();
    const tell = (line) => { if (!told.has(line)) { told.add(line); problems.push(line); } };
    if (present && !document.querySelector(present)) tell(`${present} was gone before it was looked at`);
    const styles = new Map();
    const style = (e) => styles.get(e) ?? styles.set(e, getComputedStyle(e)).get(e);
    const describe = (e, text) => {
        const names = typeof e.className === "string" ? e.className.trim().split(/\\s+/).filter(Boolean) : [];
        const said = (text ?? e.innerText ?? e.textContent ?? "").trim().replace(/\\s+/g, " ").slice(0, 50);
        return `${[e.tagName.toLowerCase(), ...names].join(".")} "${said}"`;
    };
    const clipped = (e) => {
        for (let n = e; n; n = n.parentElement) {
            if (style(n).clip !== "auto" || style(n).clipPath !== "none") return true;
        }
        return false;
    };
    const seen = { opacityProperty: true, visibilityProperty: true, checkOpacity: true, checkVisibilityCSS: true };
    const shown = (e) => e.checkVisibility(seen) && !clipped(e);
    const modal = [...document.querySelectorAll("dialog[open]")].find((d) => d.matches(":modal"));
    const scope = modal ?? document.body;
    const elements = [scope, ...scope.querySelectorAll("*")].filter(shown);
    const visible = new Set(elements);
    const UNDRAWN = "option, script, style, noscript, template, textarea, input";

    const wide = document.documentElement.scrollWidth;
    if (wide > view) tell(`the page is ${wide}px wide on a screen of ${view}px`);

    const measure = document.createElement("div");
    document.body.append(measure);
    for (const e of elements) {
        if (!e.textContent.trim() || e.matches(UNDRAWN)) continue;
        const s = style(e);
        if (e.matches("select")) {
            // A choice shows its chosen option's words beside its arrow: on one line where
            // the browser draws it natively, else as its style wraps them.
            const padding = parseFloat(s.paddingInlineStart) + parseFloat(s.paddingInlineEnd);
            const room = e.clientWidth - padding - 16;
            const lines = e.clientHeight - parseFloat(s.paddingBlockStart) - parseFloat(s.paddingBlockEnd);
            const wraps = s.appearance === "base-select" ? s.whiteSpace : "pre";
            measure.style.cssText = `position: absolute; visibility: hidden; inset-block-start: 0; width: ${room}px;
                font: ${s.font}; white-space: ${wraps}; overflow-wrap: ${s.overflowWrap}`;
            measure.textContent = e.selectedOptions[0]?.text ?? "";
            const [needs, tall] = [measure.scrollWidth, measure.offsetHeight];
            if (needs > room + 1 || tall > lines + 1) {
                tell(`cut: ${describe(e, measure.textContent)} needs ${needs}x${tall}px, has ${room}x${lines}px`);
            }
            continue;
        }
        const clipsX = ["hidden", "clip"].includes(s.overflowX) || s.textOverflow === "ellipsis";
        const scrollsX = ["auto", "scroll"].includes(s.overflowX);
        if ((clipsX || scrollsX) && e.scrollWidth > e.clientWidth + 1) {
            const how = clipsX ? "cut" : "scrolls sideways";
            tell(`${how}: ${describe(e)} is ${e.scrollWidth}px wide in ${e.clientWidth}px`);
        }
        if (["hidden", "clip"].includes(s.overflowY) && e.scrollHeight > e.clientHeight + 1) {
            tell(`cut: ${describe(e)} is ${e.scrollHeight}px tall in ${e.clientHeight}px`);
        }
    }
    measure.remove();

    // The texts and controls as drawn: each line box of a text, each box of a control (a
    // link over two lines has two), less what a box that clips (or scrolls) hides of it.
    const layerOf = (e) => {
        for (let n = e; n && n !== document.body; n = n.parentElement) if (style(n).position === "fixed") return n;
        return null;
    };
    const drawn = (from, rect) => {
        let [left, top, right, bottom] = [rect.left, rect.top, rect.right, rect.bottom];
        for (let n = from; n && n !== document.body; n = n.parentElement) {
            if (style(n).overflowX === "visible" && style(n).overflowY === "visible") continue;
            const box = n.getBoundingClientRect();
            [left, top] = [Math.max(left, box.left), Math.max(top, box.top)];
            [right, bottom] = [Math.min(right, box.right), Math.min(bottom, box.bottom)];
        }
        return right - left > 0.5 && bottom - top > 0.5 ? { left, top, right, bottom } : null;
    };
    const CONTROLS = "button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [role=tab]";
    const items = [];
    const add = (e, rect, node) => {
        const seen = drawn(node ? e : e.parentElement, rect);
        if (seen) items.push({ e, node, rect: seen, control: !node, layer: layerOf(e), hand: e.closest(".hand") });
    };
    for (const e of elements) if (e.matches(CONTROLS)) for (const rect of e.getClientRects()) add(e, rect, null);
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        const owner = t.parentElement;
        if (!t.data.trim() || !visible.has(owner) || owner.closest(UNDRAWN + ", select")) continue;
        const range = document.createRange();
        range.selectNodeContents(t);
        for (const rect of range.getClientRects()) add(owner, rect, t);
    }
    const what = (item) => describe(item.e, item.node?.data);
    for (const item of items) {
        const { rect } = item;
        // Wholly out of sight is on purpose (the skip link, until it is focused).
        if (rect.right <= 0 || rect.left >= view) continue;
        if (rect.left < -1 || rect.right > view + 1) {
            tell(`off the screen: ${what(item)} spans ${Math.round(rect.left)} to ${Math.round(rect.right)}px`);
        }
    }
    for (let i = 0; i < items.length; i++) {
        const a = items[i];
        for (let j = i + 1; j < items.length; j++) {
            const b = items[j];
            if (a.layer !== b.layer || (a.node && a.node === b.node) || (a.hand && a.hand === b.hand)) continue;
            if ((a.control && a.e.contains(b.e)) || (b.control && b.e.contains(a.e))) continue;
            const dx = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
            const dy = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
            if (dx > 1 && dy > 1) tell(`overlap: ${what(a)} and ${what(b)} (${Math.round(dx)}x${Math.round(dy)}px)`);
        }
    }
    return problems;
}"""

# axe-core on part of a page (a toast, gone in seconds: the whole page takes longer).
RUN_AXE_ON = """async (selector) => {
    const result = await axe.run(selector ?? document, {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
        resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ")),
    }));
}"""


@pytest.fixture(scope="module")
def live_url(django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The live server of the other browser tests (conftest.py), speaking the pseudo-locales
    besides the shipped languages (config/test_settings.py reads PSEUDO_LOCALES)."""
    folder = pseudo_locales.write(tmp_path_factory.mktemp("pseudo-locales"))
    port = free_port()
    with django_db_blocker.unblock():
        env = server_env(database_url(), PSEUDO_LOCALES=str(folder))
    env["PUBLIC_BASE_URL"] = f"http://127.0.0.1:{port}"
    log_path = ARTIFACTS / f"server-languages-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    with serving("daphne", daphne_argv(port), port=port, env=env, log_path=log_path) as url:
        yield url


@cache
def words(language: str) -> dict[str, str]:
    """The web client's words in a shipped language, as its catalogue has them."""
    path = Path(settings.LOCALE_PATHS[0]) / language / "LC_MESSAGES" / "djangojs.po"
    return {e.msgid: e.msgstr for e in polib.pofile(str(path)) if not e.msgctxt and not e.msgid_plural}


def said(language: str, english: str) -> str:
    """What the page shows for `english` in `language`."""
    if language == "en":
        return english
    if language in PSEUDO:
        return pseudo_locales.said(language, english)
    return words(language)[english]


class Evening:
    """One person's pages in one language, each looked at as it is shown: its layout's
    problems and axe's violations, gathered to be told all at once."""

    def __init__(self, page: Any, language: str, shots: Shots) -> None:
        self.page, self.language, self.shots = page, language, shots
        self.layout: dict[str, list[str]] = {}
        self.axe: dict[str, list[dict[str, Any]]] = {}

    def look(self, where: str, kind: str | None = None, part: str | None = None) -> None:
        """The layout checked here, `part` (a selector) still on the page if named; axe
        too, the first time a page of `kind` is shown, on `part` or the whole document."""
        problems = self.page.evaluate(LAYOUT, part)
        if problems:
            self.layout.setdefault(where, problems)
            self.shots(self.page, f"{self.language}-{where}".replace(" ", "-"))
        if kind and kind not in self.axe:
            if self.page.evaluate("typeof window.axe") == "undefined":
                # As axe.py loads it: the page's policy runs no script without its nonce.
                self.page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
            found = self.page.evaluate(RUN_AXE_ON, part)
            self.axe[kind] = [v for v in found if v["impact"] in SERIOUS]

    def assert_fine(self) -> None:
        lines = [f"{where}: {problem}" for where, problems in self.layout.items() for problem in problems[:12]]
        assert not lines, f"the layout in {self.language}:\n" + "\n".join(lines)
        assert_none(self.axe)


def guest(live_url: str, language: str) -> str:
    """A guest's token, their account in `language`."""
    res = httpx.post(f"{live_url}/api/v1/auth/guest", json={"display_name": "Asha", "language": language})
    assert res.status_code == 201, res.text
    return res.json()["token"]


def settings_and_a_notice(evening: Evening, username: str) -> None:
    """The Settings page, then the notice that the guest's account is kept."""
    page, language = evening.page, evening.language
    page.goto("/notifications")
    page.locator(".settings").wait_for()
    # The page speaks the account's language, its catalogue loaded, in its direction.
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("html")).to_have_attribute("dir", "rtl" if language in RIGHT_TO_LEFT else "ltr")
    expect(page.locator("nav#account a[href='/notifications']")).to_have_text(said(language, "Settings"))
    evening.look("settings", "settings")

    keep = page.locator("form", has=page.locator("input[name=username]"))
    keep.locator("input[name=username]").fill(username)
    keep.locator("input[name=password]").fill(PASSWORD)
    keep.locator("button[type=submit]").click()
    kept = said(language, "Your account is kept: log in as %(username)s on any device.")
    expect(page.locator("#toasts .toast")).to_have_text(kept.replace("%(username)s", username))
    evening.look("a notice", "a notice", part="#toasts")


def act(page: Any, phase: str) -> None:
    """The person's move in `phase`, by tapping as a person would: the first cards or
    tiles that may go, the top bid, the first trump."""
    if phase in ("play", "widow"):
        # Moon's widow: a tile tapped is raised, and its button takes the widow and discards it.
        play_piece(page, page.locator(".hand button:not([disabled])").first.get_attribute("data-code"))
    elif phase == "pass":
        for _ in range(3):
            page.locator(".hand button[aria-pressed=false]:not([disabled])").first.click()
        click_and_wait(page, page.locator("[data-action=pass_cards]"))
    elif phase in ("remove", "call"):
        # Kali Tidi's dialog of cards: as many as it asks for, then its button.
        dialog = page.locator("dialog.choose")
        confirm = dialog.locator("button.primary")
        pieces = dialog.locator(".piece")
        for i in range(pieces.count()):
            if confirm.is_enabled():
                break
            pieces.nth(i).click()
        click_and_wait(page, confirm)
    elif phase == "bid":
        bids = page.locator(".actions select")
        if bids.count():
            bids.select_option(index=bids.locator("option").count() - 1)
            click_and_wait(page, page.locator("[data-focus=go-bid]"))
        elif page.locator("[data-action=bid]:not([disabled])").count():
            click_and_wait(page, page.locator("[data-action=bid]:not([disabled])").last)
        else:
            click_and_wait(page, page.locator("[data-action=pass]"))
    elif phase == "trump":
        click_and_wait(page, page.locator("[data-action=trump]").first)
    else:
        raise AssertionError(f"no move known for the phase {phase}")


def a_hand(evening: Evening, live_url: str, token: str, game: str, options: dict[str, Any], bots: int) -> str:
    """A whole hand of `game`, the person's every turn looked at, then its result; the
    room's code."""
    page = evening.page
    code = new_match(live_url, token, game, options, bots)
    page.goto(f"/rooms/{code}")
    for _ in range(40):
        page.locator(MY_TURN_OR_OVER).first.wait_for(timeout=30_000)
        phase = table(page).get_attribute("data-phase")
        if phase in ("round_over", "match_over"):
            break
        dialog = page.locator("dialog.choose[open]").count() > 0
        evening.look(f"{game} {phase}", "a dialog" if dialog else f"{game} table")
        act(page, phase)
    else:
        raise AssertionError(f"the hand of {game} did not end")
    expect(page.locator(".results")).to_be_visible()
    evening.look(f"{game} result", f"{game} result")
    return code


def its_replay(evening: Evening, code: str) -> None:
    """The match of `code` ended after its hand: its replay, at a trick with every seat's
    name under its card, on the phone and then on a desktop's screen."""
    page = evening.page
    orm(lambda: Room.objects.filter(code=code).update(status="finished"))
    page.goto(f"/replay/{code}")
    page.get_by_role("button", name=said(evening.language, "Next trick")).click()
    expect(page.locator(".trick-play.winner")).to_have_count(1)
    evening.look("replay", "replay", "section.replay")
    page.set_viewport_size(DESKTOP)
    evening.look("replay on a desktop", None, "section.replay")
    page.goto("/notifications")
    page.locator(".settings").wait_for()
    evening.look("settings on a desktop", "settings on a desktop")
    page.set_viewport_size(PHONE)


@pytest.mark.parametrize("language", list(BROWSER))
def test_an_evening_fits_the_phone_in(open_page: Any, live_url: str, shots: Shots, language: str) -> None:
    token = guest(live_url, language)
    page = open_page(**PHONE, locale=BROWSER[language])
    page.goto("/")
    page.evaluate("token => localStorage.setItem('tt.token', token)", token)
    evening = Evening(page, language, shots)
    settings_and_a_notice(evening, f"asha-{language}")
    codes = [a_hand(evening, live_url, token, game, options, bots) for game, options, bots in GAMES]
    # The widest ring's match: seven names under seven cards.
    its_replay(evening, codes[-1])
    evening.assert_fine()
