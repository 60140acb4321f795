"""The only write path for rooms, seats, rounds, actions and events, one module an idea:

- `timekeeper`: the one block every change of a room goes through (`changing`): it
  credits outages, moves computer players, settles the turns, plans and writes the
  clock, tells whose turn began;
- `lobby`: making a room, taking and leaving seats, computer players, the start;
- `play`: a player's action, idempotent, and the forced plays a player asks for;
- `moves`: the engine step (`step`): a hand dealt, an action applied and recorded,
  computer players' and forced plays made at once;
- `forced`: which play is forced on a player who asked for forced plays;
- `due`: the due-time loop (timeouts, computer players on a delay, abandonment) and the
  sweeper;
- `clock`: the one writer of a hand's clock, its task, and the pickup that claims and
  queues the tasks of rounds coming due;
- `ending`: a room's end, the same however it ends (`room_end`);
- `handover`: a seat handed to a computer player in a match under way;
- `reclaim`: a player taking back the seat a computer player held for them;
- `rematch`: the same players again, once everyone agreed;
- `seeds`: the players' seeds for the next deal (provably fair deals);
- `table_moderation`: what moderators do to a table (moderation.services records why);
- `guards`: what a table must be for a service to act on it.

Each locks its room through `games.store` (by `timekeeper.changing`) and changes it only
through the table it gets.
"""
