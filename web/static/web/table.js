// The table during a match, drawn generically from the view every game shares (phase,
// to_act, deadline, you.hand, you.legal_actions, seats, trick, trump, bid, scores,
// last_round); each game module adds its words, its pieces and its special controls.
//
// TableView holds what lasts between renders (the cards picked for a choice, the turn last
// announced...) and composes the parts of the table, each drawn by a module of table/:
// the head and turn line (status.js), the end of the match (ending.js), the players and
// the trick (ring.js), the game's facts and rules (rules.js), the moves (actions.js, with
// choose.js for a dialog), the hand (hand.js, with taps.js for its taps), and the results
// and log (results.js).

import { append, h, replace } from "./dom.js";
import { countdown, endReason, seatNames } from "./format.js";
import { actionsArea } from "./table/actions.js";
import { banner } from "./table/ending.js";
import { handArea, handTemplate } from "./table/hand.js";
import { movePrefs } from "./prefs.js";
import { fairDeal } from "./fair.js";
import { gettext } from "./i18n.js";
import { eventLog, resultsArea } from "./table/results.js";
import { ring } from "./table/ring.js";
import { houseRules, info } from "./table/rules.js";
import { announce, head, idleClock, turnLine, turnText } from "./table/status.js";
import { REPEAT_MS, Taps } from "./table/taps.js";

// Game modules read this from here.
export { signed } from "./format.js";
export { isTemplate, itemOf } from "./table/legal.js";
export { eventText } from "./table/results.js";
export { seatPlaces } from "./table/ring.js";

export class TableView {
  // ctx: { game (module), room, act(action), rerender(), newTable(), rematch(), prefs() }
  constructor(ctx) {
    // Every move of the table goes through send(), the hand's, the panels' and the dialogs'.
    this.ctx = { ...ctx, act: (action) => this.send(ctx.act, action) };
    // The moves on their way to the server, and the version of the table the last was sent from.
    this.sending = 0;
    /** @type {number | null} */
    this.sentFrom = null;
    // The version of the table drawn last.
    /** @type {number | null} */
    this.version = null;
    // When the last move was sent (taps.js tells by it whether a key sent one).
    this.sentAt = -Infinity;
    // The hand's taps: the press under way, the last tap, the piece raised (taps.js).
    this.taps = new Taps(this);
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

  /** @returns {import("./games/renderer.js").GameRenderer} */
  get game() {
    return this.ctx.game;
  }

  // How this person makes their moves (prefs.js); a table drawn without a room goes by the device.
  prefs() {
    return this.ctx.prefs?.() ?? movePrefs(null);
  }

  // Never two moves from one gesture: while a move is on its way to the server no other
  // is sent from the table it was sent from (a second tap on the same button, or on what
  // is drawn under the finger before the answer). The socket often draws the next table
  // before the move's answer comes: a move made on it after a double tap's time is a
  // decision of its own and goes (dropped, it would be lost without a word). An `act`
  // that answers at once (a table drawn with no server behind it) is not waited for.
  send(act, action) {
    const now = performance.now();
    const newer = this.version !== null && this.sentFrom !== null && this.version > this.sentFrom;
    if (this.sending && !(newer && now - this.sentAt >= REPEAT_MS)) return undefined;
    this.sentAt = now;
    this.sentFrom = this.version;
    const sent = act(action);
    if (sent instanceof Promise) {
      this.sending += 1;
      const done = () => {
        this.sending -= 1;
      };
      sent.then(done, done);
    }
    return sent;
  }

  selectionFor(view) {
    const key = `${view.round}:${view.phase}:${view.you?.hand?.length ?? 0}`;
    if (this.selection.key !== key) this.selection = { key, picked: [] };
    return this.selection;
  }

  render(root, view, extras) {
    this.version = view.version;
    const me = view.you?.seat ?? null;
    const names = seatNames(view, me);
    const legal = view.you?.legal_actions ?? [];
    const myTurn = me !== null && (view.to_act || []).includes(me) && legal.length > 0;
    const section = h("section", {
      class: `table game-${view.game}`,
      "aria-label": gettext("The table"),
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
      this.moves(view, names, legal, me),
      resultsArea(this, view, names, extras),
      fairDeal(view, view.code),
      eventLog(this, extras.events, names),
    ]);
    replace(root, section);
    this.tick(root, view);
    // The end is said as the banner says it (to this reader: "You did not play in time");
    // the idle clock once, as the turn is, without its seconds.
    const ended = view.status === "abandoned" ? endReason(view, names) || null : null;
    announce(this, view, ended ?? (idle && turn ? `${turn} ${idle.warning}` : turn));
  }

  // The player's moves and hand. While cards are chosen from the hand (a pass), the step
  // that sends them comes after it: the next Tab from the last card is the confirmation,
  // and on a phone the hand moves up on the first screen.
  moves(view, names, legal, me) {
    if (me === null) return h("p", { class: "spectating" }, gettext("You are watching this table."));
    const actions = actionsArea(this, view, names, legal);
    const hand = handArea(this, view, legal);
    return handTemplate(this, view, legal) ? [hand, actions] : [actions, hand];
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
