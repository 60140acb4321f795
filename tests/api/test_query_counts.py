"""The hot paths keep a fixed number of queries, whatever the room's history."""

import pytest

from .helpers import act, state

pytestmark = pytest.mark.django_db

# token, the table (room locked, seats, round: one query), the move's writes (one
# statement, games.store's flush), plus the savepoint pair of the test's transaction.
ACTION_QUERIES = 5
# token, the table.
STATE_QUERIES = 2


def test_action_and_state_query_counts(hearts_table, django_assert_num_queries):
    code, clients, _ = hearts_table()
    for seat in range(4):
        view = state(clients[seat], code)
        with django_assert_num_queries(ACTION_QUERIES):
            res = act(clients[seat], code, view["version"], {"type": "pass_cards", "cards": view["you"]["hand"][:3]})
        assert res.status_code == 200
    with django_assert_num_queries(STATE_QUERIES):
        state(clients[0], code)
