// What the game says about the table (bid, trumps...) and the rules in force.

import { h } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";
import { duration, humanize } from "../options.js";

/** @typedef {import("../table.js").TableView} TableView */

/** @param {TableView} table */
export function info(table, view, names) {
  const items = table.game.info?.(view, names, table.ctx) ?? [];
  if (!items.length) return null;
  return h(
    "dl",
    { class: "info" },
    items.map(([label, value]) => h("div", { class: "info-item" }, h("dt", {}, label), h("dd", {}, value))),
  );
}

// The rules in force, in a line: a person should not have to remember the lobby.
/** @param {TableView} table */
export function houseRules(table, view) {
  const options = table.ctx.room?.options ?? {};
  const items = [...(table.game.rulesSummary?.(options, view) ?? [])];
  // Translators: the time each turn may take, in the line of the rules in force ("30 s a turn").
  if (options.turn_seconds) items.push(interpolate(gettext("%(duration)s a turn"), { duration: duration(options.turn_seconds) }));
  if (!items.length) return null;
  const presetName = options.preset ? (table.game.optionValueLabel?.("preset", options.preset) ?? humanize(options.preset)) : null;
  // Translators: the rules' preset ("Sweedo"), before the rules it sets.
  const preset = presetName ? interpolate(gettext("%(preset)s: "), { preset: presetName }) : "";
  // The heading names the section for a screen reader; the word "Rules" that leads the
  // line names it for the eye, and is not read a second time before the rules.
  return h(
    "section",
    { class: "house-rules", "aria-labelledby": "house-rules-title" },
    h("h2", { class: "sr-only", id: "house-rules-title" }, gettext("Rules in force")),
    // Translators: leads the line of the rules in force, as its title.
    h("p", {}, h("strong", { "aria-hidden": "true" }, `${gettext("Rules")} `), preset, items.map((text, k) => [k ? " · " : "", h("span", { class: "rule" }, text)])),
  );
}
