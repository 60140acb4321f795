// What the page calls the room options every game shares, in a player's words: the
// API's descriptions are written for programmers (option names, null, seat numbers
// from 0) and are never shown. Each game's module words its own options the same way
// (`optionLabel`, `optionHelp`), numbering seats from 1 as the table does.
//
// The tables hold the English words, marked for the catalogues; `sharedOptionLabel`,
// `sharedOptionHelp` and `sharedValueWord` say them in the page's language (the tables
// are made before any catalogue is loaded).

import { gettext, gettext_noop } from "./i18n.js";

export const OPTION_WORDS = {
  turn_seconds: {
    label: gettext_noop("Time per turn"),
    help: gettext_noop("How long each turn may take before the server plays for the player."),
  },
  abandon_seconds: {
    label: gettext_noop("Time before a player counts as gone"),
    help: gettext_noop(
      "A player's own waiting time, added up over their turns; others' turns and the pause between hands never count.",
    ),
  },
  between_rounds_seconds: {
    label: gettext_noop("Pause between hands"),
    help: gettext_noop("How long the scores stay up before the next hand."),
  },
  on_abandon: {
    label: gettext_noop("When a player is gone"),
    help: gettext_noop("End the match, or let a computer player take the seat until they come back."),
  },
  rated: {
    // Translators: the option that makes a match count for the players' ratings.
    label: gettext_noop("Rated"),
    help: gettext_noop("A rated match changes its players' ratings. Automatic: rated when every seat is a person at the start."),
  },
  chat_during_hand: {
    label: gettext_noop("Free text during a hand"),
    help: gettext_noop(
      "Quick phrases always work, and so does free text in the lobby and between hands. Automatic: on, except where partners are hidden (Kali Tidi with partners by called cards).",
    ),
  },
};

export const VALUE_WORDS = {
  on_abandon: { end: gettext_noop("End the match"), bot: gettext_noop("A computer player takes over") },
  // Translators: whether a match counts for the players' ratings: "Automatic", "Rated", "Not rated".
  rated: { null: gettext_noop("Automatic"), true: gettext_noop("Rated"), false: gettext_noop("Not rated") },
  // Translators: whether players may write free text during a hand: "Automatic", "On", "Off (quick phrases only)".
  chat_during_hand: { null: gettext_noop("Automatic"), true: gettext_noop("On"), false: gettext_noop("Off (quick phrases only)") },
};

/**
 * A shared option's label in the page's language; null for an option of a game's own.
 * @param {string} name
 * @returns {string | null}
 */
export function sharedOptionLabel(name) {
  const words = Object.hasOwn(OPTION_WORDS, name) ? OPTION_WORDS[name] : null;
  return words ? gettext(words.label) : null;
}

/**
 * A shared option's help in the page's language; null for an option of a game's own.
 * @param {string} name
 * @returns {string | null}
 */
export function sharedOptionHelp(name) {
  const words = Object.hasOwn(OPTION_WORDS, name) ? OPTION_WORDS[name] : null;
  return words ? gettext(words.help) : null;
}

/**
 * A value of a shared option in the page's language (`value` as the API gives it: null,
 * true, "bot"...); null where the option or the value has no words here.
 * @param {string} name
 * @param {any} value
 * @returns {string | null}
 */
export function sharedValueWord(name, value) {
  const values = Object.hasOwn(VALUE_WORDS, name) ? VALUE_WORDS[name] : null;
  const key = String(value);
  return values && Object.hasOwn(values, key) ? gettext(values[key]) : null;
}

// Why a room will be rated, or not, in the lobby (`rated` is fixed when the match starts).
export function ratedText(rated) {
  if (rated === true) return gettext("Rated: the result changes the players' ratings.");
  if (rated === false) return gettext("Not rated.");
  return gettext("Rated if every seat is a person when the match starts.");
}
