// A room's live link: the WebSocket announces `{"type":"changed","version":N}`; while it
// is down the client polls, and reconnects with a growing delay. Either way `onChange`
// is called and the page fetches its view and the new events.

import { wsUrl } from "./api.js";

const POLL_MS = 3000;
const MAX_BACKOFF_MS = 30000;
// Close codes the server uses for "will never work": unauthenticated, no such room.
const FINAL_CLOSE = new Set([4401, 4403, 4404]);

export class RoomLive {
  constructor(code, onChange, onStatus = () => {}) {
    this.code = code;
    this.onChange = onChange;
    this.onStatus = onStatus;
    this.ws = null;
    this.backoff = 1000;
    this.pollTimer = null;
    this.retryTimer = null;
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
    ws.onopen = () => {
      this.backoff = 1000;
      this.stopPolling();
      this.setStatus("live");
    };
    ws.onmessage = (msg) => {
      let data;
      try {
        data = JSON.parse(msg.data);
      } catch {
        return;
      }
      // The first message after (re)connecting carries the current version: catching up is the same path.
      if (data.type === "changed") this.onChange(data.version);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      if (FINAL_CLOSE.has(event.code)) {
        this.setStatus("closed");
        return;
      }
      this.startPolling();
      this.scheduleRetry();
    };
  }

  scheduleRetry() {
    this.setStatus("polling");
    clearTimeout(this.retryTimer);
    // Jitter, so a restarted server is not hit by every client in the same instant.
    const delay = this.backoff * (0.75 + Math.random() * 0.5);
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  startPolling() {
    if (this.pollTimer) return;
    this.onChange(null);
    this.pollTimer = setInterval(() => this.onChange(null), POLL_MS);
  }

  stopPolling() {
    clearInterval(this.pollTimer);
    this.pollTimer = null;
  }
}
