// Values that v1 may add (README, "The contract and its version": error codes, event types,
// and values of response fields that name things, as a game's phases): a client's types
// must take them, or a server that adds one breaks compiled clients. The lines marked
// `unknown` compile because the document leaves these values open; the others show that
// the types named here resolve.

import type { paths } from "./schema.js";

type Room = paths["/api/v1/rooms/{code}/state"]["get"];
type View = Room["responses"][200]["content"]["application/json"];
type ActionRefused = paths["/api/v1/rooms/{code}/actions"]["post"]["responses"][409]["content"]["application/json"];
type ErrorCode = ActionRefused["errors"][number]["code"];
type Event = paths["/api/v1/rooms/{code}/events"]["get"]["responses"][200]["content"]["application/json"][number];

export const code: ErrorCode = "stale_version";
export const eventType: Event["type"] = "play";
export const phase: View["phase"] = "play";

export const newCode: ErrorCode = "a_code_added_later"; // unknown
export const newEventType: Event["type"] = "an_event_added_later"; // unknown
export const newPhase: View["phase"] = "a_phase_added_later"; // unknown
