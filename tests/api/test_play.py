"""Hearts over HTTP alone: whole matches, bots, illegal moves, privacy."""

import random

import pytest

from games.rules.cards import deck

from .helpers import act, concrete, error_code, errors, play_one, play_to_end, state

pytestmark = pytest.mark.django_db


def all_cards_in(obj) -> set[str]:
    found: set[str] = set()
    if isinstance(obj, str):
        if obj in set(deck()):
            found.add(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            found |= all_cards_in(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= all_cards_in(v)
    return found


def test_four_humans_play_a_whole_match_over_http(hearts_table, api_client, make_user):
    code, clients, _ = hearts_table({"target": 50})
    final = play_to_end(clients, code, seed=1)
    assert final["status"] == "finished"
    assert final["phase"] == "match_over"
    assert max(final["scores"]) >= 50
    summary = clients[0].get(f"/api/v1/rooms/{code}/rounds").json()
    assert len(summary) >= 2
    assert summary[-1]["scores"] == final["scores"]
    assert summary[-1]["match_over"] is True
    assert summary[-1]["winners"] == [s for s, v in enumerate(final["scores"]) if v == min(final["scores"])]
    # Every hand's totals are the running sum of its points.
    running = [0, 0, 0, 0]
    for hand in summary:
        running = [a + b for a, b in zip(running, hand["points"], strict=True)]
        assert hand["scores"] == running
    # Nothing is accepted once the match is over.
    res = act(clients[0], code, final["version"], {"type": "next_round"})
    assert res.status_code == 409 and error_code(res) == "not_playing"
    room = api_client(make_user()).get(f"/api/v1/rooms/{code}/").json()
    assert room["status"] == "finished" and room["scores"] == final["scores"]


def test_three_humans_and_a_bot_finish_a_hand(hearts_table):
    code, clients, _ = hearts_table(humans=3)
    rng = random.Random(7)
    view = state(clients[0], code)
    assert view["seats"][3]["is_bot"] is True
    # The bot passed at once: only the humans are awaited.
    assert sorted(view["to_act"]) == [0, 1, 2]
    while state(clients[0], code)["phase"] != "round_over":
        view = play_one(clients, code, rng)
        # After a human move the bot has already answered: a human is always to act next.
        if view["phase"] in ("play", "pass"):
            assert any(s in clients for s in view["to_act"])
    view = state(clients[0], code)
    last = view["last_round"]
    # 26 points a hand, or 3 x 26 when someone shot the moon (random deals: it happens).
    assert last is not None and sum(last["points"]) == (26 if last["moon"] is None else 78)
    assert 3 not in view["to_act"]  # the bot is ready for the next hand already
    for seat in (0, 1, 2):
        mine = state(clients[seat], code)
        assert act(clients[seat], code, mine["version"], {"type": "next_round"}).status_code == 200
    view = state(clients[0], code)
    assert view["round"] == 2 and view["phase"] == "pass" and view["pass_direction"] == "right"


def test_illegal_and_malformed_actions_change_nothing(hearts_table):
    code, clients, _ = hearts_table()
    before = state(clients[0], code)
    events_before = clients[0].get(f"/api/v1/rooms/{code}/events").json()
    hand = before["you"]["hand"]
    not_mine = next(c for c in deck() if c not in hand)
    cases = [
        ({"type": "pass_cards", "cards": hand[:2]}, 400, "wrong_count"),
        ({"type": "pass_cards", "cards": [hand[0], hand[0], hand[1]]}, 400, "bad_pass"),
        ({"type": "pass_cards", "cards": [not_mine, hand[0], hand[1]]}, 400, "card_not_in_hand"),
        ({"type": "play", "card": hand[0]}, 409, "wrong_phase"),
        ({"type": "fly"}, 400, "unknown_action"),
        ({"card": "2C"}, 400, "unknown_action"),
        ({"type": "pass_cards", "cards": "QS AH KH"}, 400, "bad_pass"),
    ]
    for action, status, code_ in cases:
        res = act(clients[0], code, before["version"], action)
        assert (res.status_code, error_code(res)) == (status, code_), action
    # A standard pass names no seats: `to`, in either form of the funky pass, is refused.
    for to in ([1, 2, 3], {"1": hand[0], "2": hand[1], "3": hand[2]}):
        res = act(clients[0], code, before["version"], {"type": "pass_cards", "cards": hand[:3], "to": to})
        assert (res.status_code, errors(res)) == (400, [("bad_pass", "cards")]), to
    malformed = [
        ({"version": "x", "action": {"type": "next_round"}}, "invalid", "version"),
        # The document says integer: the current version written as text is refused too.
        ({"version": str(before["version"]), "action": {"type": "next_round"}}, "invalid", "version"),
        ({"action": {"type": "next_round"}}, "required", "version"),
        ({"version": before["version"], "action": "play 2C"}, "not_a_dict", "action"),
    ]
    for body, code_, attr in malformed:
        res = clients[0].post(f"/api/v1/rooms/{code}/actions", body, format="json")
        assert res.status_code == 400 and res.json()["type"] == "validation_error"
        assert (res.json()["errors"][0]["code"], res.json()["errors"][0]["attr"]) == (code_, attr)
    res = clients[0].post(f"/api/v1/rooms/{code}/actions", data="{", content_type="application/json")
    assert res.status_code == 400 and error_code(res) == "parse_error"
    stale = act(clients[0], code, before["version"] - 1, {"type": "pass_cards", "cards": hand[:3]})
    assert stale.status_code == 409 and error_code(stale) == "stale_version"
    after = state(clients[0], code)
    assert after == before
    assert clients[0].get(f"/api/v1/rooms/{code}/events").json() == events_before


def test_play_phase_errors(hearts_table):
    code, clients, _ = hearts_table()
    for seat in range(4):
        mine = state(clients[seat], code)
        assert act(clients[seat], code, mine["version"], concrete(mine["you"]["legal_actions"][0])).status_code == 200
    view = state(clients[0], code)
    assert view["phase"] == "play"
    leader = view["to_act"][0]
    other = (leader + 1) % 4
    mine = state(clients[other], code)
    res = act(clients[other], code, mine["version"], {"type": "play", "card": mine["you"]["hand"][0]})
    assert res.status_code == 409 and error_code(res) == "not_your_turn"
    lead = state(clients[leader], code)
    assert "2C" in lead["you"]["hand"]
    assert lead["you"]["legal_actions"] == [{"type": "play", "card": "2C"}]
    wrong = next(c for c in lead["you"]["hand"] if c != "2C")
    res = act(clients[leader], code, lead["version"], {"type": "play", "card": wrong})
    assert res.status_code == 400 and error_code(res) == "must_lead_two_of_clubs"
    assert act(clients[leader], code, lead["version"], {"type": "play", "card": "2C"}).status_code == 200
    nxt = state(clients[other], code)
    clubs = [c for c in nxt["you"]["hand"] if c.endswith("C")]
    if clubs and len(clubs) < len(nxt["you"]["hand"]):
        off = next(c for c in nxt["you"]["hand"] if not c.endswith("C"))
        res = act(clients[other], code, nxt["version"], {"type": "play", "card": off})
        assert res.status_code == 400 and error_code(res) == "must_follow_suit"


def test_not_seated_and_spectator_view(hearts_table, api_client, make_user):
    code, _, _ = hearts_table()
    outsider = api_client(make_user())
    res = act(outsider, code, 0, {"type": "next_round"})
    assert res.status_code == 403 and error_code(res) == "not_seated"
    view = state(outsider, code)
    assert "you" not in view
    assert all_cards_in(view) == set()
    assert all_cards_in(outsider.get(f"/api/v1/rooms/{code}/events").json()) == set()


def test_passed_cards_are_seen_only_by_passer_and_receiver(hearts_table):
    code, clients, _ = hearts_table()
    chosen = {}
    for seat in range(4):
        mine = state(clients[seat], code)
        chosen[seat] = mine["you"]["hand"][:3]
        assert (
            act(clients[seat], code, mine["version"], {"type": "pass_cards", "cards": chosen[seat]}).status_code == 200
        )
        if seat == 0:
            # Before everyone chose, nobody else can see seat 0's choice anywhere.
            for other in (1, 2, 3):
                seen = all_cards_in(state(clients[other], code)) | all_cards_in(
                    clients[other].get(f"/api/v1/rooms/{code}/events").json()
                )
                assert not set(chosen[0]) & (seen - set(state(clients[other], code)["you"]["hand"]))
    # Hand 1 passes left: seat s gives to s+1.
    for seat in range(4):
        events = clients[seat].get(f"/api/v1/rooms/{code}/events").json()
        hand = state(clients[seat], code)["you"]["hand"]
        assert set(chosen[(seat - 1) % 4]) <= set(hand)
        visible = all_cards_in(events)
        allowed = set(chosen[seat]) | set(chosen[(seat - 1) % 4]) | set(hand)
        assert visible <= allowed, visible - allowed


def test_the_funky_pass_over_http_as_cards_and_to_or_as_a_map(hearts_table):
    """Hand 4 passes funky: `cards` with `to` (cards[i] to seat to[i], the seats in any
    order), or the map of seat to card v1 clients send; what the view shows is the same."""
    code, clients, _ = hearts_table({"fourth_hand": "funky", "target": 500}, humans=2)
    rng = random.Random(2)
    for _ in range(400):
        view = state(clients[0], code)
        if view["round"] == 4 and view["phase"] == "pass":
            break
        play_one(clients, code, rng)
    else:
        raise AssertionError("hand 4 was not reached")
    mine = state(clients[0], code)
    hand = mine["you"]["hand"]
    (legal,) = mine["you"]["legal_actions"]
    assert legal == {"type": "pass_cards", "count": 3, "choices": hand, "to": [1, 2, 3]}
    not_mine = next(c for c in deck() if c not in hand)
    picked = [hand[0], hand[5], hand[12]]
    refusals = [
        ({"cards": picked, "to": [0, 1, 2]}, ("bad_pass", "to")),
        ({"cards": picked, "to": [1, 1, 2]}, ("bad_pass", "to")),
        ({"cards": picked, "to": [1, 2]}, ("wrong_count", "to")),
        ({"cards": picked, "to": [1, 2, "3"]}, ("bad_pass", "to")),
        ({"cards": picked, "to": [1, 2, 3.5]}, ("bad_pass", "to")),
        ({"cards": picked, "to": [True, 2, 3]}, ("bad_pass", "to")),
        ({"cards": picked}, ("bad_pass", "to")),
        ({"cards": picked[:2], "to": [1, 2, 3]}, ("wrong_count", "cards")),
        ({"cards": [picked[0], picked[0], picked[1]], "to": [1, 2, 3]}, ("bad_pass", "cards")),
        ({"cards": [picked[0], picked[1], not_mine], "to": [1, 2, 3]}, ("card_not_in_hand", "cards")),
        ({"cards": picked, "to": {"1": picked[0], "2": picked[1], "3": picked[2]}}, ("bad_pass", "to")),
    ]
    for fields, expected in refusals:
        res = act(clients[0], code, mine["version"], {"type": "pass_cards", **fields})
        assert (res.status_code, errors(res)) == (400, [expected]), fields
    assert state(clients[0], code) == mine

    res = act(clients[0], code, mine["version"], {"type": "pass_cards", "cards": picked, "to": [3, 1, 2]})
    assert res.status_code == 200, res.content
    aimed = {3: picked[0], 1: picked[1], 2: picked[2]}
    assert res.json()["you"]["pass_chosen"] == {str(s): aimed[s] for s in (1, 2, 3)}
    theirs = state(clients[1], code)
    old_form = dict(zip(("0", "2", "3"), theirs["you"]["hand"][:3], strict=True))
    res = act(clients[1], code, theirs["version"], {"type": "pass_cards", "to": old_form})
    assert res.status_code == 200, res.content

    # The computers had chosen: the cards moved, each to the seat it was aimed at.
    after = state(clients[0], code)
    assert after["phase"] == "play"
    assert not set(picked) & set(after["you"]["hand"])
    assert {"from": 1, "cards": [old_form["0"]]} in after["you"]["received"]
    assert {"from": 0, "cards": [aimed[1]]} in state(clients[1], code)["you"]["received"]
    log = clients[0].get(f"/api/v1/rooms/{code}/events?limit=1000").json()
    gave = {e["to"]: e["cards"] for e in log if e["type"] == "cards_passed" and e["from"] == 0 and e["round"] == 4}
    assert gave == {s: [c] for s, c in aimed.items()}
