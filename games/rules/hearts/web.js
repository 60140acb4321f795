// Hearts: passing (three cards, or the funky pass), play, the shooter's moon choice.

import { cardFace, cardName, cardText, sortCards } from "@web/cards.js";
import { h } from "@web/dom.js";
import { listNames } from "@web/format.js";
import { count } from "@web/table.js";

const DIRECTION = { left: "left", right: "right", across: "across", hold: "no pass (hold)", funky: "funky (one card to each player)" };
const OFFSET = { left: 1, right: 3, across: 2 };

function passTarget(view) {
  const offset = OFFSET[view.pass_direction];
  return offset === undefined ? null : (view.you.seat + offset) % view.seats.length;
}

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

// A moon moves only the 26 points of hearts and Q♠; J♦ keeps its value for whoever took
// it (the engine's hand_points). The Sweedo moon needs J♦, so the shooter holds it.
function moonLabels(room) {
  const options = room?.options ?? {};
  const jack = options.jack_of_diamonds ?? 0;
  if (options.moon === "sweedo") {
    return {
      minus_self: `${signed(jack - 26)} for me`,
      plus_others: jack ? `${signed(jack)} for me, +26 for each other player` : "+26 for each other player",
    };
  }
  const note = jack ? `; J♦ still counts ${signed(jack)} for whoever took it` : "";
  return { minus_self: `−26 for me${note}`, plus_others: `+26 for each other player${note}` };
}

// The moon rule in force, in a few words.
function moonRule(options) {
  if (options.moon === "sweedo") {
    const jack = options.jack_of_diamonds ?? 0;
    return `moon needs J♦ too: shooter ${signed(jack - 26)}, or ${signed(jack)} and others +26`;
  }
  if (options.moon === "shooter_choice") return "moon: the shooter picks −26 for self or +26 to the others";
  if (options.moon === "others_plus_26") return "moon: +26 to each other player";
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

const OPTION_LABELS = {
  fourth_hand: "Every fourth hand",
  lead_any_club: "Lead any club first",
  queen_breaks_hearts: "Q♠ breaks hearts",
  moon: "Shooting the moon",
  jack_of_diamonds: "Points for J♦",
  no_trick_bonus: "Points for taking no trick",
  target: "Match target",
  end_when: "The match ends when a score",
};
const OPTION_HELP = {
  fourth_hand: "No pass (hold), or a funky pass: one card to each other player.",
  lead_any_club: "The holder of the 2♣ may lead any club to the first trick.",
  queen_breaks_hearts: "Playing the Q♠ lets hearts be led.",
  moon: "Everyone else takes 26; or the shooter chooses; or the Sweedo moon, which needs the J♦ too.",
  jack_of_diamonds: "Usually 0; Sweedo: -10.",
  no_trick_bonus: "Except in a moon hand; Sweedo: -5.",
  target: "The match ends after a hand in which someone gets here.",
  end_when: "Reaches the target, or only once it goes past it.",
};

/** @type {import("@web/games/renderer.js").GameRenderer} */
export default {
  key: "hearts",
  face: (code) => cardFace(code),
  itemName: (code) => cardName(code),
  sortHand: (hand) => sortCards(hand),

  optionLabel: (name) => OPTION_LABELS[name] ?? null,
  optionHelp: (name) => OPTION_HELP[name] ?? null,
  optionValueLabel(name, value) {
    if (name === "preset") return { sweedo: "Sweedo", sweedo_short: "Sweedo, short (70)", short: "Short game (50)" }[value] ?? null;
    const words = {
      others_plus_26: "Everyone else +26",
      shooter_choice: "Shooter's choice",
      sweedo: "Sweedo (needs J♦ too)",
      sweedo_short: "Sweedo, short (70)",
      short: "Short game (50)",
      // The table's word for it too ("4th hand: no pass"): one name from the lobby on.
      hold: "No pass",
      funky: "Funky pass",
      reached: "Reaches the target",
      exceeded: "Exceeds the target",
    };
    return words[value] ?? null;
  },

  info(view) {
    const items = [];
    if (view.pass_direction) items.push(["Pass", DIRECTION[view.pass_direction] ?? view.pass_direction]);
    items.push(["Hearts", view.hearts_broken ? "broken" : "not broken"]);
    if (view.tricks_played !== undefined) items.push(["Tricks", `${view.tricks_played} of 13`]);
    return items;
  },

  rulesSummary(options) {
    const items = [];
    if (options.jack_of_diamonds) items.push(`J♦ ${signed(options.jack_of_diamonds)}`);
    if (options.no_trick_bonus) items.push(`no trick ${signed(options.no_trick_bonus)}`);
    items.push(moonRule(options));
    if (options.queen_breaks_hearts) items.push("Q♠ breaks hearts");
    if (options.lead_any_club) items.push("any club may open");
    if (options.fourth_hand) items.push(options.fourth_hand === "funky" ? "4th hand: funky pass" : "4th hand: no pass");
    if (options.target) items.push(`ends ${options.end_when === "exceeded" ? "over" : "at"} ${options.target}`);
    // moonRule's null (no moon rule) left out: tsc does not narrow by `filter(Boolean)`.
    return /** @type {string[]} */ (items.filter(Boolean));
  },

  seatFacts(seat) {
    // Who is still choosing a pass shows as the seats to act.
    return [count(seat.cards_left, "card"), count(seat.tricks_taken, "trick"), `${seat.points_taken} pts`];
  },

  yourTurnText(view) {
    if (view.phase === "pass") return "Your turn: choose cards to pass.";
    if (view.phase === "play") return view.trick.length ? "Your turn: play a card." : "Your turn: lead a card.";
    if (view.phase === "moon_choice") return "You shot the moon! Choose how it scores.";
    if (view.phase === "round_over") return "The hand is over.";
    return "Your turn.";
  },

  templateText(template, view, names) {
    if (template.to) return "Funky pass: tap one card for each player, in order.";
    const target = passTarget(view);
    return `Choose ${template.count} cards to pass ${view.pass_direction}${target !== null ? ` to ${names[target]}` : ""}`;
  },
  // Once the cards are chosen the button says which go where: it reads as the confirmation
  // it is. The funky pass's slots beside it say where each card goes.
  templateButton(template, view, picked = [], names = []) {
    if (template.to) return "Pass these cards";
    if (picked.length !== template.count) return `Pass ${template.count} cards`;
    const target = passTarget(view);
    return `Pass ${picked.map(cardText).join(" ")}${target !== null && names[target] ? ` to ${names[target]}` : ""}`;
  },

  actionLabel(action, view, ctx) {
    if (action.type === "moon_choice") return moonLabels(ctx.room)[action.choice] ?? action.choice;
    if (action.type === "next_round") return "Next hand";
    return action.type;
  },

  pendingNote(view, names) {
    const you = view.you;
    if (!you) return null;
    if (view.phase === "pass" && you.pass_chosen) {
      const cards = Array.isArray(you.pass_chosen)
        ? you.pass_chosen.map(cardText).join(" ")
        : Object.entries(you.pass_chosen).map(([seat, card]) => `${cardText(card)} to ${names[seat]}`).join(", ");
      return h("p", { class: "note" }, `You pass ${cards}. Waiting for the others to choose.`);
    }
    if (view.phase === "play" && you.received && view.tricks_played === 0) {
      const got = Array.isArray(you.received) ? you.received : [you.received];
      return h(
        "p",
        { class: "note" },
        "You received ",
        got.map((g) => `${g.cards.map(cardText).join(" ")} from ${names[g.from]}`).join(", "),
        ".",
      );
    }
    return null;
  },

  resultSummary(last, names, view, events, ctx) {
    const notes = [];
    if (last.moon) notes.push(`${names[last.moon.shooter]} shot the moon${last.moon.choice === "minus_self" ? " and took the minus" : ""}.`);
    if (last.no_trick?.length) notes.push(`No trick: ${listNames(last.no_trick, names)}.`);
    const taken = penaltyTakers(events ?? [], last.round);
    const cards = ["QS", ...(ctx?.room?.options?.jack_of_diamonds ? ["JD"] : [])].filter((c) => taken[c] !== undefined);
    const who = cards.map((c) => `${names[taken[c]]} took ${cardText(c)}.`);
    if (!notes.length && !who.length) return null;
    return [notes.length ? h("p", { class: "result-notes" }, notes.join(" ")) : null, who.length ? h("p", { class: "takers" }, who.join(" ")) : null];
  },

  describeEvent(e, names) {
    const who = (s) => names[s];
    switch (e.type) {
      case "play":
        return `${who(e.seat)} played ${cardText(e.card)}${e.forced ? " (forced)" : ""}.`;
      case "passed":
        return `${who(e.seat)} chose cards to pass.`;
      case "pass_chosen":
        return "";
      case "cards_passed":
        return `${who(e.from)} passed ${e.cards.map(cardText).join(" ")} to ${who(e.to)}.`;
      case "pass_complete":
        return "The cards were passed.";
      case "hearts_broken":
        return `Hearts are broken (${cardText(e.card)}).`;
      case "moon_shot":
        return `${who(e.shooter)} shot the moon!`;
      case "moon_chosen":
        return `${who(e.seat)} chose: ${e.choice === "minus_self" ? "the moon off the shooter's score" : "the moon onto everyone else's score"}.`;
      case "hand_scored":
        return `Hand ${e.round} scored.`;
      case "ready":
        return "";
      default:
        return undefined;
    }
  },
};
