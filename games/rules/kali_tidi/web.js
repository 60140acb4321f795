// Kali Tidi (Moon 3 of Spades): remove extra cards, bid in fives, call partner cards,
// name trumps, play. Four-colour suits (♠ black, ♥ red, ♣ green, ♦ yellow), trumps marked.

import { cardFace, cardName, cardText, SUIT_NAME, SUIT_SYMBOL, sortCards, suit } from "@web/cards.js";
import { h } from "@web/dom.js";
import { listNames } from "@web/format.js";
import { count, signed } from "@web/table.js";

// The view names the card that is always the highest trump (`trump_card`: "3S", or null
// without that option); it then belongs to the trump suit only.
function isTrump(code, view) {
  if (!view?.trump) return false;
  if (view.trump_card && code === view.trump_card) return true;
  return suit(code) === view.trump;
}

// Suits in the player's order, trumps last; the trump card leads the trumps.
function sortHand(hand, view) {
  const sorted = sortCards(hand, { trump: view.trump ?? null, suitOrder: ["S", "H", "C", "D"] });
  if (!view.trump || !view.trump_card || !sorted.includes(view.trump_card)) return sorted;
  const rest = sorted.filter((c) => c !== view.trump_card);
  const firstTrump = rest.findIndex((c) => suit(c) === view.trump);
  const copies = sorted.filter((c) => c === view.trump_card);
  rest.splice(firstTrump === -1 ? rest.length : firstTrump, 0, ...copies);
  return rest;
}

const PARTNER_RULE = {
  first: "the first other player to play a called card is the partner",
  last: "the last other player to play a called card is the partner",
};

// "A♥", "A♥ and K♠", "2♠, 4♦ and 6♣".
function cardList(codes) {
  const texts = codes.map(cardText);
  return texts.length > 1 ? `${texts.slice(0, -1).join(", ")} and ${texts.at(-1)}` : texts.join("");
}

const suitGlyph = (s) => h("span", { class: `suit-glyph palette-four suit-${s}` }, SUIT_SYMBOL[s]);

const OPTION_LABELS = {
  players: "Players",
  decks: "Decks",
  team_mode: "Partners",
  team_sizes: "Team sizes",
  partner_rule: "With two decks, the partner is",
  min_bid: "Lowest bid",
  target: "Match target",
  trump_card: "Special trump",
};
const OPTION_HELP = {
  players: "From 2 to 7.",
  decks: "Automatic: one deck for up to four players, two from five.",
  team_mode: "Teams chosen in the lobby, drawn at random at the start, or each hand the bid winner calls partner cards.",
  team_sizes: "How many players in each team; blank for an even split.",
  partner_rule: "The first or the last other player to play a called card.",
  min_bid: "Blank: 125 with one deck, 250 with two. A multiple of 5.",
  target: "Blank: 250 with one deck, 500 with two.",
  trump_card: "The 3♠ may be the highest trump of all, whatever the trump suit.",
};

/** @type {import("@web/games/renderer.js").GameRenderer} */
export default {
  key: "kali_tidi",
  dealerLabel: "first bidder",
  face: (code, view) => cardFace(code, { palette: "four", trump: isTrump(code, view) }),
  itemName: (code, view) => `${cardName(code)}${isTrump(code, view) ? ", trump" : ""}`,
  sortHand,

  optionLabel: (name) => OPTION_LABELS[name] ?? null,
  optionHelp: (name) => OPTION_HELP[name] ?? null,
  optionVisible(name, values) {
    if (name === "team_sizes") return values.team_mode === "teams";
    // Two decks by default from five players up (RULES §3.2).
    const decks = values.decks ?? (values.players >= 5 ? 2 : 1);
    if (name === "partner_rule") return values.team_mode === "cards" && decks === 2;
    return true;
  },
  optionArity: (name) => (name === "team_sizes" ? 2 : null),
  optionItemLabels: (name) => (name === "team_sizes" ? ["Team A", "Team B"] : []),
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

  rulesSummary(options, view) {
    const items = [];
    const decks = view?.decks ?? options.decks;
    if (decks) items.push(`${decks} deck${decks === 1 ? "" : "s"}`);
    const mode = { teams: "teams from the lobby", random: "random teams", cards: "partners by called cards" }[options.team_mode];
    if (mode) items.push(mode);
    if (options.team_mode === "cards" && decks === 2) items.push(PARTNER_RULE[options.partner_rule] ?? null);
    if (options.trump_card === "three_of_spades") items.push("3♠ the highest trump");
    const min = view?.min_bid ?? options.min_bid;
    if (min) items.push(`bids from ${min}${view?.max_bid ? ` to ${view.max_bid}` : ""}`);
    const target = view?.target ?? options.target;
    if (target) items.push(`game to ${target}`);
    return items.filter(Boolean);
  },

  info(view, names) {
    const items = [];
    if (view.bid) items.push(["Bid", view.bidder !== null && view.bidder !== undefined ? `${names[view.bidder]}: ${view.bid}` : String(view.bid)]);
    if (view.trump) items.push(["Trumps", h("span", { class: "trump-chip" }, suitGlyph(view.trump), ` ${SUIT_NAME[view.trump]}`)]);
    if (view.called?.length) items.push(["Called", view.called.map(cardText).join(" ")]);
    if (view.partners?.length) items.push(["Partners", listNames(view.partners, names)]);
    if (view.min_bid && view.phase === "bid") items.push(["Bids", `${view.min_bid} to ${view.max_bid}, in fives`]);
    if (view.removed?.length) items.push(["Removed", view.removed.map(cardText).join(" ")]);
    return items;
  },

  waitingText(view, names) {
    if (view.phase === "remove" && view.remover !== null) return `Waiting for ${names[view.remover]} to remove ${view.remove_count} card${view.remove_count === 1 ? "" : "s"} from the deck.`;
    if (view.phase === "call") return `Waiting for ${names[view.bidder]} to call partner cards.`;
    return null;
  },

  seatFacts(seat, view) {
    const facts = [];
    if (seat.cards_left !== undefined) facts.push(count(seat.cards_left, "card"));
    if (seat.tricks_taken !== undefined) facts.push(count(seat.tricks_taken, "trick"));
    if (seat.points_taken !== undefined) facts.push(`${seat.points_taken} pts`);
    // Each seat's bid matters during the auction; after it the bid in force is in the info bar.
    if (view.phase === "bid" && seat.bid) facts.push(`bid ${seat.bid}`);
    else if (view.phase === "bid" && seat.passed) facts.push("passed");
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
  // The rule a choice is made under, said where it is made.
  templateNote(template, view, ctx) {
    const decks = view.decks ?? ctx?.room?.options?.decks;
    if (template.type === "remove_cards") {
      return h("p", { class: "note" }, `Only cards worth nothing (2, 4, 6, 7, 8, 9) may go${decks === 2 ? "; both copies of one may" : ""}. They stay out for the whole match.`);
    }
    if (template.type !== "call_partners") return null;
    const rule = ctx?.room?.options?.partner_rule ?? "first";
    const text =
      decks === 2
        ? `Partner rule: ${PARTNER_RULE[rule]}${rule === "last" ? ", known once nobody else holds a copy" : ", known as it is played"}.`
        : "Partner rule: whoever plays a called card is your partner, known as it is played.";
    return h("p", { class: "note partner-rule" }, text, " One player holding several called cards is one partner.");
  },
  // How many copies of a code the others hold, as the bidder can tell (two decks): the
  // decks less what is in the bidder's hand and what was removed.
  choiceCopies(template, code, view) {
    if (template.type !== "call_partners" || view.decks !== 2) return null;
    const known = [...(view.you?.hand ?? []), ...(view.removed ?? [])].filter((c) => c === code).length;
    return view.decks - known;
  },
  choiceGroup: (code) => suit(code),
  // Once the choice is complete the button names the cards it sends: a tap in the dialog
  // only chooses, and this is the one step that sends.
  templateButton(template, view, picked = []) {
    const named = picked.length && picked.length === template.count ? `: ${cardList(picked)}` : "";
    if (template.type === "remove_cards") return `Remove these cards${named}`;
    if (template.type === "call_partners") return `Call partners${named}`;
    return `Confirm${named}`;
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
    const parts = [`${names[last.bidder]} bid ${last.bid}${last.trump ? ` with ${SUIT_NAME[last.trump]} as trumps` : ""}.`];
    if (last.called?.length) {
      parts.push(`Called ${last.called.map(cardText).join(" ")}: ${last.partners?.length ? `partner${last.partners.length === 1 ? "" : "s"} ${listNames(last.partners, names)}` : "no partner"}.`);
    }
    parts.push(
      `Bidding side ${listNames(last.bidding_side ?? [], names)} took ${last.bidding_points} points, the others ${last.other_points}: the bid was ${last.made ? "made" : "lost"}.`,
    );
    return h("p", {}, parts.join(" "));
  },
  resultColumns(last) {
    const won = new Set(last.hand_winners ?? []);
    return [
      { head: "Card points", cell: (i) => last.points?.[i] ?? "" },
      { head: "Side", cell: (i) => (last.bidding_side?.includes(i) ? "bidding" : "other") },
      { head: "Hand", cell: (i) => (won.has(i) ? `won +${last.bid}` : "—") },
      { head: "Total", cell: (i) => last.scores?.[i] ?? "" },
    ];
  },
  sheetCell(r, i) {
    return [String(r.scores?.[i] ?? ""), (r.hand_winners ?? []).includes(i) ? h("small", {}, ` (${signed(r.bid)})`) : null];
  },
  roundColumns: (r, names) => `${names[r.bidder]} ${r.bid}${r.trump ? ` ${SUIT_SYMBOL[r.trump]}` : ""} ${r.made ? "made" : "lost"}`,

  describeEvent(e, names) {
    const who = (s) => names[s];
    switch (e.type) {
      case "play":
        return `${who(e.seat)} played ${cardText(e.card)}${e.forced ? " (forced)" : ""}.`;
      case "cards_removed":
        return `${who(e.seat)} removed ${e.cards.map(cardText).join(" ")} from the deck.`;
      case "partners_called":
        return `${who(e.seat)} called ${e.cards.map(cardText).join(" ")}.`;
      case "partner_revealed":
        // The play just before says which card: this line says what it meant.
        return `${who(e.seat)} is revealed as a partner of the bid winner.`;
      case "auction_won":
        return e.all_passed ? `Everyone passed: ${who(e.seat)} bids ${e.bid}.` : `${who(e.seat)} won the bid at ${e.bid}.`;
      case "trick_won":
        return `${who(e.winner)} took the trick${e.points ? ` (${e.points} points)` : ""}.`;
      case "trump":
        return `${who(e.seat)} named ${SUIT_NAME[e.suit]} as trumps.`;
      case "hand_scored":
        return `Hand ${e.round} scored.`;
      case "ready":
        return "";
      default:
        return undefined;
    }
  },
};
