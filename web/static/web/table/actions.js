// The player's moves that are not a tap on their hand: the game's own panel or one button
// per action, the claim, and the choices of several cards (from the hand, or in a dialog).

import { h } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";
import { isTemplate, itemOf } from "./legal.js";
import { openDialog } from "./choose.js";

/** @typedef {import("../table.js").TableView} TableView */

// Everything the player may do that is not tapping a piece of their hand.
/** @param {TableView} table */
export function actionsArea(table, view, names, legal) {
  const game = table.game;
  const handCodes = new Set(table.handItems(view));
  const handKeyed = game.handActions ? game.handActions(view, table.ctx) : null;
  const templates = legal.filter(isTemplate);
  const claim = legal.find((a) => a.type === "claim");
  const rest = legal.filter(
    (a) =>
      a !== claim && !isTemplate(a) && !(itemOf(a) !== null && handCodes.has(itemOf(a))) && !(handKeyed && handKeyed.taken(a)),
  );
  const parts = [];
  for (const template of templates) {
    if (template.choices.every((c) => handCodes.has(c))) parts.push(handTemplatePanel(table, view, names, template));
    else parts.push(popupTemplatePanel(table, view, names, template));
  }
  const custom = game.panel?.(view, names, rest, table.ctx);
  if (custom) parts.push(custom);
  else if (rest.length) parts.push(genericButtons(table, view, names, rest));
  if (claim) parts.push(claimButton(table, view, claim));
  const waiting = view.you && !legal.length ? game.waitingText?.(view, names) : null;
  const pending = game.pendingNote?.(view, names);
  if (!parts.length && !waiting && !pending) return null;
  return h("section", { class: "actions", "aria-label": gettext("Your move") }, pending, waiting && h("p", { class: "waiting" }, waiting), parts);
}

// Offered only where the claim holds (the server lists it exactly there). Asked inline,
// not with the browser's dialog: "Claim the rest" opens the question beside it, which
// keyboard and screen reader users reach in order; "Play on" closes it.
/** @param {TableView} table */
function claimButton(table, view, claim) {
  const asked = table.claimAskedAt === view.version;
  const question = h(
    "div",
    { class: "claim-question", role: "group", "aria-label": gettext("Claim the rest?"), hidden: !asked },
    h("p", {}, gettext("Claim every remaining trick? The server plays the hand out at once.")),
    h("div", { class: "button-row" },
      h("button", { type: "button", class: "primary", "data-action": "claim-yes", "data-focus": "claim-yes", onclick: () => table.ctx.act(claim) }, gettext("Yes, claim")),
      // Translators: declines to claim the remaining tricks: the hand goes on being played.
      h("button", { type: "button", "data-action": "claim-no", "data-focus": "claim-no", onclick: () => toggle(false) }, gettext("Play on")),
    ),
  );
  // Translators: claims every trick left in the hand.
  const open = h("button", { type: "button", "data-action": "claim", "data-focus": "claim", "aria-expanded": String(asked), onclick: () => toggle(true) }, gettext("Claim the rest"));
  function toggle(shown) {
    table.claimAskedAt = shown ? view.version : null;
    question.hidden = !shown;
    open.setAttribute("aria-expanded", String(shown));
    (shown ? /** @type {HTMLElement} */ (question.querySelector("button")) : open).focus();
  }
  return h("div", { class: "claim" }, h("div", { class: "button-row" }, open), question);
}

/** @param {TableView} table */
function genericButtons(table, view, names, actions) {
  const game = table.game;
  const byType = new Map();
  for (const a of actions) byType.set(a.type, [...(byType.get(a.type) ?? []), a]);
  const groups = [];
  // The bids first, then passing on them.
  const types = [...byType.keys()].sort((a, b) => Number(a === "pass") - Number(b === "pass"));
  for (const type of types) {
    const list = byType.get(type);
    // A long list of one kind (bids in fives) reads better as one choice and one button.
    if (list.length > 10) {
      const select = h(
        "select",
        { "aria-label": game.actionLabel?.({ type }, view, table.ctx) ?? type, "data-focus": `select-${type}` },
        list.map((a, i) => h("option", { value: i }, game.actionLabel?.(a, view, table.ctx) ?? JSON.stringify(a))),
      );
      groups.push(
        h(
          "div",
          { class: "choice-row" },
          select,
          h(
            "button",
            { class: "primary", "data-focus": `go-${type}`, onclick: () => table.ctx.act(list[Number(select.value)]) },
            game.groupLabel?.(type) ?? gettext("OK"),
          ),
        ),
      );
    } else {
      groups.push(
        h(
          "div",
          { class: "button-row" },
          list.map((a, i) =>
            h(
              "button",
              { class: a.type === "next_round" ? "primary" : "", "data-focus": `act-${type}-${i}`, "data-action": a.type, onclick: () => table.ctx.act(a) },
              game.actionLabel?.(a, view, table.ctx) ?? a.type,
            ),
          ),
        ),
      );
    }
  }
  return h("div", { class: "action-groups" }, groups);
}

// What a choice of several asks for, where the game does not say it.
function chooseText(template) {
  // Translators: a choice of several cards; %(n)s is how many to choose.
  return interpolate(gettext("Choose %(n)s."), { n: template.count });
}

// A multi-card choice from the hand (Hearts' pass): tap cards, then confirm. Drawn after
// the hand (table.js); the button names what it sends (the game's `templateButton`, given
// the picks so far), so that it reads as the confirmation it is.
/** @param {TableView} table */
function handTemplatePanel(table, view, names, template) {
  const sel = table.selectionFor(view);
  const game = table.game;
  const hand = table.sortedHand(view);
  const picked = sel.picked.map((i) => hand[i]);
  if (template.to) {
    const slots = template.to.map((seat, k) => {
      const card = picked[k];
      return h(
        "li",
        { class: "slot" },
        // Translators: before the card chosen for a player, in a pass of one card to each ("To Ann: Q♠").
        h("span", {}, interpolate(gettext("To %(name)s: "), { name: names[seat] })),
        // Translators: in place of the card not chosen yet for a player ("To Ann: tap a card").
        card ? game.face(card, view, table.ctx) : h("span", { class: "empty-slot" }, gettext("tap a card")),
      );
    });
    const ready = picked.length === template.to.length;
    // The template's action: its fields as they are, and the picks as `cards` (cards[k] to to[k]).
    const action = { type: template.type, cards: picked, to: [...template.to] };
    return h(
      "div",
      { class: "template" },
      h("p", {}, game.templateText?.(template, view, names) ?? chooseText(template)),
      // The slots and the buttons share a row: with the hand above, all of it stays on a
      // phone's first screen.
      h(
        "div",
        { class: "slot-row" },
        h("ol", { class: "slots" }, slots),
        h(
          "div",
          { class: "slot-buttons" },
          h(
            "button",
            { class: "primary", disabled: !ready, "data-focus": "confirm-template", "data-action": template.type, onclick: () => table.ctx.act(action) },
            game.templateButton?.(template, view, picked, names) ?? gettext("Confirm"),
          ),
          // Translators: puts back the cards chosen so far.
          sel.picked.length ? h("button", { "data-focus": "clear-template", onclick: () => table.clearSelection() }, gettext("Clear")) : null,
        ),
      ),
    );
  }
  const ready = picked.length === template.count;
  return h(
    "div",
    { class: "template" },
    h(
      "p",
      {},
      game.templateText?.(template, view, names) ?? chooseText(template),
      // Translators: how many cards are chosen so far, of how many to choose.
      ` ${interpolate(gettext("(%(chosen)s of %(total)s chosen)"), { chosen: picked.length, total: template.count })}`,
    ),
    h(
      "button",
      {
        class: "primary",
        disabled: !ready,
        "data-focus": "confirm-template",
        "data-action": template.type,
        onclick: () => table.ctx.act({ type: template.type, cards: picked }),
      },
      game.templateButton?.(template, view, picked, names) ?? gettext("Confirm"),
    ),
  );
}

// A multi-card choice of cards not (all) in the hand — removing cards from the deck,
// calling partner cards — in a dialog that only the chooser ever sees.
/** @param {TableView} table */
function popupTemplatePanel(table, view, names, template) {
  const game = table.game;
  const key = `${view.round}:${view.phase}:${template.type}`;
  const open = () => openDialog(table, view, names, template);
  // Opens by itself the first time it is this player's choice; the button reopens it.
  if (table.dialogKey !== key) {
    table.dialogKey = key;
    queueMicrotask(open);
  }
  return h(
    "div",
    { class: "template" },
    h("p", {}, game.templateText?.(template, view, names) ?? chooseText(template)),
    // Translators: opens the dialog in which the cards are chosen.
    h("button", { class: "primary", "data-focus": `open-${template.type}`, "data-action": `open-${template.type}`, onclick: open }, game.templateButton?.(template, view) ?? gettext("Choose")),
  );
}
