// Moon (dominoes): bid 4–7 or moon, name trumps 0–6, take or leave the widow, play tiles.

import { h } from "@web/dom.js";
import { pipFace, pips, pipsText, sortTiles, tileName, tileSvg } from "@web/dominoes.js";
import { listNames, phraseParts, tileCount, trickCount } from "@web/format.js";
import { gettext, gettext_noop, interpolate, pgettext } from "@web/i18n.js";

const MOON = 21;
// Translators: Moon (dominoes): the highest bid, all seven tricks ("Ann bid moon.").
const bidText = (v) => (v === MOON ? pgettext("bid", "moon") : String(v));
const isTrump = (code, trump) => trump !== null && trump !== undefined && pips(code).includes(trump);

// The options' words in the new-room form (made at each call: the page's catalogue is
// loaded after this module).
function optionLabels() {
  return {
    players: gettext("Players"),
    moon_any_time: gettext("Moon at any turn"),
    // Translators: Moon (dominoes): the spare tile the high bidder may take.
    widow: gettext("Widow"),
    trump_instead_of_follow: gettext("Trump instead of following"),
  };
}
function optionHelps() {
  return {
    players: gettext("Three players with a widow, or four in partnerships: seats 1 and 3 against 2 and 4."),
    moon_any_time: gettext("Moon (all 7 tricks) may be bid at any turn, not only over a bid of 7."),
    widow: gettext("The high bidder may take the widow and discard a tile, or must."),
    trump_instead_of_follow: gettext("A player able to follow a plain lead may play a trump instead."),
  };
}

/** @type {import("@web/games/renderer.js").GameRenderer} */
export default {
  key: "moon",
  face: (code, view) => tileSvg(code, { trump: view?.trump ?? null }),
  // Translators: a tile or a card that is a trump, in its name ("6-4, trump").
  itemName: (code, view) => (isTrump(code, view?.trump) ? interpolate(gettext("%(item)s, trump"), { item: tileName(code) }) : tileName(code)),
  sortHand: (hand, view) => sortTiles(hand, view.trump ?? null),
  handCaption: (view) => (view.phase === "widow" && view.you?.widow ? gettext("Your hand and the widow") : gettext("Your tiles")),

  optionLabel: (name) => optionLabels()[name] ?? null,
  optionHelp: (name) => optionHelps()[name] ?? null,
  // The widow is a three-player thing.
  optionVisible: (name, values) => name !== "widow" || (values.players ?? 3) === 3,
  optionValueLabel(name, value) {
    if (name === "players") return value === 4 ? gettext("4 (partners)") : gettext("3 (with a widow)");
    if (name === "widow") return { optional: gettext("May take the widow"), compulsory: gettext("Must take the widow") }[value] ?? null;
    return null;
  },

  // In the widow phase the widow joins the hand on screen: any tile may be the discard.
  handItems(view) {
    const hand = view.you?.hand ?? [];
    if (view.phase === "widow" && view.you?.widow && (view.to_act || []).includes(view.you.seat)) return [...hand, view.you.widow];
    return hand;
  },
  itemNote(code, view) {
    // Translators: Moon (dominoes): under the widow's tile, shown in the hand.
    if (view.phase === "widow" && code === view.you?.widow) return { class: "widow-tile", text: pgettext("tile", "widow") };
    return null;
  },
  handActions(view) {
    const legal = view.you?.legal_actions ?? [];
    if (view.phase !== "widow") return null;
    const map = new Map(legal.filter((a) => a.type === "widow" && a.take).map((a) => [a.discard, a]));
    return Object.assign(map, { taken: (a) => a.type === "widow" && a.take });
  },
  // Translators: Moon (dominoes): the button that takes the widow and discards a tile ("Take the widow and discard 6-4").
  handMove: (action, item) => (action.type === "widow" ? interpolate(gettext("Take the widow and discard %(tile)s"), { tile: item }) : null),
  // Taking the widow cannot be undone and shows no one anything yet: a tap on a tile
  // raises it, and the button after the hand (or a second tap) takes the widow.
  asksFirst: (action) => action.type === "widow",

  info(view, names) {
    const items = [];
    // Translators: the bid in force and who made it ("Bid: Ann: 5").
    if (view.bid) items.push([pgettext("noun", "Bid"), interpolate(gettext("%(name)s: %(bid)s"), { name: names[view.bidder], bid: bidText(view.bid) })]);
    if (view.trump !== null && view.trump !== undefined) items.push([gettext("Trumps"), h("span", { class: "trump-chip" }, pipFace(view.trump), ` ${pipsText(view.trump)}`)]);
    if (view.widow_taken !== null && view.widow_taken !== undefined) {
      // Translators: Moon (dominoes): whether the high bidder took the widow ("Widow: taken", "Widow: left").
      items.push([gettext("Widow"), view.widow_taken ? pgettext("widow", "taken") : pgettext("widow", "left")]);
    }
    if (view.led_suit !== null && view.led_suit !== undefined) {
      // Translators: Moon (dominoes): the suit led in the trick: "Led: trumps", "Led: 5s".
      items.push([gettext("Led"), view.led_suit === "trump" ? pgettext("led", "trumps") : pipsText(view.led_suit)]);
    }
    if (view.teams) {
      const sides = view.teams.map((t) => listNames(t, names));
      // Translators: two sides of partners facing each other ("Ann and Cy vs Bob and Di").
      const facing = (side, other) => interpolate(gettext("%(side)s vs %(other)s"), { side, other });
      items.push([gettext("Partners"), sides.length ? sides.reduce(facing) : ""]);
    }
    // Translators: Moon (dominoes): how many times the tiles were dealt again after everyone passed.
    if (view.redeals) items.push([gettext("Redeals"), view.redeals]);
    return items;
  },

  rulesSummary(options) {
    const items = [];
    if (options.players === 4) items.push(gettext("4 players, partners sit across"));
    else if (options.players === 3) items.push(options.widow === "compulsory" ? gettext("3 players, widow must be taken") : gettext("3 players, widow optional"));
    if (options.moon_any_time !== undefined) items.push(options.moon_any_time ? gettext("moon may be bid any time") : gettext("moon only after a bid of 7"));
    if (options.trump_instead_of_follow) items.push(gettext("may trump instead of following"));
    // Translators: Moon (dominoes): the match is won by the first to 21 points.
    items.push(gettext("first to 21"));
    return items;
  },

  seatFacts(seat, view) {
    const facts = [tileCount(seat.tiles_left), trickCount(seat.tricks_taken)];
    // Each seat's bid matters during the auction; after it the bid in force is in the info bar.
    // Translators: a player's bid so far, under their name ("bid 5", "bid moon").
    if (view.phase === "bid" && seat.bid) facts.push(interpolate(gettext("bid %(bid)s"), { bid: bidText(seat.bid) }));
    // Translators: under a player's name: they passed in the bidding.
    else if (view.phase === "bid" && seat.passed) facts.push(pgettext("bidding", "passed"));
    return facts;
  },
  // Translators: a badge beside a player's name: the winner of the bidding.
  seatBadges: (seat, view, i) => (view.bidder === i && view.phase !== "bid" ? [gettext_noop("bidder")] : []),

  yourTurnText(view) {
    return {
      bid: gettext("Your turn: bid or pass."),
      trump: gettext("You won the bid: name trumps."),
      widow: gettext("Take the widow (choose the tile to discard, then confirm) or leave it."),
      play: view.trick?.length ? gettext("Your turn: play a tile.") : gettext("Your turn: lead a tile."),
      round_over: gettext("The hand is over."),
    }[view.phase] ?? gettext("Your turn.");
  },

  // Bids 4–7 and moon are always shown, the ones not open now disabled; trumps as pip faces.
  panel(view, names, actions, ctx) {
    if (view.phase === "bid" && actions.length) {
      const bids = new Map(actions.filter((a) => a.type === "bid").map((a) => [a.value, a]));
      const pass = actions.find((a) => a.type === "pass");
      // A greyed bid says why: too low after the bids so far, or (the moon) only over a 7.
      const why = (v) =>
        bids.has(v) ? null : v === MOON && view.bid !== MOON ? gettext("Moon may be bid only once someone has bid 7") : gettext("Not higher than the bid so far");
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
              // Translators: bid buttons: the highest bid, all seven tricks ("Moon (21)"), and a number ("Bid 5").
              v === MOON ? gettext("Moon (21)") : interpolate(pgettext("verb", "Bid %(bid)s"), { bid: v }),
            ),
          ),
          // Translators: the button that passes in the bidding.
          pass && h("button", { "data-focus": "pass", "data-action": "pass", onclick: () => ctx.act(pass) }, pgettext("bidding", "Pass")),
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
            // Translators: Moon (dominoes): a button that names a number as trumps ("Trumps: 5s").
            { class: "trump-button", "data-focus": `trump-${a.suit}`, "data-action": "trump", "data-value": a.suit, "aria-label": interpolate(gettext("Trumps: %(trumps)s"), { trumps: pipsText(a.suit) }), onclick: () => ctx.act(a) },
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
        h(
          "p",
          {},
          // Translators: Moon (dominoes): %(tile)s is the widow's tile drawn, %(name)s the same tile in words ("6-4").
          phraseParts(gettext("The widow is %(tile)s (%(name)s). Tap a tile below to discard it, then confirm with the button under your tiles to take the widow; or leave it."), {
            tile: h("span", { class: "inline-tile" }, tileSvg(view.you.widow, { trump: view.trump })),
            name: tileName(view.you.widow),
          }),
        ),
        leave
          ? h("button", { "data-focus": "leave-widow", "data-action": "leave-widow", onclick: () => ctx.act(leave) }, gettext("Leave the widow"))
          : h("p", {}, gettext("The widow must be taken here.")),
      );
    }
    return null;
  },

  actionLabel(action) {
    if (action.type === "next_round") return gettext("Next hand");
    return action.type;
  },

  resultSummary(last, names) {
    const side = last.teams ? listNames(last.teams.find((t) => t.includes(last.bidder)) ?? [last.bidder], names) : names[last.bidder];
    // Translators: Moon (dominoes): %(side)s is the bidder or the bidding partners; %(bid)s a number or "moon"; %(trumps)s the trumps ("5s").
    const values = { side, bid: last.moon ? pgettext("bid", "moon") : `${last.bid}`, trumps: pipsText(last.trump) };
    return h(
      "p",
      {},
      last.made
        ? interpolate(gettext("%(side)s bid %(bid)s with %(trumps)s as trumps and made it."), values)
        : interpolate(gettext("%(side)s bid %(bid)s with %(trumps)s as trumps and went set."), values),
      last.widow_taken !== null && last.widow_taken !== undefined ? ` ${last.widow_taken ? gettext("The widow was taken.") : gettext("The widow was left.")}` : "",
      last.tie ? ` ${gettext("A tie: another hand.")}` : "",
    );
  },
  roundColumns: (r, names) => {
    // Translators: Moon (dominoes): a hand on the score sheet, short: the bidder, the bid, the trumps, and whether the bid was made ("Ann 5 (3s) made", "Ann moon (6s) set").
    const values = { name: names[r.bidder], bid: r.moon ? pgettext("bid", "moon") : r.bid, trumps: pipsText(r.trump) };
    return r.made ? interpolate(gettext("%(name)s %(bid)s (%(trumps)s) made"), values) : interpolate(gettext("%(name)s %(bid)s (%(trumps)s) set"), values);
  },

  describeEvent(e, names) {
    const who = (s) => names[s];
    switch (e.type) {
      case "play": {
        const values = { name: who(e.seat), tile: tileName(e.tile) };
        // Translators: a tile played because no other could be ("forced").
        return e.forced ? interpolate(gettext("%(name)s played %(tile)s (forced)."), values) : interpolate(gettext("%(name)s played %(tile)s."), values);
      }
      case "bid":
        return interpolate(gettext("%(name)s bid %(bid)s."), { name: who(e.seat), bid: bidText(e.value) });
      case "bid_won":
        return interpolate(gettext("%(name)s won the bid at %(bid)s."), { name: who(e.seat), bid: bidText(e.value) });
      case "trump":
        // Translators: %(trumps)s is a suit ("hearts") or, in dominoes, a number ("5s").
        return interpolate(gettext("%(name)s named %(trumps)s as trumps."), { name: who(e.seat), trumps: pipsText(e.suit) });
      case "widow":
        return e.take
          ? interpolate(gettext("%(name)s took the widow."), { name: who(e.seat) })
          : interpolate(gettext("%(name)s left the widow."), { name: who(e.seat) });
      case "widow_private":
        return e.discard ? interpolate(gettext("You took %(widow)s and discarded %(discard)s."), { widow: tileName(e.widow), discard: tileName(e.discard) }) : "";
      case "redeal":
        return interpolate(gettext("Everyone passed: %(name)s deals again."), { name: who(e.dealer) });
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
