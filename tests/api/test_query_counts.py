"""The hot paths keep a fixed number of queries, whatever the room's history."""

import pytest

from .helpers import act, state

pytestmark = pytest.mark.django_db

# token, the table (room locked, seats, round: one query), the move's writes (one
# statement, games.store's flush), plus the savepoint pair of the test's transaction.
ACTION_QUERIES = 5
# the token and the table, in one statement (api/table_auth.py).
STATE_QUERIES = 1
# token, the tag's statement (games/view_tags.py): a poll answered 304 reads no table.
STATE_NOT_MODIFIED_QUERIES = 2
# token, the tag's statement, the table: a poll that finds a change reads it as well.
STATE_CHANGED_QUERIES = 3


def test_action_and_state_query_counts(hearts_table, django_assert_num_queries):
    code, clients, _ = hearts_table()
    path = f"/api/v1/rooms/{code}/state"
    held = clients[0].get(path)["ETag"]
    for seat in range(4):
        view = state(clients[seat], code)
        with django_assert_num_queries(ACTION_QUERIES):
            res = act(clients[seat], code, view["version"], {"type": "pass_cards", "cards": view["you"]["hand"][:3]})
        assert res.status_code == 200
    with django_assert_num_queries(STATE_CHANGED_QUERIES):
        assert clients[0].get(path, HTTP_IF_NONE_MATCH=held).status_code == 200
    with django_assert_num_queries(STATE_QUERIES):
        held = clients[0].get(path)["ETag"]
    with django_assert_num_queries(STATE_NOT_MODIFIED_QUERIES):
        assert clients[0].get(path, HTTP_IF_NONE_MATCH=held).status_code == 304
