# Tasks a request queues run at once here, as a worker runs them (tests/notifications).
from tests.notifications.conftest import push_on, queued  # noqa: F401
