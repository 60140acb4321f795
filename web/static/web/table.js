// The table during a match, drawn generically from the view every game shares (phase,
// to_act, deadline, you.hand, you.legal_actions, seats, trick, trump, bid, scores,
// last_round); each game module adds its words, its pieces and its special controls.
//
// TableView holds what lasts between renders (the cards picked for a choice, the turn last
// announced...) and composes the parts of the table, each drawn by a module of table/:
// the head and turn line (status.js), the end of the match (ending.js), the players and
// the trick (ring.js), the game's facts and rules (rules.js), the moves (actions.js, with
// choose.js for a dialog), the hand (hand.js), and the results and log (results.js).

import { append, h, replace } from "./dom.js";
import { countdown, seatNames } from "./format.js";
import { actionsArea } from "./table/actions.js";
import { banner } from "./table/ending.js";
import { handArea } from "./table/hand.js";
import { fairDeal } from "./fair.js";
import { eventLog, resultsArea } from "./table/results.js";
import { ring } from "./table/ring.js";
import { houseRules, info } from "./table/rules.js";
import { announce, head, idleClock, turnLine, turnText } from "./table/status.js";

// Game modules and tests read these from here.
export { count, signed } from "./format.js";
export { isTemplate, itemOf } from "./table/legal.js";
export { eventText } from "./table/results.js";
export { seatPlaces } from "./table/ring.js";

export class TableView {
  // ctx: { game (module), room, act(action), rerender(), newTable(), rematch() }
  constructor(ctx) {
    this.ctx = ctx;
    // Cards picked for a multi-card choice, kept across re-renders of the same phase.
    /** @type {{ key: string | null, picked: number[] }} */
    this.selection = { key: null, picked: [] };
    /** @type {string | null} */
    this.dialogKey = null;
    // The turn last said to screen readers (status.js), so each is said once.
    /** @type {string | null} */
    this.announced = null;
    // Why the server refused a rematch (room.js sets it), shown under the banner.
    /** @type {string | null} */
    this.rematchError = null;
    // The version at which the claim's question was opened: it stays open while the table
    // is drawn again at that version (a late notice, a catch-up), and closes with a move.
    /** @type {number | null} */
    this.claimAskedAt = null;
  }

  get game() {
    return this.ctx.game;
  }

  selectionFor(view) {
    const key = `${view.round}:${view.phase}:${view.you?.hand?.length ?? 0}`;
    if (this.selection.key !== key) this.selection = { key, picked: [] };
    return this.selection;
  }

  render(root, view, extras) {
    const me = view.you?.seat ?? null;
    const names = seatNames(view, me);
    const legal = view.you?.legal_actions ?? [];
    const myTurn = me !== null && (view.to_act || []).includes(me) && legal.length > 0;
    const section = h("section", {
      class: `table game-${view.game}`,
      "aria-label": "The table",
      "data-phase": view.phase,
      "data-version": view.version,
      "data-status": view.status,
      "data-my-turn": String(myTurn),
    });
    const turn = turnText(this, view, names, myTurn);
    const idle = idleClock(this, view);
    append(section, [
      head(view, extras),
      turnLine(view, turn, myTurn, idle),
      banner(this, view, names),
      ring(this, view, names, me),
      info(this, view, names),
      houseRules(this, view),
      me !== null ? actionsArea(this, view, names, legal) : h("p", { class: "spectating" }, "You are watching this table."),
      me !== null ? handArea(this, view, legal) : null,
      resultsArea(this, view, names, extras),
      fairDeal(view, view.code),
      eventLog(this, extras.events, names),
    ]);
    replace(root, section);
    this.tick(root, view);
    // The end is said in the server's words (to this reader: "You did not play in time");
    // the idle clock once, as the turn is, without its seconds.
    const ended = view.status === "abandoned" && view.status_reason ? view.status_reason : null;
    announce(this, view, ended ?? (idle && turn ? `${turn} If you do not act, ${idle.what} before this turn's time runs out.` : turn));
  }

  /**
   * Draws the event log alone, in the table drawn at `view`'s version; false where there is
   * no such table (the caller draws it whole).
   * @param {HTMLElement} root
   * @param {any} view
   * @param {any[]} events
   */
  renderLog(root, view, events) {
    const section = root.querySelector("section.table");
    if (!(section instanceof HTMLElement) || section.dataset.version !== String(view.version)) return false;
    const log = eventLog(this, events, seatNames(view, view.you?.seat ?? null));
    const old = section.querySelector(":scope > details.log");
    if (old && log) old.replaceWith(log);
    else if (log) section.append(log);
    else old?.remove();
    return true;
  }

  // The countdowns are redrawn every second without rebuilding the table. They are not in
  // a live region: a screen reader would read out every second.
  tick(root, view) {
    const clock = root.querySelector("[data-countdown]");
    if (clock) clock.textContent = countdown(view.deadline);
    const idle = root.querySelector("[data-idle-countdown]");
    if (idle) idle.textContent = countdown(view.abandon_deadline);
  }

  clearSelection() {
    this.selection.picked = [];
    this.ctx.rerender();
  }

  handItems(view) {
    return this.game.handItems?.(view) ?? view.you?.hand ?? [];
  }

  sortedHand(view) {
    return this.game.sortHand(this.handItems(view), view);
  }
}
