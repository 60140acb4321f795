// How a person likes their moves made, from their account (`GET me`), so that every
// device they sign in on follows them: whether a tap on a card or tile only raises it and a
// second tap (or the Play button) plays it, and how long a finished trick stays on the
// table. `confirm_moves: null` leaves the first to the device: on where the main pointer
// is a finger (a phone, a tablet), off where it is a mouse.

export const TRICK_PAUSE_DEFAULT_MS = 1200;

/**
 * @typedef {{ confirm: boolean, trickPauseMs: number }} MovePrefs
 * @param {{ confirm_moves?: boolean | null, trick_pause_ms?: number } | null | undefined} user
 * @returns {MovePrefs}
 */
export function movePrefs(user) {
  const chosen = user?.confirm_moves;
  const confirm = typeof chosen === "boolean" ? chosen : matchMedia("(pointer: coarse)").matches;
  return { confirm, trickPauseMs: user?.trick_pause_ms ?? TRICK_PAUSE_DEFAULT_MS };
}
