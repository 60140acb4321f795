// Words for what the table shows: names, phases, countdowns, events.

import { cardText, suitName } from "./cards.js";
import { pipsText, tileName } from "./dominoes.js";
import { gettext, interpolate, ngettext, pgettext } from "./i18n.js";

// The name the table gives the reader's own seat (seatNames): what `names[seat]` is
// compared with to say a sentence to the reader.
export function youName() {
  // Translators: the reader's own seat, named among the players ("You passed.", "You win!").
  return gettext("You");
}

// A seat nobody's name is known for, numbered from 1.
/** @param {number} seat */
function seatLabel(seat) {
  // Translators: a seat at the table, numbered from 1 ("Seat 3").
  return interpolate(gettext("Seat %(n)s"), { n: seat + 1 });
}

/**
 * The name of a computer player the server gave no other, by its seat.
 * @param {number} seat
 */
export function computerName(seat) {
  // Translators: a computer player with no other name, by its seat's number ("Computer 3").
  return interpolate(gettext("Computer %(n)s"), { n: seat + 1 });
}

/**
 * A seat's player as the page names them: a computer player with no person of its own
 * by its seat, in the page's language (the server's name for it, "Computer 3", is the
 * API's value and English); anyone else by the name they sit under.
 * @param {{ display_name?: string, is_bot?: boolean, user?: string | null, username?: string | null }} seat
 * @param {number} index The seat's number, from 0.
 */
export function seatName(seat, index) {
  return seat.is_bot && !(seat.user ?? seat.username) ? computerName(index) : seat.display_name || "";
}

export function seatNames(view, me) {
  const you = youName();
  return (view.seats || []).map((s, i) => (i === me ? you : seatName(s, i) || seatLabel(i)));
}

/**
 * Words, names or cards as a list: "a", "a and b", "a, b and c".
 * @param {string[]} items
 */
export function joinList(items) {
  if (items.length <= 1) return items.join("");
  // Translators: the end of a list: %(list)s is its items but the last, joined by ", " ("Ann, Bob and Cy", "Q♠ and K♥").
  return interpolate(gettext("%(list)s and %(last)s"), { list: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}

export function listNames(seats, names) {
  return joinList(seats.map((s) => names[s] ?? seatLabel(s)));
}

export function countdown(deadline, now = Date.now()) {
  if (!deadline) return "";
  const left = Math.max(0, Math.round((Date.parse(deadline) - now) / 1000));
  if (left >= 86400) {
    // Translators: the time left, in days and hours, abbreviated ("2 d 5 h").
    return interpolate(gettext("%(days)s d %(hours)s h"), { days: Math.floor(left / 86400), hours: Math.floor((left % 86400) / 3600) });
  }
  if (left >= 3600) {
    const minutes = String(Math.floor((left % 3600) / 60)).padStart(2, "0");
    // Translators: the time left, in hours and minutes, abbreviated ("5 h 07 min").
    return interpolate(gettext("%(hours)s h %(minutes)s min"), { hours: Math.floor(left / 3600), minutes });
  }
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** @param {number} team */
export function teamName(team) {
  // Translators: the teams of a match; a third and more are numbered ("Team 3").
  const named = [gettext("Team A"), gettext("Team B")][team];
  return named ?? interpolate(gettext("Team %(n)s"), { n: team + 1 });
}

// Counts of the table's pieces: "1 card", "13 cards".
/** @param {number} n */
export function cardCount(n) {
  return interpolate(ngettext("%(n)s card", "%(n)s cards", n), { n });
}

/** @param {number} n */
export function tileCount(n) {
  // Translators: domino tiles.
  return interpolate(ngettext("%(n)s tile", "%(n)s tiles", n), { n });
}

/** @param {number} n */
export function trickCount(n) {
  return interpolate(ngettext("%(n)s trick", "%(n)s tricks", n), { n });
}

/**
 * A phrase whose places hold elements as well as words (`interpolate` writes text only):
 * its pieces in order, for `h` to append. "The widow is %(tile)s." with a tile's picture.
 * @param {string} phrase
 * @param {Record<string, string | number | Node>} values
 * @returns {(string | Node)[]}
 */
export function phraseParts(phrase, values) {
  return phrase.split(/(%\(\w+\)s)/).flatMap((piece) => {
    const name = /^%\((\w+)\)s$/.exec(piece)?.[1];
    if (name !== undefined && Object.hasOwn(values, name)) {
      const value = values[name];
      return [typeof value === "number" ? String(value) : value];
    }
    return piece ? [piece] : [];
  });
}

// A card or a tile as the log writes it: "Q♠", "10♥", "6-4", "double 5".
export function pieceText(code) {
  return /^\d-\d$/.test(code) ? tileName(code) : cardText(code);
}

// The trumps named: a suit ("hearts") or Moon's number ("fives").
export function trumpText(suit) {
  if (typeof suit === "number") {
    // Translators: dominoes: trumps named by a number, the tiles with that many pips ("named trumps: fives").
    const words = [gettext("blanks"), gettext("ones"), gettext("twos"), gettext("threes"), gettext("fours"), gettext("fives"), gettext("sixes")];
    return words[suit] ?? pipsText(suit);
  }
  return suitName(suit) ?? String(suit);
}

/**
 * One seat's pass: "alice passed Q♠ K♥ 2♦ to bob.", or for a funky pass "alice passed
 * Q♠ to bob, K♥ to carol and 2♦ to dan.". A move whose cards the reader may not see
 * says how many ("3 cards"), or only "cards" when even that is unknown.
 * @param {number} from
 * @param {{ to: number | null, cards?: string[] | null, count?: number | null }[]} moves
 * @param {string[]} names
 */
export function passText(from, moves, names) {
  const who = (seat) => names[seat] ?? seatLabel(seat);
  // Translators: what was passed when the reader may not know what, nor how many ("Ann passed cards to Bob.").
  const someCards = () => pgettext("passed", "cards");
  const what = (m) => (m.cards?.length ? m.cards.map(pieceText).join(" ") : m.count ? cardCount(m.count) : someCards());
  const name = who(from);
  const [move] = moves;
  if (moves.length === 1 && move.to !== null && move.to !== undefined) {
    // Translators: %(cards)s is the cards ("Q♠ K♥ 2♦"), their number ("3 cards"), or only "cards".
    return interpolate(gettext("%(name)s passed %(cards)s to %(target)s."), { name, cards: what(move), target: who(move.to) });
  }
  const parts = moves.map((m) => {
    if (m.to === null || m.to === undefined) return what(m);
    // Translators: one part of a pass of one card to each player: "Ann passed Q♠ to Bob, K♥ to Cy and 2♦ to Di."
    return interpolate(gettext("%(cards)s to %(target)s"), { cards: what(m), target: who(m.to) });
  });
  // Translators: %(cards)s is the cards ("Q♠ K♥ 2♦"), their number ("3 cards"), only "cards", or what went to each player ("Q♠ to Bob, K♥ to Cy and 2♦ to Di").
  return interpolate(gettext("%(name)s passed %(cards)s."), { name, cards: joinList(parts) || someCards() });
}

/**
 * Why a room ended (the view's `status_cause`, or an ending event's `cause`), in the
 * page's language; names are the table's (seatNames), the reader's own seat "You".
 * Null for no cause, or one this page does not know: the server's words are said then.
 * @param {{ code: string, seat?: number | null, words?: string | null } | null | undefined} cause
 * @param {string[]} names
 */
export function endCauseText(cause, names) {
  switch (cause?.code) {
    case "idle": {
      const seat = cause.seat ?? null;
      if (seat === null) return gettext("The match was abandoned.");
      if (names[seat] === youName()) return gettext("You did not play in time; the match was abandoned.");
      return interpolate(gettext("%(name)s did not play in time; the match was abandoned."), { name: names[seat] ?? seatLabel(seat) });
    }
    case "everyone_away":
      return gettext("Every seat is played by a computer player; the match was abandoned.");
    case "everyone_left":
      return gettext("Everyone left before the start.");
    case "moderator":
      // Translators: %(reason)s is the moderator's own words.
      return cause.words ? interpolate(gettext("Closed by a moderator: %(reason)s"), { reason: cause.words }) : gettext("Closed by a moderator.");
    default:
      return null;
  }
}

/**
 * Why the room ended, as the view says it, in the page's language: the server's words
 * for a cause this page does not know; "" where it did not end so.
 * @param {{ status_cause?: any, status_reason?: string }} view
 * @param {string[]} names
 */
export function endReason(view, names) {
  return endCauseText(view.status_cause, names) ?? view.status_reason ?? "";
}

// Events whose words are the same in every game and name what was passed, called or
// named; the table's log and the replay both say them so (table/results.js eventText).
// null for the others, and for a widow event without its tiles (the log's): the game's
// own words then.
export function describeSharedEvent(e, names) {
  const who = (seat) => names[seat] ?? seatLabel(seat);
  switch (e.type) {
    case "cards_passed":
      return Array.isArray(e.cards) ? passText(e.from, [{ to: e.to, cards: e.cards }], names) : null;
    case "partners_called": {
      if (!Array.isArray(e.cards)) return null;
      const values = { name: who(e.seat), cards: e.cards.map(pieceText).join(" ") };
      return interpolate(ngettext("%(name)s called %(cards)s as partner card.", "%(name)s called %(cards)s as partner cards.", e.cards.length), values);
    }
    case "trump":
      // Translators: %(trumps)s is a suit ("hearts") or, in dominoes, a number ("fives").
      return interpolate(gettext("%(name)s named trumps: %(trumps)s."), { name: who(e.seat), trumps: trumpText(e.suit) });
    case "widow": {
      const name = who(e.seat);
      if (e.take && e.discard) {
        const discard = pieceText(e.discard);
        if (!e.widow) return interpolate(gettext("%(name)s took the widow and discarded %(discard)s."), { name, discard });
        // Translators: dominoes: the widow is the spare tile the high bidder may take.
        return interpolate(gettext("%(name)s took the widow (%(widow)s) and discarded %(discard)s."), { name, widow: pieceText(e.widow), discard });
      }
      if (!e.take && e.widow) return interpolate(gettext("%(name)s left the widow (%(widow)s)."), { name, widow: pieceText(e.widow) });
      return null;
    }
    default:
      return null;
  }
}

// Events every game shares; a game module describes its own first.
// Names are the table's (seatNames): the reader's own seat is "You" (youName).
export function describeCommonEvent(e, names) {
  const who = (seat) => names[seat] ?? seatLabel(seat);
  const you = (seat) => names[seat] === youName();
  // Who sat down, left or lost their seat is named as they were then: the seat may have
  // changed hands since.
  const then = () => e.name ?? who(e.seat);
  switch (e.type) {
    case "room_created":
      return interpolate(gettext("Room opened by %(name)s."), { name: e.host });
    case "joined":
      return interpolate(gettext("%(name)s sat down."), { name: then() });
    case "left":
      // Translators: a player left the room.
      return interpolate(gettext("%(name)s left."), { name: then() });
    case "host_changed":
      return interpolate(gettext("%(name)s is the host now."), { name: who(e.seat) });
    case "bot_added":
      return interpolate(gettext("A computer player took seat %(n)s."), { n: e.seat + 1 });
    // A moderator's doing carries the moderator's reason, for the table and the player concerned.
    case "seat_to_bot":
      if (e.idle && you(e.seat)) return gettext("You did not play in time; a computer player plays your seat until you come back.");
      if (e.idle) return interpolate(gettext("%(name)s did not play in time; a computer player plays the seat until they come back."), { name: then() });
      if (e.banned) {
        // Translators: %(reason)s is the moderator's own words.
        return interpolate(gettext("%(name)s was banned by a moderator (%(reason)s); a computer player took over the seat."), { name: then(), reason: e.reason });
      }
      if (e.reason) {
        // Translators: %(reason)s is the moderator's own words.
        return interpolate(gettext("A moderator gave %(name)s's seat to a computer player: %(reason)s"), { name: then(), reason: e.reason });
      }
      return interpolate(gettext("A computer player took over %(name)s's seat."), { name: then() });
    case "claimed":
      return interpolate(gettext("%(name)s claimed the rest of the hand: every trick left was certain, and is played out."), { name: who(e.seat) });
    case "seat_reclaimed":
      return interpolate(gettext("%(name)s is back and plays their seat again."), { name: then() });
    case "removed":
      if (e.banned) {
        // Translators: %(reason)s is the moderator's own words.
        return interpolate(gettext("%(name)s was banned by a moderator (%(reason)s) and lost the seat."), { name: then(), reason: e.reason });
      }
      // Translators: %(reason)s is the moderator's own words.
      return interpolate(gettext("A moderator took %(name)s's seat away: %(reason)s"), { name: then(), reason: e.reason });
    case "team_changed":
      return interpolate(gettext("%(name)s moved to %(team)s."), { name: who(e.seat), team: teamName(e.team) });
    case "started":
      return gettext("The match began.");
    case "round_started":
      // Translators: a hand of cards or tiles was dealt; %(n)s is its number in the match.
      return interpolate(gettext("Hand %(n)s dealt."), { n: e.round });
    case "trick_won": {
      const values = { name: who(e.winner), trick: e.trick, points: e.points };
      if (!e.points) return interpolate(gettext("%(name)s took trick %(trick)s."), values);
      // Translators: "pt" and "pts" are points, abbreviated.
      return interpolate(ngettext("%(name)s took trick %(trick)s (%(points)s pt).", "%(name)s took trick %(trick)s (%(points)s pts).", Math.abs(e.points)), values);
    }
    case "pass":
      // Translators: a player passed in the bidding.
      return interpolate(gettext("%(name)s passed."), { name: who(e.seat) });
    case "bid":
      return interpolate(gettext("%(name)s bid %(bid)s."), { name: who(e.seat), bid: e.value });
    case "match_over":
      return interpolate(gettext("Match over: %(names)s won."), { names: listNames(e.winners, names) });
    case "timed_out":
      return interpolate(gettext("%(name)s ran out of time."), { name: who(e.seat) });
    case "abandoned": {
      // Its cause, said in the page's language: a player's idleness (`idle`) to them as
      // "You". Events logged before `cause` existed are told by `idle` and their reason
      // (the server's English words).
      const said = e.cause ? endCauseText({ code: e.cause, seat: e.idle ? e.seat : null, words: e.words }, names) : null;
      if (said) return said;
      const idle = e.idle ?? (!e.reason || /did not play/.test(e.reason));
      if (e.seat !== undefined && e.seat !== null && idle) {
        return interpolate(gettext("%(name)s did not play in time; the match was abandoned."), { name: who(e.seat) });
      }
      if (!e.reason) return gettext("The match was abandoned.");
      return /abandoned/.test(e.reason) ? e.reason : interpolate(gettext("The match was abandoned: %(reason)s"), { reason: e.reason });
    }
    case "closed":
      return (e.cause ? endCauseText({ code: e.cause, words: e.words }, names) : null) || e.reason || gettext("The room was closed.");
    case "rematch_agreed":
      return you(e.seat) ? gettext("You want a rematch.") : interpolate(gettext("%(name)s wants a rematch."), { name: then() });
    case "rematch":
      return gettext("The rematch has started.");
    default:
      return null;
  }
}

// A score's change with its sign: "+5", "-3", "0" ("" for none).
export function signed(n) {
  if (n === undefined || n === null) return "";
  return n > 0 ? `+${n}` : String(n);
}
