"""games.rules.templates: a legal action made concrete, over the fields a game declares."""

from __future__ import annotations

import random

from games import rules
from games.rules import templates

PASS = {"type": "pass_cards", "count": 3, "choices": ["2C", "3C", "4C", "5C"]}


def test_a_template_fills_the_one_field_its_type_declares():
    hearts, kali_tidi = rules.get("hearts"), rules.get("kali_tidi")
    assert templates.concrete(PASS, hearts.action_fields["pass_cards"]) == {
        "type": "pass_cards",
        "cards": PASS["choices"][:3],
    }
    removal = {"type": "remove_cards", "count": 2, "choices": ["2D", "3D", "4D"]}
    assert templates.concrete(removal, kali_tidi.action_fields["remove_cards"]) == {
        "type": "remove_cards",
        "cards": ["2D", "3D"],
    }
    # A field of another name is filled the same way: nothing assumes cards.
    assert templates.concrete(removal, {"tiles"}) == {"type": "remove_cards", "tiles": ["2D", "3D"]}


def test_a_template_becomes_its_action_with_every_other_field_as_it_is():
    funky = {**PASS, "to": [3, 1, 2]}
    action = templates.concrete(funky, rules.get("hearts").action_fields["pass_cards"], random.Random(4))
    assert set(action) == {"type", "cards", "to"} and action["to"] == [3, 1, 2]
    assert action["cards"] == random.Random(4).sample(PASS["choices"], 3)
    # The action's lists are its own: changing it leaves the legal action as it was.
    action["to"].append(0)
    assert funky["to"] == [3, 1, 2]


def test_a_funky_pass_made_concrete_is_accepted_and_each_seat_gets_its_card():
    hearts = rules.get("hearts")
    state = hearts.new_round(options={"fourth_hand": "funky"}, seed=5, carry={"round": 4})
    for seat in range(4):
        (legal,) = hearts.legal_actions(state, seat)
        action = templates.concrete(legal, hearts.action_fields["pass_cards"])
        assert action == {"type": "pass_cards", "cards": legal["choices"][:3], "to": legal["to"]}
        state = hearts.apply(state, seat, action).state
        assert state["passes"][seat] == {str(s): c for s, c in zip(legal["to"], legal["choices"][:3], strict=True)}
    assert state["phase"] == "play"


def test_the_choice_is_the_callers():
    fields = rules.get("hearts").action_fields["pass_cards"]
    last = templates.concrete(PASS, fields, lambda choices, count: choices[-count:])
    assert last["cards"] == ["3C", "4C", "5C"]
    sampled = templates.concrete(PASS, fields, random.Random(9))
    assert sampled["cards"] == random.Random(9).sample(PASS["choices"], 3)


def test_a_legal_action_that_is_no_template_is_already_an_action():
    play = {"type": "play", "card": "QS"}
    assert templates.concrete(play, {"card"}) == play
    assert not templates.is_template(play) and templates.is_template(PASS)


def test_a_client_that_knows_only_the_type_finds_its_declared_fields():
    assert templates.declared_fields(rules.all_games(), "pass_cards") == {"cards", "to"}
    assert templates.declared_fields(rules.all_games(), "call_partners") == {"cards"}
