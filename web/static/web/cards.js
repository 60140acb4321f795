// Playing cards: codes like "QS" (rank then suit; "T" is ten), drawn as buttons or faces.

import { h } from "./dom.js";
import { gettext, gettext_noop, interpolate } from "./i18n.js";

export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
// The suits' names in English, marked for the catalogues: `suitName` says them in the
// page's language.
export const SUIT_NAME = {
  // Translators: a suit of cards, as a word in a sentence ("Ann named trumps: hearts.", "queen of hearts").
  C: gettext_noop("clubs"),
  // Translators: a suit of cards, as a word in a sentence ("Ann named trumps: hearts.", "queen of hearts").
  D: gettext_noop("diamonds"),
  // Translators: a suit of cards, as a word in a sentence ("Ann named trumps: hearts.", "queen of hearts").
  H: gettext_noop("hearts"),
  // Translators: a suit of cards, as a word in a sentence ("Ann named trumps: hearts.", "queen of hearts").
  S: gettext_noop("spades"),
};
const RANKS = "23456789TJQKA";
// The ranks as the cards show them: the same letters in every language, as on the faces.
const RANK_LABEL = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };

// A rank in words ("queen"); a number card's is its number.
function rankName(r) {
  // Translators: a card's rank, as in "queen of spades".
  const names = { T: gettext("ten"), J: gettext("jack"), Q: gettext("queen"), K: gettext("king"), A: gettext("ace") };
  return names[r] ?? r;
}

/**
 * A suit's name as a word in a sentence ("hearts"); undefined for a code that is no suit.
 * @param {string} s
 * @returns {string | undefined}
 */
export function suitName(s) {
  const name = SUIT_NAME[s];
  return name === undefined ? undefined : gettext(name);
}

export const rank = (code) => code[0];
export const suit = (code) => code[1];

export function cardText(code) {
  return `${RANK_LABEL[rank(code)] ?? rank(code)}${SUIT_SYMBOL[suit(code)]}`;
}

export function cardName(code) {
  // Translators: a card in words: %(rank)s is "queen", "ten", "7"...; %(suit)s is "spades", "hearts"...
  return interpolate(gettext("%(rank)s of %(suit)s"), { rank: rankName(rank(code)), suit: String(suitName(suit(code))) });
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
