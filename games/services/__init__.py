"""The only write path for rooms, seats, rounds, actions and events, one module an idea:

- `lobby`: making a room, taking and leaving seats, computer players, the start;
- `play`: actions, the computer players' moves, and the loop that acts when time is due;
- `seeds`: the players' seeds for the next deal (provably fair deals);
- `clock`: when the server must next act in a hand, and the task that will;
- `table_moderation`: what moderators do to a table (moderation.services records why).

Each locks its room through `games.store` and changes it only through the table it gets.
"""
