"""An action holds only the fields its type defines, in every game: anything else is
refused (`invalid`, naming the field when it reads as a name), so nothing rides along
into the action log."""

from __future__ import annotations

from typing import Any

import pytest

from games import rules
from games.rules.errors import RuleError


def _state_where_someone_acts(game: Any) -> dict[str, Any]:
    options = game.validate_options({})
    return game.new_round(options=options, players=game.seat_count(options), seed=1, carry=None)


@pytest.mark.parametrize("game", rules.all_games(), ids=lambda g: g.key)
def test_every_action_type_declares_its_fields(game: Any) -> None:
    assert set(game.action_fields) == {kind for kinds in game.phase_actions.values() for kind in kinds}


@pytest.mark.parametrize("game", rules.all_games(), ids=lambda g: g.key)
def test_a_field_the_type_does_not_define_is_refused(game: Any) -> None:
    state = _state_where_someone_acts(game)
    seat = game.to_act(state)[0]
    every_field = {name for fields in game.action_fields.values() for name in fields}
    for kind, own in game.action_fields.items():
        for name in [*sorted(every_field - own), "pad"]:
            with pytest.raises(RuleError) as err:
                game.apply(state, seat, {"type": kind, name: None})
            assert (err.value.code, err.value.attr) == ("invalid", name), (kind, name)


@pytest.mark.parametrize("name", ["x" * 41, "a-b", "a.b", "é", "", "1a"])
def test_a_field_that_is_not_a_name_is_not_quoted(name: str) -> None:
    game = rules.get("hearts")
    state = _state_where_someone_acts(game)
    with pytest.raises(RuleError) as err:
        game.apply(state, 0, {"type": "play", "card": "2C", name: 1})
    assert (err.value.code, err.value.attr) == ("invalid", "action")
    assert name not in err.value.detail or name == ""


def test_a_legal_action_with_only_its_fields_is_applied() -> None:
    game = rules.get("hearts")
    state = _state_where_someone_acts(game)
    action = {"type": "pass_cards", "cards": state["hands"][0][:3]}
    assert game.apply(state, 0, action).state["passes"][0] is not None
