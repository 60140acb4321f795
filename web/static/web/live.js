// A room's live link: the WebSocket announces `{"type":"changed","version":N}`; while it
// is down the client polls, and reconnects with a growing delay. Either way `onChange`
// is called and the page fetches its view and the new events.
//
// The socket alone is not trusted: when nothing has arrived for a while the client asks
// `{"type":"ping"}`, and the answer carries the room's version as the database has it,
// so a notice that went missing costs at most that while. A socket that does not answer
// is taken for dead (a sleeping laptop, a dropped network leave it open without a close):
// the client polls and reconnects as after any drop.
//
// The server accepts a socket it cannot serve and then closes it with a code that says
// why; those codes end the link for good (no polling, no reconnecting), and the status
// tells the page which: "unauthorized" (4401: sign in again) or "gone" (4404: no such
// room). Any other close is a dropped connection worth retrying.

import { wsUrl } from "./api.js";
import { Backoff } from "./backoff.js";

const POLL_MS = 3000;
// Tests shorten the quiet check through a global set before the page loads.
const CHECK_MS = globalThis.ttLiveCheckMs ?? 10000;
const REPLY_MS = Math.max(CHECK_MS / 2, 1000);
export const FINAL_CLOSE = { 4401: "unauthorized", 4404: "gone" };

export class RoomLive {
  constructor(code, onChange, onStatus = () => {}) {
    this.code = code;
    this.onChange = onChange;
    this.onStatus = onStatus;
    this.ws = null;
    this.backoff = new Backoff();
    this.pollTimer = null;
    this.retryTimer = null;
    this.quietTimer = null;
    this.stopped = false;
    this.status = "connecting";
  }

  start() {
    this.connect();
    return this;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    clearTimeout(this.quietTimer);
    this.stopPolling();
    if (this.ws) this.ws.close(1000);
  }

  setStatus(status) {
    this.status = status;
    this.onStatus(status);
  }

  connect() {
    if (this.stopped) return;
    this.setStatus("connecting");
    let ws;
    try {
      ws = new WebSocket(wsUrl(`ws/rooms/${encodeURIComponent(this.code)}/`));
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    // A socket that opens and then says nothing is checked like a quiet one.
    ws.onopen = () => this.whenQuiet(ws, CHECK_MS, () => this.check(ws));
    // The link is live at the server's first notice, not at the handshake: a socket the
    // server refuses opens too, and is closed at once with the reason.
    ws.onmessage = (msg) => {
      let data;
      try {
        data = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (this.status !== "live") {
        this.backoff.reset();
        this.stopPolling();
        this.setStatus("live");
      }
      this.whenQuiet(ws, CHECK_MS, () => this.check(ws));
      // The first message after (re)connecting carries the current version: catching up is
      // the same path, and so is the answer to a check.
      if ((data.type === "changed" || data.type === "pong") && Number.isInteger(data.version)) this.onChange(data.version);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearTimeout(this.quietTimer);
      if (this.stopped) return;
      const final = FINAL_CLOSE[event.code];
      if (final) {
        // Retrying cannot help: stop here, polling included, and let the page say why.
        this.stop();
        this.closeCode = event.code;
        this.setStatus(final);
        return;
      }
      this.startPolling();
      this.scheduleRetry();
    };
  }

  // Runs `then` once `ms` pass without a message on `ws` (every message sets it anew).
  whenQuiet(ws, ms, then) {
    clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => {
      if (this.ws === ws && !this.stopped) then();
    }, ms);
  }

  check(ws) {
    try {
      ws.send(JSON.stringify({ type: "ping" }));
    } catch {
      // A socket that cannot even send is as dead as one that does not answer.
    }
    this.whenQuiet(ws, REPLY_MS, () => this.dropped(ws));
  }

  // The socket did not answer: stop listening to it and carry on as after a close.
  dropped(ws) {
    this.ws = null;
    ws.onopen = ws.onmessage = ws.onclose = null;
    ws.close();
    this.startPolling();
    this.scheduleRetry();
  }

  scheduleRetry() {
    this.setStatus("polling");
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, this.backoff.next());
  }

  // Polling alone, without reconnecting: for a socket refused while the API still answers.
  pollOnly() {
    this.stopped = false;
    this.setStatus("polling");
    this.startPolling();
  }

  startPolling() {
    if (this.pollTimer || this.stopped) return;
    this.onChange(null);
    this.pollTimer = setInterval(() => this.onChange(null), POLL_MS);
  }

  stopPolling() {
    clearInterval(this.pollTimer);
    this.pollTimer = null;
  }
}
