"""The only write path of notifications, a module an idea: `preferences` (what a player
wants), `subscriptions` (their browsers' push subscriptions), `presence` (their open
ws/me/ sockets), `turns` (finding the turns to tell and telling them)."""
