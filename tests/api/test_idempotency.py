import pytest

from games.models import Action

from .helpers import act, error_code, state

pytestmark = pytest.mark.django_db


def test_repeated_key_replays_first_answer_and_applies_once(hearts_table):
    code, clients, _ = hearts_table()
    view = state(clients[0], code)
    action = {"type": "pass_cards", "cards": view["you"]["hand"][:3]}
    first = act(clients[0], code, view["version"], action, HTTP_IDEMPOTENCY_KEY="k-123")
    assert first.status_code == 200
    count = Action.objects.count()
    # Another player moves in between; the replay still answers with the first view.
    other = state(clients[1], code)
    assert (
        act(clients[1], code, other["version"], {"type": "pass_cards", "cards": other["you"]["hand"][:3]}).status_code
        == 200
    )
    again = act(clients[0], code, view["version"], action, HTTP_IDEMPOTENCY_KEY="k-123")
    assert again.status_code == 200
    assert again.json() == first.json()
    assert Action.objects.count() == count + 1  # only seat 1's move was added


def test_key_reused_for_another_request_is_refused(hearts_table):
    code, clients, _ = hearts_table()
    view = state(clients[0], code)
    hand = view["you"]["hand"]
    assert (
        act(
            clients[0], code, view["version"], {"type": "pass_cards", "cards": hand[:3]}, HTTP_IDEMPOTENCY_KEY="k-9"
        ).status_code
        == 200
    )
    res = act(
        clients[0], code, view["version"] + 1, {"type": "pass_cards", "cards": hand[3:6]}, HTTP_IDEMPOTENCY_KEY="k-9"
    )
    assert res.status_code == 422 and error_code(res) == "idempotency_key_reused"


def test_same_key_from_another_user_is_independent(hearts_table):
    code, clients, _ = hearts_table()
    for seat in (0, 1):
        view = state(clients[seat], code)
        res = act(
            clients[seat],
            code,
            view["version"],
            {"type": "pass_cards", "cards": view["you"]["hand"][:3]},
            HTTP_IDEMPOTENCY_KEY="shared",
        )
        assert res.status_code == 200
    assert state(clients[2], code)["seats"][1]["passed"] is True
