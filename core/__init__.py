"""Database plumbing shared by the apps: the prepared reads and the batched writes of the
hot path. No models, no views; nothing here knows about games or accounts."""
