// What a legal action is, as the table reads the view's `you.legal_actions`.

const ACTION_KEYS = ["card", "tile"];

// What a hand item's play action is keyed by ("card" or "tile").
export function itemOf(action) {
  for (const key of ACTION_KEYS) if (key in action) return action[key];
  return null;
}

// A choice of several items at once (`choices`, `count`): a pass, cards to remove or call.
export const isTemplate = (a) => Array.isArray(a.choices) && typeof a.count === "number";
