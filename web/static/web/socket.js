// The life of one browser WebSocket that should stay up: it connects, says when it is up,
// hands on every message, and when the connection drops says so and reconnects after a
// growing, jittered delay (backoff.js), until it is stopped. A room's live link (live.js)
// and the player's own notices (turns.js) each keep one and decide the rest themselves:
// what a message means, and what to do (poll) while the socket is down.
//
// The server accepts a socket it cannot serve and then closes it with a code that says
// why (FINAL_CLOSE); retrying cannot help then, so the socket stops for good and says
// which code it was. A socket closed for the server's load or the account's (RETRY_LATER:
// 1013 the server too busy, 4409 too many sockets, 4429 too many frames) is retried like
// a dropped one, but its opening does not count as the connection working: the waits
// keep growing until one is served.
//
// A socket can also be checked: when nothing has arrived for a while it sends
// `{"type":"ping"}` (a server that offers checks answers with any message), and one that
// does not answer is taken for dead (a sleeping laptop, a dropped network leave a socket
// open without a close) and dropped like any other.

import { Backoff } from "./backoff.js";

export const FINAL_CLOSE = { 4401: "unauthorized", 4403: "refused", 4404: "gone" };
export const RETRY_LATER = { 1013: "busy", 4409: "too many sockets", 4429: "rate limited" };

/**
 * @typedef {object} SocketHandlers
 * @property {() => string} url The address, asked at every connection (the token may have changed).
 * @property {(data: any) => void} onMessage Every message, parsed from JSON (others are ignored).
 * @property {() => void} [onConnecting] A connection is being tried.
 * @property {() => void} [onUp] The socket works: at its opening (`upOnOpen`), else at its first message.
 * @property {() => void} [onDown] The connection dropped (or could not be made); a retry is scheduled.
 * @property {(code: number) => void} [onFinal] Closed by the server with a FINAL_CLOSE code; no retry.
 * @property {boolean} [upOnOpen] Whether the opening is enough: a server that refuses a socket
 *   opens it too and closes it at once, so where the server speaks first its first message is surer.
 * @property {number | null} [checkMs] How long a quiet socket waits before it is checked (none if null).
 */

export class Socket {
  /** @param {SocketHandlers} handlers */
  constructor(handlers) {
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.backoff = new Backoff();
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retryTimer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.quietTimer = undefined;
    this.up = false;
    this.stopped = true;
  }

  get retrying() {
    return this.retryTimer !== undefined;
  }

  start() {
    this.stopped = false;
    this.connect();
    return this;
  }

  // Closes the socket (a normal close, 1000) and cancels every timer; nothing is said after.
  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.forget(1000);
  }

  connect() {
    if (this.stopped) return;
    this.up = false;
    this.handlers.onConnecting?.();
    let ws;
    try {
      ws = new WebSocket(this.handlers.url());
    } catch {
      this.dropped();
      return;
    }
    this.ws = ws;
    const checkMs = this.handlers.checkMs ?? null;
    ws.onopen = () => {
      if (this.handlers.upOnOpen) this.isUp();
      // A socket that opens and then says nothing is checked like a quiet one.
      if (checkMs !== null) this.whenQuiet(ws, checkMs, () => this.check(ws, checkMs));
    };
    ws.onmessage = (msg) => {
      let data;
      try {
        data = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (!this.up) this.isUp();
      if (checkMs !== null) this.whenQuiet(ws, checkMs, () => this.check(ws, checkMs));
      this.handlers.onMessage(data);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearTimeout(this.quietTimer);
      if (this.stopped) return;
      if (FINAL_CLOSE[event.code]) {
        this.stop();
        this.handlers.onFinal?.(event.code);
        return;
      }
      this.dropped(event.code);
    };
  }

  // The backoff starts again once a connection that worked drops (in `dropped`), not here:
  // a socket refused for the load opens before it is closed.
  isUp() {
    this.up = true;
    this.handlers.onUp?.();
  }

  // Runs `then` once `ms` pass without a message on `ws` (every message sets it anew).
  whenQuiet(ws, ms, then) {
    clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => {
      if (this.ws === ws && !this.stopped) then();
    }, ms);
  }

  check(ws, checkMs) {
    try {
      ws.send(JSON.stringify({ type: "ping" }));
    } catch {
      // A socket that cannot even send is as dead as one that does not answer.
    }
    this.whenQuiet(ws, Math.max(checkMs / 2, 1000), () => {
      // No answer: stop listening to it and carry on as after a close.
      this.forget();
      this.dropped();
    });
  }

  // Lets go of the current socket, its handlers first, so that its close says nothing.
  /** @param {number} [code] */
  forget(code) {
    clearTimeout(this.quietTimer);
    this.quietTimer = undefined;
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    ws.onopen = ws.onmessage = ws.onclose = null;
    ws.close(code);
  }

  // A dropped connection (or one that could not be made): say so, and try again later.
  /** @param {number} [code] The close's code, if the server sent one. */
  dropped(code) {
    if (this.stopped) return;
    if (this.up && !(code !== undefined && RETRY_LATER[code])) this.backoff.reset();
    this.up = false;
    this.handlers.onDown?.();
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect();
    }, this.backoff.next());
  }
}
