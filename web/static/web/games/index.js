// The game modules by catalogue key. A game without one is still playable: the table
// falls back to generic pieces and buttons (see `generic`).

import { h } from "../dom.js";
import hearts from "./hearts.js";
import kali_tidi from "./kali_tidi.js";
import moon from "./moon.js";

const generic = {
  key: "generic",
  face: (code) => h("span", { class: "generic-piece" }, String(code)),
  itemName: (code) => String(code),
  sortHand: (hand) => [...hand],
  actionLabel: (a) => Object.values(a).join(" "),
};

const MODULES = { hearts, moon, kali_tidi };

export function gameModule(key) {
  return { ...generic, ...(MODULES[key] ?? {}) };
}
