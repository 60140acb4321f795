// The replay of a finished match (`GET rooms/{code}/replay`): pick a hand, then step
// through it play by play or trick by trick, every seat's hand face up, the trick on the
// table and who took it. Drawn with the game modules' own pieces, so every game shows.

import { api } from "./api.js";
import { signedOutPage } from "./auth.js";
import { h, replace } from "./dom.js";
import { gameModule } from "./games/index.js";

export class ReplayPage {
  constructor(root, code, app) {
    this.root = root;
    this.code = code;
    this.app = app;
    this.hand = 0;
    this.step = 0; // 0: as dealt; k: after the k-th action of the hand
  }

  destroy() {
    this.gone = true;
  }

  async start() {
    this.app.title(`Replay ${this.code} · Trick-taking tables`);
    if (!this.app.user) {
      signedOutPage(this.root, "Replay", "Log in to watch the replay.");
      return;
    }
    replace(this.root, h("p", { class: "loading" }, "Loading…"));
    try {
      this.replay = await api(`rooms/${encodeURIComponent(this.code)}/replay`);
    } catch (err) {
      if (this.gone) return;
      replace(
        this.root,
        h(
          "section",
          { class: "panel replay-refused" },
          h("h1", {}, "Replay"),
          h("p", { class: "form-error", role: "alert", "data-code": err.code ?? "" }, err.message),
          h("p", {}, h("a", { href: `/join/${encodeURIComponent(this.code)}`, "data-link": "" }, "Back to the table")),
        ),
      );
      return;
    }
    if (this.gone) return;
    this.game = gameModule(this.replay.game);
    this.names = this.replay.players.map((p) => p.display_name || `Seat ${p.seat + 1}`);
    this.render();
  }

  get actions() {
    return this.replay.hands[this.hand]?.actions ?? [];
  }

  // The table after `step` actions of the current hand.
  frame() {
    const hand = this.replay.hands[this.hand];
    if (!hand) return { hands: [], trick: [], trick_winner: null, trump: null };
    if (this.step === 0) return { hands: hand.deal.hands, trick: [], trick_winner: null, trump: null, widow: hand.deal.widow };
    return this.actions[this.step - 1];
  }

  go(step) {
    this.step = Math.max(0, Math.min(this.actions.length, step));
    this.render();
  }

  // The next (or previous) step that ends a trick; past the last, the end (or the deal).
  trickStep(direction) {
    const ends = this.actions.map((a, i) => (a.trick_winner !== null ? i + 1 : null)).filter((i) => i !== null);
    if (direction > 0) return ends.find((i) => i > this.step) ?? this.actions.length;
    return ends.filter((i) => i < this.step).at(-1) ?? 0;
  }

  describe(frame) {
    if (this.step === 0) return "As dealt.";
    const action = this.actions[this.step - 1];
    let what;
    try {
      what = this.game.actionLabel?.(action.action, { ...frame, seats: this.replay.players }, {}) ?? action.action.type;
    } catch {
      what = action.action.type;
    }
    const item = action.action.card ?? action.action.tile;
    if (action.action.type === "play" && item) what = `plays ${this.game.itemName(item, frame)}`;
    const bot = action.by_bot && !/computer/i.test(this.names[action.seat]);
    const how = action.claimed ? " (claimed)" : action.automatic ? " (automatic)" : bot ? " (computer)" : "";
    return `${this.names[action.seat]}: ${what}${how}.`;
  }

  render() {
    const { replay, game } = this;
    const frame = this.frame();
    const view = { trump: frame.trump ?? null, seats: replay.players };
    const total = this.actions.length;
    const catalogue = this.app.catalogue.find((g) => g.key === replay.game);
    const handPicker = h(
      "select",
      {
        "aria-label": "Hand",
        onchange: (e) => {
          this.hand = Number(e.target.value);
          this.step = 0;
          this.render();
        },
      },
      replay.hands.map((hd, i) => h("option", { value: i, selected: i === this.hand }, `Hand ${hd.round}`)),
    );
    const button = (label, step, disabled) => h("button", { type: "button", "data-step": label, disabled, onclick: () => this.go(step) }, label);
    const atStart = this.step === 0;
    const atEnd = this.step === total;
    const controls = h(
      "div",
      { class: "replay-controls button-row" },
      button("Previous trick", this.trickStep(-1), atStart),
      button("Previous play", this.step - 1, atStart),
      button("Next play", this.step + 1, atEnd),
      button("Next trick", this.trickStep(1), atEnd),
    );
    const winner = frame.trick_winner;
    const trick = h(
      "section",
      { class: "replay-trick", "aria-label": "The trick", "data-winner": winner ?? "" },
      h("h2", { class: "caption" }, "On the table"),
      frame.trick.length
        ? h(
            "ul",
            { class: "trick-plays" },
            frame.trick.map((p) => {
              const item = p.card ?? p.tile;
              return h(
                "li",
                { class: `trick-play${p.seat === winner ? " winner" : ""}`, "data-seat": p.seat, "data-code": item, "aria-label": `${this.names[p.seat]}: ${game.itemName(item, view)}` },
                game.face(item, view),
                h("span", { class: "trick-name" }, this.names[p.seat]),
              );
            }),
          )
        : h("p", { class: "empty" }, "Nothing yet."),
      winner !== null ? h("p", { class: "trick-winner", role: "status" }, `${this.names[winner]} takes the trick.`) : null,
    );
    const seats = h(
      "ul",
      { class: "replay-seats", "aria-label": "Every hand, face up" },
      replay.players.map((p, i) => {
        const held = game.sortHand(frame.hands[i] ?? [], view);
        return h(
          "li",
          { class: "replay-seat", "data-seat": i, "aria-label": this.names[i] },
          h("h3", {}, this.names[i], p.is_bot && !/computer/i.test(this.names[i]) ? h("span", { class: "badge" }, "computer") : null, ` · ${held.length}`),
          h(
            "ul",
            { class: "replay-hand" },
            held.map((code) => h("li", { "data-code": code, "aria-label": game.itemName(code, view) }, game.face(code, view))),
          ),
        );
      }),
    );
    const widow = frame.widow?.length
      ? h("p", { class: "replay-widow" }, "Widow: ", frame.widow.map((code) => h("span", { "data-code": code, "aria-label": game.itemName(code, view) }, game.face(code, view))))
      : null;
    replace(
      this.root,
      h(
        "section",
        { class: `replay game-${replay.game}`, "aria-label": "Replay", "data-step": this.step, "data-hand": this.hand },
        h(
          "div",
          { class: "replay-top" },
          h(
            "header",
            { class: "table-head" },
            h("h1", {}, `Replay · ${catalogue?.name ?? replay.game}`),
            h("p", { class: "meta" }, `Room ${replay.code}${replay.name ? ` · ${replay.name}` : ""} · `, h("a", { href: `/join/${encodeURIComponent(replay.code)}`, "data-link": "" }, "the table")),
          ),
          h("div", { class: "replay-picker" }, h("label", {}, "Hand ", handPicker), h("span", { class: "replay-position", "aria-live": "polite" }, `Step ${this.step} of ${total}`)),
          controls,
          h("p", { class: "replay-step" }, this.describe(frame)),
        ),
        trick,
        widow,
        seats,
      ),
    );
  }
}
