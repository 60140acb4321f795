// Duel in the web client: its cards, the play, and the log's words. Every other hook is
// the table's own (web/static/web/games/renderer.js lists them).

import { cardFace, cardName, cardText, sortCards } from "@web/cards.js";
import { interpolate, ngettext } from "@web/i18n.js";

/** @type {import("@web/games/renderer.js").GameRenderer} */
export default {
  key: "duel",
  face: (code) => cardFace(code),
  itemName: (code) => cardName(code),
  sortHand: (hand) => sortCards(hand, { suitOrder: ["S", "H"] }),
  actionLabel: (action) => (action.type === "next_round" ? "Next hand" : action.type),

  optionLabel: (name) => ({ players: "Players", hands: "Hands in a match" })[name] ?? null,
  seatFacts: (seat) => [
    interpolate(ngettext("%(n)s card", "%(n)s cards", seat.cards_left), { n: seat.cards_left }),
    interpolate(ngettext("%(n)s trick", "%(n)s tricks", seat.tricks_taken), { n: seat.tricks_taken }),
  ],
  yourTurnText: (view) => (view.phase === "play" ? (view.trick.length ? "Your turn: follow suit if you can." : "Your turn: lead a card.") : "Your turn."),
  describeEvent(e, names) {
    if (e.type === "play") return `${names[e.seat]} played ${cardText(e.card)}${e.forced ? " (forced)" : ""}.`;
    if (e.type === "trick_won") return `${names[e.winner]} took trick ${e.trick}: a point against.`;
    return undefined;
  },
};
