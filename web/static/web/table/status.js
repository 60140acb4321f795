// The table's head and its turn line: the room and the live link, whose turn it is, the
// turn's clock and the player's own idle clock, and the turn said once to screen readers.
//
// A clock that has run out says what comes next ("any moment now") until the server
// acts on it: the server looks at overdue tables every few seconds, and a clock that sat
// at 0:00 meanwhile would read as stuck.

import { h } from "../dom.js";
import { listNames } from "../format.js";
import { gettext, interpolate } from "../i18n.js";

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
  // `warning` is said after the turn, once; `after` follows the clock, whose place in it
  // is `%(time)s`; `due` is said once the clock has run out.
  return toBot
    ? {
        kind: "bot",
        warning: gettext("If you do not act, a computer player takes your seat before this turn's time runs out."),
        // Translators: %(time)s is a countdown ("4:59", "1 h 05 min").
        after: gettext("%(time)s before a computer player takes your seat"),
        due: gettext("A computer player takes your seat any moment now"),
      }
    : {
        kind: "end",
        warning: gettext("If you do not act, the match is abandoned before this turn's time runs out."),
        // Translators: %(time)s is a countdown ("4:59", "1 h 05 min").
        after: gettext("%(time)s before the match is abandoned"),
        due: gettext("The match is abandoned any moment now"),
      };
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
  if (view.status === "abandoned") return gettext("The match was abandoned.");
  if (view.status === "closed") return gettext("The room was closed.");
  if (view.phase === "match_over" || view.status === "finished") return gettext("The match is over.");
  // The seat is still the player's while a computer player keeps it for them (they were
  // away too long, on_abandon: bot): the page offers it back above the table.
  if (view.status === "playing" && view.you && view.seats?.[view.you.seat]?.is_bot) {
    return gettext("A computer player is playing for you: take your seat back to play.");
  }
  if (myTurn) return game.yourTurnText?.(view, names) ?? gettext("Your turn.");
  if (view.phase === "round_over") {
    return waiting.length
      ? interpolate(gettext("The hand is over. Waiting for %(names)s."), { names: listNames(waiting, names) })
      : gettext("The hand is over.");
  }
  if (waiting.length) return interpolate(gettext("Waiting for %(names)s."), { names: listNames(waiting, names) });
  return "";
}

export function head(view, extras) {
  const game = extras.catalogue?.name ?? view.game;
  // Translators: the table's heading: the game's name and the number of the hand being played ("Hearts · hand 3").
  const title = view.round ? interpolate(gettext("%(game)s · hand %(round)s"), { game, round: view.round }) : game;
  return h(
    "header",
    { class: "table-head" },
    h("h1", {}, title),
    h(
      "p",
      { class: "meta" },
      // Translators: followed by how the page hears of the room's changes ("live", "every few seconds"...).
      interpolate(gettext("Room %(code)s · updates: "), { code: view.code }),
      h("span", { class: "live-status", "data-live": "", title: gettext("How this page hears of changes") }, extras.liveStatus),
    ),
  );
}

// Whether a deadline has come, as its clock shows it: from 0:00 on (format.js countdown).
function due(deadline, now = Date.now()) {
  return Boolean(deadline) && Math.round((Date.parse(deadline) - now) / 1000) <= 0;
}

// A clock's words: its countdown while it runs (`running`, around the countdown's span),
// what comes next once it has run out (`over`). `data-when-due` keeps those words for
// `clocksDue`, which puts them in place when the clock runs out between two draws.
function clockWords(attrs, deadline, running, over) {
  if (due(deadline)) return h("span", attrs, over);
  return h("span", { ...attrs, "data-when-due": over }, running);
}

// A phrase with the turn's countdown in it (`%(time)s`), after `lead`, as nodes: the
// countdown kept on one line with the word or the stop that follows it ("0:42 left",
// "in 0:05."), the rest of the phrase around them.
function aroundCountdown(lead, phrase) {
  const [before, after = ""] = phrase.split("%(time)s");
  const tail = /^\s?\S*/.exec(after)?.[0] ?? "";
  return [`${lead}${before}`, h("span", { class: "nowrap" }, h("span", { "data-countdown": "" }), tail), after.slice(tail.length) || null];
}

// Whose turn it is and the time left stay in view (sticky) while the player scrolls to
// their hand, the results or the log; so does the idle clock when it comes first.
export function turnLine(view, line, myTurn, idle) {
  const showClock = view.deadline && view.status === "playing" && (view.to_act || []).length > 0;
  const attrs = { class: "clock", "data-clock": "turn" };
  // Between hands the clock is the pause: when it runs out the next hand is dealt. In a
  // turn, the server moves for whoever has not (a computer player's choice).
  const clock = !showClock
    ? null
    : view.phase === "round_over"
      ? clockWords(
          attrs,
          view.deadline,
          // Translators: %(time)s is a countdown ("0:42").
          aroundCountdown(" ", gettext("The next hand starts by itself in %(time)s.")),
          ` ${gettext("The next hand starts any moment now.")}`,
        )
      : clockWords(
          attrs,
          view.deadline,
          // Translators: the time left for the turn; %(time)s is a countdown ("0:42").
          aroundCountdown(" · ", gettext("%(time)s left")),
          ` · ${myTurn ? gettext("time is up: the server plays for you any moment now") : gettext("time is up: the server plays for them any moment now")}`,
        );
  // The idle countdown is its own span (tick writes it whole): the phrase goes around it.
  const idleClock = idle
    ? clockWords(
        { class: "idle-clock", "data-idle": idle.kind, "data-clock": "idle" },
        view.abandon_deadline,
        idle.after.split("%(time)s").flatMap((words, k) => [k ? h("span", { class: "nowrap", "data-idle-countdown": "" }) : null, words || null]),
        idle.due,
      )
    : null;
  return h("p", { class: `turn-line${myTurn ? " mine" : ""}` }, h("span", { class: "turn-text" }, line), clock, idleClock);
}

// Each second, after the countdowns (TableView.tick): a clock that has just run out says
// its words in place of 0:00, and its countdown goes (tick finds none to set).
export function clocksDue(root, view) {
  for (const el of root.querySelectorAll("[data-when-due]")) {
    if (!(el instanceof HTMLElement)) continue;
    const deadline = el.dataset.clock === "idle" ? view.abandon_deadline : view.deadline;
    if (!due(deadline)) continue;
    el.textContent = el.dataset.whenDue ?? "";
    el.removeAttribute("data-when-due");
  }
}
