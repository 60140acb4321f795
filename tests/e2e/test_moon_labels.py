"""The shooter's moon buttons say what the engine will score, for every moon rule and
J♦ value: the client's own labels (run in Chromium) against the engine's hand_points."""

from __future__ import annotations

import pytest

from games import rules
from games.rules.hearts import engine as hearts

pytestmark = pytest.mark.django_db(transaction=True)

HEARTS = [f"{rank}H" for rank in "23456789TJQKA"]
MINUS = "\u2212"

LABELS_JS = """async ([options, choice]) => {
  const mod = await import('/static/web/games/hearts.js');
  return mod.default.actionLabel({ type: 'moon_choice', choice }, null, { room: { options } });
}"""


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"{MINUS}{-n}" if n < 0 else "0"


def finished_hand(options: dict, shooter_has_jack: bool) -> dict:
    """Seat 0 took every heart and Q♠; J♦ went to seat 0 or to seat 1."""
    taken = [[*HEARTS, "QS"], ["2C"], ["3C"], ["4C"]]
    taken[0 if shooter_has_jack else 1].append("JD")
    return {"options": options, "taken": taken, "tricks_taken": [10, 1, 1, 1]}


@pytest.mark.parametrize(
    "raw",
    [
        {"moon": "shooter_choice"},
        {"moon": "shooter_choice", "jack_of_diamonds": -10},
        {"preset": "sweedo"},
        {"preset": "sweedo", "jack_of_diamonds": -5},
    ],
    ids=["standard", "jack-10", "sweedo", "sweedo-jack-5"],
)
def test_the_moon_buttons_say_what_the_engine_scores(open_page, live_url, raw):
    options = rules.get("hearts").validate_options(raw)
    jack = options["jack_of_diamonds"]
    page = open_page(width=800, height=600)
    page.goto(live_url + "/")
    sweedo = options["moon"] == "sweedo"
    # The Sweedo moon needs J♦, so only its shooter can hold it there.
    for shooter_has_jack in (True,) if sweedo else (True, False):
        state = finished_hand(options, shooter_has_jack)
        assert hearts.shooter_of(state) == 0
        for choice in (hearts.MINUS_SELF, hearts.PLUS_OTHERS):
            points, _ = hearts.hand_points(state, 0, choice)
            label = page.evaluate(LABELS_JS, [options, choice])
            moved = {hearts.MINUS_SELF: (-26, 0), hearts.PLUS_OTHERS: (0, 26)}[choice]
            if sweedo:
                # Exact: the shooter's own points, and the others' +26.
                mine = f"{signed(points[0])} for me"
                assert label.startswith(mine) or (points[0] == 0 and label == "+26 for each other player"), label
                assert all(p == moved[1] for p in points[1:])
            else:
                # The moon's part, and J♦'s own value named for whoever took it.
                without_jack = [p - (jack if "JD" in state["taken"][s] else 0) for s, p in enumerate(points)]
                assert without_jack == [moved[0], moved[1], moved[1], moved[1]]
                assert label.startswith(f"{signed(-26)} for me" if choice == hearts.MINUS_SELF else "+26 for each")
                assert (f"J♦ still counts {signed(jack)}" in label) == (jack != 0), label
