"""The actions endpoint against arbitrary bodies (Hypothesis), through gunicorn.

Each example sends one body for one seat of a four-player Hearts table and holds the
answer to the engine, run here on the state the database held just before:

- never a 5xx, and every refusal in the error shape;
- a 200 only for a legal action at the room's version, and the action log then ends
  with exactly that action;
- a refusal changes nothing (the room, its rounds, its action and event logs);
- a clean body (exactly `version` and an `action` object, in bounds) is accepted if and
  only if the engine accepts its action.

Bodies range from legal actions, as is or bent (a field added, replaced or dropped, the
type changed), through arbitrary JSON (control characters, lone surrogates, huge and
non-finite numbers, nesting), to bytes that are not JSON at all. Legal moves do happen,
so the table walks through the hand while the noise hits it.
"""

from __future__ import annotations

import json
import random
from typing import Any

from django.conf import settings as django_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from api.error_catalogue import ERROR_CODES
from api.parsers import check_parsed
from games import rules
from games.models import Action, Room, Round
from games.rules.errors import RuleError
from tests.api.helpers import concrete

from .support import Table, assert_error_shape, snapshot

GAME = rules.get("hearts")
ACTION_TYPES = ["pass_cards", "play", "moon_choice", "next_round", "bid", "pass", "trump", "widow", "remove_cards"]
FIELDS = ["type", "cards", "card", "to", "choice", "value", "suit", "tile", "take", "discard", "pad"]
SPECIAL = ["", "\x00", "a\x00b", "\x1b[2J", "\x85", "\udc00", "\ud83c", "2C\x00", "QS", "2C", "AH", "\u202e", "٣"]

TEXT = st.one_of(
    st.sampled_from(SPECIAL),
    st.text(st.characters(exclude_categories=()), max_size=8),
    st.sampled_from(FIELDS + ACTION_TYPES),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(),  # NaN and the infinities included: json.dumps writes them, as no JSON has them
    TEXT,
)
JSON = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(TEXT, children, max_size=4),
    max_leaves=12,
)


# What one example does, drawn whole before it looks at the table: the draws never depend
# on the room's state (which moves between examples), only their use does.
PLANS = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["near_legal"] * 10 + ["any_action"] * 2 + ["any_json", "bytes", "nested"]),
        "seed": st.integers(min_value=0, max_value=2**32),
        "seat_to_act": st.integers(min_value=0, max_value=4).map(bool),
        "bend": st.sampled_from(["as_is"] * 5 + ["add", "replace", "drop", "retype"]),
        "key": TEXT,
        "value": JSON,
        "new_type": st.one_of(st.sampled_from(ACTION_TYPES), JSON),
        "any_action": st.dictionaries(st.sampled_from(FIELDS) | TEXT, JSON, max_size=4) | JSON,
        "version": st.sampled_from(["current"] * 4 + ["next", "previous", "text", "json"]),
        "junk_version": JSON,
        "bytes": st.binary(max_size=64),
        "depth": st.integers(min_value=1, max_value=40),
    }
)


def bent(action: dict[str, Any], plan: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The action as is (often), or with one thing about it changed."""
    action = dict(action)
    keys = sorted(k for k in action if k != "type")
    if plan["bend"] == "add":
        action[plan["key"]] = plan["value"]
    elif plan["bend"] == "replace" and keys:
        action[rng.choice(keys)] = plan["value"]
    elif plan["bend"] == "drop" and keys:
        del action[rng.choice(keys)]
    elif plan["bend"] == "retype":
        action["type"] = plan["new_type"]
    return action


def request_body(plan: dict[str, Any], state: dict[str, Any], seat: int, version: int) -> bytes:
    rng = random.Random(plan["seed"])
    kind = plan["kind"]
    if kind == "bytes":
        return plan["bytes"]
    if kind == "nested":
        return (rng.choice(["[", '{"a":']) * plan["depth"]).encode()
    if kind == "any_json":
        return json.dumps(plan["value"]).encode()
    # Another seat's legal actions, when this one has none: the wrong player trying them.
    to_act = GAME.to_act(state)
    legal = GAME.legal_actions(state, seat) or (GAME.legal_actions(state, to_act[0]) if to_act else [])
    if kind == "near_legal" and legal:
        action: Any = bent(concrete(rng.choice(legal), rng), plan, rng)
    else:
        action = plan["any_action"]
    versions = {"current": version, "next": version + 1, "previous": version - 1, "text": str(version)}
    return json.dumps({"version": versions.get(plan["version"], plan["junk_version"]), "action": action}).encode()


def _parsed(body: bytes) -> Any:
    try:
        return json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError):
        return None


def _engine_accepts(state: dict[str, Any], seat: int, action: Any) -> bool:
    try:
        GAME.apply(state, seat, action)
    except RuleError:
        return False
    return True


def _clean(body: bytes, parsed: Any, version: int) -> bool:
    """A body every layer before the engine lets through: exactly a current `version`
    and an `action` object, within the limits, holding nothing the parser refuses."""
    if len(body) > django_settings.API_MAX_ACTION_BYTES or not isinstance(parsed, dict):
        return False
    if set(parsed) != {"version", "action"} or not isinstance(parsed["action"], dict):
        return False
    if type(parsed["version"]) is not int or parsed["version"] != version:
        return False
    try:
        check_parsed(parsed, django_settings.API_MAX_JSON_DEPTH)
    except ValidationError:
        return False
    return True


@settings(
    max_examples=400,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(plan=PLANS)
def test_arbitrary_bodies_never_5xx_and_change_nothing_unless_legal(table: Table, plan: dict[str, Any]) -> None:
    room = Room.objects.get(code=table.code)
    if room.status != "playing":
        return
    state = Round.objects.filter(room=room).order_by("-number").first().state
    to_act = GAME.to_act(state)
    seat = random.Random(plan["seed"]).choice(to_act if to_act and plan["seat_to_act"] else range(4))
    body = request_body(plan, state, seat, room.version)
    before = snapshot(table.code)
    last_action = Action.objects.filter(round__room=room).order_by("-id").values_list("id", flat=True).first()

    res = table.clients[seat].post(table.path("actions"), content=body, headers={"Content-Type": "application/json"})

    assert res.status_code < 500, (body[:300], res.text[:300])
    parsed = _parsed(body)
    action = parsed.get("action") if isinstance(parsed, dict) else None
    if res.status_code == 200:
        assert isinstance(action, dict), body[:300]
        assert _engine_accepts(state, seat, action), (body[:300], "accepted an illegal action")
        assert int(parsed["version"]) == before["room"][0]
        mine = Action.objects.filter(round__room=room, id__gt=last_action or 0).order_by("id").first()
        assert (mine.seat, mine.payload) == (seat, action)
        return
    assert 400 <= res.status_code < 500
    assert assert_error_shape(res)["code"] in ERROR_CODES, res.text[:300]
    assert snapshot(table.code) == before, body[:300]
    if _clean(body, parsed, before["room"][0]):
        assert not _engine_accepts(state, seat, action), (body[:300], res.text[:300], "refused a legal action")
