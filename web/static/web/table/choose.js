// The dialog for a choice of several cards that are not (all) in the hand: removing cards
// from the deck, calling partner cards. Only the chooser ever sees it.

import { h } from "../dom.js";
import { gettext, interpolate, ngettext } from "../i18n.js";

/** @typedef {import("../table.js").TableView} TableView */

/** @param {TableView} table */
export function openDialog(table, view, names, template) {
  const game = table.game;
  document.querySelector("dialog.choose")?.remove();
  // With two decks a code is offered once per copy: one button per code, with its count.
  const offered = new Map();
  for (const code of template.choices) offered.set(code, (offered.get(code) ?? 0) + 1);
  const chosen = new Map();
  const total = () => [...chosen.values()].reduce((a, b) => a + b, 0);
  // Translators: how many are chosen of how many to choose ("2 of 3").
  const ofTotal = (chosen, total) => interpolate(gettext("%(chosen)s of %(total)s"), { chosen, total });
  const tally = h("span", {}, ofTotal(0, template.count));
  const confirm = h("button", { class: "primary", disabled: true, value: "ok" }, game.templateButton?.(template, view, [], names) ?? gettext("Confirm"));
  const cards = () => [...chosen].flatMap(([code, k]) => Array(k).fill(code));
  const buttons = new Map();
  const copiesOf = (code) => game.choiceCopies?.(template, code, view) ?? offered.get(code);
  // Where any card comes in two copies (two decks), every card says how many.
  const counted = [...offered.keys()].some((code) => copiesOf(code) > 1);
  const label = (code, k) => {
    const copies = copiesOf(code);
    const parts = [game.itemName(code, view)];
    // Translators: how many copies of a card there are (two decks), in the card's label ("queen of spades, 2 copies").
    if (copies > 1) parts.push(interpolate(ngettext("%(n)s copy", "%(n)s copies", copies), { n: copies }));
    else if (counted) parts.push(interpolate(ngettext("%(n)s copy", "%(n)s copies", 1), { n: 1 }));
    // Translators: how many copies of a card are chosen, in the card's label ("queen of spades, 2 copies, 1 chosen").
    if (k && offered.get(code) > 1) parts.push(interpolate(ngettext("%(n)s chosen", "%(n)s chosen", k), { n: k }));
    return parts.join(", ");
  };
  const update = () => {
    for (const [code, button] of buttons) {
      const k = chosen.get(code) ?? 0;
      button.setAttribute("aria-pressed", String(k > 0));
      button.setAttribute("aria-label", label(code, k));
      button.dataset.chosen = k;
      const mark = button.querySelector(".chosen-count");
      if (mark) mark.textContent = k ? ofTotal(k, offered.get(code)) : "";
    }
    tally.textContent = ofTotal(total(), template.count);
    confirm.disabled = total() !== template.count;
    // A tap only chooses; the choice goes with this button, which names what it sends.
    confirm.textContent = game.templateButton?.(template, view, cards(), names) ?? gettext("Confirm");
  };
  // A tap takes one more copy while there is one and room for it, else puts the card back.
  const tap = (code) => {
    const k = chosen.get(code) ?? 0;
    if (k < offered.get(code) && total() < template.count) chosen.set(code, k + 1);
    else if (k > 0) chosen.delete(code);
    else if (template.count === 1) {
      chosen.clear();
      chosen.set(code, 1);
    }
    update();
    // Once the choice is complete the next step is to confirm it: no walk through the rest.
    if (total() === template.count) confirm.focus();
  };
  for (const code of offered.keys()) {
    const copies = copiesOf(code);
    buttons.set(
      code,
      h(
        "button",
        { type: "button", class: "piece", "aria-pressed": "false", "aria-label": label(code, 0), "data-code": code, "data-copies": copies, onclick: () => tap(code) },
        game.face(code, view, table.ctx),
        counted ? h("span", { class: "copies", "aria-hidden": "true" }, `×${copies}`) : null,
        offered.get(code) > 1 ? h("span", { class: "chosen-count", "aria-hidden": "true" }) : null,
      ),
    );
  }
  // In the order the hand is sorted in; a game may set them out in rows (Kali Tidi: a
  // suit a row).
  const groups = new Map();
  for (const code of game.sortHand([...offered.keys()], view)) {
    const group = game.choiceGroup?.(code) ?? "";
    groups.set(group, [...(groups.get(group) ?? []), code]);
  }
  // The pieces are one stop of the Tab key (the first of them), walked with the arrow
  // keys: a deck of cards to call from is otherwise dozens of Tabs before "Confirm".
  const order = [...groups.values()].flat().map((code) => buttons.get(code));
  order.forEach((button, k) => button.setAttribute("tabindex", k === 0 ? "0" : "-1"));
  const walk = (e) => {
    const k = order.indexOf(/** @type {HTMLElement} */ (e.target));
    // Right to left, the next piece lies to the left of this one.
    const ahead = getComputedStyle(/** @type {HTMLElement} */ (e.target)).direction === "rtl" ? -1 : 1;
    const arrows = { ArrowRight: ahead, ArrowLeft: -ahead, ArrowDown: 1, ArrowUp: -1 };
    const step = { ...arrows, Home: -k, End: order.length - 1 - k }[e.key];
    if (k < 0 || step === undefined) return;
    e.preventDefault();
    const next = order[Math.min(order.length - 1, Math.max(0, k + step))];
    order[k].setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    next.focus();
  };
  // Translators: the title of a choice of several cards; %(n)s is how many to choose.
  const title = game.templateText?.(template, view, names) ?? interpolate(gettext("Choose %(n)s"), { n: template.count });
  const hand = view.you?.hand ?? [];
  const dialog = h(
    "dialog",
    { class: "choose", "aria-label": title },
    h(
      "form",
      { method: "dialog" },
      h("h2", {}, title),
      game.templateNote?.(template, view, table.ctx) ?? null,
      // What the chooser holds decides what to call: the hand stays in sight.
      hand.length
        ? h(
            "section",
            { class: "dialog-hand", "aria-label": gettext("Your hand") },
            h("h3", {}, gettext("Your hand")),
            h("div", { class: "mini-hand" }, table.sortedHand(view).map((code) => h("span", { class: "mini" }, game.face(code, view, table.ctx), h("span", { class: "sr-only" }, game.itemName(code, view))))),
          )
        : null,
      // Translators: before how many are chosen ("Chosen: 2 of 3").
      h("p", { class: "chosen-line" }, `${gettext("Chosen:")} `, tally),
      h("div", { class: "choices", onkeydown: walk }, [...groups.values()].map((codes) => h("div", { class: "choice-group" }, codes.map((code) => buttons.get(code))))),
      // Translators: closes the choice, to make it later.
      h("div", { class: "button-row" }, h("button", { value: "cancel", formnovalidate: true }, gettext("Later")), confirm),
    ),
  );
  // Closed, the focus goes back where it came from, or to the table's next choice: never
  // to the page's body, where a keyboard user would start again from the top.
  const opener = /** @type {HTMLElement | null} */ (document.activeElement);
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "ok") table.ctx.act({ type: template.type, cards: cards() });
    dialog.remove();
    const back =
      opener?.isConnected && opener !== document.body
        ? opener
        : /** @type {HTMLElement | null} */ (document.querySelector("section.table .actions button:not([disabled]), section.table .hand button:not([disabled])"));
    back?.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
}
