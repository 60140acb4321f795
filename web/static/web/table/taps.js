// Taps on the pieces of the hand, made to forgive a slip of the finger. Without this a
// phone's player meets three mishaps:
// - a finger that lands twice (two taps 120 ms apart) plays a card, and then, once the
//   table is drawn for that move's answer, plays the card that slid under it;
// - a card pressed while the table is drawn anew (another player's move, the end of a
//   trick's pause) may no longer be the card under the finger when it lifts: on a touch
//   screen the browser clicks whatever is there then;
// - with a mouse, the browser drops the click of a press whose button left the page
//   before the release, so that same redraw loses a deliberate tap on a card that did not
//   move.
// So the second tap of a double tap (the browser counts it: the click's `detail`) pressed
// within REPEAT_MS of the first, or a key pressed again that soon after a move, is
// ignored; a press remembers the piece it fell on and when, a click on another piece is
// ignored, and a release on the same piece drawn anew stands for the click the redraw
// took away, unless its press came within REPEAT_MS of the last tap. That release has no
// count of its own, and it is what the second tap of a double tap becomes when the move's
// answer draws the hand again while the finger is still down.
//
// A tap that only raises a piece, with "Confirm each move" on or for a choice that is
// always asked first (prefs.js, the game's `asksFirst`), is remembered here too: the
// piece stays raised across redraws while it may still be played, until it is played, or
// put down by a tap elsewhere, Escape or "Put back".

/** @typedef {import("../table.js").TableView} TableView */

// Two taps closer than this are one slip of the finger, not two moves.
export const REPEAT_MS = 400;

/**
 * @typedef {{ id: string, el: EventTarget | null, n: number, at: number, done: boolean }} Press
 * @typedef {{ code: string, i: number }} Raised
 */

// The presses on the page, wherever they fall (a disabled piece, the table around it),
// counted: a release stands for a press on a piece only in that press's own gesture.
let presses = 0;
document.addEventListener(
  "pointerdown",
  (e) => {
    if (e.isPrimary) presses += 1;
  },
  true,
);

export class Taps {
  /** @param {TableView} table */
  constructor(table) {
    this.table = table;
    /** The press under way on a piece: what was pressed, the button pressed, and whether it was taken. @type {Press | null} */
    this.press = null;
    // When a piece was last tapped, and when a key last sent a move.
    this.last = -Infinity;
    this.keySent = -Infinity;
    /** @type {Raised | null} */
    this.raised = null;
    /** @type {{ click: (e: Event) => void, key: (e: KeyboardEvent) => void } | null} */
    this.listening = null;
  }

  /**
   * What a piece's button listens to: `id` says what a tap on it does (its code and its
   * move), and `run` does it.
   * @param {string} id
   * @param {() => void} run
   */
  piece(id, run) {
    /**
     * @param {Event} e
     * @param {Press | null} press the press this tap began with, if a pointer's
     */
    const take = (e, press) => {
      const now = performance.now();
      // Timed from the press: a finger may rest a while on the second tap of a double tap.
      const soon = (press?.at ?? now) - this.last < REPEAT_MS;
      const released = e.type === "pointerup";
      const double = soon && (released || (e instanceof MouseEvent && e.detail >= 2));
      // A keyboard's Enter or Space makes a trusted click with no detail: pressed again
      // just after it sent a move, it would land on the piece the focus moved to.
      const keyed = e.type === "click" && e instanceof MouseEvent && e.detail === 0 && e.isTrusted;
      const again = keyed && now - this.keySent < REPEAT_MS;
      this.last = now;
      if (double || again) return;
      const sent = this.table.sentAt;
      run();
      if (keyed && this.table.sentAt !== sent) this.keySent = now;
    };
    return {
      /** @param {PointerEvent} e */
      onpointerdown: (e) => {
        if (e.isPrimary && e.button === 0) {
          this.press = { id, el: e.currentTarget, n: presses, at: performance.now(), done: false };
        }
      },
      // The release on this piece of a press on a button that was drawn anew meanwhile:
      // the browser clicks nothing, so the release is the tap (when the same piece is under it).
      /** @param {PointerEvent} e */
      onpointerup: (e) => {
        const press = this.press;
        if (!press || press.done || press.n !== presses || press.id !== id) return;
        if (!(press.el instanceof Node) || press.el.isConnected) return;
        press.done = true;
        take(e, press);
      },
      /** @param {MouseEvent} e */
      onclick: (e) => {
        // A pointer's click (a keyboard's has no detail) counts once, and only on the
        // piece its press fell on.
        const press = e.detail > 0 ? this.press : null;
        if (press) {
          if (press.done || press.n !== presses || press.id !== id) return;
          press.done = true;
        }
        take(e, press);
      },
    };
  }

  /**
   * Where in `hand` the raised piece is now, or -1: it stays raised while a tap on it
   * still only raises it (`asks`), in the place it was raised at when the hand holds two
   * of it.
   * @param {string[]} hand
   * @param {(code: string) => boolean} asks
   */
  raisedIn(hand, asks) {
    const raised = this.raised;
    if (!raised) return -1;
    const at = hand[raised.i] === raised.code ? raised.i : hand.indexOf(raised.code);
    if (at >= 0 && asks(raised.code)) return at;
    this.forget();
    return -1;
  }

  /**
   * @param {string} code
   * @param {number} i
   */
  raise(code, i) {
    this.raised = { code, i };
    if (!this.listening) {
      const listening = {
        // A tap anywhere but on a piece that may be played, or on the Play button, puts
        // the piece down (those decide for themselves).
        /** @param {Event} e */
        click: (e) => {
          const on = e.target instanceof Element ? e.target.closest(".hand .piece, .move-confirm") : null;
          if (!on) this.putDown();
        },
        // Escape in a dialog or in the talk sheet closes that, not this.
        /** @param {KeyboardEvent} e */
        key: (e) => {
          const inDialog = e.target instanceof Element && e.target.closest("dialog");
          if (e.key === "Escape" && !e.defaultPrevented && !inDialog) this.putDown();
        },
      };
      document.addEventListener("click", listening.click);
      document.addEventListener("keydown", listening.key);
      this.listening = listening;
    }
    this.table.ctx.rerender();
  }

  putDown() {
    if (!this.raised) return;
    this.forget();
    this.table.ctx.rerender();
  }

  forget() {
    this.raised = null;
    if (!this.listening) return;
    document.removeEventListener("click", this.listening.click);
    document.removeEventListener("keydown", this.listening.key);
    this.listening = null;
  }
}
