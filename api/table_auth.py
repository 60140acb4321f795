"""`GET rooms/{code}/state` signed in by `Authorization: Token <key>`: the token's
account is read in the table's own statement (games.store), one round trip for both.

DRF authenticates before it checks permissions and throttles, and those must see the
account: so the read happens as the call authenticates (the account token's
authentication asks the view, accounts/authentication.py), and the view then answers
from the table read there instead of reading it again. What DRF does with the account
is unchanged (`request.user`, `request.auth`, the scopes, the throttles); only an
active account is taken from the joint read. Anything else (an unknown token, an
inactive or banned account) is looked up again by the token's authentication, which
refuses it with exactly the answer every other call gives. A bearer token, a session,
a conditional call (one that names an `If-None-Match` tag: its tag is found in a
smaller statement, games/view_tags.py) and a room that does not exist all take the
ordinary way, the table read by the view.

The move itself (`POST actions`) is not signed in this way: its table is read under the
room's lock inside the service's transaction, and reading the token there would take
the lock before the rate limit and the body's checks, which today refuse a call before
it touches the room; a throttled or malformed call would hold the lock, and the checks'
order (401, 429, 400, then the room's answers) would have to be rebuilt inside the
service. A state call's read takes no lock, so its order stays as it was.
"""

from __future__ import annotations

from typing import Any

from accounts.models import User
from games import selectors
from games.store import Table

from . import conditional


class ReadsTable:
    """Put first among an API view's bases: a view that answers from the table of the
    room its URL names (`code`), signed in by its account token with the table's read."""

    # Set by DRF's view as it dispatches.
    request: Any
    kwargs: dict[str, Any]
    # The table read as the call signed in (None: it was not, or there is no such room).
    table_read: Table | None = None

    def token_user_with_read(self, key: str) -> User | None:
        """The account whose token `key` is, read with the table (None: unknown token,
        or a conditional call, which reads its tag first)."""
        if conditional.asks(self.request):
            return None
        table, user = selectors.table_and_token_user(code=self.kwargs["code"], key=key)
        if user is not None and user.is_active:
            self.table_read = table
        return user

    def table_of(self, code: str) -> Table:
        """The room's table: the one read as the call signed in, else read now."""
        if self.table_read is not None:
            return self.table_read
        return selectors.table_of(code=code)
