// Kali Tidi (Moon 3 of Spades): remove extra cards, bid in fives, call partner cards,
// name trumps, play. Four-colour suits (♠ black, ♥ red, ♣ green, ♦ yellow), trumps marked.

import { cardFace, cardName, cardText, SUIT_NAME, SUIT_SYMBOL, sortCards, suit } from "../cards.js";
import { h } from "../dom.js";
import { listNames, teamName } from "../format.js";

function isTrump(code, view) {
  if (!view?.trump) return false;
  if (code === "3S" && view.trump_card === "three_of_spades") return true;
  return suit(code) === view.trump;
}

const suitGlyph = (s) => h("span", { class: `suit-glyph palette-four suit-${s}` }, SUIT_SYMBOL[s]);

export default {
  key: "kali_tidi",
  face: (code, view) => cardFace(code, { palette: "four", trump: isTrump(code, view) }),
  itemName: (code, view) => `${cardName(code)}${isTrump(code, view) ? ", trump" : ""}`,
  sortHand: (hand, view) => sortCards(hand, { trump: view.trump ?? null, suitOrder: ["S", "H", "C", "D"] }),

  optionVisible(name, values) {
    if (name === "team_sizes") return values.team_mode === "teams";
    if (name === "partner_rule") return values.team_mode === "cards" && values.decks === 2;
    return true;
  },
  optionValueLabel(name, value) {
    const words = {
      teams: "Teams chosen in the lobby",
      random: "Random teams",
      cards: "Partners by called cards",
      first: "First to play a called card",
      last: "Last to play a called card",
      none: "None",
      three_of_spades: "3♠ is the highest trump",
    };
    return words[value] ?? null;
  },

  info(view, names) {
    const items = [];
    if (view.bid) items.push(["Bid", view.bidder !== null && view.bidder !== undefined ? `${names[view.bidder]}: ${view.bid}` : String(view.bid)]);
    if (view.trump) items.push(["Trumps", h("span", { class: "trump-chip" }, suitGlyph(view.trump), ` ${SUIT_NAME[view.trump]}`)]);
    if (view.called?.length) items.push(["Called", view.called.map(cardText).join(" ")]);
    const partners = (view.seats || []).map((s, i) => (s.partner ? i : null)).filter((i) => i !== null);
    if (partners.length) items.push(["Partners", listNames(partners, names)]);
    if (view.removed?.length) items.push(["Removed", view.removed.map(cardText).join(" ")]);
    return items;
  },

  seatFacts(seat) {
    const facts = [];
    if (seat.cards_left !== undefined) facts.push(`${seat.cards_left} cards`);
    if (seat.tricks_taken !== undefined) facts.push(`${seat.tricks_taken} tricks`);
    if (seat.points_taken !== undefined) facts.push(`${seat.points_taken} pts`);
    if (seat.bid) facts.push(`bid ${seat.bid}`);
    else if (seat.passed) facts.push("passed");
    return facts;
  },
  seatBadges(seat, view, i) {
    const out = [];
    if (view.bidder === i && view.phase !== "bid") out.push("bidder");
    if (seat.partner) out.push("partner");
    return out;
  },

  yourTurnText(view) {
    return {
      remove: "Remove the extra cards from the deck.",
      bid: "Your turn: bid or pass.",
      call: "You won the bid: call your partner cards.",
      call_partners: "You won the bid: call your partner cards.",
      trump: "Name the trump suit.",
      play: view.trick?.length ? "Your turn: play a card." : "Your turn: lead a card.",
      round_over: "The hand is over.",
    }[view.phase] ?? "Your turn.";
  },

  templateText(template) {
    if (template.type === "remove_cards") return `Remove ${template.count} card${template.count === 1 ? "" : "s"} from the deck (no point cards)`;
    if (template.type === "call_partners") return `Call ${template.count} partner card${template.count === 1 ? "" : "s"}`;
    return `Choose ${template.count}`;
  },
  templateButton(template) {
    if (template.type === "remove_cards") return "Remove these cards";
    if (template.type === "call_partners") return "Call partners";
    return "Confirm";
  },

  panel(view, names, actions, ctx) {
    const trumps = actions.filter((a) => a.type === "trump");
    if (trumps.length) {
      return h(
        "div",
        { class: "button-row trumps" },
        trumps.map((a) =>
          h(
            "button",
            { class: "trump-button", "data-focus": `trump-${a.suit}`, "data-action": "trump", "data-value": a.suit, onclick: () => ctx.act(a) },
            suitGlyph(a.suit),
            ` ${SUIT_NAME[a.suit]}`,
          ),
        ),
      );
    }
    return null;
  },
  groupLabel: (type) => (type === "bid" ? "Bid" : "OK"),
  actionLabel(action) {
    if (action.type === "bid") return action.value === undefined ? "Bid" : `Bid ${action.value}`;
    if (action.type === "pass") return "Pass";
    if (action.type === "next_round") return "Next hand";
    return action.type;
  },

  resultSummary(last, names) {
    const side = last.bidding_side ?? last.partners ?? null;
    const parts = [];
    if (last.bidder !== undefined && last.bidder !== null) parts.push(`${names[last.bidder]} bid ${last.bid}${last.trump ? ` in ${SUIT_NAME[last.trump]}` : ""}.`);
    if (last.called?.length) parts.push(`Called ${last.called.map(cardText).join(" ")}.`);
    if (Array.isArray(side) && side.length) parts.push(`Bidding side: ${listNames(side, names)}.`);
    if (last.made !== undefined) parts.push(last.made ? "The bid was made." : "The bid failed.");
    return parts.length ? h("p", {}, parts.join(" ")) : null;
  },

  describeEvent(e, names) {
    const who = (s) => names[s];
    switch (e.type) {
      case "play":
        return `${who(e.seat)} played ${cardText(e.card)}.`;
      case "cards_removed":
      case "remove_cards":
        return e.cards ? `${who(e.seat)} removed ${e.cards.map(cardText).join(" ")}.` : `${who(e.seat)} removed cards.`;
      case "partners_called":
      case "call_partners":
        return `${who(e.seat)} called ${(e.cards ?? []).map(cardText).join(" ")}.`;
      case "partner_revealed":
        return `${who(e.seat)} is a partner of ${who(e.bidder ?? e.of)}!`;
      case "trump":
        return `${who(e.seat)} named ${SUIT_NAME[e.suit]} as trumps.`;
      case "bid_won":
        return `${who(e.seat)} won the bid at ${e.value}.`;
      case "hand_scored":
        return `Hand ${e.round} scored.`;
      case "ready":
        return "";
      default:
        return undefined;
    }
  },

  team: teamName,
};
