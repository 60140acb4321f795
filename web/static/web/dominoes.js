// Domino tiles: codes like "6-4" (higher pip first), drawn as SVG tiles with pips.

import { s } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";

export const pips = (code) => code.split("-").map(Number);

// Pip positions on a 3×3 grid (0..2 in each direction) for 0..6.
const LAYOUT = {
  0: [],
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
};

function half(n, y, highlight) {
  return s(
    "g",
    { class: highlight ? "half trump-half" : "half", transform: `translate(0 ${y})` },
    s("rect", { x: 3, y: 3, width: 34, height: 34, rx: 4, class: "half-bg" }),
    LAYOUT[n].map(([col, row]) => s("circle", { cx: 9 + col * 11, cy: 9 + row * 11, r: 3.6, class: "dot" })),
  );
}

// A vertical tile, 40×80 units; the trump number's half is marked.
export function tileSvg(code, { trump = null } = {}) {
  const [hi, lo] = pips(code);
  return s(
    "svg",
    { class: "domino", viewBox: "0 0 40 80", "aria-hidden": "true", "data-pips": hi + lo },
    s("rect", { x: 1, y: 1, width: 38, height: 78, rx: 6, class: "tile-bg" }),
    half(hi, 0, trump !== null && hi === trump),
    s("line", { x1: 6, y1: 40, x2: 34, y2: 40, class: "divider" }),
    half(lo, 40, trump !== null && lo === trump),
  );
}

// One half alone: how trumps (a number) are shown.
export function pipFace(n) {
  return s(
    "svg",
    { class: "domino pip-face", viewBox: "0 0 40 40", "aria-hidden": "true" },
    s("rect", { x: 1, y: 1, width: 38, height: 38, rx: 6, class: "tile-bg" }),
    half(n, 0, false),
  );
}

export function tileName(code) {
  const [hi, lo] = pips(code);
  // Translators: a domino tile with the same number at both ends ("double 5").
  return hi === lo ? interpolate(gettext("double %(n)s"), { n: hi }) : `${hi}-${lo}`;
}

/**
 * The tiles that show a number, as trumps or as the suit led: "5s" (the fives).
 * @param {number} n
 */
export function pipsText(n) {
  // Translators: dominoes: the tiles that show this number, as trumps or as the suit led ("5s": the fives).
  return interpolate(gettext("%(n)ss"), { n });
}

// Sorted high to low by the higher end, then the lower; trumps first.
export function sortTiles(hand, trump = null) {
  const isTrump = (t) => trump !== null && pips(t).includes(trump);
  return [...hand].sort((a, b) => {
    const [a1, a2] = pips(a);
    const [b1, b2] = pips(b);
    return Number(isTrump(b)) - Number(isTrump(a)) || b1 - a1 || b2 - a2;
  });
}
