// The player's hand: a piece to tap for each move it offers, or to pick for a choice of
// several. A tap goes through taps.js, which forgives a slip of the finger; where the
// move is asked first ("Confirm each move", or a choice the game always asks about) the
// tap raises the piece and a second tap, or the button after the hand, sends it.

import { h } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";
import { isTemplate, itemOf } from "./legal.js";

/** @typedef {import("../table.js").TableView} TableView */

/**
 * The choice of several pieces from the hand that `legal` offers (Hearts' pass), if any.
 * @param {TableView} table
 */
export function handTemplate(table, view, legal) {
  const hand = table.handItems(view);
  return legal.find((a) => isTemplate(a) && a.choices.every((c) => hand.includes(c))) ?? null;
}

// A move of the hand's in words, the item named in it: the game's (Moon: "Take the widow
// and discard 6-4"), else "Play queen of spades".
function moveText(game, action, name) {
  // Translators: a button that plays a card or a tile: %(item)s is its name ("Play queen of spades").
  return game.handMove?.(action, name) ?? interpolate(gettext("Play %(item)s"), { item: name });
}

/** @param {TableView} table */
export function handArea(table, view, legal) {
  const game = table.game;
  const hand = table.sortedHand(view);
  // An empty hand (between hands, before the deal) takes no room from the table.
  if (!hand.length) return null;
  const template = handTemplate(table, view, legal);
  const keyed = game.handActions?.(view, table.ctx);
  const plays = new Map();
  for (const a of legal) if (!isTemplate(a) && itemOf(a) !== null) plays.set(itemOf(a), a);
  const actionOf = (code) => (keyed ? keyed.get(code) : plays.get(code));
  const confirm = table.prefs().confirm;
  // Whether a tap on a piece only raises it: every move with "Confirm each move" on, and
  // the choices a game always asks about (Moon's widow discard).
  const asks = (action) => confirm || Boolean(game.asksFirst?.(action));
  const taps = table.taps;
  const up = template ? -1 : taps.raisedIn(hand, (code) => Boolean(actionOf(code) && asks(actionOf(code))));
  const sel = table.selectionFor(view);
  const items = hand.map((code, i) => {
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
          ...taps.piece(`${code} pick`, () => {
            sel.picked = chosen ? sel.picked.filter((j) => j !== i) : [...sel.picked, i];
            table.ctx.rerender();
          }),
        },
        game.face(code, view, table.ctx),
      );
    }
    const action = actionOf(code);
    const note = extra ? h("span", { class: "item-note" }, extra.text) : null;
    if (!action) return h("button", { type: "button", class: classes, "aria-label": name, "data-code": code, "data-focus": `hand-${i}`, disabled: true }, game.face(code, view, table.ctx), note);
    const asking = asks(action);
    const raised = i === up;
    return h(
      "button",
      {
        type: "button",
        class: `${classes}${raised ? " raised" : ""}`,
        // A piece that is asked about is a toggle: the button after the hand says the move.
        "aria-label": asking ? name : moveText(game, action, name),
        "aria-pressed": asking ? String(raised) : null,
        "data-code": code,
        "data-focus": `hand-${i}`,
        ...taps.piece(`${code} ${JSON.stringify(action)}`, () => {
          if (asking && !raised) return taps.raise(code, i);
          taps.forget();
          table.ctx.act(action);
        }),
      },
      game.face(code, view, table.ctx),
      note,
    );
  });
  // Unplayable pieces are dimmed only while some piece may be played: while bidding,
  // naming trumps, calling partners or waiting, the hand is there to be read.
  const idle = !template && !items.some((b) => !b.disabled);
  return h(
    "section",
    { class: "hand-area", "aria-label": gettext("Your hand") },
    h("h2", { class: "caption" }, game.handCaption?.(view) ?? gettext("Your hand")),
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
    up >= 0 ? confirmBar(table, view, hand[up], actionOf(hand[up])) : null,
  );
}

// The raised piece's move, said in full, after the hand: the next Tab from the last piece.
/** @param {TableView} table */
function confirmBar(table, view, code, action) {
  const game = table.game;
  const taps = table.taps;
  return h(
    "div",
    { class: "move-confirm" },
    h(
      "button",
      {
        type: "button",
        class: "primary",
        "data-action": "confirm-move",
        "data-focus": "confirm-move",
        onclick: () => {
          taps.forget();
          table.ctx.act(action);
        },
      },
      moveText(game, action, game.itemName(code, view)),
    ),
    // Translators: puts a raised card or tile back in the hand, unplayed.
    h("button", { type: "button", "data-action": "put-down", "data-focus": "put-down", onclick: () => taps.putDown() }, gettext("Put back")),
  );
}

// A row of `n` pieces: each column a step wide or less (then the next piece overlaps it),
// the last as wide as a whole piece, so the row never spills past its box.
function handColumns(n) {
  // eslint-disable-next-line i18next/no-literal-string -- a style's value
  return n > 1 ? `repeat(${n - 1}, minmax(0, var(--step))) var(--last)` : "var(--last)";
}

// How many rows a hand of `n` pieces takes (the style sheet decides per screen width).
function handSize(n) {
  if (n <= 9) return "short";
  if (n <= 20) return "long";
  return "longer";
}
