"""The web client's reconnecting socket (web/static/web/socket.js, backoff.js), run in
Node with a stand-in WebSocket and timers that only record their delays (nothing here
waits, so nothing depends on the machine's speed): each wait is full jitter, a random
share of a ceiling that doubles from 1 s to 30 s; a socket the server refuses for its
load (1013), the account's sockets (4409) or a flood (4429) opens and is closed, and
those openings do not start the waits again, while a connection that worked does; the
closes retrying cannot cure end it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import IN_CI

WEB = Path(__file__).resolve().parents[2] / "web" / "static" / "web"

# Each step: ["open"], ["message"], ["close", code], ["fire"] (the pending retry runs)
# or ["random", x] (what Math.random answers from then on). After the steps, what the
# socket scheduled (each retry's delay), the sockets made and what it said.
PROGRAM = """
let pending = null;
globalThis.setTimeout = (fn, ms) => {
  pending = { fn, ms };
  return 1;
};
globalThis.clearTimeout = () => {};
let randomIs = 0.5;
Math.random = () => randomIs;
const made = [];
class FakeSocket {
  constructor(url) { this.url = url; made.push(this); }
  send() {}
  close() {}
}
globalThis.WebSocket = FakeSocket;
const { Socket } = await import(%s);
const said = [];
const socket = new Socket({
  url: () => "ws://x/ws/me/",
  upOnOpen: JSON.parse(process.argv[2]),
  onMessage: () => said.push("message"),
  onUp: () => said.push("up"),
  onDown: () => said.push("down"),
  onFinal: (code) => said.push("final " + code),
}).start();
const retries = [];
for (const [what, arg] of JSON.parse(process.argv[1])) {
  const ws = made.at(-1);
  if (what === "random") randomIs = arg;
  else if (what === "open") ws.onopen?.({});
  else if (what === "message") ws.onmessage?.({ data: JSON.stringify({ type: "changed", version: 1, seq: 0 }) });
  else if (what === "close") {
    pending = null;
    ws.onclose?.({ code: arg });
    retries.push(pending === null ? null : pending.ms);
  } else if (what === "fire") { const p = pending; pending = null; p.fn(); }
}
console.log(JSON.stringify({ retries, sockets: made.length, said, ceiling: socket.backoff.ceiling() }));
"""

BACKOFF = """
const { Backoff } = await import(%s);
const [randoms, resetAfter] = JSON.parse(process.argv[1]);
let i = 0;
const backoff = new Backoff(() => randoms[i++ %% randoms.length]);
const waits = [];
for (let n = 0; n < randoms.length; n++) {
  if (n === resetAfter) backoff.reset();
  waits.push(backoff.next());
}
console.log(JSON.stringify(waits));
"""


def node(program: str, *args: Any) -> Any:
    if shutil.which("node") is None:
        if IN_CI:
            pytest.fail("node is missing", pytrace=False)
        pytest.skip("node is missing")
    out = subprocess.run(
        ["node", "--input-type=module", "-e", program, *(json.dumps(a) for a in args)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_each_wait_is_a_random_share_of_a_doubling_ceiling() -> None:
    program = BACKOFF % json.dumps((WEB / "backoff.js").as_uri())
    # The random number's extremes: 0 waits nothing, just under 1 the whole ceiling.
    highest = node(program, [[0.999999] * 8, -1])
    assert [round(w) for w in highest] == [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]
    assert node(program, [[0.0] * 3, -1]) == [0, 0, 0]
    # Full jitter: the wait is the random share of the ceiling, anywhere from 0 (not the
    # ceiling give or take a quarter), and starts again from 1 s after a reset.
    waits = node(program, [[0.1, 0.5, 0.9, 0.1, 0.5], 3])
    assert waits == pytest.approx([100, 1000, 3600, 100, 1000])


def socket_run(steps: list[list[Any]], *, up_on_open: bool) -> dict[str, Any]:
    return node(PROGRAM % json.dumps((WEB / "socket.js").as_uri()), steps, up_on_open)


@pytest.mark.parametrize("code", [1013, 4409, 4429])
def test_a_socket_refused_for_the_load_backs_off_further_each_time(code: int) -> None:
    # ws/me/ is up as it opens (upOnOpen): the refused socket opens, then is closed.
    refused = [["open"], ["close", code], ["fire"]]
    run = socket_run([["random", 0.999999], *refused * 6], up_on_open=True)
    assert [round(ms) for ms in run["retries"]] == [1000, 2000, 4000, 8000, 16000, 30000]
    assert run["sockets"] == 7
    # A connection that works, then drops (1006), starts the waits again from 1 s.
    run = socket_run([["random", 0.999999], *refused * 3, ["open"], ["close", 1006]], up_on_open=True)
    assert [round(ms) for ms in run["retries"]] == [1000, 2000, 4000, 1000]


def test_a_room_socket_is_up_at_its_first_message_and_final_closes_end_it() -> None:
    run = socket_run(
        [["random", 0.5], ["open"], ["close", 1013], ["fire"], ["open"], ["message"], ["close", 1006], ["fire"]],
        up_on_open=False,
    )
    assert run["retries"] == [500, 500]  # half of 1 s; then, served once, half of 1 s again
    assert run["said"] == ["down", "up", "message", "down"]
    for code in (4401, 4403, 4404):
        run = socket_run([["open"], ["close", code]], up_on_open=False)
        assert run["retries"] == [None] and run["said"] == [f"final {code}"]
