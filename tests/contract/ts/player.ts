// One person playing a whole match through a client generated from the served OpenAPI
// document: the types are openapi-typescript's (./schema.ts, which
// tests/contract/test_typescript_client.py writes at test time from /api/schema/), the
// requests openapi-fetch's. It signs up, creates a room, adds computer players, starts,
// then sends one of its view's legal actions at random, and another of the view that
// answers it, until the match is over.
//
// Run as `node player.js '<Config as JSON>'`. Every answer it reads is printed on stdout as
// one JSON line (Answer), for the test to hold to the document; anything unexpected is
// thrown, and Node exits non-zero.

import createClient, { type Middleware } from "openapi-fetch";

import type { paths } from "./schema.js";

// What the document's operations take and answer, by path: component names may change, the
// operations played through may not.
type NewRoom = paths["/api/v1/rooms/"]["post"]["requestBody"]["content"]["application/json"];
type View = paths["/api/v1/rooms/{code}/state"]["get"]["responses"][200]["content"]["application/json"];
type Action = paths["/api/v1/rooms/{code}/actions"]["post"]["requestBody"]["content"]["application/json"]["action"];
// The games and the action types this player knows. The document leaves both open (a
// later v1 may add games and action types: `OtherGameView`, `OtherLegalAction`, whose
// `game` and `type` are any string), so the player narrows to what it knows first, and
// leaves anything else alone.
type KnownGame = "hearts" | "moon" | "kali_tidi";
type ViewOf<G extends KnownGame> = Extract<View, { game: G }>;
// A union's members but its fallback, the one whose `type` is a plain string.
type Known<L> = L extends { type: infer T } ? (string extends T ? never : L) : never;
type LegalIn<V> = V extends { you?: { legal_actions: (infer L)[] } } ? Known<L> : never;
type LegalOf<G extends KnownGame> = LegalIn<ViewOf<G>>;

interface Config {
  base: string;
  game: NewRoom["game"];
  options: NonNullable<NewRoom["options"]>;
  computers: number;
  seed: number;
}

interface Answer {
  method: string;
  path: string; // the document's path, as the operation names it (`{code}`)
  url: string; // the path asked for
  status: number;
  content_type: string | null;
  headers: Record<string, string>;
  body: unknown;
}

// Enough for any match at its default target (Kali Tidi to 500 with seven players is the
// longest); a loop that makes no progress fails instead of hanging.
const MAX_STEPS = 5000;

const [, , argument] = process.argv;
if (argument === undefined) {
  throw new Error("usage: node player.js '<config as JSON>'");
}
// JSON.parse answers `any`: the command line is the test's own, written for Config.
const config: Config = JSON.parse(argument);
const random = mulberry32(config.seed);

const printAnswers: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    const contentType = response.headers.get("content-type");
    const text = await response.clone().text();
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body: unknown = contentType?.includes("json") && text !== "" ? JSON.parse(text) : text;
    const answer: Answer = {
      method: request.method,
      path: schemaPath,
      url: new URL(request.url).pathname,
      status: response.status,
      content_type: contentType,
      headers,
      body,
    };
    console.log(JSON.stringify(answer));
    return undefined;
  },
};

/** The parsed body of an answer with `status`, or the answer thrown. */
function expect<T>(answer: { data?: T; error?: unknown; response: Response }, status: number): T {
  if (answer.response.status !== status || answer.data === undefined) {
    const what = `${answer.response.status} ${JSON.stringify(answer.error)}`;
    throw new Error(`${answer.response.url}: expected ${status}, got ${what}`);
  }
  return answer.data;
}

/** A field that the legal action of this type carries: the document types it optional. */
function need<T>(value: T | undefined, legal: { type: string }, field: string): T {
  if (value === undefined) {
    throw new Error(`a legal action ${JSON.stringify(legal)} without its ${field}`);
  }
  return value;
}

/** A seeded generator of numbers in [0, 1): the same seed plays the same moves. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` different items of `items`, at random. */
function sample<T>(items: readonly T[], count: number): T[] {
  const pool = [...items];
  const picked: T[] = [];
  while (picked.length < count) {
    const [item] = pool.splice(Math.floor(random() * pool.length), 1);
    if (item === undefined) {
      throw new Error(`cannot pick ${count} of ${JSON.stringify(items)}`);
    }
    picked.push(item);
  }
  return picked;
}

/** The view of a room of `game` once its first hand is dealt (not the lobby's, nor a
 * view of a game this player does not know). */
function isViewOf<G extends KnownGame>(view: View, game: G): view is ViewOf<G> {
  return view.game === game && view.phase !== "lobby";
}

/** One of your legal actions at random among the types listed in `known` (others are
 * ones a later v1 added: left alone), but a claim: one at random is mostly refused. */
function anyLegal<L extends { type: string }>(
  you: { legal_actions: readonly { type: string }[] } | undefined,
  known: readonly L["type"][],
): L {
  const listed: readonly string[] = known;
  const playable = (you?.legal_actions ?? []).filter(
    (legal): legal is L => listed.includes(legal.type) && legal.type !== "claim",
  );
  const [legal] = sample(playable, 1);
  if (legal === undefined) {
    throw new Error(`nothing to do but ${JSON.stringify(you?.legal_actions)}`);
  }
  return legal;
}

// A legal action without `choices` is a whole action, ready to send; a template (`choices`
// and `count`) is sent as `count` of its `choices` in `cards`, with its other fields. Each
// body is built field by field: tsc holds it to the document's action of that type. The
// switches have no default: one that misses a type the document lists fails to compile
// (noImplicitReturns), whether the legal actions are typed as one object or a union.

function heartsAction(legal: LegalOf<"hearts">): Action {
  switch (legal.type) {
    case "pass_cards": {
      const cards = sample(need(legal.choices, legal, "choices"), need(legal.count, legal, "count"));
      const to = "to" in legal ? legal.to : undefined;
      // The funky pass: `cards[i]` goes to seat `to[i]`, `to` as the template gives it.
      return to === undefined ? { type: "pass_cards", cards } : { type: "pass_cards", cards, to };
    }
    case "play":
      return { type: "play", card: need(legal.card, legal, "card") };
    case "moon_choice":
      return { type: "moon_choice", choice: need(legal.choice, legal, "choice") };
    case "next_round":
      return { type: "next_round" };
    case "claim":
      return { type: "claim" };
  }
}

function moonAction(legal: LegalOf<"moon">): Action {
  switch (legal.type) {
    case "bid":
      return { type: "bid", value: need(legal.value, legal, "value") };
    case "pass":
      return { type: "pass" };
    case "trump":
      return { type: "trump", suit: need(legal.suit, legal, "suit") };
    case "widow": {
      const take = need(legal.take, legal, "take");
      const discard = "discard" in legal ? legal.discard : undefined;
      return discard === undefined ? { type: "widow", take } : { type: "widow", take, discard };
    }
    case "play":
      return { type: "play", tile: need(legal.tile, legal, "tile") };
    case "next_round":
      return { type: "next_round" };
    case "claim":
      return { type: "claim" };
  }
}

function kaliTidiAction(legal: LegalOf<"kali_tidi">): Action {
  switch (legal.type) {
    case "remove_cards":
    case "call_partners": {
      const cards = sample(need(legal.choices, legal, "choices"), need(legal.count, legal, "count"));
      return { type: legal.type, cards };
    }
    case "bid":
      return { type: "bid", value: need(legal.value, legal, "value") };
    case "pass":
      return { type: "pass" };
    case "trump":
      return { type: "trump", suit: need(legal.suit, legal, "suit") };
    case "play":
      return { type: "play", card: need(legal.card, legal, "card") };
    case "next_round":
      return { type: "next_round" };
    case "claim":
      return { type: "claim" };
  }
}

// Every action type of each game, for `anyLegal`; tsc refuses a type the game lacks, and
// the switches above refuse to compile while the document lists one they miss.
const HEARTS: readonly LegalOf<"hearts">["type"][] = ["pass_cards", "play", "moon_choice", "next_round", "claim"];
const MOON: readonly LegalOf<"moon">["type"][] = ["bid", "pass", "trump", "widow", "play", "next_round", "claim"];
const KALI_TIDI: readonly LegalOf<"kali_tidi">["type"][] = [
  "remove_cards",
  "call_partners",
  "bid",
  "pass",
  "trump",
  "play",
  "next_round",
  "claim",
];

function choose(view: View): Action {
  if (isViewOf(view, "hearts")) {
    return heartsAction(anyLegal(view.you, HEARTS));
  }
  if (isViewOf(view, "moon")) {
    return moonAction(anyLegal(view.you, MOON));
  }
  if (isViewOf(view, "kali_tidi")) {
    return kaliTidiAction(anyLegal(view.you, KALI_TIDI));
  }
  throw new Error(`a view of ${view.game} in phase ${view.phase}, which this player does not play`);
}

async function main(): Promise<void> {
  const anonymous = createClient<paths>({ baseUrl: config.base });
  anonymous.use(printAnswers);
  const username = `ts-${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const body = { username, password: "a-long-secret-9" };
  const account = expect(await anonymous.POST("/api/v1/auth/register", { body }), 201);

  const client = createClient<paths>({
    baseUrl: config.base,
    headers: { Authorization: `Bearer ${account.token}` },
  });
  client.use(printAnswers);
  const room = { game: config.game, options: config.options, public: false };
  const { code } = expect(await client.POST("/api/v1/rooms/", { body: room }), 201);
  const inRoom = { params: { path: { code } } };
  for (let i = 0; i < config.computers; i++) {
    expect(await client.POST("/api/v1/rooms/{code}/bots", inRoom), 201);
  }
  const lobby = expect(await client.GET("/api/v1/rooms/{code}/state", inRoom), 200);
  if (lobby.game !== config.game || lobby.phase !== "lobby") {
    throw new Error(`a new room of ${config.game} in ${lobby.game}'s phase ${lobby.phase}`);
  }
  let view = expect(await client.POST("/api/v1/rooms/{code}/start", inRoom), 200);
  // Each answer to an action is the new view; the last is read again as anyone would.
  for (let step = 0; view.status === "playing"; step++) {
    if (step === MAX_STEPS) {
      throw new Error(`the match did not end within ${MAX_STEPS} actions`);
    }
    const action = { version: view.version, action: choose(view) };
    view = expect(await client.POST("/api/v1/rooms/{code}/actions", { ...inRoom, body: action }), 200);
  }
  const final = expect(await client.GET("/api/v1/rooms/{code}/state", inRoom), 200);
  const over = "last_round" in final && final.last_round !== null && final.last_round.match_over === true;
  if (final.status !== "finished" || final.phase !== "match_over" || !over) {
    throw new Error(`the match ended ${final.status} in phase ${final.phase}`);
  }
}

await main();
