// Provably fair deals in the page: the commitment to the server's seed of the hand to
// be dealt, the player's own seed in the shuffle (while it may still be set: in the lobby,
// and in the pause before the next hand), and, after a hand, the seeds revealed that the
// browser checked the deal against (fairness.js).

import { api } from "./api.js";
import { h } from "./dom.js";

const short = (hex) => `${hex.slice(0, 16)}…`;
// The page is drawn again at every change of the room: the panel stays open, and a seed
// being typed stays, across those.
const opened = new Set();
const drafts = new Map();

// The panel for a room's view: null where the room has no committed seed to show.
export function fairDeal(view, code) {
  const fair = view.fairness;
  if (!fair) return null;
  const me = view.you ? view.seats[view.you.seat] : null;
  // A seed counts for the hand not dealt yet: the lobby's first, or the next between hands.
  const open = me && !me.is_bot && (view.status === "lobby" || (view.phase === "round_over" && fair.hand > view.round));
  const error = h("p", { class: "form-error", role: "alert" });
  const done = h("p", { class: "form-note", role: "status" });
  const input = h("input", {
    id: "client-seed",
    name: "client_seed",
    maxlength: 64,
    value: drafts.get(code) ?? me?.client_seed ?? "",
    autocomplete: "off",
    oninput: () => drafts.set(code, input.value),
  });
  const form = open
    ? h(
        "form",
        {
          class: "client-seed",
          onsubmit: async (e) => {
            e.preventDefault();
            error.textContent = "";
            done.textContent = "";
            try {
              // A seed is no change of the room (nobody needs to hear of it at once): the
              // field keeps what was set, the next view has it in the seat, and the page
              // says it was taken.
              const seat = await api(`rooms/${encodeURIComponent(code)}/client_seed`, { method: "PUT", body: { client_seed: input.value } });
              drafts.set(code, seat?.client_seed ?? input.value);
              error.textContent = "";
              done.textContent = "Seed set.";
            } catch (err) {
              error.textContent = err.message;
            }
          },
        },
        h("label", { for: "client-seed" }, `Your seed for hand ${fair.hand}`),
        h("div", { class: "choice-row" }, input, h("button", { type: "submit" }, "Set my seed")),
        h("small", {}, "Any text: it goes into the shuffle with the server's seed, so the server cannot choose the deal alone."),
        error,
        done,
      )
    : null;
  return h(
    "details",
    {
      class: "panel fair-deal",
      open: opened.has(code),
      ontoggle: (e) => (e.currentTarget.open ? opened.add(code) : opened.delete(code)),
    },
    h("summary", {}, "Fair deal"),
    h(
      "p",
      {},
      `The server is committed to its seed for hand ${fair.hand}: `,
      h("code", { class: "commitment", title: fair.commitment }, short(fair.commitment)),
      ". After the hand it reveals the seed, and this page checks the deal against it.",
    ),
    form,
  );
}

// The seeds a finished hand revealed, under its "Deal verified" line.
export function revealedSeeds(fairness) {
  if (!fairness) return null;
  const seeds = (fairness.client_seeds ?? []).map((s, i) => `${i + 1}: ${s === "" ? "(none)" : s}`).join(" · ");
  return h(
    "details",
    { class: "revealed-seeds" },
    h("summary", {}, "The seeds"),
    h("p", {}, "Server seed: ", h("code", {}, fairness.server_seed)),
    h("p", {}, "Players' seeds (by seat): ", seeds || "(none)"),
    h("p", {}, `Algorithm: ${fairness.algorithm}. The README's "Provably fair deals" says how to check it yourself.`),
  );
}
