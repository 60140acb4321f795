// What the page calls the room options every game shares, in a player's words: the
// API's descriptions are written for programmers (option names, null, seat numbers
// from 0) and are never shown. Each game's module words its own options the same way
// (`optionLabel`, `optionHelp`), numbering seats from 1 as the table does.

export const OPTION_WORDS = {
  turn_seconds: { label: "Time per turn", help: "How long each turn may take before the server plays for the player." },
  abandon_seconds: {
    label: "Time before a player counts as gone",
    help: "A player's own waiting time, added up over their turns; others' turns and the pause between hands never count.",
  },
  between_rounds_seconds: { label: "Pause between hands", help: "How long the scores stay up before the next hand." },
  on_abandon: { label: "When a player is gone", help: "End the match, or let a computer player take the seat until they come back." },
  rated: { label: "Rated", help: "A rated match changes its players' ratings. Automatic: rated when every seat is a person at the start." },
  chat_during_hand: {
    label: "Free text during a hand",
    help: "Quick phrases always work, and so does free text in the lobby and between hands. Automatic: on, except where partners are hidden (Kali Tidi with partners by called cards).",
  },
};

export const VALUE_WORDS = {
  on_abandon: { end: "End the match", bot: "A computer player takes over" },
  rated: { null: "Automatic", true: "Rated", false: "Not rated" },
  chat_during_hand: { null: "Automatic", true: "On", false: "Off (quick phrases only)" },
};

// Why a room will be rated, or not, in the lobby (`rated` is fixed when the match starts).
export function ratedText(rated) {
  if (rated === true) return "Rated: the result changes the players' ratings.";
  if (rated === false) return "Not rated.";
  return "Rated if every seat is a person when the match starts.";
}
