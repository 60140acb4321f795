"""`make run`'s broker: a publisher in one process and a worker in another, polling as
fast as it can, must pass every message whole (config/filesystem_broker.py)."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from kombu import Connection

from tests.servers import ROOT

OURS = "config.filesystem_broker:Transport"
KOMBUS = "filesystem"
MESSAGES = 1500
# Big enough that writing one takes a while, as a web process under load does.
PAD = "x" * 20_000

PUBLISHER = """
import sys
from kombu import Connection
transport, folder, name, n, pad = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
options = {"data_folder_in": folder, "data_folder_out": folder, "store_processed": False,
           "control_folder": folder + "-control"}
with Connection("filesystem://", transport=transport, transport_options=options) as conn:
    queue = conn.SimpleQueue(name)
    for i in range(n):
        queue.put({"i": i, "pad": pad})
"""


def queue_name() -> str:
    """A queue of its own: kombu keeps the bindings it has made in one table per
    process, and would not bind a queue of the same name again in another folder."""
    return f"tasks-{uuid.uuid4().hex}"


def options(folder: Path) -> dict[str, Any]:
    return {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "store_processed": False,
        "control_folder": f"{folder}-control",
    }


def race(transport: str, folder: Path) -> tuple[list[int], int]:
    """Publish MESSAGES from another process while this one takes them as soon as they
    appear: (the numbers received, the reads that failed to decode)."""
    received: list[int] = []
    failed = 0
    name = queue_name()
    with Connection("filesystem://", transport=transport, transport_options=options(folder)) as conn:
        queue = conn.SimpleQueue(name)
        publisher = subprocess.Popen(
            [sys.executable, "-c", PUBLISHER, transport, str(folder), name, str(MESSAGES), PAD], cwd=ROOT
        )
        try:
            deadline = time.monotonic() + 120
            # Until the publisher is done and the folder is empty.
            while time.monotonic() < deadline:
                try:
                    message = queue.get_nowait()
                except queue.Empty:
                    if publisher.poll() is not None and not any(folder.glob("*.msg")):
                        break
                    continue
                except ValueError:  # kombu's own: a half-written file, now lost
                    failed += 1
                    continue
                assert message.payload["pad"] == PAD
                received.append(message.payload["i"])
                message.ack()
        finally:
            publisher.wait(30)
        assert publisher.returncode == 0
    return received, failed


def test_every_message_arrives_whole(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="config.filesystem_broker"):
        received, failed = race(OURS, tmp_path)
    assert failed == 0
    assert not caplog.records, "a half-written message was taken and dropped"
    # Those written in the same millisecond may come in any order, as with kombu's own.
    assert sorted(received) == list(range(MESSAGES))
    assert not list(tmp_path.iterdir()), "an unfinished file was left behind"


class Reader:
    """Part of a message whose encoding reads the queue, as a worker would, at the
    moment the message is being written."""

    def __init__(self, queue: Any) -> None:
        self.queue = queue
        self.saw: list[str] = []

    def __json__(self) -> str:
        try:
            self.queue.get_nowait()
            self.saw.append("a message")
        except self.queue.Empty:
            self.saw.append("nothing")
        except ValueError:
            self.saw.append("a file that is not a message yet")
        return "x"


@pytest.mark.parametrize(
    ("transport", "seen", "left"),
    [(OURS, "nothing", [{"body": "x"}]), (KOMBUS, "a file that is not a message yet", [])],
    ids=["ours", "kombus"],
)
def test_what_a_worker_finds_while_a_message_is_being_written(
    tmp_path: Path, transport: str, seen: str, left: list[Any]
) -> None:
    """kombu's own lets a worker take the file before it holds the message (which is why
    config/filesystem_broker.py exists: should kombu's case fail, it was fixed upstream)."""
    with (
        Connection("filesystem://", transport=transport, transport_options=options(tmp_path)) as writer,
        Connection("filesystem://", transport=transport, transport_options=options(tmp_path)) as worker,
    ):
        name = queue_name()
        queue = worker.SimpleQueue(name)
        reader = Reader(queue)
        writer.default_channel._put(name, {"body": reader})
        assert reader.saw == [seen]
        # The message is there for the worker, whole; kombu's own has lost it.
        assert [json.loads(path.read_text()) for path in tmp_path.glob("*.msg")] == left


def test_a_file_that_is_not_a_message_is_dropped_and_the_queue_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with Connection("filesystem://", transport=OURS, transport_options=options(tmp_path)) as conn:
        name = queue_name()
        queue = conn.SimpleQueue(name)
        # An empty file, named as kombu names messages, ahead of a real one.
        (tmp_path / f"0_stray.{name}.msg").write_bytes(b"")
        queue.put({"i": 1})
        with caplog.at_level(logging.ERROR, logger="config.filesystem_broker"):
            with pytest.raises(queue.Empty):
                queue.get_nowait()
        assert "not a message" in caplog.text
        assert queue.get_nowait().payload == {"i": 1}
