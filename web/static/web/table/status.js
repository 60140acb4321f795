// The table's head and its turn line: the room and the live link, whose turn it is, the
// turn's clock and the player's own idle clock, and the turn said once to screen readers.

import { h } from "../dom.js";
import { listNames } from "../format.js";

/** @typedef {import("../table.js").TableView} TableView */

// The player's own idle clock (abandon_deadline: when, if they do not act, they will
// have kept the table waiting abandon_seconds in all), shown when it runs out before
// the turn does: then it, not the turn clock, is what ends their game. What happens
// then is the room's on_abandon, said for this player.
/** @param {TableView} table */
export function idleClock(table, view) {
  if (view.status !== "playing" || !view.abandon_deadline) return null;
  if (view.deadline && Date.parse(view.abandon_deadline) >= Date.parse(view.deadline)) return null;
  const me = view.you?.seat;
  // A computer player takes the seat (on_abandon: bot) only while another person plays
  // on; with nobody else, handing it over abandons the match all the same.
  const others = (view.seats || []).some((s, i) => i !== me && s.user && !s.is_bot);
  const toBot = table.ctx.room?.options?.on_abandon === "bot" && others;
  return toBot
    ? { kind: "bot", what: "a computer player takes your seat", after: "before a computer player takes your seat" }
    : { kind: "end", what: "the match is abandoned", after: "before the match is abandoned" };
}

// Turns are announced once each, in a region that outlives the re-renders (one that is
// rebuilt with the table is either read out at every change or not at all).
/** @param {TableView} table */
export function announce(table, view, text) {
  const key = `${view.round}:${view.phase}:${(view.to_act || []).join(",")}:${view.tricks_played ?? ""}:${text}`;
  if (!text || key === table.announced) return;
  table.announced = key;
  let region = document.getElementById("turn-announcer");
  if (!region) {
    region = /** @type {HTMLElement} */ (h("div", { id: "turn-announcer", class: "sr-only", "aria-live": "polite", "aria-atomic": "true" }));
    document.body.append(region);
  }
  // The same words twice in a row (your turn, again) are read again only if they change.
  region.textContent = "";
  requestAnimationFrame(() => (region.textContent = text));
}

/** @param {TableView} table */
export function turnText(table, view, names, myTurn) {
  const game = table.game;
  const waiting = (view.to_act || []).filter((s) => s !== view.you?.seat);
  // Why it ended is the banner's to say, in the server's words.
  if (view.status === "abandoned") return "The match was abandoned.";
  if (view.status === "closed") return "The room was closed.";
  if (view.phase === "match_over" || view.status === "finished") return "The match is over.";
  if (myTurn) return game.yourTurnText?.(view, names) ?? "Your turn.";
  if (view.phase === "round_over") {
    return waiting.length ? `The hand is over. Waiting for ${listNames(waiting, names)}.` : "The hand is over.";
  }
  if (waiting.length) return `Waiting for ${listNames(waiting, names)}.`;
  return "";
}

export function head(view, extras) {
  const title = `${extras.catalogue?.name ?? view.game}${view.round ? ` · hand ${view.round}` : ""}`;
  return h(
    "header",
    { class: "table-head" },
    h("h1", {}, title),
    h("p", { class: "meta" }, `Room ${view.code} · updates: `, h("span", { class: "live-status", "data-live": "", title: "How this page hears of changes" }, extras.liveStatus)),
  );
}

// Whose turn it is and the time left stay in view (sticky) while the player scrolls to
// their hand, the results or the log; so does the idle clock when it comes first.
export function turnLine(view, line, myTurn, idle) {
  const showClock = view.deadline && view.status === "playing" && (view.to_act || []).length > 0;
  // Between hands the clock is the pause: when it runs out the next hand is dealt.
  const clock = !showClock
    ? null
    : view.phase === "round_over"
      ? h("span", { class: "clock" }, " The next hand starts by itself in ", h("span", { class: "nowrap" }, h("span", { "data-countdown": "" }), "."))
      : h("span", { class: "clock" }, " · ", h("span", { class: "nowrap" }, h("span", { "data-countdown": "" }), " left"));
  const idleClock = idle
    ? h("span", { class: "idle-clock", "data-idle": idle.kind }, h("span", { class: "nowrap", "data-idle-countdown": "" }), ` ${idle.after}`)
    : null;
  return h("p", { class: `turn-line${myTurn ? " mine" : ""}` }, h("span", { class: "turn-text" }, line), clock, idleClock);
}
