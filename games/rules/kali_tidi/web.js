// Kali Tidi (Moon 3 of Spades): remove extra cards, bid in fives, call partner cards,
// name trumps, play. Four-colour suits (♠ black, ♥ red, ♣ green, ♦ yellow), trumps marked.

import { cardFace, cardName, cardText, SUIT_SYMBOL, sortCards, suit, suitName } from "@web/cards.js";
import { h } from "@web/dom.js";
import { cardCount, joinList, listNames, teamName, trickCount } from "@web/format.js";
import { gettext, gettext_noop, interpolate, ngettext, pgettext } from "@web/i18n.js";
import { signed } from "@web/table.js";

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

// The partner rule with two decks, in words (the room's `partner_rule`).
function partnerRules() {
  return {
    first: gettext("the first other player to play a called card is the partner"),
    last: gettext("the last other player to play a called card is the partner"),
  };
}

// "A♥", "A♥ and K♠", "2♠, 4♦ and 6♣".
function cardList(codes) {
  return joinList(codes.map(cardText));
}

const suitGlyph = (s) => h("span", { class: `suit-glyph palette-four suit-${s}` }, SUIT_SYMBOL[s]);

// The options' words in the new-room form (made at each call: the page's catalogue is
// loaded after this module).
function optionLabels() {
  return {
    players: gettext("Players"),
    decks: gettext("Decks"),
    team_mode: gettext("Partners"),
    team_sizes: gettext("Team sizes"),
    // Translators: Kali Tidi: an option's label, followed by its values "First to play a called card", "Last to play a called card".
    partner_rule: gettext("With two decks, the partner is"),
    min_bid: gettext("Lowest bid"),
    target: gettext("Match target"),
    // Translators: Kali Tidi: the option that makes the 3♠ the highest trump.
    trump_card: gettext("Special trump"),
  };
}
function optionHelps() {
  return {
    players: gettext("From 2 to 7."),
    decks: gettext("Automatic: one deck for up to four players, two from five."),
    team_mode: gettext("Teams chosen in the lobby, drawn at random at the start, or each hand the bid winner calls partner cards."),
    team_sizes: gettext("How many players in each team; blank for an even split."),
    partner_rule: gettext("The first or the last other player to play a called card."),
    min_bid: gettext("Blank: 125 with one deck, 250 with two. A multiple of 5."),
    target: gettext("Blank: 250 with one deck, 500 with two."),
    trump_card: gettext("The 3♠ may be the highest trump of all, whatever the trump suit."),
  };
}

/** @type {import("@web/games/renderer.js").GameRenderer} */
export default {
  key: "kali_tidi",
  // Translators: Kali Tidi: a badge beside a player's name: who bids first this hand.
  dealerLabel: gettext_noop("first bidder"),
  face: (code, view) => cardFace(code, { palette: "four", trump: isTrump(code, view) }),
  // Translators: a tile or a card that is a trump, in its name ("6-4, trump").
  itemName: (code, view) => (isTrump(code, view) ? interpolate(gettext("%(item)s, trump"), { item: cardName(code) }) : cardName(code)),
  sortHand,

  optionLabel: (name) => optionLabels()[name] ?? null,
  optionHelp: (name) => optionHelps()[name] ?? null,
  optionVisible(name, values) {
    if (name === "team_sizes") return values.team_mode === "teams";
    // Two decks by default from five players up (RULES §3.2).
    const decks = values.decks ?? (values.players >= 5 ? 2 : 1);
    if (name === "partner_rule") return values.team_mode === "cards" && decks === 2;
    return true;
  },
  optionArity: (name) => (name === "team_sizes" ? 2 : null),
  optionItemLabels: (name) => (name === "team_sizes" ? [teamName(0), teamName(1)] : []),
  optionValueLabel(name, value) {
    const words = {
      teams: gettext("Teams chosen in the lobby"),
      random: gettext("Random teams"),
      cards: gettext("Partners by called cards"),
      first: gettext("First to play a called card"),
      last: gettext("Last to play a called card"),
      // Translators: Kali Tidi: no special trump.
      none: gettext("None"),
      three_of_spades: gettext("3♠ is the highest trump"),
    };
    return words[value] ?? null;
  },

  rulesSummary(options, view) {
    const items = [];
    const decks = view?.decks ?? options.decks;
    if (decks) items.push(interpolate(ngettext("%(n)s deck", "%(n)s decks", decks), { n: decks }));
    const mode = { teams: gettext("teams from the lobby"), random: gettext("random teams"), cards: gettext("partners by called cards") }[options.team_mode];
    if (mode) items.push(mode);
    if (options.team_mode === "cards" && decks === 2) items.push(partnerRules()[options.partner_rule] ?? null);
    if (options.trump_card === "three_of_spades") items.push(gettext("3♠ the highest trump"));
    const min = view?.min_bid ?? options.min_bid;
    if (min) {
      // Translators: Kali Tidi: the bids allowed, in the line of the rules in force ("bids from 125 to 250").
      items.push(view?.max_bid ? interpolate(gettext("bids from %(min)s to %(max)s"), { min, max: view.max_bid }) : interpolate(gettext("bids from %(min)s"), { min }));
    }
    const target = view?.target ?? options.target;
    // Translators: the score that ends the match, in the line of the rules in force ("game to 250").
    if (target) items.push(interpolate(gettext("game to %(target)s"), { target }));
    return items.filter(Boolean);
  },

  info(view, names) {
    const items = [];
    if (view.bid) {
      const bid = view.bidder !== null && view.bidder !== undefined ? interpolate(gettext("%(name)s: %(bid)s"), { name: names[view.bidder], bid: view.bid }) : String(view.bid);
      items.push([pgettext("noun", "Bid"), bid]);
    }
    if (view.trump) items.push([gettext("Trumps"), h("span", { class: "trump-chip" }, suitGlyph(view.trump), ` ${suitName(view.trump)}`)]);
    // Translators: Kali Tidi: the partner cards the bid winner called.
    if (view.called?.length) items.push([gettext("Called"), view.called.map(cardText).join(" ")]);
    if (view.partners?.length) items.push([gettext("Partners"), listNames(view.partners, names)]);
    // Translators: Kali Tidi: the bids allowed ("Bids: 125 to 250, in fives").
    if (view.min_bid && view.phase === "bid") items.push([gettext("Bids"), interpolate(gettext("%(min)s to %(max)s, in fives"), { min: view.min_bid, max: view.max_bid })]);
    // Translators: Kali Tidi: the cards taken out of the deck for this match.
    if (view.removed?.length) items.push([gettext("Removed"), view.removed.map(cardText).join(" ")]);
    return items;
  },

  waitingText(view, names) {
    if (view.phase === "remove" && view.remover !== null) {
      const values = { name: names[view.remover], n: view.remove_count };
      return interpolate(ngettext("Waiting for %(name)s to remove %(n)s card from the deck.", "Waiting for %(name)s to remove %(n)s cards from the deck.", view.remove_count), values);
    }
    if (view.phase === "call") return interpolate(gettext("Waiting for %(name)s to call partner cards."), { name: names[view.bidder] });
    return null;
  },

  seatFacts(seat, view) {
    const facts = [];
    if (seat.cards_left !== undefined) facts.push(cardCount(seat.cards_left));
    if (seat.tricks_taken !== undefined) facts.push(trickCount(seat.tricks_taken));
    // Translators: the points a player took this hand, abbreviated ("13 pts").
    if (seat.points_taken !== undefined) facts.push(interpolate(ngettext("%(n)s pts", "%(n)s pts", seat.points_taken), { n: seat.points_taken }));
    // Each seat's bid matters during the auction; after it the bid in force is in the info bar.
    // Translators: a player's bid so far, under their name ("bid 5", "bid moon").
    if (view.phase === "bid" && seat.bid) facts.push(interpolate(gettext("bid %(bid)s"), { bid: seat.bid }));
    // Translators: under a player's name: they passed in the bidding.
    else if (view.phase === "bid" && seat.passed) facts.push(pgettext("bidding", "passed"));
    return facts;
  },
  // English words, translated by the table (renderer.js).
  seatBadges(seat, view, i) {
    const out = [];
    // Translators: a badge beside a player's name: the winner of the bidding.
    if (view.bidder === i && view.phase !== "bid") out.push(gettext_noop("bidder"));
    // Translators: Kali Tidi: a badge beside a player's name: a partner of the bid winner.
    if (seat.partner) out.push(gettext_noop("partner"));
    return out;
  },

  yourTurnText(view) {
    return {
      remove: gettext("Remove the extra cards from the deck."),
      bid: gettext("Your turn: bid or pass."),
      call: gettext("You won the bid: call your partner cards."),
      call_partners: gettext("You won the bid: call your partner cards."),
      trump: gettext("Name the trump suit."),
      play: view.trick?.length ? gettext("Your turn: play a card.") : gettext("Your turn: lead a card."),
      round_over: gettext("The hand is over."),
    }[view.phase] ?? gettext("Your turn.");
  },

  templateText(template) {
    const n = template.count;
    if (template.type === "remove_cards") {
      return interpolate(ngettext("Remove %(n)s card from the deck (no point cards)", "Remove %(n)s cards from the deck (no point cards)", n), { n });
    }
    if (template.type === "call_partners") return interpolate(ngettext("Call %(n)s partner card", "Call %(n)s partner cards", n), { n });
    // Translators: the title of a choice of several cards; %(n)s is how many to choose.
    return interpolate(gettext("Choose %(n)s"), { n });
  },
  // The rule a choice is made under, said where it is made.
  templateNote(template, view, ctx) {
    const decks = view.decks ?? ctx?.room?.options?.decks;
    if (template.type === "remove_cards") {
      const text =
        decks === 2
          ? gettext("Only cards worth nothing (2, 4, 6, 7, 8, 9) may go; both copies of one may. They stay out for the whole match.")
          : gettext("Only cards worth nothing (2, 4, 6, 7, 8, 9) may go. They stay out for the whole match.");
      return h("p", { class: "note" }, text);
    }
    if (template.type !== "call_partners") return null;
    const rule = ctx?.room?.options?.partner_rule ?? "first";
    // Translators: Kali Tidi: %(rule)s is who the partner is ("the first other player to play a called card is the partner").
    const values = { rule: partnerRules()[rule] };
    const text =
      decks === 2
        ? rule === "last"
          ? interpolate(gettext("Partner rule: %(rule)s, known once nobody else holds a copy."), values)
          : interpolate(gettext("Partner rule: %(rule)s, known as it is played."), values)
        : gettext("Partner rule: whoever plays a called card is your partner, known as it is played.");
    return h("p", { class: "note partner-rule" }, text, ` ${gettext("One player holding several called cards is one partner.")}`);
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
    const cards = picked.length && picked.length === template.count ? cardList(picked) : null;
    if (template.type === "remove_cards") return cards ? interpolate(gettext("Remove these cards: %(cards)s"), { cards }) : gettext("Remove these cards");
    if (template.type === "call_partners") return cards ? interpolate(gettext("Call partners: %(cards)s"), { cards }) : gettext("Call partners");
    return cards ? interpolate(gettext("Confirm: %(cards)s"), { cards }) : gettext("Confirm");
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
            ` ${suitName(a.suit)}`,
          ),
        ),
      );
    }
    return null;
  },
  // Translators: the button beside a list of bids.
  groupLabel: (type) => (type === "bid" ? pgettext("verb", "Bid") : gettext("OK")),
  actionLabel(action) {
    if (action.type === "bid") return action.value === undefined ? pgettext("verb", "Bid") : interpolate(pgettext("verb", "Bid %(bid)s"), { bid: action.value });
    // Translators: the button that passes in the bidding.
    if (action.type === "pass") return pgettext("bidding", "Pass");
    if (action.type === "next_round") return gettext("Next hand");
    return action.type;
  },

  resultSummary(last, names) {
    const bidder = { name: names[last.bidder], bid: last.bid };
    const parts = [
      last.trump
        ? interpolate(gettext("%(name)s bid %(bid)s with %(trumps)s as trumps."), { ...bidder, trumps: String(suitName(last.trump)) })
        : interpolate(gettext("%(name)s bid %(bid)s."), bidder),
    ];
    if (last.called?.length) {
      const cards = last.called.map(cardText).join(" ");
      const n = last.partners?.length ?? 0;
      if (!n) parts.push(interpolate(gettext("Called %(cards)s: no partner."), { cards }));
      else {
        // Translators: Kali Tidi: the partner cards called, and who turned out to hold them.
        parts.push(interpolate(ngettext("Called %(cards)s: partner %(names)s.", "Called %(cards)s: partners %(names)s.", n), { cards, names: listNames(last.partners, names) }));
      }
    }
    const sides = { names: listNames(last.bidding_side ?? [], names), points: last.bidding_points, others: last.other_points };
    // Translators: Kali Tidi: %(names)s are the bidder and their partners; %(others)s the points of the other players.
    const made = gettext("Bidding side %(names)s took %(points)s points, the others %(others)s: the bid was made.");
    const lost = gettext("Bidding side %(names)s took %(points)s points, the others %(others)s: the bid was lost.");
    parts.push(interpolate(last.made ? made : lost, sides));
    return h("p", {}, parts.join(" "));
  },
  resultColumns(last) {
    const won = new Set(last.hand_winners ?? []);
    return [
      // Translators: Kali Tidi: the result table's columns: the points of the cards each player took, their side, what the hand gave them, their total.
      { head: gettext("Card points"), cell: (i) => last.points?.[i] ?? "" },
      // Translators: Kali Tidi: a player's side in the hand: "bidding" or "other".
      { head: gettext("Side"), cell: (i) => (last.bidding_side?.includes(i) ? pgettext("side", "bidding") : pgettext("side", "other")) },
      // Translators: Kali Tidi: a player of the side that made its bid, and the points it won ("won +150").
      { head: gettext("Hand"), cell: (i) => (won.has(i) ? interpolate(gettext("won +%(bid)s"), { bid: last.bid }) : "—") },
      { head: gettext("Total"), cell: (i) => last.scores?.[i] ?? "" },
    ];
  },
  sheetCell(r, i) {
    return [String(r.scores?.[i] ?? ""), (r.hand_winners ?? []).includes(i) ? h("small", {}, ` (${signed(r.bid)})`) : null];
  },
  roundColumns: (r, names) => {
    // The bid and its trump suit's symbol ("150 ♠"): no words.
    const values = { name: names[r.bidder], contract: `${r.bid}${r.trump ? ` ${SUIT_SYMBOL[r.trump]}` : ""}` };
    // Translators: Kali Tidi: a hand on the score sheet, short: the bidder, the bid and trumps, and whether the bid was made ("Ann 150 ♠ made", "Ann 150 ♠ lost").
    return r.made ? interpolate(gettext("%(name)s %(contract)s made"), values) : interpolate(gettext("%(name)s %(contract)s lost"), values);
  },

  describeEvent(e, names) {
    const who = (s) => names[s];
    switch (e.type) {
      case "play": {
        const values = { name: who(e.seat), card: cardText(e.card) };
        // Translators: a card played because no other could be ("forced").
        return e.forced ? interpolate(gettext("%(name)s played %(card)s (forced)."), values) : interpolate(gettext("%(name)s played %(card)s."), values);
      }
      case "cards_removed":
        return interpolate(gettext("%(name)s removed %(cards)s from the deck."), { name: who(e.seat), cards: e.cards.map(cardText).join(" ") });
      case "partners_called":
        // Translators: Kali Tidi: the bid winner called these partner cards.
        return interpolate(gettext("%(name)s called %(cards)s."), { name: who(e.seat), cards: e.cards.map(cardText).join(" ") });
      case "partner_revealed":
        // The play just before says which card: this line says what it meant.
        return interpolate(gettext("%(name)s is revealed as a partner of the bid winner."), { name: who(e.seat) });
      case "auction_won":
        return e.all_passed
          ? interpolate(gettext("Everyone passed: %(name)s bids %(bid)s."), { name: who(e.seat), bid: e.bid })
          : interpolate(gettext("%(name)s won the bid at %(bid)s."), { name: who(e.seat), bid: e.bid });
      case "trick_won":
        return e.points
          ? interpolate(gettext("%(name)s took the trick (%(points)s points)."), { name: who(e.winner), points: e.points })
          : interpolate(gettext("%(name)s took the trick."), { name: who(e.winner) });
      case "trump":
        // Translators: %(trumps)s is a suit ("hearts") or, in dominoes, a number ("5s").
        return interpolate(gettext("%(name)s named %(trumps)s as trumps."), { name: who(e.seat), trumps: String(suitName(e.suit)) });
      case "hand_scored":
        // Translators: %(n)s is the hand's number in the match.
        return interpolate(gettext("Hand %(n)s scored."), { n: e.round });
      case "ready":
        return "";
      default:
        return undefined;
    }
  },
};
