// Words for what the table shows: names, phases, countdowns, events.

import { cardText, SUIT_NAME } from "./cards.js";
import { tileName } from "./dominoes.js";

export function seatNames(view, me) {
  return (view.seats || []).map((s, i) =>
    i === me ? "You" : s.display_name || (s.is_bot ? `Computer ${i + 1}` : `Seat ${i + 1}`),
  );
}

export function listNames(seats, names) {
  const shown = seats.map((s) => names[s] ?? `Seat ${s + 1}`);
  if (shown.length <= 1) return shown.join("");
  return `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}`;
}

export function countdown(deadline, now = Date.now()) {
  if (!deadline) return "";
  const left = Math.max(0, Math.round((Date.parse(deadline) - now) / 1000));
  if (left >= 86400) return `${Math.floor(left / 86400)} d ${Math.floor((left % 86400) / 3600)} h`;
  if (left >= 3600) return `${Math.floor(left / 3600)} h ${String(Math.floor((left % 3600) / 60)).padStart(2, "0")} min`;
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

const TEAM_NAMES = ["Team A", "Team B"];

export function teamName(team) {
  return TEAM_NAMES[team] ?? `Team ${team + 1}`;
}

// A card or a tile as the log writes it: "Q♠", "10♥", "6-4", "double 5".
export function pieceText(code) {
  return /^\d-\d$/.test(code) ? tileName(code) : cardText(code);
}

const PIP_TRUMPS = ["blanks", "ones", "twos", "threes", "fours", "fives", "sixes"];

// The trumps named: a suit ("hearts") or Moon's number ("fives").
export function trumpText(suit) {
  if (typeof suit === "number") return PIP_TRUMPS[suit] ?? `${suit}s`;
  return SUIT_NAME[suit] ?? String(suit);
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
  const who = (seat) => names[seat] ?? `Seat ${seat + 1}`;
  const parts = moves.map((m) => {
    const what = m.cards?.length ? m.cards.map(pieceText).join(" ") : m.count ? count(m.count, "card") : "cards";
    return m.to === null || m.to === undefined ? what : `${what} to ${who(m.to)}`;
  });
  const list = parts.length <= 1 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  return `${who(from)} passed ${list || "cards"}.`;
}

// Events whose words are the same in every game and name what was passed, called or
// named; the table's log and the replay both say them so (table/results.js eventText).
// null for the others, and for a widow event without its tiles (the log's): the game's
// own words then.
export function describeSharedEvent(e, names) {
  const who = (seat) => names[seat] ?? `Seat ${seat + 1}`;
  switch (e.type) {
    case "cards_passed":
      return Array.isArray(e.cards) ? passText(e.from, [{ to: e.to, cards: e.cards }], names) : null;
    case "partners_called":
      if (!Array.isArray(e.cards)) return null;
      return `${who(e.seat)} called ${e.cards.map(pieceText).join(" ")} as partner card${e.cards.length === 1 ? "" : "s"}.`;
    case "trump":
      return `${who(e.seat)} named trumps: ${trumpText(e.suit)}.`;
    case "widow": {
      const tile = e.widow ? ` (${pieceText(e.widow)})` : "";
      if (e.take && e.discard) return `${who(e.seat)} took the widow${tile} and discarded ${pieceText(e.discard)}.`;
      if (!e.take && e.widow) return `${who(e.seat)} left the widow${tile}.`;
      return null;
    }
    default:
      return null;
  }
}

// Events every game shares; a game module describes its own first.
// Names are the table's (seatNames): the reader's own seat is "You".
export function describeCommonEvent(e, names) {
  const who = (seat) => names[seat] ?? `Seat ${seat + 1}`;
  const you = (seat) => names[seat] === "You";
  switch (e.type) {
    case "room_created":
      return `Room opened by ${e.host}.`;
    // Who sat down or left is named as they were then: the seat may have changed hands since.
    case "joined":
      return `${e.name ?? who(e.seat)} sat down.`;
    case "left":
      return `${e.name ?? who(e.seat)} left.`;
    case "host_changed":
      return `${who(e.seat)} is the host now.`;
    case "bot_added":
      return `A computer player took seat ${e.seat + 1}.`;
    // A moderator's doing carries the moderator's reason, for the table and the player concerned.
    case "seat_to_bot":
      if (e.idle && you(e.seat)) return "You did not play in time; a computer player plays your seat until you come back.";
      if (e.idle) return `${e.name ?? who(e.seat)} did not play in time; a computer player plays the seat until they come back.`;
      if (e.banned) return `${e.name ?? who(e.seat)} was banned by a moderator (${e.reason}); a computer player took over the seat.`;
      if (e.reason) return `A moderator gave ${e.name ?? who(e.seat)}'s seat to a computer player: ${e.reason}`;
      return `A computer player took over ${e.name ?? who(e.seat)}'s seat.`;
    case "claimed":
      return `${who(e.seat)} claimed the rest of the hand: every trick left was certain, and is played out.`;
    case "seat_reclaimed":
      return `${e.name ?? who(e.seat)} is back and plays their seat again.`;
    case "removed":
      if (e.banned) return `${e.name ?? who(e.seat)} was banned by a moderator (${e.reason}) and lost the seat.`;
      return `A moderator took ${e.name ?? who(e.seat)}'s seat away: ${e.reason}`;
    case "team_changed":
      return `${who(e.seat)} moved to ${teamName(e.team)}.`;
    case "started":
      return "The match began.";
    case "round_started":
      return `Hand ${e.round} dealt.`;
    case "trick_won":
      return `${who(e.winner)} took trick ${e.trick}${e.points ? ` (${e.points} pt${Math.abs(e.points) === 1 ? "" : "s"})` : ""}.`;
    case "pass":
      return `${who(e.seat)} passed.`;
    case "bid":
      return `${who(e.seat)} bid ${e.value}.`;
    case "match_over":
      return `Match over: ${listNames(e.winners, names)} won.`;
    case "timed_out":
      return `${who(e.seat)} ran out of time.`;
    case "abandoned": {
      // A player's idleness ended it (`idle`): said to them as "You". When the last seat
      // handed over left only computer players (on_abandon: bot) its reason says so, and
      // is shown as it is. Events logged before `idle` existed are told by their reason.
      const idle = e.idle ?? (!e.reason || /did not play/.test(e.reason));
      if (e.seat !== undefined && e.seat !== null && idle) {
        return `${who(e.seat)} did not play in time; the match was abandoned.`;
      }
      if (!e.reason) return "The match was abandoned.";
      return /abandoned/.test(e.reason) ? e.reason : `The match was abandoned: ${e.reason}`;
    }
    case "closed":
      return e.reason || "The room was closed.";
    case "rematch_agreed":
      return you(e.seat) ? "You want a rematch." : `${e.name ?? who(e.seat)} wants a rematch.`;
    case "rematch":
      return "The rematch has started.";
    default:
      return null;
  }
}

// "1 trick", "2 tricks".
export function count(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// A score's change with its sign: "+5", "-3", "0" ("" for none).
export function signed(n) {
  if (n === undefined || n === null) return "";
  return n > 0 ? `+${n}` : String(n);
}
