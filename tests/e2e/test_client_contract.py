"""The web client against what the server really sends.

The engines play hands of every game in several option sets; the views they produce on
the way (for each player to act, one who waits, and a spectator) are drawn in Chromium by
the client's own table code, and every event logged is put into words by it. Then:

- nothing on screen reads "undefined", "NaN", "null" or "[object Object]" (the sign of a
  field the client expects under another name);
- every control the client offers, clicked, submits an action the engine accepts, and
  every legal action is offered (a multi-card choice at least once per template);
- players who may not act, and spectators, are offered nothing;
- the cards and tiles marked as trumps are exactly the engine's trumps, sorted together;
- every event type, the server's own included, has words, or is deliberately silent.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import rules, selectors
from games.models import Room
from games.rules import dominoes
from games.rules.errors import RuleError
from games.rules.kali_tidi import engine as kali
from games.services import due, lobby, rematch, table_moderation
from tests.game_params import game_params, match_variants

from .deals import HEARTS_MOON_DEAL, MOON_OPTIONS, MOON_PASS, moon_card

BAD_WORDS = r"undefined|NaN|\[object Object\]|\bnull\b"
# Events the client leaves out of the log on purpose.
SILENT = {"ready", "pass_chosen", "widow_private"}


@dataclass
class Case:
    state: dict[str, Any]
    seat: int | None
    view: dict[str, Any]


@dataclass
class Played:
    key: str
    options: dict[str, Any]
    teams: list[int | None]
    cases: list[Case] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)


def room_view(key: str, state: dict[str, Any], seat: int | None, teams: list[int | None], n: int) -> dict[str, Any]:
    """What GET state answers: the room's facts around the engine's view (as selectors do)."""
    game = rules.get(key)
    view = game.view(state, seat)
    seats = [
        {
            "seat": i,
            "user": None if i % 2 else f"user{i}",
            "display_name": f"Computer {i + 1}" if i % 2 else f"Player {i + 1}",
            "is_bot": bool(i % 2),
            "team": teams[i],
            **facts,
        }
        for i, facts in enumerate(view["seats"])
    ]
    base = {
        "code": "CONTRACT",
        "game": key,
        "version": n,
        "status": "finished" if game.is_match_over(state) else "playing",
        "status_reason": "",
        "status_cause": None,
        "deadline": None,
    }
    return {**base, **view, "seats": seats}


def play(
    key: str,
    options: dict[str, Any],
    *,
    hands: int = 1,
    seed: int = 7,
    deal: Any = None,
    seat0: Any = None,
    play_every: int = 1,
) -> Played:
    """Hands played by the computer players (seat 0 by `seat0` if given), keeping views."""
    game = rules.get(key)
    opts = game.validate_options(options)
    players = game.seat_count(opts)
    sizes = game.lobby_teams(opts)
    teams: list[int | None] = [0] * sizes[0] + [1] * sizes[1] if sizes else [None] * players
    carry = game.first_carry(options=opts, players=players, host_seat=0, teams=teams, seed=seed)
    state = game.new_round(options=opts, players=players, seed=seed, carry=carry, deal=deal)
    out = Played(key, opts, teams)
    hand, step, plays = 1, 0, 0
    while True:
        step += 1
        to_act = game.to_act(state)
        in_play = state["phase"] == "play"
        plays = plays + 1 if in_play else 0
        if not in_play or plays <= 2 or plays % play_every == 0:
            waiting = [s for s in range(players) if s not in to_act][:1]
            for seat in [*to_act, *waiting, None]:
                out.cases.append(Case(state, seat, room_view(key, state, seat, teams, step)))
        if not to_act:
            break
        seat = to_act[0]
        action = seat0(game, state) if seat == 0 and seat0 else game.bot_action(state, seat)
        applied = game.apply(state, seat, action)
        out.events.extend(e.data for e in applied.events)
        state = applied.state
        if game.is_complete(state):
            if hand == hands:
                break
            hand += 1
            state = game.new_round(options=opts, players=players, seed=seed + hand, carry=game.carry(state))
    return out


def moon_seat0(game: Any, state: dict[str, Any]) -> dict[str, Any]:
    """Seat 0 of the Hearts moon deal, following the plan in deals.py."""
    if state["phase"] == "pass":
        return {"type": "pass_cards", "cards": MOON_PASS}
    if state["phase"] == "play":
        return {
            "type": "play",
            "card": moon_card([a["card"] for a in game.legal_actions(state, 0) if a["type"] == "play"]),
        }
    return game.bot_action(state, 0)


def hearts_matches() -> list[Played]:
    # Four hands: left, right, across and the funky pass; then the shooter's choice.
    funky = play("hearts", {"fourth_hand": "funky"}, hands=4, play_every=4)
    moon = play("hearts", MOON_OPTIONS, deal=HEARTS_MOON_DEAL, seat0=moon_seat0, play_every=3)
    sweedo = play("hearts", {"preset": "sweedo"}, seed=3, play_every=5)
    assert any(c.view["phase"] == "moon_choice" for c in moon.cases)
    assert any(c.view.get("pass_direction") == "funky" for c in funky.cases)
    return [funky, moon, sweedo]


def moon_matches() -> list[Played]:
    return [
        play("moon", {}, hands=3, play_every=2),
        play("moon", {"players": 4}, hands=2, play_every=3),
        play("moon", {"widow": "compulsory", "moon_any_time": True}, hands=2, seed=11, play_every=3),
    ]


def kali_matches() -> list[Played]:
    return [
        play("kali_tidi", {"players": 3, "team_mode": "cards"}, hands=2, play_every=3),
        play("kali_tidi", {"players": 4, "team_sizes": [1, 3], "trump_card": "three_of_spades"}, play_every=3),
        play("kali_tidi", {"players": 5, "team_mode": "random"}, play_every=5),
        play("kali_tidi", {"players": 6, "team_mode": "cards", "partner_rule": "last"}, play_every=6),
        play("kali_tidi", {"players": 7, "team_mode": "cards", "trump_card": "three_of_spades"}, play_every=7),
    ]


# Draws each case with a fresh TableView and clicks everything it offers, recording the
# actions the controls submit (ctx.act) instead of sending them.
RENDER_AND_CLICK = """
async ([key, cases]) => {
    const { TableView, isTemplate } = await import("/static/web/table.js");
    const { gameModule } = await import("/static/web/games/index.js");
    const game = gameModule(key);
    const root = document.createElement("div");
    document.body.append(root);
    // "Claim the rest" asks first; here every question is answered yes.
    window.confirm = () => true;
    const results = [];
    const tick = () => new Promise((r) => setTimeout(r, 0));
    for (const c of cases) {
        const acted = [];
        let wake = null;
        const extras = { catalogue: { name: key, module: game }, events: [], rounds: c.rounds, liveStatus: "live" };
        const ctx = {
            game,
            room: c.room,
            act: (a) => { acted.push(JSON.parse(JSON.stringify(a))); wake?.(); },
            rerender: () => tv.render(root, c.view, extras),
        };
        const tv = new TableView(ctx);
        tv.render(root, c.view, extras);
        await tick();  // a popup choice opens by itself
        const dialog = document.querySelector("dialog.choose");
        const text = root.textContent + " " + (dialog?.textContent ?? "") + " " +
            [...root.querySelectorAll("[aria-label]")].map((e) => e.getAttribute("aria-label")).join(" ");
        const labels = Object.fromEntries(
            [...root.querySelectorAll(".hand button")].map((b) => [b.dataset.code, b.getAttribute("aria-label")]));
        const legal = c.view.you?.legal_actions ?? [];
        // Popup templates: pick the first `count` choices, confirm.
        if (dialog) {
            const template = legal.find((a) => isTemplate(a) && root.querySelector(`[data-action=open-${a.type}]`));
            const pieces = [...dialog.querySelectorAll(".piece")];
            for (const p of pieces.slice(0, template ? template.count : 0)) p.click();
            const done = new Promise((r) => { wake = r; setTimeout(r, 2000); });
            dialog.querySelector("button[value=ok]").click();
            await done;
            wake = null;
            document.querySelectorAll("dialog.choose").forEach((d) => d.remove());
        }
        // A template over the hand: tap the first `count` cards (each tap redraws), confirm.
        const handTemplate = legal.find((a) => isTemplate(a) && root.querySelector(`.actions [data-action=${a.type}]`));
        if (handTemplate) {
            for (let i = 0; i < handTemplate.count; i++) {
                root.querySelectorAll(".hand button:not([disabled]):not([aria-pressed=true])")[0]?.click();
            }
            root.querySelector(`.actions [data-action=${handTemplate.type}]`)?.click();
        } else {
            // A tap that only raises its piece (a choice the game asks about first, as
            // Moon's widow discard) is confirmed by the button after the hand.
            for (const b of root.querySelectorAll(".hand button:not([disabled])")) {
                b.click();
                root.querySelector(".hand-area [data-action=confirm-move]")?.click();
            }
        }
        for (const b of root.querySelectorAll(".actions button:not([disabled])")) {
            const focus = b.dataset.focus ?? "";
            if (/^(open-|go-|confirm-template|clear-template)/.test(focus)) continue;
            b.click();
        }
        for (const select of root.querySelectorAll(".actions select")) {
            for (const option of select.options) {
                select.value = option.value;
                select.nextElementSibling.click();
            }
        }
        results.push({ acted, text, labels });
        root.replaceChildren();
    }
    root.remove();
    return results;
}
"""

DESCRIBE = """
async ([key, events, names]) => {
    const { eventText } = await import("/static/web/table.js");
    const { gameModule } = await import("/static/web/games/index.js");
    const game = gameModule(key);
    return events.map((e) => eventText(game, e, names));
}
"""


def engine_trumps(key: str, state: dict[str, Any], codes: list[str]) -> set[str]:
    trump = state.get("trump")
    if key == "kali_tidi" and trump is not None:
        return {c for c in codes if kali.suit_of(state, c) == trump}
    if key == "moon" and trump is not None:
        return {t for t in codes if dominoes.is_trump(t, trump)}
    return set()


def check(page: Any, played: Played) -> int:
    """Runs the cases of one match in the page; returns how many were checked."""
    game = rules.get(played.key)
    room = {"code": "CONTRACT", "game": played.key, "options": played.options, "host": "user0"}
    rounds: list[dict[str, Any]] = []
    payload = []
    for case in played.cases:
        last = case.view.get("last_round")
        if last and not any(r["round"] == last["round"] for r in rounds):
            rounds.append(dict(last))
        payload.append({"view": case.view, "room": room, "rounds": list(rounds)})
    results = page.evaluate(RENDER_AND_CLICK, [played.key, payload])
    problems: list[str] = []
    for case, result in zip(played.cases, results, strict=True):
        where = f"{played.key} {played.options} {case.view['phase']} seat {case.seat} v{case.view['version']}"
        bad = re.findall(BAD_WORDS, result["text"])
        if bad:
            problems.append(f"{where}: the page reads {bad}")
        legal = game.legal_actions(case.state, case.seat) if case.seat is not None else []
        offered = result["acted"]
        if case.seat is None or not legal:
            if offered:
                problems.append(f"{where}: offers {offered} to someone who may not act")
        for action in offered:
            try:
                game.apply(case.state, case.seat, action)
            except RuleError as err:
                # A claim is offered at every turn of trick play; the engine proves it or
                # says it is not certain, which the page shows as any refusal.
                if not (action.get("type") == "claim" and err.code == "claim_not_certain"):
                    problems.append(f"{where}: offers {action}, which the engine refuses: {err.code}")
        shown = {json.dumps(a, sort_keys=True) for a in offered}
        for action in legal:
            if "choices" in action:
                if not any(a["type"] == action["type"] for a in offered):
                    problems.append(f"{where}: no way to make the choice {action['type']}")
            elif json.dumps(action, sort_keys=True) not in shown:
                problems.append(f"{where}: {action} is legal but not offered")
        labels = result["labels"]
        marked = {code for code, label in labels.items() if label.endswith(", trump")}
        expected = engine_trumps(played.key, case.state, list(labels))
        if marked != expected:
            problems.append(f"{where}: trumps marked {sorted(marked)}, the engine's are {sorted(expected)}")
        # The hand is sorted with the trumps together (the trump card among them).
        order = "".join("T" if code in expected else "." for code in labels)
        if expected and len(re.findall("T+", order)) != 1:
            problems.append(f"{where}: trumps not together in the hand: {list(labels)}")
    assert not problems, "\n".join(problems[:30])
    return len(results)


def check_events(page: Any, key: str, events: list[dict[str, Any]]) -> None:
    names = ["You", "Player 2", "Computer 3", "Player 4", "Computer 5", "Player 6", "Computer 7"]
    # The log reads events as GET events answers them: with seq, round, version and time.
    shaped = [{"seq": i + 1, "round": 1, "version": i, "at": "2026-01-01T00:00:00Z", **e} for i, e in enumerate(events)]
    texts = page.evaluate(DESCRIBE, [key, shaped, names])
    problems = []
    for event, text in zip(shaped, texts, strict=True):
        if text is None:
            problems.append(f"{key}: no words for {event['type']}: {event}")
        elif text == "" and event["type"] not in SILENT:
            problems.append(f"{key}: {event['type']} is left out of the log: {event}")
        elif re.search(BAD_WORDS, text):
            problems.append(f"{key}: {event['type']} reads {text!r}")
    assert not problems, "\n".join(sorted(set(problems))[:30])


# The games with scenes of their own above (a moon shot, a funky pass, a called partner);
# any other game plays its profile's match variants (tests/game_params.py).
SCENES = {"hearts": hearts_matches, "moon": moon_matches, "kali_tidi": kali_matches}


def matches_of(key: str) -> list[Played]:
    if key in SCENES:
        return SCENES[key]()
    return [play(key, options, hands=2, play_every=2) for options in match_variants(rules.get(key)).values()]


@pytest.mark.parametrize("key", game_params())
def test_the_client_draws_every_view_the_engine_sends_and_offers_exactly_the_legal_moves(open_page, key):
    matches = matches_of(key)
    page = open_page(width=1280, height=900)
    page.goto("/")
    page.get_by_role("tab", name="Log in").wait_for()
    checked = sum(check(page, played) for played in matches)
    assert checked > 100
    for played in matches:
        check_events(page, played.key, played.events)


@pytest.fixture
def server_events(transactional_db, make_user) -> dict[str, list[dict[str, Any]]]:
    """What the server itself logs around the games: seats, teams, hosts, the start, time-outs,
    abandonment, moderation, a rematch. Made before the browser starts (the ORM runs here)."""
    ann, ben, cleo = make_user("ann"), make_user("ben"), make_user("cleo")
    kali_room = lobby.room_create(host=ann, game="kali_tidi", options={"players": 4})
    lobby.room_join(code=kali_room.code, user=ben, team=1)
    lobby.room_join(code=kali_room.code, user=ben, team=0)
    lobby.room_join(code=kali_room.code, user=cleo)
    lobby.room_leave(code=kali_room.code, user=cleo)
    lobby.room_leave(code=kali_room.code, user=ann)  # ben is the host now
    lobby.room_join(code=kali_room.code, user=cleo)
    table_moderation.seat_remove(code=kali_room.code, user=cleo, reason="spamming the lobby")
    lobby.room_join(code=kali_room.code, user=cleo)
    table_moderation.seat_remove(code=kali_room.code, user=cleo, reason="cheating", banned=True)
    lobby.room_join(code=kali_room.code, user=ann, team=1)
    lobby.room_join(code=kali_room.code, user=cleo)
    lobby.room_add_bot(code=kali_room.code, user=ben)
    lobby.room_start(code=kali_room.code, user=ben)
    # Two of the three people lose their seats; with one left the match waits for them.
    humans = sorted(kali_room.seats.filter(user__isnull=False).values_list("index", flat=True))
    table_moderation.seat_give_to_bot(code=kali_room.code, index=humans[0], reason="asked to leave")
    table_moderation.seat_give_to_bot(code=kali_room.code, index=humans[1], reason="cheating", banned=True)
    table_moderation.room_close(code=kali_room.code, reason="testing the log")

    hearts_room = lobby.room_create(host=cleo, game="hearts", options={})
    for _ in range(3):
        lobby.room_add_bot(code=hearts_room.code, user=cleo)
    lobby.room_start(code=hearts_room.code, user=cleo)
    room = Room.objects.get(code=hearts_room.code)
    start = room.started_at
    assert due.due_actions_apply(code=room.code, now=start + timedelta(seconds=90))  # cleo's pass times out
    assert due.due_actions_apply(code=room.code, now=timezone.now() + timedelta(hours=2))  # and she is gone
    rematch.rematch_agree(code=room.code, user=cleo)  # the only person seated: her rematch starts at once
    out = {}
    for code, user in ((kali_room.code, ben), (hearts_room.code, cleo)):
        room = Room.objects.get(code=code)
        out[room.game] = selectors.events_for(
            room=room, seat=selectors.seat_index_of(room=room, user=user), limit=10_000
        )
    types = {e["type"] for events in out.values() for e in events}
    expected = {"room_created", "joined", "team_changed", "left", "host_changed", "bot_added", "started"}
    expected |= {"round_started", "seat_to_bot", "removed", "closed", "timed_out", "abandoned"}
    expected |= {"rematch_agreed", "rematch"}
    assert expected <= types, expected - types
    return out


def test_the_log_has_words_for_what_the_server_itself_records(server_events, open_page):
    page = open_page(width=1280, height=900)
    page.goto("/")
    page.get_by_role("tab", name="Log in").wait_for()
    for key, events in server_events.items():
        check_events(page, key, events)
    # A moderator's doing reads with the moderator's reason, and says whether it was a ban.
    moderated = [e for e in server_events["kali_tidi"] if e.get("reason") and e["type"] in ("seat_to_bot", "removed")]
    assert len(moderated) == 4
    texts = page.evaluate(DESCRIBE, ["kali_tidi", moderated, ["You", "Ben", "Computer 3", "Computer 4"]])
    for event, line in zip(moderated, texts, strict=True):
        assert event["reason"] in line and ("banned" in line) == bool(event.get("banned")), (event, line)
    # Cleo's own time-out and abandonment are said to her.
    names = ["You", "Computer 2", "Computer 3", "Computer 4"]
    lines = page.evaluate(DESCRIBE, ["hearts", server_events["hearts"], names])
    assert "You ran out of time." in lines, lines
    assert "You did not play in time; the match was abandoned." in lines, lines
    # Her rematch too; another reader sees her name.
    assert lines[-2:] == ["You want a rematch.", "The rematch has started."], lines
    others = page.evaluate(
        DESCRIBE, ["hearts", server_events["hearts"][-2:], ["Cleo", "Computer 2", "Computer 3", "Computer 4"]]
    )
    assert others == ["Cleo wants a rematch.", "The rematch has started."], others
