// The replay of a finished match (`GET rooms/{code}/replay`): pick a hand, then step
// through it play by play or trick by trick, every seat's hand face up, the trick on the
// table and who took it. Drawn with the game modules' own pieces, so every game shows.
// Each step says what happened in the words of the table's log (table/results.js
// eventText), naming only the cards and tiles the answer gives this reader; each hand
// ends in one step of its own, with its result as the table showed it.
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
import { isLine, phraseWords } from "./chat.js";
import { h, replace } from "./dom.js";
import { passText, seatName } from "./format.js";
import { gameModule } from "./games/index.js";
import { gettext, interpolate, ngettext, timeText } from "./i18n.js";
import { eventText, handResult } from "./table/results.js";

// From this width the talk is a column beside the replay, open (replay_talk.css).
const WIDE = "(min-width: 1000px)";
const ROUNDS_PAGE = 100;

// `cards` less one copy of each card in `less`.
function without(cards, less) {
  const left = [...cards];
  for (const card of less) {
    const at = left.indexOf(card);
    if (at >= 0) left.splice(at, 1);
  }
  return left;
}

// The seat other than `from` whose hand holds all of `cards`; null if none does.
function holder(hands, cards, from) {
  if (!cards.length) return null;
  const seat = hands.findIndex((held, s) => s !== from && without(held, cards).length === held.length - cards.length);
  return seat < 0 ? null : seat;
}

function clock(iso) {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? "" : timeText(at, { hour: "numeric", minute: "2-digit" });
}

export class ReplayPage {
  constructor(root, code, app) {
    this.root = root;
    this.code = code;
    this.app = app;
    this.hand = 0;
    this.step = 0; // 0: as dealt; k: after the k-th step of the hand
    // The current hand's steps, worked out once a hand (handSteps()).
    /** @type {{ hand: any, steps: any[], redeals: boolean[] } | null} */
    this.stepsOf = null;
    /** @type {import("./chat.js").Line[]} */
    this.talk = [];
    // Each line's place (place()), or null when the hands' times are unknown.
    /** @type {Map<number, number> | null} */
    this.talkAt = null;
    this.talkOpen = matchMedia(WIDE).matches;
    // The game's renderer, set once the replay is loaded (start()): nothing is drawn before.
    /** @type {import("./games/renderer.js").GameRenderer} */
    this.game;
  }

  destroy() {
    this.gone = true;
  }

  async start() {
    // Translators: the browser tab's title; %(site)s is the site's name.
    this.app.title(interpolate(gettext("Replay %(code)s · %(site)s"), { code: this.code, site: gettext("Trick-taking tables") }));
    if (!this.app.user) {
      signedOutPage(this.root, gettext("Replay"), gettext("Log in to watch the replay."));
      return;
    }
    replace(this.root, h("p", { class: "loading" }, gettext("Loading…")));
    try {
      this.replay = await api(`rooms/${encodeURIComponent(this.code)}/replay`);
    } catch (err) {
      if (this.gone) return;
      replace(
        this.root,
        h(
          "section",
          { class: "panel replay-refused" },
          h("h1", {}, gettext("Replay")),
          h("p", { class: "form-error", role: "alert", "data-code": err.code ?? "" }, err.message),
          h("p", {}, h("a", { href: `/join/${encodeURIComponent(this.code)}`, "data-link": "" }, gettext("Back to the table"))),
        ),
      );
      return;
    }
    if (this.gone) return;
    this.game = gameModule(this.replay.game);
    this.names = this.replay.players.map((p) => seatName(p, p.seat) || interpolate(gettext("Seat %(seat)s"), { seat: p.seat + 1 }));
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
    const ended = this.step === this.steps.length;
    let shown = this.talk;
    let note = gettext("The hands' times could not be read: this is all the talk of the match, in order.");
    if (placed) {
      const upTo = ended ? 2 * this.hand + 2 : 2 * this.hand;
      shown = this.talk.filter((line) => (placed.get(line.id) ?? 0) <= upTo);
      const later = ended ? 0 : this.talk.filter((line) => placed.get(line.id) === 2 * this.hand + 1).length;
      note = later
        ? interpolate(
            ngettext(
              "%(n)s more line said during this hand shows at its last step: the plays carry no times.",
              "%(n)s more lines said during this hand show at its last step: the plays carry no times.",
              later,
            ),
            { n: later },
          )
        : "";
    }
    // The heading of the table talk's lines said before a hand, during it, or after the last.
    const label = (at) => {
      if (at >= 2 * hands.length) return gettext("After the match");
      const hand = hands[Math.floor(at / 2)].round;
      return at % 2 ? interpolate(gettext("During hand %(hand)s"), { hand }) : interpolate(gettext("Before hand %(hand)s"), { hand });
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
      // Translators: the replay's table talk, with the number of lines shown.
      h("summary", {}, interpolate(gettext("Table talk (%(n)s)"), { n: shown.length })),
      h(
        "div",
        { class: "replay-talk-body", role: "region", "aria-label": gettext("Table talk up to this step"), tabindex: "0" },
        note ? h("p", { class: "replay-talk-note" }, note) : null,
        shown.length ? groups : h("p", { class: "replay-talk-note" }, gettext("Nothing said yet.")),
      ),
    );
  }

  /** @param {import("./chat.js").Line} line */
  talkLine(line) {
    const text = h("p", { class: "replay-talk-text" });
    // Text, never markup: whatever it holds shows as written.
    text.textContent = phraseWords(line);
    const who = h("span", { class: "replay-talk-who" });
    who.textContent = line.author.display_name || line.author.username;
    return h(
      "li",
      { class: "replay-talk-line", "data-id": line.id, "data-channel": line.channel },
      who,
      // Translators: a badge on a line of table talk said by someone watching, not playing.
      line.channel === "spectators" ? h("span", { class: "badge" }, gettext("spectator")) : null,
      h("time", { datetime: line.sent_at }, clock(line.sent_at)),
      text,
    );
  }

  // The hand's steps: every action the engine applied but the between-hands
  // `next_round`s (one a seat, and none after the match's last hand), then one step of
  // its own for the hand's end, which shows its score.
  get steps() {
    return this.handSteps().steps;
  }

  // Whether step `i` (0-based) of the current hand is Moon's redeal: everyone passed,
  // and the hands are new.
  redealt(i) {
    return this.handSteps().redeals[i] ?? false;
  }

  // The current hand's steps and redeals, worked out once a hand.
  handSteps() {
    const hand = this.replay.hands[this.hand];
    if (!hand) return { hand, steps: [], redeals: [] };
    const known = this.stepsOf;
    if (known && known.hand === hand) return known;
    const played = hand.actions.filter((a) => a.action?.type !== "next_round");
    const redeals = played.map((a, i) => a.action.type === "pass" && JSON.stringify(a.hands) !== JSON.stringify(i ? played[i - 1].hands : hand.deal.hands));
    const worked = { hand, steps: [...played, { end: true }], redeals };
    this.stepsOf = worked;
    return worked;
  }

  // The table before step `i` (0-based) of the current hand: as dealt, or after the one before.
  before(i) {
    const hand = this.replay.hands[this.hand];
    return i > 0 ? this.steps[i - 1] : { hands: hand.deal.hands, trick: [], trick_winner: null, trump: null, phase: null };
  }

  // The table after `step` steps of the current hand; at the hand's end, as its last
  // action left it with the trick taken away.
  frame() {
    const hand = this.replay.hands[this.hand];
    if (!hand) return { hands: [], trick: [], trick_winner: null, trump: null };
    if (this.step === 0) return { hands: hand.deal.hands, trick: [], trick_winner: null, trump: null, widow: hand.deal.widow };
    const step = this.steps[this.step - 1];
    if (!step.end) return step;
    return { ...this.before(this.step - 1), trick: [], trick_winner: null };
  }

  go(step) {
    this.step = Math.max(0, Math.min(this.steps.length, step));
    this.render();
  }

  // The next (or previous) step that ends a trick; past the last, the end (or the deal).
  trickStep(direction) {
    const ends = this.steps.map((a, i) => (a.trick_winner !== null && a.trick_winner !== undefined ? i + 1 : null)).filter((i) => i !== null);
    if (direction > 0) return ends.find((i) => i > this.step) ?? this.steps.length;
    return ends.filter((i) => i < this.step).at(-1) ?? 0;
  }

  // The step (0-based) whose pass moved every chosen card, from step `i` on, with the
  // hands before and after it; null while nobody has.
  exchange(i) {
    const steps = this.steps;
    for (let j = i; j < steps.length && steps[j].action?.type === "pass_cards"; j++) {
      if (steps[j].phase !== "pass") return { before: this.before(j).hands, after: steps[j].hands };
    }
    return null;
  }

  // Where the cards of step `i`'s pass went, as far as this reader may know: a funky
  // pass names its receivers; a pass to one seat goes to whoever holds its cards once
  // they are exchanged. Where the answer leaves the cards out, the move says how many
  // left the hand and where they went, never which.
  passMoves(i) {
    const { seat, action } = this.steps[i];
    const to = action.to;
    if (Array.isArray(to)) return to.map((receiver, k) => ({ to: receiver, cards: action.cards?.[k] ? [action.cards[k]] : null, count: 1 }));
    if (to && typeof to === "object") return Object.entries(to).map(([receiver, card]) => ({ to: Number(receiver), cards: card ? [card] : null, count: 1 }));
    const swap = this.exchange(i);
    if (Array.isArray(action.cards)) return [{ to: swap ? holder(swap.after, action.cards, seat) : null, cards: action.cards }];
    if (!swap) return [{ to: null }];
    const gone = without(swap.before[seat] ?? [], swap.after[seat] ?? []);
    return [{ to: holder(swap.after, gone, seat), count: gone.length }];
  }

  // What step `i` did, as the server's log tells it (the events it logs for the action),
  // each with the hand's number; a pass is told in words of its own (passText).
  eventsOf(i) {
    const hand = this.replay.hands[this.hand];
    const step = this.steps[i];
    const { seat, action } = step;
    const result = hand.result ?? {};
    /** @type {any[]} */
    const events = [];
    switch (action.type) {
      case "play":
        events.push({ type: "play", seat, card: action.card, tile: action.tile });
        break;
      case "bid":
        events.push({ type: "bid", seat, value: action.value });
        break;
      case "pass":
        events.push({ type: "pass", seat });
        break;
      case "trump":
        events.push({ type: "trump", seat, suit: action.suit });
        break;
      case "widow": {
        // The widow as dealt is the reader's to see unless a redeal changed it since.
        const redealt = this.steps.slice(0, i).some((_, k) => this.redealt(k));
        const widow = redealt ? null : (hand.deal.widow?.[0] ?? null);
        events.push({ type: "widow", seat, take: action.take, discard: action.discard ?? null, widow });
        break;
      }
      case "call_partners":
        events.push({ type: "partners_called", seat, cards: action.cards });
        break;
      case "remove_cards":
        events.push({ type: "cards_removed", seat, cards: action.cards });
        break;
      case "moon_choice":
        events.push({ type: "moon_chosen", seat, choice: action.choice });
        break;
      case "claim":
        events.push({ type: "claimed", seat });
        break;
    }
    if (this.redealt(i) && Number.isInteger(result.dealer)) {
      // The hand's result names its last dealer; each redeal passed the deal on by one.
      const later = this.steps.slice(i + 1).filter((_, k) => this.redealt(i + 1 + k)).length;
      const players = this.replay.players.length;
      events.push({ type: "redeal", dealer: (((result.dealer - later) % players) + players) % players });
    } else if ((action.type === "bid" || action.type === "pass") && step.phase !== "bid" && Number.isInteger(result.bidder)) {
      // The auction is over: Moon logs `bid_won`, Kali Tidi `auction_won`; whichever
      // the game has words for says it.
      const allPassed = !this.steps.slice(0, i + 1).some((s) => s.action?.type === "bid");
      events.push({ type: "bid_won", seat: result.bidder, value: result.bid }, { type: "auction_won", seat: result.bidder, bid: result.bid, all_passed: allPassed });
    }
    if (step.trick_winner !== null && step.trick_winner !== undefined) {
      const trick = this.steps.slice(0, i + 1).filter((s) => s.trick_winner !== null && s.trick_winner !== undefined).length;
      events.push({ type: "trick_won", winner: step.trick_winner, trick });
    }
    return events.map((e) => ({ ...e, round: hand.round }));
  }

  // Step `i` in the words of the table's log.
  words(i) {
    const step = this.steps[i];
    const names = this.names;
    const lines = this.eventsOf(i)
      .map((e) => eventText(this.game, e, names))
      .filter(Boolean);
    if (step.action.type === "pass_cards") lines.unshift(passText(step.seat, this.passMoves(i), names));
    if (!lines.length) {
      // An action no event tells of: the game's label for it, else its name in words.
      let label = step.action.type;
      try {
        label = this.game.actionLabel?.(step.action, { ...this.frame(), seats: this.replay.players }, { room: { options: this.replay.options } }) ?? label;
      } catch {
        // the name in words, below
      }
      // Translators: a step of a replay that the log has no words for: who, and the move's name.
      lines.push(interpolate(gettext("%(name)s: %(action)s."), { name: names[step.seat], action: String(label).replaceAll("_", " ") }));
    }
    const bot = step.by_bot && !/computer/i.test(names[step.seat]);
    // The first line says how the move was made, within its sentence, which ends in a full
    // stop either way.
    const said = lines[0].replace(/[.।]$/, "");
    if (step.claimed) {
      // Translators: a step of a replay (%(step)s: what happened) made by a claim of the remaining tricks.
      lines[0] = interpolate(gettext("%(step)s (claimed)."), { step: said });
    } else if (step.automatic) {
      // Translators: a step of a replay (%(step)s: what happened) the server made for the player.
      lines[0] = interpolate(gettext("%(step)s (automatic)."), { step: said });
    } else if (bot) {
      // Translators: a step of a replay (%(step)s: what happened) made by a computer player.
      lines[0] = interpolate(gettext("%(step)s (computer)."), { step: said });
    } else if (said === lines[0]) {
      lines[0] = `${said}.`;
    }
    return lines.join(" ");
  }

  // Every event of the hand up to step `i`, for the game's summary of it (who took Q♠).
  eventsUpTo(i) {
    const events = [];
    for (let k = 0; k < i; k++) if (!this.steps[k].end) events.push(...this.eventsOf(k));
    return events;
  }

  describe() {
    if (this.step === 0) return gettext("As dealt.");
    const hand = this.replay.hands[this.hand];
    if (this.steps[this.step - 1].end) {
      const result = hand.result ?? {};
      const scored =
        eventText(this.game, { type: "hand_scored", ...result, round: hand.round }, this.names) ||
        interpolate(gettext("Hand %(hand)s is over."), { hand: hand.round });
      if (!Array.isArray(result.scores)) return scored;
      // Translators: one player's total score in a list of them ("alice: 26, bob: 0").
      const scores = this.names.map((name, i) => interpolate(gettext("%(name)s: %(score)s"), { name, score: result.scores[i] })).join(", ");
      // Translators: after a hand's result in a replay, every player's total score.
      return `${scored} ${interpolate(gettext("Totals — %(scores)s."), { scores })}`;
    }
    return this.words(this.step - 1);
  }

  // At the hand's end, in place of the trick: the hand's result as the table showed it.
  resultSection() {
    const hand = this.replay.hands[this.hand];
    if (!hand.result) return null;
    const view = { seats: this.replay.players, trump: null, round: hand.round };
    const ctx = { room: { options: this.replay.options } };
    return h(
      "section",
      { class: "replay-result results", "aria-label": interpolate(gettext("Hand %(hand)s result"), { hand: hand.round }) },
      h("h2", { class: "caption" }, interpolate(gettext("Hand %(hand)s result"), { hand: hand.round })),
      handResult(this.game, hand.result, this.names, view, this.eventsUpTo(this.step - 1), ctx),
    );
  }

  render() {
    const { replay, game } = this;
    const frame = this.frame();
    const view = { trump: frame.trump ?? null, seats: replay.players };
    const total = this.steps.length;
    const catalogue = this.app.catalogue.find((g) => g.key === replay.game);
    const handPicker = h(
      "select",
      {
        // Translators: the list to choose which hand of the match the replay shows.
        "aria-label": gettext("Hand"),
        onchange: (e) => {
          this.hand = Number(e.target.value);
          this.step = 0;
          this.render();
        },
      },
      replay.hands.map((hd, i) => h("option", { value: i, selected: i === this.hand }, interpolate(gettext("Hand %(hand)s"), { hand: hd.round }))),
    );
    // `key`: the button's name in the page (data-step), the same in every language.
    const button = (key, label, step, disabled) => h("button", { type: "button", "data-step": key, disabled, onclick: () => this.go(step) }, label);
    const atStart = this.step === 0;
    const atEnd = this.step === total;
    const controls = h(
      "div",
      { class: "replay-controls button-row" },
      button("previous-trick", gettext("Previous trick"), this.trickStep(-1), atStart),
      button("previous-play", gettext("Previous play"), this.step - 1, atStart),
      button("next-play", gettext("Next play"), this.step + 1, atEnd),
      button("next-trick", gettext("Next trick"), this.trickStep(1), atEnd),
    );
    const winner = frame.trick_winner;
    const trick = h(
      "section",
      { class: "replay-trick", "aria-label": gettext("The trick"), "data-winner": winner ?? "" },
      h("h2", { class: "caption" }, gettext("On the table")),
      frame.trick.length
        ? h(
            "ul",
            { class: "trick-plays" },
            frame.trick.map((p) => {
              const item = p.card ?? p.tile;
              return h(
                "li",
                {
                  class: `trick-play${p.seat === winner ? " winner" : ""}`,
                  "data-seat": p.seat,
                  "data-code": item,
                  // Translators: a card (or tile) on the trick, and who played it ("alice: queen of spades").
                  "aria-label": interpolate(gettext("%(name)s: %(card)s"), { name: this.names[p.seat], card: game.itemName(item, view) }),
                },
                game.face(item, view),
                h("span", { class: "trick-name" }, this.names[p.seat]),
              );
            }),
          )
        : h("p", { class: "empty" }, gettext("Nothing yet.")),
      winner !== null ? h("p", { class: "trick-winner", role: "status" }, interpolate(gettext("%(name)s takes the trick."), { name: this.names[winner] })) : null,
    );
    const seats = h(
      "ul",
      { class: "replay-seats", "aria-label": gettext("Every hand, face up") },
      replay.players.map((p, i) => {
        const held = game.sortHand(frame.hands[i] ?? [], view);
        return h(
          "li",
          { class: "replay-seat", "data-seat": i, "aria-label": this.names[i] },
          h(
            "h3",
            {},
            this.names[i],
            // Translators: a badge by the name of a seat a computer player holds.
            p.is_bot && !/computer/i.test(this.names[i]) ? h("span", { class: "badge" }, gettext("computer")) : null,
            ` · ${held.length}`,
          ),
          h(
            "ul",
            { class: "replay-hand" },
            held.map((code) => h("li", { "data-code": code, "aria-label": game.itemName(code, view) }, game.face(code, view))),
          ),
        );
      }),
    );
    const widow = frame.widow?.length
      ? h("p", { class: "replay-widow" }, `${gettext("Widow:")} `, frame.widow.map((code) => h("span", { "data-code": code, "aria-label": game.itemName(code, view) }, game.face(code, view))))
      : null;
    replace(
      this.root,
      h(
        "section",
        { class: `replay game-${replay.game}`, "aria-label": gettext("Replay"), "data-step": this.step, "data-hand": this.hand },
        h(
          "div",
          { class: "replay-main" },
          h(
            "div",
            { class: "replay-top" },
            h(
              "header",
              { class: "table-head" },
              h("h1", {}, interpolate(gettext("Replay · %(game)s"), { game: catalogue?.name ?? replay.game })),
              h(
                "p",
                { class: "meta" },
                `${interpolate(gettext("Room %(code)s"), { code: replay.code })}${replay.name ? ` · ${replay.name}` : ""} · `,
                // Translators: a link from a replay back to its room's page.
                h("a", { href: `/join/${encodeURIComponent(replay.code)}`, "data-link": "" }, gettext("the table")),
              ),
            ),
            h(
              "div",
              { class: "replay-picker" },
              // Translators: the label before the list to choose which hand the replay shows.
              h("label", {}, `${gettext("Hand")} `, handPicker),
              h("span", { class: "replay-position", "aria-live": "polite" }, interpolate(gettext("Step %(step)s of %(total)s"), { step: this.step, total })),
            ),
            controls,
            h("p", { class: "replay-step" }, this.describe()),
          ),
          this.step > 0 && this.steps[this.step - 1].end ? this.resultSection() : trick,
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
