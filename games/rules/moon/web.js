// Moon (dominoes): bid 4–7 or moon, name trumps 0–6, take or leave the widow, play tiles.

import { h } from "@web/dom.js";
import { pipFace, pips, sortTiles, tileName, tileSvg } from "@web/dominoes.js";
import { listNames } from "@web/format.js";
import { count } from "@web/table.js";

const MOON = 21;
const bidText = (v) => (v === MOON ? "moon" : String(v));
const isTrump = (code, trump) => trump !== null && trump !== undefined && pips(code).includes(trump);

const OPTION_LABELS = {
  players: "Players",
  moon_any_time: "Moon at any turn",
  widow: "Widow",
  trump_instead_of_follow: "Trump instead of following",
};
const OPTION_HELP = {
  players: "Three players with a widow, or four in partnerships: seats 1 and 3 against 2 and 4.",
  moon_any_time: "Moon (all 7 tricks) may be bid at any turn, not only over a bid of 7.",
  widow: "The high bidder may take the widow and discard a tile, or must.",
  trump_instead_of_follow: "A player able to follow a plain lead may play a trump instead.",
};

/** @type {import("@web/games/renderer.js").GameRenderer} */
export default {
  key: "moon",
  face: (code, view) => tileSvg(code, { trump: view?.trump ?? null }),
  itemName: (code, view) => `${tileName(code)}${isTrump(code, view?.trump) ? ", trump" : ""}`,
  sortHand: (hand, view) => sortTiles(hand, view.trump ?? null),
  handCaption: (view) => (view.phase === "widow" && view.you?.widow ? "Your hand and the widow" : "Your tiles"),

  optionLabel: (name) => OPTION_LABELS[name] ?? null,
  optionHelp: (name) => OPTION_HELP[name] ?? null,
  // The widow is a three-player thing.
  optionVisible: (name, values) => name !== "widow" || (values.players ?? 3) === 3,
  optionValueLabel(name, value) {
    if (name === "players") return value === 4 ? "4 (partners)" : "3 (with a widow)";
    if (name === "widow") return { optional: "May take the widow", compulsory: "Must take the widow" }[value] ?? null;
    return null;
  },

  // In the widow phase the widow joins the hand on screen: any tile may be the discard.
  handItems(view) {
    const hand = view.you?.hand ?? [];
    if (view.phase === "widow" && view.you?.widow && (view.to_act || []).includes(view.you.seat)) return [...hand, view.you.widow];
    return hand;
  },
  itemNote(code, view) {
    if (view.phase === "widow" && code === view.you?.widow) return { class: "widow-tile", text: "widow" };
    return null;
  },
  handActions(view) {
    const legal = view.you?.legal_actions ?? [];
    if (view.phase !== "widow") return null;
    const map = new Map(legal.filter((a) => a.type === "widow" && a.take).map((a) => [a.discard, a]));
    return Object.assign(map, { taken: (a) => a.type === "widow" && a.take });
  },
  handVerb: (action) => (action.type === "widow" ? "Take the widow and discard" : "Play"),
  // Taking the widow cannot be undone and shows no one anything yet: a tap on a tile
  // raises it, and the button after the hand (or a second tap) takes the widow.
  asksFirst: (action) => action.type === "widow",

  info(view, names) {
    const items = [];
    if (view.bid) items.push(["Bid", `${names[view.bidder]}: ${bidText(view.bid)}`]);
    if (view.trump !== null && view.trump !== undefined) items.push(["Trumps", h("span", { class: "trump-chip" }, pipFace(view.trump), ` ${view.trump}s`)]);
    if (view.widow_taken !== null && view.widow_taken !== undefined) items.push(["Widow", view.widow_taken ? "taken" : "left"]);
    if (view.led_suit !== null && view.led_suit !== undefined) items.push(["Led", view.led_suit === "trump" ? "trumps" : `${view.led_suit}s`]);
    if (view.teams) items.push(["Partners", view.teams.map((t) => listNames(t, names)).join(" vs ")]);
    if (view.redeals) items.push(["Redeals", view.redeals]);
    return items;
  },

  rulesSummary(options) {
    const items = [];
    if (options.players === 4) items.push("4 players, partners sit across");
    else if (options.players === 3) items.push(`3 players, widow ${options.widow === "compulsory" ? "must be taken" : "optional"}`);
    if (options.moon_any_time !== undefined) items.push(options.moon_any_time ? "moon may be bid any time" : "moon only after a bid of 7");
    if (options.trump_instead_of_follow) items.push("may trump instead of following");
    items.push("first to 21");
    return items;
  },

  seatFacts(seat, view) {
    const facts = [count(seat.tiles_left, "tile"), count(seat.tricks_taken, "trick")];
    // Each seat's bid matters during the auction; after it the bid in force is in the info bar.
    if (view.phase === "bid" && seat.bid) facts.push(`bid ${bidText(seat.bid)}`);
    else if (view.phase === "bid" && seat.passed) facts.push("passed");
    return facts;
  },
  seatBadges: (seat, view, i) => (view.bidder === i && view.phase !== "bid" ? ["bidder"] : []),

  yourTurnText(view) {
    return {
      bid: "Your turn: bid or pass.",
      trump: "You won the bid: name trumps.",
      widow: "Take the widow (choose the tile to discard, then confirm) or leave it.",
      play: view.trick?.length ? "Your turn: play a tile." : "Your turn: lead a tile.",
      round_over: "The hand is over.",
    }[view.phase] ?? "Your turn.";
  },

  // Bids 4–7 and moon are always shown, the ones not open now disabled; trumps as pip faces.
  panel(view, names, actions, ctx) {
    if (view.phase === "bid" && actions.length) {
      const bids = new Map(actions.filter((a) => a.type === "bid").map((a) => [a.value, a]));
      const pass = actions.find((a) => a.type === "pass");
      // A greyed bid says why: too low after the bids so far, or (the moon) only over a 7.
      const why = (v) => (bids.has(v) ? null : v === MOON && view.bid !== MOON ? "Moon may be bid only once someone has bid 7" : "Not higher than the bid so far");
      return h(
        "div",
        { class: "stack" },
        h(
          "div",
          { class: "button-row bids" },
          [4, 5, 6, 7, MOON].map((v) =>
            h(
              "button",
              { "data-focus": `bid-${v}`, "data-action": "bid", "data-value": v, disabled: !bids.has(v), title: why(v), onclick: () => ctx.act(bids.get(v)) },
              v === MOON ? "Moon (21)" : `Bid ${v}`,
            ),
          ),
          pass && h("button", { "data-focus": "pass", "data-action": "pass", onclick: () => ctx.act(pass) }, "Pass"),
        ),
        !bids.has(MOON) ? h("p", { class: "meta bid-note" }, why(MOON)) : null,
      );
    }
    if (view.phase === "trump" && actions.length) {
      return h(
        "div",
        { class: "button-row trumps" },
        actions.map((a) =>
          h(
            "button",
            { class: "trump-button", "data-focus": `trump-${a.suit}`, "data-action": "trump", "data-value": a.suit, "aria-label": `Trumps: ${a.suit}s`, onclick: () => ctx.act(a) },
            pipFace(a.suit),
            h("span", {}, String(a.suit)),
          ),
        ),
      );
    }
    if (view.phase === "widow" && view.you?.widow) {
      const leave = actions.find((a) => a.type === "widow" && !a.take);
      return h(
        "div",
        { class: "widow-panel" },
        h("p", {}, "The widow is ", h("span", { class: "inline-tile" }, tileSvg(view.you.widow, { trump: view.trump })), ` (${tileName(view.you.widow)}). Tap a tile below to discard it, then confirm with the button under your tiles to take the widow; or leave it.`),
        leave ? h("button", { "data-focus": "leave-widow", "data-action": "leave-widow", onclick: () => ctx.act(leave) }, "Leave the widow") : h("p", {}, "The widow must be taken here."),
      );
    }
    return null;
  },

  actionLabel(action) {
    if (action.type === "next_round") return "Next hand";
    return action.type;
  },

  resultSummary(last, names) {
    const side = last.teams ? listNames(last.teams.find((t) => t.includes(last.bidder)) ?? [last.bidder], names) : names[last.bidder];
    const contract = last.moon ? "moon" : `${last.bid}`;
    return h(
      "p",
      {},
      `${side} bid ${contract} with ${last.trump}s as trumps and ${last.made ? "made it" : "went set"}.`,
      last.widow_taken !== null && last.widow_taken !== undefined ? ` The widow was ${last.widow_taken ? "taken" : "left"}.` : "",
      last.tie ? " A tie: another hand." : "",
    );
  },
  roundColumns: (r, names) => `${names[r.bidder]} ${r.moon ? "moon" : r.bid} (${r.trump}s) ${r.made ? "made" : "set"}`,

  describeEvent(e, names) {
    const who = (s) => names[s];
    switch (e.type) {
      case "play":
        return `${who(e.seat)} played ${tileName(e.tile)}${e.forced ? " (forced)" : ""}.`;
      case "bid":
        return `${who(e.seat)} bid ${bidText(e.value)}.`;
      case "bid_won":
        return `${who(e.seat)} won the bid at ${bidText(e.value)}.`;
      case "trump":
        return `${who(e.seat)} named ${e.suit}s as trumps.`;
      case "widow":
        return `${who(e.seat)} ${e.take ? "took" : "left"} the widow.`;
      case "widow_private":
        return e.discard ? `You took ${tileName(e.widow)} and discarded ${tileName(e.discard)}.` : "";
      case "redeal":
        return `Everyone passed: ${who(e.dealer)} deals again.`;
      case "hand_scored":
        return `Hand ${e.round} scored.`;
      case "ready":
        return "";
      default:
        return undefined;
    }
  },
};
