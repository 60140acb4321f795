// The game modules by catalogue key. Each game's renderer lives in the game's folder on
// the server, which serves it here as `<key>.js`; the page names the games that have one
// (data-game-renderers, from the registry), so a new game needs no line here. A game
// without one is still playable: the table falls back to generic pieces and buttons
// (see `generic`). What a renderer may hold, and what each hook is given and answers, is
// the GameRenderer type (renderer.js).

import { h } from "../dom.js";

/** @typedef {import("./renderer.js").GameRenderer} GameRenderer */

// The hooks the table calls unguarded, for a game whose renderer leaves them out.
/** @type {GameRenderer} */
const generic = {
  key: "generic",
  face: (code) => h("span", { class: "generic-piece" }, String(code)),
  itemName: (code) => String(code),
  sortHand: (hand) => [...hand],
  actionLabel: (a) => Object.values(a).join(" "),
};

const keys = (document.body.dataset.gameRenderers ?? "").split(" ").filter(Boolean);
const loaded = await Promise.all(keys.map((key) => import(`./${key}.js`)));
/** @type {Record<string, Partial<GameRenderer>>} */
const MODULES = Object.fromEntries(keys.map((key, i) => [key, loaded[i].default]));

/**
 * A game's renderer over the generic one: every hook the game defines, and the generic
 * `face`, `itemName`, `sortHand` and `actionLabel` where it does not.
 * @param {string} key
 * @returns {GameRenderer}
 */
export function gameModule(key) {
  return { ...generic, ...(MODULES[key] ?? {}) };
}
