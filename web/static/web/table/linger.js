// The trick just taken stays on the table for the player's pause before the next one is
// drawn, and the last trick can be looked at again while the next is played. A computer
// player who wins a trick leads the next at once, often in the same pushed view, so
// without the pause a player on a phone may never see the last card or who took it.
//
// What this remembers belongs to one table (TableView) and lives here beside it, in a
// WeakMap: it goes when the table goes.

import { TRICK_PAUSE_DEFAULT_MS } from "../prefs.js";

/** @typedef {import("../table.js").TableView} TableView */

// How long a look back at the last trick lasts when it is not closed by hand.
const REVIEW_MS = 4000;

/**
 * @typedef {{ mine: boolean, timer: number }} Hold
 * @typedef {{ timer: number, onKey: (e: KeyboardEvent) => void }} Review
 * @typedef {{
 *   seen: string | null | undefined, hold: Hold | null, review: Review | null,
 *   drawn: Element | null, draw: (() => Element) | null,
 * }} Memory
 */

/** @type {WeakMap<TableView, Memory>} */
const memories = new WeakMap();

/** @param {TableView} table */
function memoryOf(table) {
  let memory = memories.get(table);
  if (!memory) {
    memory = { seen: undefined, hold: null, review: null, drawn: null, draw: null };
    memories.set(table, memory);
  }
  return memory;
}

// Which trick was taken last, told apart from every other of the match: no two tricks
// of a hand hold the same pieces.
function takenKey(view) {
  return view.last_trick ? `${view.round}:${JSON.stringify(view.last_trick)}` : null;
}

// Whether the viewer's own piece lies in the trick being played.
function mineInTrick(view) {
  const me = view.you?.seat;
  return me !== undefined && me !== null && (view.trick || []).some((p) => p.seat === me);
}

/**
 * What the trick area shows for `view`: "taken", the trick just taken, during the pause;
 * "review", the last trick, looked at again; otherwise "play", the trick in play (or the
 * last one while nothing is led).
 * @param {TableView} table
 * @returns {"taken" | "review" | "play"}
 */
export function trickShown(table, view) {
  const memory = memoryOf(table);
  const key = takenKey(view);
  if (key !== memory.seen) {
    // A page opened in the middle of a hand has seen no trick taken: nothing to linger on.
    const first = memory.seen === undefined;
    memory.seen = key;
    endHold(memory);
    endReview(memory);
    const pause = table.ctx.prefs?.().trickPauseMs ?? TRICK_PAUSE_DEFAULT_MS;
    if (!first && key !== null && pause > 0) startHold(memory, mineInTrick(view), pause);
  } else if (memory.hold && !memory.hold.mine && mineInTrick(view)) {
    // The player played from their hand during the pause: they have moved on.
    endHold(memory);
  }
  if (memory.hold) return "taken";
  if (memory.review) return "review";
  return "play";
}

/**
 * The trick area as drawn last, and how to draw it again for the same view.
 * @param {TableView} table
 * @param {Element} el
 * @param {() => Element} draw
 */
export function trickDrawn(table, el, draw) {
  const memory = memoryOf(table);
  memory.drawn = el;
  memory.draw = draw;
}

/**
 * Opens or closes the look back at the last trick.
 * @param {TableView} table
 */
export function toggleReview(table) {
  const memory = memoryOf(table);
  if (memory.review) {
    endReview(memory);
  } else {
    /** @type {Review} */
    const review = {
      timer: window.setTimeout(() => closeReview(memory, review), REVIEW_MS),
      onKey: (e) => {
        // Escape in a dialog or in the talk sheet closes that, not this.
        const inDialog = e.target instanceof Element && e.target.closest("dialog");
        if (e.key === "Escape" && !e.defaultPrevented && !inDialog) closeReview(memory, review);
      },
    };
    document.addEventListener("keydown", review.onKey);
    memory.review = review;
  }
  redraw(memory);
}

/**
 * @param {Memory} memory
 * @param {Review} review
 */
function closeReview(memory, review) {
  if (memory.review !== review) return;
  endReview(memory);
  redraw(memory);
}

/** @param {Memory} memory */
function endReview(memory) {
  if (!memory.review) return;
  clearTimeout(memory.review.timer);
  document.removeEventListener("keydown", memory.review.onKey);
  memory.review = null;
}

/**
 * @param {Memory} memory
 * @param {boolean} mine whether the player's own piece was already in the next trick
 * @param {number} pause
 */
function startHold(memory, mine, pause) {
  /** @type {Hold} */
  const hold = {
    mine,
    timer: window.setTimeout(() => {
      // Only the hold that set it ends: a newer trick taken meanwhile has its own.
      if (memory.hold !== hold) return;
      memory.hold = null;
      redraw(memory);
    }, pause),
  };
  memory.hold = hold;
}

/** @param {Memory} memory */
function endHold(memory) {
  if (!memory.hold) return;
  clearTimeout(memory.hold.timer);
  memory.hold = null;
}

// Only the trick area is drawn again, for the view it shows: a tap under way on the hand
// (pressed, not yet released) is not lost to a hand drawn anew under it. Nor does the
// hand move: the area keeps at least the height it had (a trick of fewer cards, a shorter
// caption) until the table is drawn for the next move, so that the end of a pause, which
// the player did not choose, shifts nothing under their finger. A page left meanwhile is
// not drawn again.
/** @param {Memory} memory */
function redraw(memory) {
  const old = memory.drawn;
  if (!(old instanceof HTMLElement) || !old.isConnected || !memory.draw) return;
  const focused = old.contains(document.activeElement);
  const fresh = memory.draw();
  if (fresh instanceof HTMLElement) fresh.style.minHeight = `${old.getBoundingClientRect().height}px`;
  old.replaceWith(fresh);
  if (focused) fresh.querySelector("button")?.focus({ preventScroll: true });
}
