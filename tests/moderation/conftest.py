# Tasks queued by name run at once, as the worker would run them (tests/notifications).
from tests.notifications.conftest import push_on, queued

__all__ = ["push_on", "queued"]
