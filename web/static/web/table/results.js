// After a hand: its result, the score sheet of every hand, and the log of what happened.

import { h } from "../dom.js";
import { revealedSeeds } from "../fair.js";
import { describeCommonEvent, describeSharedEvent, signed } from "../format.js";
import { gettext, interpolate, ngettext } from "../i18n.js";

/** @typedef {import("../table.js").TableView} TableView */
/** @typedef {import("../games/renderer.js").GameRenderer} GameRenderer */

/** @param {TableView} table */
export function resultsArea(table, view, names, extras) {
  const game = table.game;
  const last = view.last_round;
  const rounds = extras.rounds ?? [];
  const parts = [];
  if (last) {
    const round = rounds.find((r) => r.round === (last.round ?? view.round));
    parts.push(
      h(
        "section",
        { class: "results", "aria-label": gettext("Result of the hand") },
        // Translators: %(n)s is the hand's number in the match.
        h("h2", {}, interpolate(gettext("Hand %(n)s result"), { n: last.round ?? view.round })),
        dealCheck(round),
        revealedSeeds(round?.fairness),
        handResult(game, last, names, view, extras.events ?? [], table.ctx),
      ),
    );
  }
  if (rounds.length) parts.push(scoreSheet(game, rounds, names, Boolean(last)));
  return parts.length ? h("div", { class: "result-area" }, parts) : null;
}

// A scored hand in the game's words and a table of every seat's score: at the table
// after the hand, and in the replay at the hand's end.
/** @param {GameRenderer} game */
export function handResult(game, last, names, view, events, ctx) {
  const columns = game.resultColumns?.(last, view) ?? defaultResultColumns(last);
  const rows = names.map((name, i) => h("tr", { "data-seat": i }, h("th", { scope: "row" }, name), columns.map((c) => h("td", {}, c.cell(i)))));
  return [
    game.resultSummary?.(last, names, view, events, ctx) ?? null,
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: "result-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, gettext("Player")), columns.map((c) => h("th", { scope: "col" }, c.head)))),
        h("tbody", {}, rows),
      ),
    ),
  ];
}

// Every hand scored so far, each with whether the browser found its deal fair.
/** @param {GameRenderer} game */
function scoreSheet(game, rounds, names, open) {
  const seats = names.length;
  return h(
    "details",
    { class: "score-sheet", open },
    h("summary", {}, interpolate(ngettext("Score sheet (%(n)s hand)", "Score sheet (%(n)s hands)", rounds.length), { n: rounds.length })),
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: seats > 4 ? "many" : null },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            // Translators: "#" heads the column of the hands' numbers, "Hand" says it in words.
            h("th", { scope: "col", class: "hand-no" }, h("abbr", { title: gettext("Hand") }, gettext("#"))),
            // Translators: what the bidder undertook in a hand: their bid, trumps, and whether they made it.
            game.roundColumns ? h("th", { scope: "col", class: "contract" }, gettext("Contract")) : null,
            names.map((name) => h("th", { scope: "col", class: "player" }, h("span", {}, name))),
          ),
        ),
        h(
          "tbody",
          {},
          rounds.map((r) => [
            // On a phone the contract takes a row of its own above the scores (the
            // style sheet shows one of the two), leaving the width to the players.
            game.roundColumns ? h("tr", { class: "contract-row" }, h("td", { colspan: seats + 2 }, `${r.round}. `, game.roundColumns(r, names))) : null,
            h(
              "tr",
              {},
              h("th", { scope: "row" }, r.round, sheetCheck(r.verified)),
              game.roundColumns ? h("td", { class: "contract" }, game.roundColumns(r, names)) : null,
              names.map((_, i) => h("td", {}, game.sheetCell?.(r, i) ?? [`${signed(r.points?.[i])} `, h("small", {}, `(${r.scores?.[i]})`)])),
            ),
          ]),
        ),
      ),
    ),
  );
}

// A hand's deal check on its row of the sheet: ✓ verified, ✗ not; nothing where it
// could not be checked. Said in words to a screen reader.
function sheetCheck(verified) {
  if (verified === true) return h("span", { class: "deal-check ok" }, " ✓", h("span", { class: "sr-only" }, ` ${gettext("deal verified")}`));
  if (verified === false) {
    return h("span", { class: "deal-check bad" }, " ✗", h("span", { class: "sr-only" }, ` ${gettext("the deal did not verify")}`));
  }
  return null;
}

/** @param {TableView} table */
export function eventLog(table, events, names) {
  const game = table.game;
  const lines = [];
  for (const e of events ?? []) {
    const text = eventText(game, e, names);
    if (text) lines.push(h("li", { "data-seq": e.seq }, text));
  }
  if (!lines.length) return null;
  return h(
    "details",
    { class: "log", open: true },
    h("summary", {}, gettext("What happened")),
    // It scrolls: a keyboard reaches it to scroll it too.
    h("ol", { class: "log-lines", reversed: true, tabindex: "0", "aria-label": gettext("What happened, latest first") }, lines.slice(-40).reverse()),
  );
}

// One line of the log (and of a replay's step): what was passed, called or named in
// the same words in every game (describeSharedEvent), then the game's own words for its
// events, else the shared ones; "" for events deliberately left out, null for an event
// nobody knows.
/** @param {GameRenderer} game */
export function eventText(game, e, names) {
  return describeSharedEvent(e, names) ?? game.describeEvent?.(e, names) ?? describeCommonEvent(e, names);
}

function defaultResultColumns(last) {
  const columns = [];
  // Translators: the tricks each player took this hand, in the result table.
  if (last.tricks) columns.push({ head: gettext("Tricks"), cell: (i) => last.tricks[i] });
  // Translators: the points of the hand just played, in the result table.
  columns.push({ head: gettext("This hand"), cell: (i) => signed(last.points?.[i]) });
  // Translators: the score so far, in the result table.
  columns.push({ head: gettext("Total"), cell: (i) => last.scores?.[i] });
  return columns;
}

// Whether the browser found the hand's revealed deal to be the one its seeds give
// (web/static/web/fairness.js); nothing for hands that cannot be checked.
function dealCheck(round) {
  if (round?.verified === true) {
    return h(
      "p",
      { class: "deal-check ok", title: gettext("The revealed server seed matches its commitment and gives these deals") },
      gettext("Deal verified ✓"),
    );
  }
  if (round?.verified === false) return h("p", { class: "deal-check bad", role: "alert" }, gettext("Deal NOT verified ✗"));
  return null;
}
