// Narrowing past the fallbacks. The document keeps every union open to what a later v1
// adds (a game, an event type: `OtherGameView`, `OtherEvent`, whose field is any string),
// so `view.game === "hearts"` alone leaves the fallback among the candidates; these guards
// keep only the members that name the value.

import type { Event, View } from "./server.js";

/** The view is of `game` (its lobby's or its play's). */
export function isGameView<G extends string>(view: View, game: G): view is Extract<View, { game: G }> {
  return view.game === game;
}

/** The event is of `type` (each game's, where their fields differ). */
export function isEvent<T extends string>(event: Event, type: T): event is Extract<Event, { type: T }> {
  return event.type === type;
}
