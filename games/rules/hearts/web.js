// Hearts: passing (three cards, or the funky pass), play, the shooter's moon choice.

import { cardFace, cardName, cardText, sortCards } from "@web/cards.js";
import { h } from "@web/dom.js";
import { cardCount, listNames, trickCount } from "@web/format.js";
import { gettext, interpolate, ngettext, pgettext } from "@web/i18n.js";

// The hand's pass direction (the view's `pass_direction`) in words.
function directionText(direction) {
  const words = {
    // Translators: Hearts: where the cards are passed this hand ("Pass: left").
    left: pgettext("pass direction", "left"),
    // Translators: Hearts: where the cards are passed this hand ("Pass: right").
    right: pgettext("pass direction", "right"),
    // Translators: Hearts: where the cards are passed this hand ("Pass: across").
    across: pgettext("pass direction", "across"),
    hold: pgettext("pass direction", "no pass (hold)"),
    funky: pgettext("pass direction", "funky (one card to each player)"),
  };
  return words[direction] ?? direction;
}
const OFFSET = { left: 1, right: 3, across: 2 };

function passTarget(view) {
  const offset = OFFSET[view.pass_direction];
  return offset === undefined ? null : (view.you.seat + offset) % view.seats.length;
}

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

// A moon moves only the 26 points of hearts and Q♠; J♦ keeps its value for whoever took
// it (the engine's hand_points). The Sweedo moon needs J♦, so the shooter holds it.
// The shooter's choices are said by the shooter ("me").
function moonLabels(room) {
  const options = room?.options ?? {};
  const jack = options.jack_of_diamonds ?? 0;
  if (options.moon === "sweedo") {
    return {
      // Translators: Hearts: the moon's shooter's choice, said by the shooter: %(points)s is a score's change ("−16").
      minus_self: interpolate(gettext("%(points)s for me"), { points: signed(jack - 26) }),
      plus_others: jack
        ? interpolate(gettext("%(points)s for me, +26 for each other player"), { points: signed(jack) })
        : gettext("+26 for each other player"),
    };
  }
  if (!jack) return { minus_self: gettext("−26 for me"), plus_others: gettext("+26 for each other player") };
  const values = { points: signed(jack) };
  return {
    // Translators: Hearts: the moon's shooter's choice, said by the shooter; J♦ is the jack of diamonds.
    minus_self: interpolate(gettext("−26 for me; J♦ still counts %(points)s for whoever took it"), values),
    plus_others: interpolate(gettext("+26 for each other player; J♦ still counts %(points)s for whoever took it"), values),
  };
}

// The moon rule in force, in a few words.
function moonRule(options) {
  if (options.moon === "sweedo") {
    const jack = options.jack_of_diamonds ?? 0;
    // Translators: Hearts: shooting the moon, in the line of the rules in force; %(shooter)s and %(jack)s are a score's change ("−16", "−10").
    return interpolate(gettext("moon needs J♦ too: shooter %(shooter)s, or %(jack)s and others +26"), { shooter: signed(jack - 26), jack: signed(jack) });
  }
  if (options.moon === "shooter_choice") return gettext("moon: the shooter picks −26 for self or +26 to the others");
  if (options.moon === "others_plus_26") return gettext("moon: +26 to each other player");
  return null;
}

// Who took Q♠ and J♦ in hand `round`, read from the log: each trick_won closes the trick
// whose plays came before it. Empty when the log does not reach back that far.
export function penaltyTakers(events, round) {
  const taken = {};
  let pending = [];
  for (const e of events) {
    if (e.round !== round) continue;
    if (e.type === "round_started") pending = [];
    else if (e.type === "play" && (e.card === "QS" || e.card === "JD")) pending.push(e.card);
    else if (e.type === "trick_won") {
      for (const card of pending) taken[card] = e.winner;
      pending = [];
    }
  }
  return taken;
}

// The options' words in the new-room form (made at each call: the page's catalogue is
// loaded after this module).
function optionLabels() {
  return {
    fourth_hand: gettext("Every fourth hand"),
    lead_any_club: gettext("Lead any club first"),
    queen_breaks_hearts: gettext("Q♠ breaks hearts"),
    moon: gettext("Shooting the moon"),
    jack_of_diamonds: gettext("Points for J♦"),
    no_trick_bonus: gettext("Points for taking no trick"),
    target: gettext("Match target"),
    // Translators: Hearts: an option's label, followed by its values "Reaches the target" and "Exceeds the target".
    end_when: gettext("The match ends when a score"),
  };
}
function optionHelps() {
  return {
    fourth_hand: gettext("No pass (hold), or a funky pass: one card to each other player."),
    lead_any_club: gettext("The holder of the 2♣ may lead any club to the first trick."),
    queen_breaks_hearts: gettext("Playing the Q♠ lets hearts be led."),
    moon: gettext("Everyone else takes 26; or the shooter chooses; or the Sweedo moon, which needs the J♦ too."),
    jack_of_diamonds: gettext("Usually 0; Sweedo: -10."),
    no_trick_bonus: gettext("Except in a moon hand; Sweedo: -5."),
    target: gettext("The match ends after a hand in which someone gets here."),
    end_when: gettext("Reaches the target, or only once it goes past it."),
  };
}

/** @type {import("@web/games/renderer.js").GameRenderer} */
export default {
  key: "hearts",
  face: (code) => cardFace(code),
  itemName: (code) => cardName(code),
  sortHand: (hand) => sortCards(hand),

  optionLabel: (name) => optionLabels()[name] ?? null,
  optionHelp: (name) => optionHelps()[name] ?? null,
  optionValueLabel(name, value) {
    // Translators: Hearts: Sweedo is a variant of the game, named after its players.
    const sweedo = gettext("Sweedo");
    const sweedoShort = gettext("Sweedo, short (70)");
    const short = gettext("Short game (50)");
    if (name === "preset") return { sweedo, sweedo_short: sweedoShort, short }[value] ?? null;
    const words = {
      others_plus_26: gettext("Everyone else +26"),
      shooter_choice: gettext("Shooter's choice"),
      sweedo: gettext("Sweedo (needs J♦ too)"),
      sweedo_short: sweedoShort,
      short,
      // The table's word for it too ("4th hand: no pass"): one name from the lobby on.
      // Translators: Hearts: a hand without a pass.
      hold: gettext("No pass"),
      // Translators: Hearts: a pass of one card to each other player.
      funky: gettext("Funky pass"),
      reached: gettext("Reaches the target"),
      exceeded: gettext("Exceeds the target"),
    };
    return words[value] ?? null;
  },

  info(view) {
    const items = [];
    // Translators: Hearts: the label of where the cards are passed this hand ("Pass: left").
    if (view.pass_direction) items.push([pgettext("pass direction", "Pass"), directionText(view.pass_direction)]);
    // Translators: Hearts: whether hearts (the suit) may be led yet: "Hearts: broken", "Hearts: not broken".
    items.push([pgettext("suit", "Hearts"), view.hearts_broken ? pgettext("hearts", "broken") : pgettext("hearts", "not broken")]);
    // Translators: Hearts: how many tricks of the hand's 13 were played ("Tricks: 4 of 13").
    if (view.tricks_played !== undefined) items.push([gettext("Tricks"), interpolate(gettext("%(played)s of %(total)s"), { played: view.tricks_played, total: 13 })]);
    return items;
  },

  rulesSummary(options) {
    const items = [];
    // Translators: Hearts: the jack of diamonds' points, in the line of the rules in force ("J♦ −10").
    if (options.jack_of_diamonds) items.push(interpolate(gettext("J♦ %(points)s"), { points: signed(options.jack_of_diamonds) }));
    // Translators: Hearts: the points for taking no trick, in the line of the rules in force ("no trick −5").
    if (options.no_trick_bonus) items.push(interpolate(gettext("no trick %(points)s"), { points: signed(options.no_trick_bonus) }));
    items.push(moonRule(options));
    if (options.queen_breaks_hearts) items.push(gettext("Q♠ breaks hearts"));
    if (options.lead_any_club) items.push(gettext("any club may open"));
    if (options.fourth_hand) items.push(options.fourth_hand === "funky" ? gettext("4th hand: funky pass") : gettext("4th hand: no pass"));
    if (options.target) {
      const values = { target: options.target };
      // Translators: Hearts: the match's end, in the line of the rules in force: "ends over 100" (once a score passes it), "ends at 100".
      items.push(options.end_when === "exceeded" ? interpolate(gettext("ends over %(target)s"), values) : interpolate(gettext("ends at %(target)s"), values));
    }
    // moonRule's null (no moon rule) left out: tsc does not narrow by `filter(Boolean)`.
    return /** @type {string[]} */ (items.filter(Boolean));
  },

  seatFacts(seat) {
    // Who is still choosing a pass shows as the seats to act.
    // Translators: the points a player took this hand, abbreviated ("13 pts").
    const points = interpolate(ngettext("%(n)s pts", "%(n)s pts", seat.points_taken), { n: seat.points_taken });
    return [cardCount(seat.cards_left), trickCount(seat.tricks_taken), points];
  },

  yourTurnText(view) {
    if (view.phase === "pass") return gettext("Your turn: choose cards to pass.");
    if (view.phase === "play") return view.trick.length ? gettext("Your turn: play a card.") : gettext("Your turn: lead a card.");
    if (view.phase === "moon_choice") return gettext("You shot the moon! Choose how it scores.");
    if (view.phase === "round_over") return gettext("The hand is over.");
    return gettext("Your turn.");
  },

  templateText(template, view, names) {
    if (template.to) return gettext("Funky pass: tap one card for each player, in order.");
    const target = passTarget(view);
    const n = template.count;
    const values = { n, name: target !== null ? names[target] : "", direction: directionText(view.pass_direction) };
    // Translators: Hearts: %(direction)s is where the cards go ("left", "right", "across").
    if (target === null) return interpolate(ngettext("Choose %(n)s card to pass %(direction)s", "Choose %(n)s cards to pass %(direction)s", n), values);
    const phrases = {
      left: ngettext("Choose %(n)s card to pass left to %(name)s", "Choose %(n)s cards to pass left to %(name)s", n),
      right: ngettext("Choose %(n)s card to pass right to %(name)s", "Choose %(n)s cards to pass right to %(name)s", n),
      across: ngettext("Choose %(n)s card to pass across to %(name)s", "Choose %(n)s cards to pass across to %(name)s", n),
    };
    return interpolate(phrases[view.pass_direction], values);
  },
  // Once the cards are chosen the button says which go where: it reads as the confirmation
  // it is. The funky pass's slots beside it say where each card goes.
  templateButton(template, view, picked = [], names = []) {
    if (template.to) return gettext("Pass these cards");
    if (picked.length !== template.count) return interpolate(ngettext("Pass %(n)s card", "Pass %(n)s cards", template.count), { n: template.count });
    const target = passTarget(view);
    const cards = picked.map(cardText).join(" ");
    // Translators: Hearts: the button that passes the cards chosen ("Pass Q♠ K♥ 2♦ to Ann").
    if (target !== null && names[target]) return interpolate(gettext("Pass %(cards)s to %(name)s"), { cards, name: names[target] });
    return interpolate(gettext("Pass %(cards)s"), { cards });
  },

  actionLabel(action, view, ctx) {
    if (action.type === "moon_choice") return moonLabels(ctx.room)[action.choice] ?? action.choice;
    if (action.type === "next_round") return gettext("Next hand");
    return action.type;
  },

  pendingNote(view, names) {
    const you = view.you;
    if (!you) return null;
    if (view.phase === "pass" && you.pass_chosen) {
      const cards = Array.isArray(you.pass_chosen)
        ? you.pass_chosen.map(cardText).join(" ")
        : Object.entries(you.pass_chosen)
            .map(([seat, card]) => interpolate(gettext("%(cards)s to %(target)s"), { cards: cardText(card), target: names[seat] }))
            .join(", ");
      // Translators: Hearts: %(cards)s is the cards ("Q♠ K♥ 2♦"), or each with its receiver ("Q♠ to Ann, K♥ to Bob, 2♦ to Cy").
      return h("p", { class: "note" }, interpolate(gettext("You pass %(cards)s. Waiting for the others to choose."), { cards }));
    }
    if (view.phase === "play" && you.received && view.tricks_played === 0) {
      const got = Array.isArray(you.received) ? you.received : [you.received];
      // Translators: Hearts: cards received in the pass, and who passed them ("Q♠ K♥ 2♦ from Ann").
      const from = got.map((g) => interpolate(gettext("%(cards)s from %(name)s"), { cards: g.cards.map(cardText).join(" "), name: names[g.from] }));
      // Translators: Hearts: %(cards)s is the cards received and who passed them ("Q♠ K♥ 2♦ from Ann", or several such, joined by commas).
      return h("p", { class: "note" }, interpolate(gettext("You received %(cards)s."), { cards: from.join(", ") }));
    }
    return null;
  },

  resultSummary(last, names, view, events, ctx) {
    const notes = [];
    if (last.moon) {
      const shooter = { name: names[last.moon.shooter] };
      notes.push(
        last.moon.choice === "minus_self"
          ? interpolate(gettext("%(name)s shot the moon and took the minus."), shooter)
          : interpolate(gettext("%(name)s shot the moon."), shooter),
      );
    }
    // Translators: Hearts: the players who took no trick this hand.
    if (last.no_trick?.length) notes.push(interpolate(gettext("No trick: %(names)s."), { names: listNames(last.no_trick, names) }));
    const taken = penaltyTakers(events ?? [], last.round);
    const cards = ["QS", ...(ctx?.room?.options?.jack_of_diamonds ? ["JD"] : [])].filter((c) => taken[c] !== undefined);
    const who = cards.map((c) => interpolate(gettext("%(name)s took %(card)s."), { name: names[taken[c]], card: cardText(c) }));
    if (!notes.length && !who.length) return null;
    return [notes.length ? h("p", { class: "result-notes" }, notes.join(" ")) : null, who.length ? h("p", { class: "takers" }, who.join(" ")) : null];
  },

  describeEvent(e, names) {
    const who = (s) => names[s];
    switch (e.type) {
      case "play": {
        const values = { name: who(e.seat), card: cardText(e.card) };
        // Translators: a card played because no other could be ("forced").
        return e.forced ? interpolate(gettext("%(name)s played %(card)s (forced)."), values) : interpolate(gettext("%(name)s played %(card)s."), values);
      }
      case "passed":
        return interpolate(gettext("%(name)s chose cards to pass."), { name: who(e.seat) });
      case "pass_chosen":
        return "";
      case "cards_passed":
        return interpolate(gettext("%(name)s passed %(cards)s to %(target)s."), { name: who(e.from), cards: e.cards.map(cardText).join(" "), target: who(e.to) });
      case "pass_complete":
        return gettext("The cards were passed.");
      case "hearts_broken":
        // Translators: Hearts: hearts (the suit) may be led from now on; %(card)s is the card that broke them.
        return interpolate(gettext("Hearts are broken (%(card)s)."), { card: cardText(e.card) });
      case "moon_shot":
        return interpolate(gettext("%(name)s shot the moon!"), { name: who(e.shooter) });
      case "moon_chosen":
        return e.choice === "minus_self"
          ? interpolate(gettext("%(name)s chose: the moon off the shooter's score."), { name: who(e.seat) })
          : interpolate(gettext("%(name)s chose: the moon onto everyone else's score."), { name: who(e.seat) });
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
