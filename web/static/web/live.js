// A room's live link: the WebSocket pushes each change as the reader's own view and the
// events it logged (`{"type":"view",...}`, handed to `onView`), which stands for its
// notice (`{"type":"changed","version":N,"seq":S}`, handed to `onChange`). A change the server
// could not push comes as the notice alone, and so does the room's position when the
// socket opens: the page fetches what it lacks then. A line of table talk comes as
// `{"type":"chat","line":{...}}`, handed to `onChat`. While the socket is down the client
// polls (`onChange(null)`: the page fetches), and reconnects with a growing delay.
//
// The socket alone is not trusted: when nothing has arrived for a while the client asks
// `{"type":"ping"}`, and the answer carries the room's version as the database has it,
// so a notice that went missing costs at most that while. A socket that does not answer
// is taken for dead: the client polls and reconnects as after any drop (socket.js).
//
// A socket the server cannot serve is closed with a code that says why; those codes end
// the link for good (no polling, no reconnecting), and the status tells the page which:
// "unauthorized" (4401: sign in again), "refused" (4403: this origin may not use the
// session on a socket; the API still answers, so polling goes on) or "gone" (4404: no
// such room).

import { wsUrl } from "./api.js";
import { FINAL_CLOSE, Socket } from "./socket.js";

const POLL_MS = 3000;
// Tests shorten the quiet check through a global set before the page loads.
const CHECK_MS = globalThis.ttLiveCheckMs ?? 10000;

/**
 * A change as the socket pushes it: the reader's view at `version` (what `GET state`
 * answers them), and the events it logged that they may see, `seq` after `after`.
 * @typedef {{ version: number, seq: number, after: number, events: { seq: number }[], view: any }} PushedView
 */

/** @returns {data is PushedView} */
function isPushedView(data) {
  return (
    Number.isInteger(data.version) &&
    Number.isInteger(data.seq) &&
    Number.isInteger(data.after) &&
    Array.isArray(data.events) &&
    typeof data.view === "object" &&
    data.view !== null
  );
}

export class RoomLive {
  /**
   * @param {string} code The room's code.
   * @param {(version: number | null, seq?: number) => void} onChange Where the room stands
   *   (null: poll, it may have changed).
   * @param {(status: string) => void} [onStatus] "connecting", "live", "polling", "unauthorized", "refused" or "gone".
   * @param {(pushed: PushedView) => void} [onView] A change pushed with the reader's view.
   * @param {(line: any) => void} [onChat] A line of table talk this reader reads (chat.js).
   */
  constructor(code, onChange, onStatus = () => {}, onView = undefined, onChat = undefined) {
    this.code = code;
    this.onChange = onChange;
    this.onStatus = onStatus;
    this.onView = onView;
    this.onChat = onChat;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pollTimer = undefined;
    /** @type {number | undefined} */
    this.closeCode = undefined;
    this.stopped = false;
    this.status = "connecting";
    // The link is live at the server's first notice, not at the handshake: a socket the
    // server refuses opens too, and is closed at once with the reason.
    this.socket = new Socket({
      url: () => wsUrl(`ws/rooms/${encodeURIComponent(this.code)}/`),
      checkMs: CHECK_MS,
      onConnecting: () => this.setStatus("connecting"),
      onUp: () => {
        this.stopPolling();
        this.setStatus("live");
      },
      // The first message after (re)connecting carries the current version: catching up is
      // the same path, and so is the answer to a check.
      onMessage: (data) => {
        if (data.type === "view" && isPushedView(data)) this.onView?.(data);
        else if (data.type === "chat") this.onChat?.(data.line);
        else if ((data.type === "changed" || data.type === "pong") && Number.isInteger(data.version)) {
          this.onChange(data.version, Number.isInteger(data.seq) ? data.seq : undefined);
        }
      },
      onDown: () => {
        this.startPolling();
        this.setStatus("polling");
      },
      // Retrying cannot help: stop here, polling included, and let the page say why.
      onFinal: (code) => {
        this.stop();
        this.closeCode = code;
        this.setStatus(FINAL_CLOSE[code]);
      },
    });
  }

  start() {
    this.socket.start();
    return this;
  }

  stop() {
    this.stopped = true;
    this.socket.stop();
    this.stopPolling();
  }

  setStatus(status) {
    this.status = status;
    this.onStatus(status);
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
    this.pollTimer = undefined;
  }
}
