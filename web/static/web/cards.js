// Playing cards: codes like "QS" (rank then suit; "T" is ten), drawn as buttons or faces.

import { h } from "./dom.js";

export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANKS = "23456789TJQKA";
const RANK_LABEL = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };
const RANK_NAME = { T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };

export const rank = (code) => code[0];
export const suit = (code) => code[1];

export function cardText(code) {
  return `${RANK_LABEL[rank(code)] ?? rank(code)}${SUIT_SYMBOL[suit(code)]}`;
}

export function cardName(code) {
  const r = rank(code);
  return `${RANK_NAME[r] ?? r} of ${SUIT_NAME[suit(code)]}`;
}

// Sorted by suit (alternating colours, trumps last where the game has them), high to low.
export function sortCards(hand, { trump = null, suitOrder = ["S", "H", "C", "D"] } = {}) {
  const order = trump ? [...suitOrder.filter((x) => x !== trump), trump] : suitOrder;
  return [...hand].sort(
    (a, b) => order.indexOf(suit(a)) - order.indexOf(suit(b)) || RANKS.indexOf(rank(b)) - RANKS.indexOf(rank(a)),
  );
}

// A card face. `palette` is "two" (red and black) or "four" (♠ black, ♥ red, ♣ green, ♦ yellow).
// The face is a picture of the card: its glyphs are drawn by the style sheet from
// `data-glyph`, not written as text, so that the card's name (its button's label, or a
// screen reader's text beside it) is the only text it has; a label that named the card
// in words beside visible "K♠" text would not contain what is seen (WCAG 2.5.3).
export function cardFace(code, { palette = "two", trump = false } = {}) {
  return h(
    "span",
    { class: `card-face suit-${suit(code)} palette-${palette}${trump ? " trump" : ""}`, "aria-hidden": "true" },
    h("span", { class: "rank", "data-glyph": RANK_LABEL[rank(code)] ?? rank(code) }),
    h("span", { class: "pip", "data-glyph": SUIT_SYMBOL[suit(code)] }),
    trump ? h("span", { class: "trump-mark", "data-glyph": "★" }) : null,
  );
}
