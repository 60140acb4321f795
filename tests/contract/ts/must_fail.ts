// The negative control: tsc must refuse each line marked `refused`, and only those, so the
// checks of the player and of open_values.ts cannot pass for types that say nothing.

import type { paths } from "./schema.js";

type ActionRequest = paths["/api/v1/rooms/{code}/actions"]["post"]["requestBody"]["content"]["application/json"];

export const right: ActionRequest = { version: 3, action: { type: "play", card: "QS" } };
export const versionAsText: ActionRequest = { version: "3", action: { type: "play", card: "QS" } }; // refused
export const noSuchAction: ActionRequest = { version: 3, action: { type: "fly" } }; // refused
