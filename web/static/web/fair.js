// Provably fair deals in the page, in words for players: the lock (the commitment to
// the server's seed) of the hand to be dealt, whole and copyable; the player's own seed
// in the shuffle (while it may still be set: in the lobby, and in the pause before the
// next hand); each hand this page checked (fairness.js); and, after a hand, the key (the
// seed) and the players' seeds it was checked with. How to check it by hand, and the
// algorithm's name, are on the site's page /fair-deals (web/templates/web/fair_deals.html).

import { api } from "./api.js";
import { h } from "./dom.js";
import { checkedHands } from "./fairness.js";
import { gettext, gettext_noop, interpolate } from "./i18n.js";

const FAIR_DEALS_PAGE = "/fair-deals";
// Marked for the catalogues, translated where it is shown.
const EXPLAINED = gettext_noop(
  "Before each hand the server locks in the shuffle and shows you the lock; after the hand it shows the key, so anyone can check the deal was not changed.",
);
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
              done.textContent = gettext("Seed set.");
            } catch (err) {
              error.textContent = err.message;
            }
          },
        },
        h("label", { for: "client-seed" }, interpolate(gettext("Your seed for hand %(hand)s"), { hand: fair.hand })),
        h("div", { class: "choice-row" }, input, h("button", { type: "submit" }, gettext("Set my seed"))),
        h("small", {}, gettext("Any words you like: they go into the shuffle with the server's key, so the server cannot choose the deal alone.")),
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
    h("summary", {}, gettext("Fair deal")),
    h("p", {}, gettext(EXPLAINED)),
    // Translators: the label of the lock (a hash of the server's secret seed) shown below it.
    h("p", { class: "fair-lock-label" }, interpolate(gettext("The lock for hand %(hand)s:"), { hand: fair.hand })),
    copyable(fair.commitment, "commitment", interpolate(gettext("Copy the lock for hand %(hand)s"), { hand: fair.hand })),
    checkedList(code),
    form,
    h("p", {}, h("a", { href: FAIR_DEALS_PAGE }, gettext("How to check a deal yourself"))),
  );
}

// A long code written whole (it wraps), and a button that copies it. Where the browser
// will not copy (no clipboard outside https), the code is selected for the device's Copy.
function copyable(text, kind, label) {
  const code = h("code", { class: `fair-code ${kind}` }, text);
  const said = h("span", { class: "form-note", role: "status" });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      said.textContent = gettext("Copied.");
    } catch {
      getSelection()?.selectAllChildren(code);
      said.textContent = gettext("Selected: copy it with your device's Copy.");
    }
  };
  // Translators: a button that copies a code to the clipboard.
  return h("div", { class: "fair-copy" }, code, h("button", { type: "button", "aria-label": label, onclick: copy }, gettext("Copy")), said);
}

// The hands of this room whose deal this page checked, each with its verdict.
function checkedList(code) {
  const hands = checkedHands(code).filter(([, ok]) => ok !== null);
  if (!hands.length) return null;
  return h(
    "div",
    {},
    h("p", { class: "fair-lock-label" }, gettext("Checked by this page:")),
    h(
      "ul",
      { class: "fair-checked" },
      hands.map(([hand, ok]) =>
        h(
          "li",
          { class: `deal-check ${ok ? "ok" : "bad"}`, "data-hand": hand },
          ok ? interpolate(gettext("Hand %(hand)s: Verified ✓"), { hand }) : interpolate(gettext("Hand %(hand)s: NOT verified ✗"), { hand }),
        ),
      ),
    ),
  );
}

// Under a finished hand's "Deal verified": the lock, the key that opens it and the
// players' seeds the deal was checked with.
export function revealedSeeds(fairness) {
  if (!fairness) return null;
  // Translators: in place of a player's seed, or of the list of them, when there is none.
  const none = gettext("(none)");
  const seeds = (fairness.client_seeds ?? []).map((s, i) => `${i + 1}: ${s === "" ? none : s}`).join(" · ");
  return h(
    "details",
    { class: "revealed-seeds" },
    h("summary", {}, gettext("The key and the seeds")),
    h("p", {}, `${gettext("The lock shown before the hand:")} `, h("code", { class: "fair-code" }, fairness.commitment)),
    h("p", {}, `${gettext("The key that opens it:")} `, h("code", { class: "fair-code" }, fairness.server_seed)),
    h("p", {}, `${gettext("Players' seeds (by seat):")} `, seeds || none),
    h("p", {}, h("a", { href: FAIR_DEALS_PAGE }, gettext("How to check this deal yourself"))),
  );
}
