"""What every app builds on and none owns: the database plumbing of the hot path (the
prepared reads, the batched writes, the PostgreSQL backend), times as the API writes
them, and the errors a service refuses with (with the codes no one app owns). No models,
no views; nothing here knows about games or accounts."""
