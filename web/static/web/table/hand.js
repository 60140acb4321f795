// The player's hand: a piece to tap for each move it offers, or to pick for a choice of
// several.

import { h } from "../dom.js";
import { isTemplate, itemOf } from "./legal.js";

/** @typedef {import("../table.js").TableView} TableView */

/** @param {TableView} table */
export function handArea(table, view, legal) {
  const game = table.game;
  const hand = table.sortedHand(view);
  const template = legal.find((a) => isTemplate(a) && a.choices.every((c) => hand.includes(c)));
  const keyed = game.handActions?.(view, table.ctx);
  const plays = new Map();
  for (const a of legal) if (!isTemplate(a) && itemOf(a) !== null) plays.set(itemOf(a), a);
  const sel = table.selectionFor(view);
  const items = hand.map((code, i) => {
    const action = keyed ? keyed.get(code) : plays.get(code);
    const name = game.itemName(code, view);
    const extra = game.itemNote?.(code, view);
    const classes = `piece${extra ? ` ${extra.class}` : ""}`;
    if (template) {
      const chosen = sel.picked.includes(i);
      const full = sel.picked.length >= template.count;
      return h(
        "button",
        {
          type: "button",
          class: classes,
          "aria-pressed": String(chosen),
          "aria-label": name,
          "data-code": code,
          "data-focus": `hand-${i}`,
          disabled: !chosen && full,
          onclick: () => {
            sel.picked = chosen ? sel.picked.filter((j) => j !== i) : [...sel.picked, i];
            table.ctx.rerender();
          },
        },
        game.face(code, view, table.ctx),
      );
    }
    return h(
      "button",
      {
        type: "button",
        class: classes,
        "aria-label": action ? `${game.handVerb?.(action) ?? "Play"} ${name}` : name,
        "data-code": code,
        "data-focus": `hand-${i}`,
        disabled: !action,
        onclick: action ? () => table.ctx.act(action) : null,
      },
      game.face(code, view, table.ctx),
      extra ? h("span", { class: "item-note" }, extra.text) : null,
    );
  });
  // An empty hand (between hands, before the deal) takes no room from the table.
  if (!hand.length) return null;
  // Unplayable pieces are dimmed only while some piece may be played: while bidding,
  // naming trumps, calling partners or waiting, the hand is there to be read.
  const idle = !template && !items.some((b) => !b.disabled);
  return h(
    "section",
    { class: "hand-area", "aria-label": "Your hand" },
    h("h2", { class: "caption" }, game.handCaption?.(view) ?? "Your hand"),
    h(
      "div",
      {
        class: `hand${idle ? " idle" : ""}`,
        "data-size": handSize(hand.length),
        // Rows of even length, one to three (the style sheet picks per screen): a long
        // hand overlaps its pieces rather than spill over more rows.
        style: [1, 2, 3].map((rows) => `--cols${rows}: ${handColumns(Math.ceil(hand.length / rows))};`).join(" "),
      },
      items,
    ),
  );
}

// A row of `n` pieces: each column a step wide or less (then the next piece overlaps it),
// the last as wide as a whole piece, so the row never spills past its box.
function handColumns(n) {
  return n > 1 ? `repeat(${n - 1}, minmax(0, var(--step))) var(--last)` : "var(--last)";
}

// How many rows a hand of `n` pieces takes (the style sheet decides per screen width).
function handSize(n) {
  if (n <= 9) return "short";
  if (n <= 20) return "long";
  return "longer";
}
