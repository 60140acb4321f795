"""The replay in words (web/static/web/replay.js): every step says what happened as the
table's log does, naming the cards and tiles the replay's answer gives its reader — a
Sweedo hand's funky pass, a Moon hand's widow, a Kali Tidi hand's partner call and
trumps — and never one it leaves out. Each hand ends in one step of its own (not one a
seat for "next hand"), with the hand's score; cards overlapped in a hand keep their rank
and suit in sight. At a phone's size and on a desktop: nothing sticks out sideways, and
axe finds nothing serious. The Kali Tidi score sheet breaks its names between words."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
from playwright.sync_api import expect

from .account_pages import LAPTOP, PHONE, fits
from .conftest import PASSWORD, play_by_api
from .test_replay import end_match_here

SUIT = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAME = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
PIP_TRUMPS = ["blanks", "ones", "twos", "threes", "fours", "fives", "sixes"]
# Words of the API that a person should never read: action and event types.
RAW = re.compile(r"\b[a-z]+_[a-z_]+\b|Next hand")
LONG = {"turn_seconds": 600, "abandon_seconds": 1200}

# Every step's words, from the deal to the hand's end, read as the buttons step on.
STEP_WORDS = """() => {
  const read = () => ({
    step: Number(document.querySelector("section.replay").dataset.step),
    text: document.querySelector(".replay-step").textContent,
  });
  const out = [read()];
  for (let i = 0; i < 2000; i++) {
    const next = document.querySelector('button[data-step="next-play"]');
    if (next.disabled) break;
    next.click();
    out.push(read());
  }
  return out;
}"""

# The overlapped cards of the hands shown whose rank or suit the next card covers.
COVERED = """() => {
  const covered = [];
  for (const hand of document.querySelectorAll(".replay-hand")) {
    const items = [...hand.children];
    for (let i = 0; i + 1 < items.length; i++) {
      const here = items[i].getBoundingClientRect();
      const next = items[i + 1].getBoundingClientRect();
      if (Math.abs(next.top - here.top) > 1) continue;
      for (const glyph of items[i].querySelectorAll(".card-face .rank, .card-face .pip")) {
        if (glyph.getBoundingClientRect().right > next.left + 0.5) covered.push(items[i].dataset.code);
      }
    }
  }
  return covered;
}"""

# The words of the score sheet's headers that are split across lines.
SPLIT_WORDS = """() => {
  const split = [];
  for (const th of document.querySelectorAll(".score-sheet thead th")) {
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      let at = 0;
      for (const word of node.textContent.split(" ")) {
        if (word) {
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + word.length);
          if ([...range.getClientRects()].filter((r) => r.width > 0).length > 1) split.push(word);
        }
        at += word.length + 1;
      }
    }
  }
  return split;
}"""


def card_text(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + SUIT[code[1]]


def tile_text(code: str) -> str:
    high, low = code.split("-")
    return f"double {high}" if high == low else code


def cards_text(codes: list[str]) -> str:
    return " ".join(card_text(c) for c in codes)


def register(live_url: str, username: str) -> str:
    res = httpx.post(f"{live_url}/api/v1/auth/register", json={"username": username, "password": PASSWORD}, timeout=30)
    assert res.status_code == 201, res.text
    return res.json()["token"]


def new_room(live_url: str, token: str, game: str, options: dict[str, Any], bots: int) -> str:
    headers = {"Authorization": f"Token {token}"}
    with httpx.Client(base_url=f"{live_url}/api/v1/", headers=headers, timeout=30) as client:
        code = client.post("rooms/", json={"game": game, "options": {**options, **LONG}}).json()["code"]
        for _ in range(bots):
            assert client.post(f"rooms/{code}/bots", json={}).status_code == 201
        assert client.post(f"rooms/{code}/start").status_code == 200
    return code


def replay_of(live_url: str, token: str, code: str) -> dict[str, Any]:
    res = httpx.get(f"{live_url}/api/v1/rooms/{code}/replay", headers={"Authorization": f"Token {token}"}, timeout=30)
    assert res.status_code == 200, res.text
    return res.json()


def names_of(replay: dict[str, Any]) -> list[str]:
    return [p["display_name"] or f"Seat {p['seat'] + 1}" for p in replay["players"]]


def played(hand: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in hand["actions"] if a["action"]["type"] != "next_round"]


def replay_pages(open_page: Callable[..., Any], token: str, code: str) -> Iterator[tuple[dict[str, int], Any]]:
    """The replay open at a phone's size, then on a desktop, as the token's player."""
    for size in (PHONE, LAPTOP):
        page = open_page(**size)
        page.add_init_script(f"localStorage.setItem('tt.token', {json.dumps(token)})")
        page.goto(f"/replay/{code}")
        page.locator("section.replay").wait_for()
        yield size, page


def hand_words(page: Any, index: int) -> list[str]:
    """Every step of hand `index` (0-based) in the page's words, from "As dealt." on."""
    page.get_by_label("Hand", exact=True).select_option(index=index)
    expect(page.locator("section.replay")).to_have_attribute("data-hand", str(index))
    expect(page.locator("section.replay")).to_have_attribute("data-step", "0")
    got = page.evaluate(STEP_WORDS)
    assert [g["step"] for g in got] == list(range(len(got)))
    return [g["text"] for g in got]


def check_hand(page: Any, words: list[str], hand: dict[str, Any], names: list[str], trick_words: str) -> None:
    """What every hand's steps say: one step an action, every trick's taker, no word of
    the API, and one step for the hand's end with its score, shown there too."""
    steps = played(hand)
    assert words[0] == "As dealt."
    # One step an action, and one more for the end: no step a seat for the next hand.
    assert len(words) == len(steps) + 2, (len(words), len(steps))
    assert [w for w in words if RAW.search(w)] == []
    result = hand["result"]
    totals = ", ".join(f"{name}: {score}" for name, score in zip(names, result["scores"], strict=True))
    assert words[-1] == f"Hand {hand['round']} scored. Totals — {totals}."
    assert sum("scored" in w for w in words) == 1
    tricks = 0
    for i, step in enumerate(steps):
        if step["trick_winner"] is not None:
            tricks += 1
            assert trick_words.format(name=names[step["trick_winner"]], n=tricks) in words[i + 1], words[i + 1]
    # The end: the hand's result where the trick was, each seat's total in its row.
    expect(page.locator(".replay-step")).to_have_text(words[-1])
    table = page.locator(".replay-result")
    expect(table).to_be_visible()
    for seat, score in enumerate(result["scores"]):
        expect(table.locator(f"tr[data-seat='{seat}'] td").last).to_have_text(str(score))


def test_a_sweedo_replay_names_the_cards_of_every_pass_and_funky_pass(open_page, live_url, shots):
    token = register(live_url, "wren")
    code = new_room(live_url, token, "hearts", {"preset": "sweedo", "fourth_hand": "funky", "target": 300}, bots=3)
    play_by_api(live_url, token, code, lambda v: v["round"] == 4 and v["phase"] == "pass")
    # The fourth hand's funky pass: one card to each other player, named by seat.
    view = httpx.get(f"{live_url}/api/v1/rooms/{code}/state", headers={"Authorization": f"Token {token}"}).json()
    assert view["pass_direction"] == "funky"
    mine = view["you"]["hand"][:3]
    play_by_api(
        live_url,
        token,
        code,
        lambda v: v["phase"] != "pass",
        choose=lambda v: {"type": "pass_cards", "cards": mine, "to": [1, 2, 3]},
    )
    play_by_api(live_url, token, code, lambda v: v["round"] == 4 and v["phase"] in ("round_over", "match_over"))
    end_match_here(code)
    replay = replay_of(live_url, token, code)
    names = names_of(replay)
    first, fourth = replay["hands"][0], replay["hands"][3]
    assert fourth["round"] == 4

    for size, page in replay_pages(open_page, token, code):
        words = hand_words(page, 0)
        check_hand(page, words, first, names, "{name} took trick {n}.")
        # Hand 1 passes left: every pass names its three cards and whom they went to.
        for i, step in enumerate(played(first)):
            if step["action"]["type"] == "pass_cards":
                seat = step["seat"]
                assert (
                    words[i + 1]
                    == f"{names[seat]} passed {cards_text(step['action']['cards'])} to {names[(seat + 1) % 4]}."
                )
            elif step["action"]["type"] == "play":
                assert words[i + 1].startswith(f"{names[step['seat']]} played {card_text(step['action']['card'])}.")
        shots(page, f"hand 1 over {size['width']}")
        fits(page, size)

        words = hand_words(page, 3)
        check_hand(page, words, fourth, names, "{name} took trick {n}.")
        passes = [(i, s) for i, s in enumerate(played(fourth)) if s["action"]["type"] == "pass_cards"]
        assert len(passes) == 4
        for i, step in passes:
            sent = step["action"]
            if isinstance(sent["to"], list):
                moves = list(zip(sent["to"], sent["cards"], strict=True))
            else:
                moves = sorted((int(seat), card) for seat, card in sent["to"].items())
            told = [f"{card_text(card)} to {names[to]}" for to, card in moves]
            assert words[i + 1] == f"{names[step['seat']]} passed {', '.join(told[:-1])} and {told[-1]}."
        told = [f"{card_text(card)} to {names[k + 1]}" for k, card in enumerate(mine)]
        assert f"{names[0]} passed {told[0]}, {told[1]} and {told[2]}." in words
        # As dealt, every card of a hand shows its rank and suit, however they overlap.
        page.get_by_label("Hand", exact=True).select_option(index=0)
        expect(page.locator(".replay-hand li")).to_have_count(52)
        assert page.evaluate(COVERED) == []
        shots(page, f"as dealt {size['width']}")
        fits(page, size)


def test_a_replay_never_names_cards_its_answer_leaves_out(open_page, live_url):
    """Where the answer leaves a pass's cards out, the step says how many went and to
    whom, and names none of them."""
    token = register(live_url, "nell")
    code = new_room(live_url, token, "hearts", {"target": 300}, bots=3)
    play_by_api(live_url, token, code, lambda v: v["phase"] == "round_over")
    end_match_here(code)
    replay = replay_of(live_url, token, code)
    names = names_of(replay)
    page = open_page(**PHONE)
    page.add_init_script(f"localStorage.setItem('tt.token', {json.dumps(token)})")

    def without_pass_cards(route: Any) -> None:
        answer = route.fetch()
        body = answer.json()
        for hand in body["hands"]:
            for step in hand["actions"]:
                if step["action"]["type"] == "pass_cards":
                    step["action"].pop("cards")
        route.fulfill(response=answer, json=body)

    page.route("**/api/v1/rooms/*/replay", without_pass_cards)
    page.goto(f"/replay/{code}")
    page.locator("section.replay").wait_for()
    words = hand_words(page, 0)
    for i, step in enumerate(played(replay["hands"][0])):
        if step["action"]["type"] == "pass_cards":
            seat = step["seat"]
            assert words[i + 1] == f"{names[seat]} passed 3 cards to {names[(seat + 1) % 4]}."
            for card in step["action"]["cards"]:
                assert card_text(card) not in words[i + 1]


def moon_choice(view: dict[str, Any]) -> dict[str, Any]:
    """The player bids 7 where they may (so that they win bids and take widows), else
    does the first thing they may."""
    legal = view["you"]["legal_actions"]
    bids = [a for a in legal if a["type"] == "bid" and a["value"] != 21]
    if view["phase"] == "bid" and bids:
        return max(bids, key=lambda a: a["value"])
    return legal[0]


def widow_taken(view: dict[str, Any]) -> bool:
    return view["phase"] in ("round_over", "match_over") and bool((view.get("last_round") or {}).get("widow_taken"))


def test_a_moon_replay_names_the_bids_trumps_and_the_widow(open_page, live_url, shots):
    token = register(live_url, "moss")
    code = new_room(live_url, token, "moon", {"players": 3, "widow": "optional"}, bots=2)
    play_by_api(live_url, token, code, widow_taken, choose=moon_choice)
    end_match_here(code)
    replay = replay_of(live_url, token, code)
    names = names_of(replay)
    index, hand = next((i, hd) for i, hd in enumerate(replay["hands"]) if hd["result"].get("widow_taken"))
    steps = played(hand)

    for size, page in replay_pages(open_page, token, code):
        words = hand_words(page, index)
        check_hand(page, words, hand, names, "{name} took trick {n}.")
        redealt = False
        for i, step in enumerate(steps):
            sent, who, said = step["action"], names[step["seat"]], words[i + 1]
            before = steps[i - 1]["hands"] if i else hand["deal"]["hands"]
            if sent["type"] == "bid":
                assert said.startswith(f"{who} bid {'moon' if sent['value'] == 21 else sent['value']}.")
            elif sent["type"] == "pass":
                assert said.startswith(f"{who} passed.")
                redealt = redealt or step["hands"] != before
            elif sent["type"] == "trump":
                assert said == f"{who} named trumps: {PIP_TRUMPS[sent['suit']]}."
            elif sent["type"] == "widow":
                # The widow as dealt, unless a redeal changed it (then the answer has it nowhere).
                widow = "" if redealt else f" ({tile_text(hand['deal']['widow'][0])})"
                assert said == f"{who} took the widow{widow} and discarded {tile_text(sent['discard'])}."
            elif sent["type"] == "play":
                assert said.startswith(f"{who} played {tile_text(sent['tile'])}.")
        # The auction's end in the log's words.
        result = hand["result"]
        bid = "moon" if result["bid"] == 21 else result["bid"]
        assert sum(f"{names[result['bidder']]} won the bid at {bid}." in w for w in words) == 1
        shots(page, f"hand over {size['width']}")
        fits(page, size)


def test_a_kali_tidi_replay_names_the_partner_call_and_trumps(open_page, live_url, shots):
    token = register(live_url, "kit")
    code = new_room(live_url, token, "kali_tidi", {"players": 4, "team_mode": "cards"}, bots=3)
    play_by_api(live_url, token, code, lambda v: v["phase"] in ("round_over", "match_over"))
    # The score sheet at the table: its names break between words, never inside one.
    for size in (PHONE, LAPTOP):
        page = open_page(**size)
        page.add_init_script(f"localStorage.setItem('tt.token', {json.dumps(token)})")
        page.goto(f"/join/{code}")
        sheet = page.locator(".score-sheet")
        expect(sheet.locator("thead th.player")).to_have_count(4)
        expect(sheet.locator("thead th.player").nth(1)).to_have_text("Computer 2")
        assert page.evaluate(SPLIT_WORDS) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        sheet.screenshot(path=str(shots.folder / f"score sheet {size['width']}.png"))
    end_match_here(code)
    replay = replay_of(live_url, token, code)
    names = names_of(replay)
    hand = replay["hands"][0]
    steps = played(hand)
    assert any(s["action"]["type"] == "call_partners" for s in steps)

    for size, page in replay_pages(open_page, token, code):
        words = hand_words(page, 0)
        check_hand(page, words, hand, names, "{name} took the trick")
        for i, step in enumerate(steps):
            sent, who, said = step["action"], names[step["seat"]], words[i + 1]
            if sent["type"] == "call_partners":
                plural = "" if len(sent["cards"]) == 1 else "s"
                assert said == f"{who} called {cards_text(sent['cards'])} as partner card{plural}."
            elif sent["type"] == "trump":
                assert said == f"{who} named trumps: {SUIT_NAME[sent['suit']]}."
            elif sent["type"] == "remove_cards":
                assert said == f"{who} removed {cards_text(sent['cards'])} from the deck."
            elif sent["type"] == "bid":
                assert said.startswith(f"{who} bid {sent['value']}.")
            elif sent["type"] == "play":
                assert said.startswith(f"{who} played {card_text(sent['card'])}.")
        # The auction's end in the log's words: won, or everyone passed and the first
        # bidder holds the lowest bid.
        bidder, bid = names[hand["result"]["bidder"]], hand["result"]["bid"]
        ends = (f"{bidder} won the bid at {bid}.", f"Everyone passed: {bidder} bids {bid}.")
        assert sum(any(end in w for end in ends) for w in words) == 1
        shots(page, f"hand over {size['width']}")
        fits(page, size)
