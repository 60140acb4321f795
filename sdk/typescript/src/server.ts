// GameServer: the calls a player's program makes, through openapi-fetch and the types
// openapi-typescript generates from the document (./generated/schema.ts). Every request
// goes through fetchWithRetries (./retries.ts), and `play` sends each move with an
// `Idempotency-Key`, so that a move retried after a 429, a 503 or a dropped connection is
// applied once. `api` is the typed client itself, for every other operation. The types
// below are taken by path and operation, which v1 keeps, not by component names.

import createClient, { type Client } from "openapi-fetch";

import { ApiError } from "./errors.js";
import type { paths } from "./generated/schema.js";
import { fetchWithRetries, type RetryOptions } from "./retries.js";
import { RoomFeed, type RoomFeedOptions } from "./roomFeed.js";

export type NewRoom = paths["/api/v1/rooms/"]["post"]["requestBody"]["content"]["application/json"];
export type Game = NewRoom["game"];
export type View = paths["/api/v1/rooms/{code}/state"]["get"]["responses"][200]["content"]["application/json"];
export type ActionRequest = paths["/api/v1/rooms/{code}/actions"]["post"]["requestBody"]["content"]["application/json"];
export type Action = ActionRequest["action"];
export type Event = paths["/api/v1/rooms/{code}/events"]["get"]["responses"][200]["content"]["application/json"][number];

export interface GameServerOptions {
  token?: string;
  retry?: RetryOptions;
}

const NEXT = /<([^>]+)>;\s*rel="next"/;

/** The parsed body of an answer with one of `statuses`, else its error thrown. */
function expect<T>(answer: { data?: T; error?: unknown; response: Response }, ...statuses: number[]): T {
  if (!statuses.includes(answer.response.status) || answer.data === undefined) {
    const { response } = answer;
    throw ApiError.of(response.status, answer.error ?? null, response.headers.get("Retry-After"));
  }
  return answer.data;
}

export class GameServer {
  readonly baseUrl: string;
  readonly api: Client<paths>;
  token: string | null;

  constructor(baseUrl: string, options: GameServerOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.token = options.token ?? null;
    this.api = createClient<paths>({ baseUrl: this.baseUrl, fetch: fetchWithRetries(options.retry) });
    this.api.use({
      onRequest: ({ request }) => {
        // The document's `tokenAuth` is a bearer token; `Token <token>` works too.
        if (this.token !== null) request.headers.set("Authorization", `Bearer ${this.token}`);
        return request;
      },
    });
  }

  async register(username: string, password: string, displayName?: string): Promise<string> {
    const body = displayName === undefined ? { username, password } : { username, password, display_name: displayName };
    this.token = expect(await this.api.POST("/api/v1/auth/register", { body }), 201).token;
    return this.token;
  }

  /** With the password (and, for an account with two-step sign-in, `code`: the
   * authenticator's 6 digits or a recovery code). Each sign-in is a device of its own. */
  async signIn(username: string, password: string, code?: string): Promise<string> {
    const body = code === undefined ? { username, password } : { username, password, code };
    this.token = expect(await this.api.POST("/api/v1/auth/token", { body }), 200).token;
    return this.token;
  }

  async signInAsGuest(displayName: string): Promise<string> {
    const body = { display_name: displayName };
    this.token = expect(await this.api.POST("/api/v1/auth/guest", { body }), 201).token;
    return this.token;
  }

  /** Ends this sign-in: its token answers 401 from now on. */
  async signOut(): Promise<void> {
    const answer = await this.api.POST("/api/v1/auth/logout");
    if (answer.response.status !== 204) {
      throw ApiError.of(answer.response.status, answer.error ?? null, answer.response.headers.get("Retry-After"));
    }
    this.token = null;
  }

  /** A new room with you in its first seat (`{game, options, public}`, the options those
   * of its game); its code. */
  async createRoom(room: NewRoom): Promise<string> {
    return expect(await this.api.POST("/api/v1/rooms/", { body: room }), 201).code;
  }

  async addComputer(code: string): Promise<void> {
    expect(await this.api.POST("/api/v1/rooms/{code}/bots", { params: { path: { code } } }), 201);
  }

  /** Deals the first hand; your view. */
  async start(code: string): Promise<View> {
    return expect(await this.api.POST("/api/v1/rooms/{code}/start", { params: { path: { code } } }), 200);
  }

  /** Your view of the room: the lobby's before the first deal, then its game's. */
  async state(code: string): Promise<View> {
    return expect(await this.api.GET("/api/v1/rooms/{code}/state", { params: { path: { code } } }), 200);
  }

  /** Sends `action` as of the view at `version`; your new view. A new key is made for
   * each move unless you give one: give the same key to send the same move again
   * yourself, and the server answers its first answer instead of playing it twice. */
  async play(code: string, version: number, action: Action, idempotencyKey?: string): Promise<View> {
    const header = { "Idempotency-Key": idempotencyKey ?? crypto.randomUUID() };
    const answer = await this.api.POST("/api/v1/rooms/{code}/actions", {
      params: { path: { code }, header },
      body: { version, action },
    });
    return expect(answer, 200);
  }

  /** The room's log as you may read it, after the event numbered `after`, every page (as
   * the `Link` header leads). */
  async events(code: string, after = 0): Promise<Event[]> {
    const events: Event[] = [];
    let query: { after: number; limit?: number } | null = { after };
    while (query !== null) {
      const answer = await this.api.GET("/api/v1/rooms/{code}/events", { params: { path: { code }, query } });
      events.push(...expect(answer, 200));
      const next = NEXT.exec(answer.response.headers.get("Link") ?? "");
      if (next?.[1] === undefined) {
        query = null;
      } else {
        const params = new URL(next[1], this.baseUrl).searchParams;
        query = { after: Number(params.get("after")), limit: Number(params.get("limit") ?? 500) };
      }
    }
    return events;
  }

  /** The room's socket as you, with catch-up (./roomFeed.ts). */
  feed(code: string, options: RoomFeedOptions = {}): RoomFeed {
    if (this.token === null) throw new Error("not signed in: the room socket needs a token");
    return new RoomFeed(this, code, options);
  }
}
