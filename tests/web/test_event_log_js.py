"""The web client's event log (web/static/web/eventlog.js), run in Node: pushed batches
join it only where it is whole up to their `after`, a fetch fills a gap and lets the
batches held back join, every event is kept once however it came, and the log says when
a fetch is due."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import IN_CI

SCRIPT = Path(__file__).resolve().parents[2] / "web" / "static" / "web" / "eventlog.js"

# Each step is [method, argument]; after each, the program prints what the log holds.
PROGRAM = """
import { EventLog } from %s;
const log = new EventLog(Number(process.argv[2]));
const steps = JSON.parse(process.argv[1]);
const seen = [];
let from = null;
for (const [what, arg] of steps) {
  let answer = null;
  if (what === "pushed") answer = log.pushed(arg);
  else if (what === "heard") log.heard(arg);
  else if (what === "fetching") from = log.fetching();
  else if (what === "page") answer = log.add(arg);
  else if (what === "fetched") answer = log.fetched(from);
  seen.push({
    answer,
    seqs: log.events.map((e) => e.seq),
    lastSeq: log.lastSeq,
    whole: log.whole,
    behind: log.behind,
    held: log.held.length,
  });
}
console.log(JSON.stringify(seen));
"""


def events(*seqs: int) -> list[dict[str, Any]]:
    return [{"seq": s, "type": "played", "seat": s % 4} for s in seqs]


def batch(after: int, seq: int, *seqs: int) -> dict[str, Any]:
    return {"after": after, "seq": seq, "events": events(*seqs)}


def run(steps: list[list[Any]], keep: int = 200) -> list[dict[str, Any]]:
    if shutil.which("node") is None:
        if IN_CI:
            pytest.fail("node is missing", pytrace=False)
        pytest.skip("node is missing")
    out = subprocess.run(
        ["node", "--input-type=module", "-e", PROGRAM % json.dumps(SCRIPT.as_uri()), json.dumps(steps), str(keep)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_pushed_batches_join_in_order_across_others_private_events() -> None:
    first, second, again = run(
        [
            ["pushed", batch(0, 2, 1, 2)],
            # 3 and 5 are others' private events: the batch says the room stands at 5.
            ["pushed", batch(2, 5, 4)],
            # Its own notice, after it: nothing is due.
            ["heard", 5],
        ]
    )
    assert first == {"answer": True, "seqs": [1, 2], "lastSeq": 2, "whole": 2, "behind": False, "held": 0}
    assert second == {"answer": True, "seqs": [1, 2, 4], "lastSeq": 4, "whole": 5, "behind": False, "held": 0}
    assert again["whole"] == 5 and not again["behind"]


def test_a_batch_after_a_gap_waits_for_the_fetch_that_fills_it() -> None:
    steps = [
        ["pushed", batch(0, 2, 1, 2)],
        # A change that came as a notice alone (the worker's): the log is behind.
        ["heard", 4],
        ["fetching", None],
        # The next change is pushed while the fetch is on its way: it cannot join yet.
        ["pushed", batch(4, 6, 5, 6)],
        ["page", events(3, 4)],
        ["fetched", None],
    ]
    _, notice, _, held, page, done = run(steps)
    assert notice["behind"] and notice["whole"] == 2
    assert held == {"answer": False, "seqs": [1, 2], "lastSeq": 2, "whole": 2, "behind": True, "held": 1}
    assert page["seqs"] == [1, 2, 3, 4] and page["whole"] == 2
    # The fetch began with the room at 4: the log is whole to 4, and the held batch joins.
    assert done == {"answer": True, "seqs": [1, 2, 3, 4, 5, 6], "lastSeq": 6, "whole": 6, "behind": False, "held": 0}


def test_a_fetch_is_whole_to_where_the_room_stood_when_it_began() -> None:
    steps = [
        ["heard", 9],
        ["fetching", None],
        # The last event this reader may see is 7 (8 and 9 are others' private ones).
        ["page", events(1, 2, 7)],
        ["fetched", None],
        ["pushed", batch(9, 10, 10)],
    ]
    *_, fetched, pushed = run(steps)
    assert fetched["whole"] == 9 and not fetched["behind"]
    assert pushed == {"answer": True, "seqs": [1, 2, 7, 10], "lastSeq": 10, "whole": 10, "behind": False, "held": 0}


def test_each_event_is_kept_once_however_it_came() -> None:
    steps = [
        ["heard", 3],
        ["fetching", None],
        # Pushed while the fetch is on its way, and joined (the log is whole to 0).
        ["pushed", batch(0, 3, 1, 2, 3)],
        # The fetch's answer repeats them, and a batch already passed changes nothing.
        ["page", events(1, 2, 3)],
        ["fetched", None],
        ["pushed", batch(1, 3, 2, 3)],
    ]
    *_, pushed, page, fetched, late = run(steps)
    assert pushed["seqs"] == [1, 2, 3] and pushed["answer"] is True
    assert page["seqs"] == [1, 2, 3] and page["answer"] is False
    assert fetched["seqs"] == [1, 2, 3] and fetched["whole"] == 3
    assert late == {**fetched, "answer": False}


def test_a_gap_no_fetch_has_filled_keeps_the_log_behind() -> None:
    first, gap, later = run([["pushed", batch(0, 1, 1)], ["pushed", batch(3, 4, 4)], ["pushed", batch(4, 5, 5)]])
    assert first["whole"] == 1 and not first["behind"]
    # Nothing joins past the gap (2 and 3 were never read), however much more is pushed.
    assert gap == {"answer": False, "seqs": [1], "lastSeq": 1, "whole": 1, "behind": True, "held": 1}
    assert later == {"answer": False, "seqs": [1], "lastSeq": 1, "whole": 1, "behind": True, "held": 2}


def test_only_the_latest_events_are_kept() -> None:
    *_, last = run([["pushed", batch(0, 3, 1, 2, 3)], ["pushed", batch(3, 5, 4, 5)]], keep=3)
    assert last["seqs"] == [3, 4, 5] and last["lastSeq"] == 5 and last["whole"] == 5
