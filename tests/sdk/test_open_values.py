"""Each generated client parses values the document does not list without raising, and
keeps what it knows: a game, a view `status`, a phase, a legal action's `type`, an event
`type`, an error `type` and code that a later v1 may add, and properties it does not
name. Where a client raises, the document closes that value: the failure names the
operation and the value, for the document to open it (`x-open`, docs/api/openapi.md, "Open values")."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
from types import ModuleType
from typing import Any

import httpx

ROOM = {
    "code": "ABCDEF",
    "version": 3,
    "status": "playing",
    "status_reason": "",
    "status_cause": None,
    "deadline": None,
    "abandon_deadline": None,
    "rematch": None,
    "fairness": None,
}
SEAT = {
    "user": None,
    "display_name": "Bot",
    "is_bot": True,
    "team": None,
    "client_seed": "",
    "cards_left": 13,
    "tricks_taken": 0,
    "points_taken": 0,
    "passed": False,
    "ready": False,
}
HEARTS = {
    **ROOM,
    "game": "hearts",
    "phase": "auction",  # a phase Hearts does not have yet
    "round": 1,
    "dealer": 0,
    "to_act": [0],
    "seats": [{**SEAT, "seat": s} for s in range(4)],
    "trick": [],
    "trump": None,
    "bid": None,
    "scores": [0, 0, 0, 0],
    "last_round": None,
    "pass_direction": None,
    "led_suit": None,
    "tricks_played": 0,
    "last_trick": None,
    "hearts_broken": False,
    "moon_shooter": None,
    "you": {
        "seat": 0,
        "hand": ["2C"],
        # An action type Hearts does not have yet, beside a known one.
        "legal_actions": [{"type": "bid", "value": 3}, {"type": "play", "card": "2C"}],
        "pass_chosen": None,
        "received": None,
    },
    "added_later": {"any": "thing"},
}
ENVELOPE = {"seq": 1, "round": 1, "version": 2, "at": "2026-11-27T12:00:00Z"}


def _parse(sdk: ModuleType, tag: str, operation: str, status: int, body: Any) -> Any:
    """What the generated client makes of an answer, without a server: its own parser."""
    module = importlib.import_module(f"gameserver_client.generated.api.{tag}.{operation}")
    client = sdk.generated.AuthenticatedClient(base_url="http://testserver", token="unused")
    try:
        return module._parse_response(client=client, response=httpx.Response(status, json=body))
    except Exception as error:
        raise AssertionError(
            f"the generated Python client raises on {operation} {status} with a value the document does not "
            f"list ({type(error).__name__}: {error}): the document closes it; open it (x-open)"
        ) from error


def test_the_python_client_keeps_what_a_later_v1_adds(sdk: ModuleType) -> None:
    sdk.generated = importlib.import_module("gameserver_client.generated")
    # A game this client does not know.
    other = _parse(sdk, "rooms", "rooms_state_retrieve", 200, {**ROOM, "game": "skat", "phase": "reizen"})
    assert (str(other.game), str(other.phase)) == ("skat", "reizen")
    # A status the document does not list.
    paused = _parse(sdk, "rooms", "rooms_state_retrieve", 200, {**HEARTS, "status": "paused"})
    assert str(paused.status) == "paused", "RoomStatus: an unknown status is not kept"
    view = _parse(sdk, "rooms", "rooms_state_retrieve", 200, HEARTS)
    assert str(view.game) == "hearts" and str(view.phase) == "auction"
    unknown, play = view.you.legal_actions
    assert unknown.type_ == "bid" and unknown.to_dict()["value"] == 3
    assert play.type_ == "play" and play.card == "2C"
    assert view.to_dict()["added_later"] == {"any": "thing"}, "an extra property is dropped"
    # An error type and code added later: handled by the status, kept as sent.
    error = {"type": "teapot_error", "errors": [{"code": "some_new_code", "detail": "New.", "attr": None}]}
    answer = _parse(sdk, "rooms", "rooms_actions_create", 409, error)
    assert str(answer.type_) == "teapot_error" and answer.errors[0].code == "some_new_code"
    # An event type added later, beside a known one, with a property the known one lacks.
    events = _parse(
        sdk,
        "rooms",
        "rooms_events_list",
        200,
        [{**ENVELOPE, "type": "auction_won", "seat": 2}, {**ENVELOPE, "seq": 2, "type": "started", "new": 1}],
    )
    assert [str(event.type_) for event in events] == ["auction_won", "started"]
    assert events[0].to_dict()["seat"] == 2 and events[1].to_dict()["new"] == 1


OPEN_VALUES_TS = """
import type { paths } from "./generated/schema.js";
import { isEvent, isGameView } from "./narrow.js";
type View = paths["/api/v1/rooms/{code}/state"]["get"]["responses"][200]["content"]["application/json"];
type Event = paths["/api/v1/rooms/{code}/events"]["get"]["responses"][200]["content"]["application/json"][number];
type Conflict = paths["/api/v1/rooms/{code}/actions"]["post"]["responses"][409]["content"]["application/json"];
export const game: View["game"] = "skat";
export const phase: View["phase"] = "reizen";
export const status: View["status"] = "paused";
export const event: Event["type"] = "auction_won";
export const code: Conflict["errors"][number]["code"] = "some_new_code";
// The guards narrow past the fallbacks to the game's and the type's own fields.
export function cardOf(view: View, event: Event): string | null {
  const game: "hearts" | null = isGameView(view, "hearts") ? view.game : null;
  return game && isEvent(event, "play") && "card" in event ? event.card : null;
}
"""

# The negative control: tsc must refuse each line marked `refused`, and only those, so the
# check of OPEN_VALUES_TS cannot pass for types that say nothing.
MUST_FAIL_TS = """
import type { paths } from "./generated/schema.js";
import { isGameView } from "./narrow.js";
type ActionRequest = paths["/api/v1/rooms/{code}/actions"]["post"]["requestBody"]["content"]["application/json"];
export const right: ActionRequest = { version: 3, action: { type: "play", card: "QS" } };
export const versionAsText: ActionRequest = { version: "3", action: { type: "play", card: "QS" } }; // refused
export const noSuchAction: ActionRequest = { version: 3, action: { type: "fly" } }; // refused
type View = paths["/api/v1/rooms/{code}/state"]["get"]["responses"][200]["content"]["application/json"];
export function gameOf(view: View): "moon" | null {
  if (!isGameView(view, "hearts")) return null;
  const game: "moon" = view.game; // refused
  return game;
}
"""
# tsc's diagnostics without colours: `src/file.ts(line,column): error TS1234: message`.
DIAGNOSTIC = re.compile(r"src/(?P<file>[\w.]+)\((?P<line>\d+),\d+\): error (?P<code>TS\d+): ")


def test_the_typescript_types_take_what_a_later_v1_adds_and_refuse_what_v1_refuses(built_sdk: Any) -> None:
    """The TypeScript SDK's generated types: a value v1 may add type-checks; a request the
    document does not allow does not."""
    folder = built_sdk.typescript
    sources = {"open_values.ts": OPEN_VALUES_TS, "must_fail.ts": MUST_FAIL_TS}
    for name, text in sources.items():
        (folder / "src" / name).write_text(text)
    try:
        out = subprocess.run(
            [str(folder / "node_modules" / ".bin" / "tsc"), "-p", "tsconfig.json", "--noEmit", "--pretty", "false"],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        for name in sources:
            (folder / "src" / name).unlink()
    errors: dict[str, dict[int, list[str]]] = {name: {} for name in sources}
    for line in out.stdout.splitlines():
        if match := DIAGNOSTIC.match(line):
            errors[match["file"]].setdefault(int(match["line"]), []).append(match["code"])
        elif line.strip() and not line.startswith(" "):
            raise AssertionError(f"tsc said more than errors in these files:\n{out.stdout}{out.stderr}")
    assert not errors["open_values.ts"], (
        f"the TypeScript types refuse values the document should leave open: {out.stdout}"
    )
    marked = {n for n, line in enumerate(MUST_FAIL_TS.splitlines(), 1) if line.endswith("// refused")}
    assert set(errors["must_fail.ts"]) == marked, f"tsc's errors {out.stdout}, expected on the lines {sorted(marked)}"
    assert all(codes == ["TS2322"] for codes in errors["must_fail.ts"].values()), out.stdout
    assert json.loads((folder / "package.json").read_text())["name"] == "gameserver-client"
