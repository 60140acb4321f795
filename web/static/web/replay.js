// The replay of a finished match (`GET rooms/{code}/replay`): pick a hand, then step
// through it play by play or trick by trick, every seat's hand face up, the trick on the
// table and who took it. Drawn with the game modules' own pieces, so every game shows.
//
// Beside it (under it on a phone, folded as "Table talk (N)") the match's table talk as
// the reader could read it then: the answer's `chat`, as the server chose it for them.
// The replay's hands and steps carry no time, so a line cannot be set at a play. What
// places it is the hands' own times, which `GET rooms/{code}/rounds` gives (`started_at`,
// `finished_at`): each line is said before a hand was dealt, during it, or after the
// last one (a spectator's line during a hand also names it, `hand`). So the talk follows
// the replay hand by hand: during a hand it shows what was said before its deal; at its
// last step, what was said until the next deal (after the last hand: everything), in
// groups by hand. Without those times it shows every line in order, with a note.
// Lines are text, set as textContent like the table's (chat.js), never markup.

import { api } from "./api.js";
import { signedOutPage } from "./auth.js";
import { isLine, PHRASES } from "./chat.js";
import { h, replace } from "./dom.js";
import { count } from "./format.js";
import { gameModule } from "./games/index.js";

// From this width the talk is a column beside the replay, open (replay_talk.css).
const WIDE = "(min-width: 1000px)";
const ROUNDS_PAGE = 100;

function clock(iso) {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? "" : at.toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
}

export class ReplayPage {
  constructor(root, code, app) {
    this.root = root;
    this.code = code;
    this.app = app;
    this.hand = 0;
    this.step = 0; // 0: as dealt; k: after the k-th action of the hand
    /** @type {import("./chat.js").Line[]} */
    this.talk = [];
    // Each line's place (place()), or null when the hands' times are unknown.
    /** @type {Map<number, number> | null} */
    this.talkAt = null;
    this.talkOpen = matchMedia(WIDE).matches;
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
    this.talk = Array.isArray(this.replay.chat) ? this.replay.chat.filter(isLine) : [];
    if (this.talk.length) await this.placeTalk();
    if (this.gone) return;
    this.render();
  }

  // Reads the hands' times and places each line by them (talkAt stays null without them).
  async placeTalk() {
    /** @type {Map<number, { started: number, finished: number }>} */
    const times = new Map();
    try {
      let after = 0;
      for (let page = 0; page < 50; page++) {
        const got = await api(`rooms/${encodeURIComponent(this.code)}/rounds?after=${after}&limit=${ROUNDS_PAGE}`);
        for (const r of got) times.set(r.round, { started: Date.parse(r.started_at), finished: Date.parse(r.finished_at) });
        if (got.length < ROUNDS_PAGE) break;
        after = got.at(-1).round;
      }
    } catch {
      return;
    }
    const hands = this.replay.hands;
    const timed = hands.every((hd) => Number.isFinite(times.get(hd.round)?.started) && Number.isFinite(times.get(hd.round)?.finished));
    if (!timed) return;
    // Hand i (0-based): 2i, said before its deal; 2i + 1, during it; 2n, after the last.
    const place = (line) => {
      const during = hands.findIndex((hd) => hd.round === line.hand);
      if (during >= 0) return 2 * during + 1;
      const at = Date.parse(line.sent_at);
      for (const [i, hd] of hands.entries()) {
        const t = /** @type {{ started: number, finished: number }} */ (times.get(hd.round));
        if (at < t.started) return 2 * i;
        if (at <= t.finished) return 2 * i + 1;
      }
      return 2 * hands.length;
    };
    this.talkAt = new Map(this.talk.map((line) => [line.id, place(line)]));
  }

  // The talk up to the moment shown, grouped by hand: a folding section.
  talkPanel() {
    if (!this.talk.length) return null;
    const placed = this.talkAt;
    const hands = this.replay.hands;
    const ended = this.step === this.actions.length;
    let shown = this.talk;
    let note = "The hands' times could not be read: this is all the talk of the match, in order.";
    if (placed) {
      const upTo = ended ? 2 * this.hand + 2 : 2 * this.hand;
      shown = this.talk.filter((line) => (placed.get(line.id) ?? 0) <= upTo);
      const later = ended ? 0 : this.talk.filter((line) => placed.get(line.id) === 2 * this.hand + 1).length;
      note = later ? `${count(later, "more line")} said during this hand ${later === 1 ? "shows" : "show"} at its last step: the plays carry no times.` : "";
    }
    const label = (at) => {
      if (at >= 2 * hands.length) return "After the match";
      return `${at % 2 ? "During" : "Before"} hand ${hands[Math.floor(at / 2)].round}`;
    };
    /** @type {HTMLElement[]} */
    const groups = [];
    let list = null;
    let group = -1;
    for (const line of shown) {
      const at = placed?.get(line.id) ?? -1;
      if (!list || at !== group) {
        group = at;
        list = h("ol", { class: "replay-talk-lines" });
        groups.push(placed ? h("h3", {}, label(at)) : null, list);
      }
      list.append(this.talkLine(line));
    }
    return h(
      "details",
      {
        class: "replay-talk",
        open: this.talkOpen,
        ontoggle: (/** @type {Event} */ e) => {
          this.talkOpen = /** @type {HTMLDetailsElement} */ (e.currentTarget).open;
        },
      },
      h("summary", {}, `Table talk (${shown.length})`),
      h(
        "div",
        { class: "replay-talk-body", role: "region", "aria-label": "Table talk up to this step", tabindex: "0" },
        note ? h("p", { class: "replay-talk-note" }, note) : null,
        shown.length ? groups : h("p", { class: "replay-talk-note" }, "Nothing said yet."),
      ),
    );
  }

  /** @param {import("./chat.js").Line} line */
  talkLine(line) {
    const text = h("p", { class: "replay-talk-text" });
    // Text, never markup: whatever it holds shows as written.
    text.textContent = (line.phrase && PHRASES[line.phrase]) || line.text;
    const who = h("span", { class: "replay-talk-who" });
    who.textContent = line.author.display_name || line.author.username;
    return h(
      "li",
      { class: "replay-talk-line", "data-id": line.id, "data-channel": line.channel },
      who,
      line.channel === "spectators" ? h("span", { class: "badge" }, "spectator") : null,
      h("time", { datetime: line.sent_at }, clock(line.sent_at)),
      text,
    );
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
          { class: "replay-main" },
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
        this.talkPanel(),
      ),
    );
    // The newest line shown is in sight where the talk scrolls (beside the replay).
    const talk = this.root.querySelector(".replay-talk-body");
    if (talk) talk.scrollTop = talk.scrollHeight;
  }
}
