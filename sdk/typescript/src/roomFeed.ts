// The room socket (`ws/rooms/{code}/`), with catch-up as api/asyncapi.yaml describes it.
//
// The feed keeps the `seq` of the last event it has read. A `view` frame whose `after` is
// that seq carries the change's events: they are taken as they are. Any other notice (a
// `changed`, a `pong`, a `view` after a gap) whose `seq` is greater is caught up over
// HTTP: `events?after=<seq>`, following `Link: rel="next"` until none is left. After a
// drop the socket is opened again (after a growing pause) and its opening notice says at
// once whether anything was missed: every event comes once, in order, none missing.
// A quiet socket is pinged after `quiet` seconds, so that a lost notice is noticed too.
// Closes that reconnecting cannot cure (4401, 4403, 4404) throw SocketRefused. After any
// other close the feed waits before reconnecting: a random time between 0 and a ceiling
// that starts at `pause` seconds and doubles with each attempt that was not served, up to
// `longestPause` (exponential backoff with full jitter), so that clients a busy server
// refused (1013 `try again later`, 4409 `too many sockets`, 4429 `rate limited`) do not
// come back together; a socket that was served starts the waits again.
//
// Node 20 has no global WebSocket: the `ws` package's stands in, unless the options give
// a constructor (a browser's WebSocket, Node 22's).

import NodeWebSocket from "ws";

import { SocketRefused } from "./errors.js";
import type { Event, GameServer, View } from "./server.js";

/** What the feed uses of a WebSocket: the browser's and `ws`'s both have it. */
export interface WebSocketLike {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface RoomFeedOptions {
  lastSeq?: number; // the last event already read (0: the whole log first)
  views?: boolean; // the server pushes your view with each change (default true)
  quiet?: number; // seconds without a frame before a ping
  pause?: number; // the first ceiling of the wait before reconnecting, in seconds (1)
  longestPause?: number; // the highest ceiling, in seconds (30)
  WebSocket?: WebSocketConstructor;
}

/** The room moved to `version`; `events` are those you had not read, in order; `view` is
 * your new view when the server pushed it, else null (read it with GameServer.state). */
export interface RoomUpdate {
  version: number;
  seq: number;
  events: Event[];
  view: View | null;
}

interface Notice {
  type: string;
  version?: number;
  seq?: number;
  after?: number;
  events?: Event[];
  view?: View;
}

type Item = { kind: "open" } | { kind: "message"; notice: Notice } | { kind: "close"; code: number; reason: string };

const REFUSED = new Set([4401, 4403, 4404]);

/** The wait in seconds before reconnecting after `attempt` attempts in a row were not served. */
export function fullJitter(attempt: number, first: number, longest: number, random = Math.random): number {
  return random() * Math.min(longest, first * 2 ** attempt);
}

export class RoomFeed implements AsyncIterable<RoomUpdate> {
  lastSeq: number;
  version = -1;
  connections = 0;
  private readonly url: string;
  private readonly quiet: number;
  private readonly pause: number;
  private readonly longestPause: number;
  private readonly WebSocket: WebSocketConstructor;
  private socket: WebSocketLike | null = null;
  private closed = false;
  private items: Item[] = [];
  private wake: (() => void) | null = null;

  constructor(
    private readonly server: GameServer,
    private readonly code: string,
    options: RoomFeedOptions = {},
  ) {
    this.lastSeq = options.lastSeq ?? 0;
    this.quiet = options.quiet ?? 10;
    this.pause = options.pause ?? 1;
    this.longestPause = options.longestPause ?? 30;
    // `ws`'s class has the members WebSocketLike names, with its own richer event types.
    this.WebSocket = options.WebSocket ?? (NodeWebSocket as unknown as WebSocketConstructor);
    const url = new URL(`${server.baseUrl}/ws/rooms/${code}/`);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("token", server.token ?? "");
    if (options.views === false) url.searchParams.set("views", "0");
    this.url = url.toString();
  }

  /** Every event after `lastSeq`, page by page; `lastSeq` moves to the last. */
  async catchUp(): Promise<Event[]> {
    const events = (await this.server.events(this.code, this.lastSeq)).filter((e) => e.seq > this.lastSeq);
    const last = events.at(-1);
    if (last !== undefined) this.lastSeq = last.seq;
    return events;
  }

  private async take(notice: Notice): Promise<RoomUpdate | null> {
    if (!["changed", "view", "pong"].includes(notice.type)) return null; // a later v1's message
    const version = notice.version ?? -1;
    const seq = notice.seq ?? 0;
    let events: Event[] = [];
    if (notice.type === "view" && (notice.after ?? Infinity) <= this.lastSeq) {
      events = (notice.events ?? []).filter((e) => e.seq > this.lastSeq);
    } else if (seq > this.lastSeq) {
      events = await this.catchUp();
    }
    // `seq` counts the room's whole log: a reader's events may skip numbers (others'
    // private events), so the notice's seq is where the next catch-up starts.
    this.lastSeq = Math.max(this.lastSeq, seq);
    if (version <= this.version && events.length === 0) return null;
    this.version = Math.max(this.version, version);
    return { version, seq, events, view: notice.type === "view" ? (notice.view ?? null) : null };
  }

  private push(item: Item): void {
    this.items.push(item);
    this.wake?.();
  }

  /** The next item, or null after `seconds` without one. */
  private async next(seconds: number): Promise<Item | null> {
    if (this.items.length === 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, seconds * 1000);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
    return this.items.shift() ?? null;
  }

  private open(): WebSocketLike {
    const socket = new this.WebSocket(this.url);
    this.items = [];
    socket.onopen = () => this.push({ kind: "open" });
    socket.onmessage = (event) => {
      // A frame of the room socket: a JSON object with `type` (api/asyncapi.yaml).
      this.push({ kind: "message", notice: JSON.parse(String(event.data)) as Notice });
    };
    socket.onclose = (event) => this.push({ kind: "close", code: event.code, reason: event.reason });
    socket.onerror = () => undefined; // a close follows every error
    return socket;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<RoomUpdate> {
    let failures = 0;
    while (!this.closed) {
      const socket = this.open();
      this.socket = socket;
      for (;;) {
        const item = await this.next(this.quiet);
        if (this.closed) return;
        if (item === null) {
          socket.send(JSON.stringify({ type: "ping" }));
          continue;
        }
        if (item.kind === "open") {
          this.connections += 1;
          continue;
        }
        if (item.kind === "close") {
          if (REFUSED.has(item.code)) throw new SocketRefused(item.code, item.reason);
          // A socket refused for the load opens before it is closed: only a message says it was served.
          const wait = fullJitter(failures, this.pause, this.longestPause);
          failures += 1;
          await new Promise((resolve) => setTimeout(resolve, wait * 1000));
          break; // and reconnect
        }
        failures = 0;
        const update = await this.take(item.notice);
        if (update !== null) yield update;
      }
    }
  }

  /** Drops the connection as a network would (for trying the catch-up): the feed
   * reconnects and catches up by itself. */
  drop(): void {
    const socket = this.socket;
    if (socket !== null && "terminate" in socket && typeof socket.terminate === "function") {
      socket.terminate();
    } else {
      socket?.close();
    }
  }

  close(): void {
    this.closed = true;
    this.socket?.close(1000);
    this.wake?.();
  }
}
