// The players around the table, as the viewer sits at it, with the trick in the middle.

import { h } from "../dom.js";
import { cardCount, computerName, teamName, tileCount, trickCount } from "../format.js";
import { gettext, gettext_noop, interpolate } from "../i18n.js";
import { toggleReview, trickDrawn, trickShown } from "./linger.js";

/** @typedef {import("../table.js").TableView} TableView */

function genericSeatFacts(seat) {
  const facts = [];
  if (seat.cards_left !== undefined) facts.push(cardCount(seat.cards_left));
  if (seat.tiles_left !== undefined) facts.push(tileCount(seat.tiles_left));
  if (seat.tricks_taken !== undefined) facts.push(trickCount(seat.tricks_taken));
  return facts;
}

/**
 * A seat's badge: its words in the page's language, and its class named by its English
 * words, the same in every language (the style sheet's `badge-partner`).
 * @param {string} english
 * @param {string} [text]
 */
function badge(english, text = gettext(english)) {
  return h("span", { class: `badge badge-${english.replace(/\W+/g, "-").toLowerCase()}` }, text);
}

// The players around the table as the viewer sits at it: the viewer at the bottom, the
// others clockwise (the next seat on the viewer's left), the trick in the middle.
/** @param {TableView} table */
export function ring(table, view, names, me) {
  const n = view.seats.length;
  const places = seatPlaces(n, me ?? 0);
  const top = places.filter((p) => p.side === "top").length;
  const rows = Math.max(1, ...["left", "right"].map((side) => places.filter((p) => p.side === side).length));
  const sides = places.some((p) => p.side === "left" || p.side === "right");
  const middle = Math.max(top, 1);
  const first = top ? 2 : 1;
  const area = (p) => {
    // The seats across share the whole edge for their facts: one takes it all, two a half each.
    if (p.side === "top" && top === 1) return `1 / 1 / 2 / ${middle + 3}`;
    if (p.side === "top" && top === 2) return `1 / ${1 + 2 * p.index} / 2 / ${3 + 2 * p.index}`;
    if (p.side === "top") return `1 / ${2 + p.index} / 2 / ${3 + p.index}`;
    if (p.side === "left") return `${first + p.index} / 1 / ${first + p.index + 1} / 2`;
    if (p.side === "right") return `${first + p.index} / ${middle + 2} / ${first + p.index + 1} / ${middle + 3}`;
    return `${first + rows} / 1 / ${first + rows + 1} / ${middle + 3}`;
  };
  return h(
    "div",
    {
      class: `ring${sides ? " with-sides" : ""} players-${n}`,
      style: `--middle: ${middle}`,
    },
    h(
      "ul",
      { class: "seats", "aria-label": gettext("Players") },
      places.map((p) => seatItem(table, view, names, me, p, area(p))),
    ),
    trickArea(table, view, names, places, `${first} / 2 / ${first + rows} / ${middle + 2}`),
  );
}

/** @param {TableView} table */
function seatItem(table, view, names, me, place, area) {
  const game = table.game;
  const i = place.seat;
  const seat = view.seats[i];
  // In the pause between hands every seat is "to act" only as far as saying it is ready:
  // that is no turn, so no seat is marked as acting then.
  const acting = (view.to_act || []).includes(i) && !["match_over", "complete", "round_over"].includes(view.phase);
  // The badges there are. A game's (its dealer's, its seatBadges) are English words it
  // marked with gettext_noop, translated here.
  const badges = [
    // "Computer 3" says it already (the server's English, or the page's own words for it);
    // a computer player with another name gets the badge.
    // Translators: a badge beside a player's name: a computer player.
    seat.is_bot && !/computer/i.test(names[i]) && names[i] !== computerName(i) ? badge(gettext_noop("computer")) : null,
    // Translators: a badge beside a player's name: who dealt this hand.
    view.dealer === i ? badge(game.dealerLabel ?? gettext_noop("dealer")) : null,
    // The team's class is its English name's ("badge-team-a").
    seat.team !== null && seat.team !== undefined ? badge(`team-${["a", "b"][seat.team] ?? seat.team + 1}`, teamName(seat.team)) : null,
    ...(game.seatBadges?.(seat, view, i) ?? []).filter(Boolean).map((word) => badge(word)),
  ].filter((b) => b !== null);
  const facts = game.seatFacts?.(seat, view, i) ?? genericSeatFacts(seat);
  return h(
    "li",
    {
      class: `seat side-${place.side}${acting ? " to-act" : ""}${i === me ? " me" : ""}${seat.partner ? " partner" : ""}`,
      "data-seat": i,
      style: `grid-area: ${area}`,
    },
    h(
      "div",
      { class: "seat-name" },
      // Translators: beside the name of a player whose move it is.
      acting ? h("span", { class: "dot-acting", title: gettext("to act") }, "● ") : null,
      h("span", { class: "name" }, names[i]),
      acting ? h("span", { class: "sr-only" }, ` (${gettext("to act")})`) : null,
    ),
    badges.length ? h("div", { class: "badges" }, badges) : null,
    // A fact wraps whole ("0 pts", never "0" and "pts" on two lines).
    h("div", { class: "facts" }, facts.map((f, k) => [k ? " · " : "", h("span", { class: "fact" }, f)])),
    // Translators: before a player's score ("Score 42").
    view.scores ? h("div", { class: "score" }, `${gettext("Score")} `, h("strong", {}, view.scores[i])) : null,
  );
}

/** @param {TableView} table */
function trickArea(table, view, names, places, area) {
  const game = table.game;
  const last = view.last_trick;
  const taken = last ? (last.cards ?? last.tiles ?? []) : [];
  const shown = trickShown(table, view);
  let played = view.trick || [];
  let caption = played.length ? gettext("This trick") : gettext("Nothing played yet");
  let old = false;
  // Whether the trick shown is the one just taken, for the pause, while the next is under way.
  let pause = false;
  if (shown === "review" || (!played.length && last)) {
    // Looked at again, or nothing led yet: the last trick, with who took it.
    played = taken;
    caption = interpolate(gettext("Last trick, taken by %(name)s"), { name: names[last.winner] });
    old = true;
  } else if (shown === "taken") {
    // The pause after a trick is taken while the next is under way (led, or further).
    played = taken;
    // Translators: the trick just taken, still shown for a moment.
    caption = interpolate(gettext("Taken by %(name)s"), { name: names[last.winner] });
    old = true;
    pause = true;
  }
  // Up to four players each card lies in front of whoever played it; more would pile
  // up, so larger tables list the trick in play order, each card with its player's name.
  const placed = places.length <= 4;
  const where = new Map(places.map((p) => [p.seat, p]));
  // The look back is offered while another trick is on the table. The button is there,
  // unseen, whenever a trick was taken, so that where it takes room (a trick in rows)
  // nothing moves when it shows.
  const offered = Boolean(view.trick?.length) && shown !== "taken";
  const section = h(
    "section",
    {
      class: `trick-area${old ? " old" : ""}${placed ? " placed" : ""}${pause ? " taken" : ""}`,
      // Translators: the cards or tiles played to the current trick.
      "aria-label": gettext("Trick"),
      style: `grid-area: ${area}`,
    },
    h("h2", { class: "caption" }, caption),
    h(
      "ol",
      { class: "trick" },
      played.map((p) => {
        const code = p.card ?? p.tile;
        const angle = (where.get(p.seat)?.angle ?? 90) * (Math.PI / 180);
        return h(
          "li",
          {
            class: `played${old && p.seat === last.winner ? " winner" : ""}`,
            "data-code": code,
            "data-seat": p.seat,
            style: placed ? `--x: ${Math.cos(angle).toFixed(3)}; --y: ${Math.sin(angle).toFixed(3)}` : null,
          },
          game.face(code, view, table.ctx),
          h("span", { class: placed ? "played-by sr-only" : "played-by" }, names[p.seat]),
          h("span", { class: "sr-only" }, `: ${game.itemName(code, view)}`),
        );
      }),
    ),
    last
      ? h(
          "button",
          {
            type: "button",
            class: `last-trick-toggle${offered ? "" : " unoffered"}`,
            "aria-pressed": String(shown === "review"),
            // The whole trick in words, heard on the button without opening it; it begins
            // with the words on the button, as a spoken command names it.
            "aria-label": interpolate(gettext("Last trick, taken by %(name)s: %(plays)s"), {
              name: names[last.winner],
              // Translators: one card of a trick and who played it ("queen of spades by Ann").
              plays: taken.map((p) => interpolate(gettext("%(item)s by %(name)s"), { item: game.itemName(p.card ?? p.tile, view), name: names[p.seat] })).join(", "),
            }),
            "data-focus": "last-trick",
            onclick: () => toggleReview(table),
          },
          gettext("Last trick"),
        )
      : null,
  );
  trickDrawn(table, section, () => trickArea(table, view, names, places, area));
  return section;
}

// Where each seat sits, seen from `viewer`'s chair at the bottom of the screen. Seats are
// numbered clockwise, so going round from the viewer the next seat is on their left, then
// across, then on their right. `angle` is in screen degrees (y down; 90 is the bottom);
// `side` is the edge of the table the seat sits at; `index` its order along that edge
// (left to right on top, top to bottom at the sides).
export function seatPlaces(n, viewer) {
  const places = Array.from({ length: n }, (_, k) => {
    const angle = (90 + (k * 360) / n) % 360;
    let side = "right";
    if (k === 0) side = "bottom";
    else if (angle > 100 && angle <= 225) side = "left";
    else if (angle > 225 && angle < 315) side = "top";
    return { seat: (viewer + k) % n, k, angle, side, index: 0 };
  });
  const along = {
    top: (p) => p.angle,
    left: (p) => -p.angle,
    right: (p) => (p.angle < 90 ? p.angle + 360 : p.angle),
    bottom: () => 0,
  };
  for (const side of Object.keys(along)) {
    places
      .filter((p) => p.side === side)
      .sort((a, b) => along[side](a) - along[side](b))
      .forEach((p, index) => (p.index = index));
  }
  return places;
}
