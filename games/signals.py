"""What games tell the rest of the project without importing it (moderation sits above
games and records these in its log)."""

from __future__ import annotations

from django.dispatch import Signal

# A seat changed hands by the server's own rule, not a moderator's decision (a
# moderator's is logged by moderation itself). Sent under the room's lock, inside its
# transaction, with `room`, `seat` (index), `user` (the seat's person) and `kind`:
# "to_bot" (idle past abandon_seconds, a computer player plays on) or "reclaimed".
seat_handed_over = Signal()

# A person's idle clock ran out in a match in play: their seat went to a computer
# player, or the match was abandoned for it. Sent under the room's lock, inside its
# transaction, with `room` and `user` (moderation counts these towards playbans; a
# moderator's hand-over is not one).
player_abandoned = Signal()

# A match came to its end (the room is FINISHED with its final scores). Sent under the
# room's lock, inside its transaction, with `room`, `seats` (the table's, by index) and
# `result` (the engine's result of the hand that ended it), so what follows from the
# end (ratings) commits or rolls back with it.
match_finished = Signal()

# A change of a table committed: sent once per transaction that changed the room's
# version, after the commit, with `table` (games.store.Table) as it stood then. A
# receiver answers the notices to send to the room's listeners before the room's own
# `changed` notice, as (group, message) pairs: games/view_push.py answers each viewer's
# view, routed to that viewer alone.
table_committed = Signal()
