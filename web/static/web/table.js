// The table during a match, drawn generically from the view every game shares (phase,
// to_act, deadline, you.hand, you.legal_actions, seats, trick, trump, bid, scores,
// last_round); each game module adds its words, its pieces and its special controls.

import { countdown, describeCommonEvent, listNames, seatNames, teamName } from "./format.js";
import { append, h, replace } from "./dom.js";

const ACTION_KEYS = ["card", "tile"];

// What a hand item's play action is keyed by ("card" or "tile").
export function itemOf(action) {
  for (const key of ACTION_KEYS) if (key in action) return action[key];
  return null;
}

export const isTemplate = (a) => Array.isArray(a.choices) && typeof a.count === "number";

function genericSeatFacts(seat) {
  const facts = [];
  if (seat.cards_left !== undefined) facts.push(`${seat.cards_left} card${seat.cards_left === 1 ? "" : "s"}`);
  if (seat.tiles_left !== undefined) facts.push(`${seat.tiles_left} tile${seat.tiles_left === 1 ? "" : "s"}`);
  if (seat.tricks_taken !== undefined) facts.push(`${seat.tricks_taken} trick${seat.tricks_taken === 1 ? "" : "s"}`);
  return facts;
}

export class TableView {
  // ctx: { game (module), room, act(action), rerender() }
  constructor(ctx) {
    this.ctx = ctx;
    // Cards picked for a multi-card choice, kept across re-renders of the same phase.
    this.selection = { key: null, picked: [] };
    this.dialogKey = null;
  }

  get game() {
    return this.ctx.game;
  }

  selectionFor(view) {
    const key = `${view.round}:${view.phase}:${view.you?.hand?.length ?? 0}`;
    if (this.selection.key !== key) this.selection = { key, picked: [] };
    return this.selection;
  }

  render(root, view, extras) {
    const me = view.you?.seat ?? null;
    const names = seatNames(view, me);
    const legal = view.you?.legal_actions ?? [];
    const myTurn = me !== null && (view.to_act || []).includes(me) && legal.length > 0;
    const section = h("section", {
      class: `table game-${view.game}`,
      "aria-label": "The table",
      "data-phase": view.phase,
      "data-version": view.version,
      "data-status": view.status,
      "data-my-turn": String(myTurn),
    });
    append(section, [
      this.head(view, names, myTurn, extras),
      this.banner(view, names),
      this.seats(view, names, me),
      this.info(view, names),
      this.trick(view, names),
      me !== null ? this.actions(view, names, legal) : h("p", { class: "spectating" }, "You are watching this table."),
      me !== null ? this.hand(view, legal) : null,
      this.results(view, names, extras),
      this.log(extras.events, names),
    ]);
    replace(root, section);
    this.tick(root, view);
  }

  // The countdown is redrawn every second without rebuilding the table.
  tick(root, view) {
    const clock = root.querySelector("[data-countdown]");
    if (clock) clock.textContent = countdown(view.deadline);
  }

  head(view, names, myTurn, extras) {
    const game = this.game;
    const title = `${extras.catalogue?.name ?? view.game}${view.round ? ` · hand ${view.round}` : ""}`;
    const waiting = (view.to_act || []).filter((s) => s !== view.you?.seat);
    let line;
    if (view.status === "abandoned" || view.status === "closed") {
      line = `This match is ${view.status}${view.status_reason ? `: ${view.status_reason}` : "."}`;
    } else if (view.phase === "match_over" || view.status === "finished") {
      line = "The match is over.";
    } else if (myTurn) {
      line = game.yourTurnText?.(view, names) ?? "Your turn.";
    } else if (waiting.length) {
      line = `Waiting for ${listNames(waiting, names)}.`;
    } else {
      line = "";
    }
    const showClock = view.deadline && view.status === "playing" && (view.to_act || []).length > 0;
    return h(
      "header",
      { class: "table-head" },
      h("h1", {}, title),
      h(
        "p",
        { class: `turn-line${myTurn ? " mine" : ""}`, "aria-live": "polite" },
        h("span", { class: "turn-text" }, line),
        showClock ? h("span", { class: "clock" }, " · ", h("span", { "data-countdown": "" }), " left") : null,
      ),
      h("p", { class: "meta" }, `Room ${view.code} · `, h("span", { class: "live-status", "data-live": "" }, extras.liveStatus)),
    );
  }

  banner(view, names) {
    const last = view.last_round;
    if (view.phase !== "match_over" && view.status !== "finished") return null;
    const winners = last?.winners ?? [];
    return h(
      "div",
      { class: "banner match-over", role: "status" },
      h("strong", {}, "Match over. "),
      winners.length ? `${listNames(winners, names)} ${winners.length === 1 && names[winners[0]] !== "You" ? "wins" : "win"}!` : "",
    );
  }

  seats(view, names, me) {
    const game = this.game;
    const n = view.seats.length;
    const start = me === null ? 0 : (me + 1) % n;
    const order = Array.from({ length: n }, (_, i) => (start + i) % n);
    return h(
      "ul",
      { class: "seats", "aria-label": "Players" },
      order.map((i) => {
        const seat = view.seats[i];
        const acting = (view.to_act || []).includes(i) && !["match_over", "complete"].includes(view.phase);
        const badges = [
          seat.is_bot ? "computer" : null,
          view.dealer === i ? (game.dealerLabel ?? "dealer") : null,
          seat.team !== null && seat.team !== undefined ? teamName(seat.team) : null,
          ...(game.seatBadges?.(seat, view, i) ?? []),
        ].filter(Boolean);
        const facts = game.seatFacts?.(seat, view, i) ?? genericSeatFacts(seat);
        return h(
          "li",
          {
            class: `seat${acting ? " to-act" : ""}${i === me ? " me" : ""}${seat.partner ? " partner" : ""}`,
            "data-seat": i,
          },
          h("div", { class: "seat-name" }, acting ? h("span", { class: "dot-acting", title: "to act" }, "● ") : null, names[i]),
          badges.length ? h("div", { class: "badges" }, badges.map((b) => h("span", { class: `badge badge-${b.replace(/\W+/g, "-").toLowerCase()}` }, b))) : null,
          h("div", { class: "facts" }, facts.join(" · ")),
          view.scores ? h("div", { class: "score" }, "Score ", h("strong", {}, view.scores[i])) : null,
        );
      }),
    );
  }

  info(view, names) {
    const items = this.game.info?.(view, names, this.ctx) ?? [];
    if (!items.length) return null;
    return h(
      "dl",
      { class: "info" },
      items.map(([label, value]) => h("div", { class: "info-item" }, h("dt", {}, label), h("dd", {}, value))),
    );
  }

  trick(view, names) {
    const game = this.game;
    let played = view.trick || [];
    let caption = view.trick?.length ? "This trick" : null;
    let old = false;
    const last = view.last_trick;
    // When the trick just closed (computer players often finish it in the same moment),
    // the last one stays in view so everyone sees what was played and who took it.
    if (!played.length && last) {
      played = last.cards || last.tiles || [];
      caption = `Last trick, taken by ${names[last.winner]}`;
      old = true;
    }
    return h(
      "section",
      { class: `trick-area${old ? " old" : ""}`, "aria-label": "Trick" },
      h("h2", { class: "caption" }, caption ?? "Nothing played yet"),
      h(
        "ol",
        { class: "trick" },
        played.map((p) => {
          const code = p.card ?? p.tile;
          return h(
            "li",
            { class: `played${last && old && p.seat === last.winner ? " winner" : ""}`, "data-code": code, "data-seat": p.seat },
            game.face(code, view, this.ctx),
            h("span", { class: "played-by" }, names[p.seat]),
            h("span", { class: "sr-only" }, `: ${game.itemName(code, view)}`),
          );
        }),
      ),
    );
  }

  // Everything the player may do that is not tapping a piece of their hand.
  actions(view, names, legal) {
    const game = this.game;
    const handCodes = new Set(this.handItems(view));
    const handKeyed = game.handActions ? game.handActions(view, this.ctx) : null;
    const templates = legal.filter(isTemplate);
    const rest = legal.filter(
      (a) => !isTemplate(a) && !(itemOf(a) !== null && handCodes.has(itemOf(a))) && !(handKeyed && handKeyed.taken(a)),
    );
    const parts = [];
    for (const template of templates) {
      if (template.choices.every((c) => handCodes.has(c))) parts.push(this.handTemplatePanel(view, names, template));
      else parts.push(this.popupTemplatePanel(view, names, template));
    }
    const custom = game.panel?.(view, names, rest, this.ctx);
    if (custom) parts.push(custom);
    else if (rest.length) parts.push(this.genericButtons(view, names, rest));
    const waiting = view.you && !legal.length ? game.waitingText?.(view, names) : null;
    const pending = game.pendingNote?.(view, names);
    if (!parts.length && !waiting && !pending) return null;
    return h("section", { class: "actions", "aria-label": "Your move" }, pending, waiting && h("p", { class: "waiting" }, waiting), parts);
  }

  genericButtons(view, names, actions) {
    const game = this.game;
    const byType = new Map();
    for (const a of actions) byType.set(a.type, [...(byType.get(a.type) ?? []), a]);
    const groups = [];
    for (const [type, list] of byType) {
      // A long list of one kind (bids in fives) reads better as one choice and one button.
      if (list.length > 10) {
        const select = h(
          "select",
          { "aria-label": game.actionLabel?.({ type }, view, this.ctx) ?? type, "data-focus": `select-${type}` },
          list.map((a, i) => h("option", { value: i }, game.actionLabel?.(a, view, this.ctx) ?? JSON.stringify(a))),
        );
        groups.push(
          h(
            "div",
            { class: "choice-row" },
            select,
            h(
              "button",
              { class: "primary", "data-focus": `go-${type}`, onclick: () => this.ctx.act(list[Number(select.value)]) },
              game.groupLabel?.(type) ?? "OK",
            ),
          ),
        );
      } else {
        groups.push(
          h(
            "div",
            { class: "button-row" },
            list.map((a, i) =>
              h(
                "button",
                { class: a.type === "next_round" ? "primary" : "", "data-focus": `act-${type}-${i}`, "data-action": a.type, onclick: () => this.ctx.act(a) },
                game.actionLabel?.(a, view, this.ctx) ?? a.type,
              ),
            ),
          ),
        );
      }
    }
    return h("div", { class: "action-groups" }, groups);
  }

  // A multi-card choice from the hand (Hearts' pass): tap cards, then confirm.
  handTemplatePanel(view, names, template) {
    const sel = this.selectionFor(view);
    const game = this.game;
    const hand = this.sortedHand(view);
    const picked = sel.picked.map((i) => hand[i]);
    if (template.to) {
      const slots = template.to.map((seat, k) => {
        const card = picked[k];
        return h(
          "li",
          { class: "slot" },
          h("span", {}, `To ${names[seat]}: `),
          card ? game.face(card, view, this.ctx) : h("span", { class: "empty-slot" }, "tap a card"),
        );
      });
      const ready = picked.length === template.to.length;
      const action = { type: template.type, to: Object.fromEntries(template.to.map((seat, k) => [String(seat), picked[k]])) };
      return h(
        "div",
        { class: "template" },
        h("p", {}, game.templateText?.(template, view, names) ?? `Choose ${template.count}.`),
        h("ol", { class: "slots" }, slots),
        h(
          "button",
          { class: "primary", disabled: !ready, "data-focus": "confirm-template", "data-action": template.type, onclick: () => this.ctx.act(action) },
          game.templateButton?.(template, view) ?? "Confirm",
        ),
        sel.picked.length ? h("button", { "data-focus": "clear-template", onclick: () => this.clearSelection() }, "Clear") : null,
      );
    }
    const ready = picked.length === template.count;
    return h(
      "div",
      { class: "template" },
      h("p", {}, game.templateText?.(template, view, names) ?? `Choose ${template.count}.`, ` (${picked.length} of ${template.count} chosen)`),
      h(
        "button",
        {
          class: "primary",
          disabled: !ready,
          "data-focus": "confirm-template",
          "data-action": template.type,
          onclick: () => this.ctx.act({ type: template.type, cards: picked }),
        },
        game.templateButton?.(template, view) ?? "Confirm",
      ),
    );
  }

  // A multi-card choice of cards not (all) in the hand — removing cards from the deck,
  // calling partner cards — in a dialog that only the chooser ever sees.
  popupTemplatePanel(view, names, template) {
    const game = this.game;
    const key = `${view.round}:${view.phase}:${template.type}`;
    const open = () => this.openDialog(view, names, template);
    // Opens by itself the first time it is this player's choice; the button reopens it.
    if (this.dialogKey !== key) {
      this.dialogKey = key;
      queueMicrotask(open);
    }
    return h(
      "div",
      { class: "template" },
      h("p", {}, game.templateText?.(template, view, names) ?? `Choose ${template.count}.`),
      h("button", { class: "primary", "data-focus": `open-${template.type}`, "data-action": `open-${template.type}`, onclick: open }, game.templateButton?.(template, view) ?? "Choose"),
    );
  }

  openDialog(view, names, template) {
    const game = this.game;
    document.querySelector("dialog.choose")?.remove();
    const picked = new Set();
    const count = h("span", {}, `0 of ${template.count}`);
    const confirm = h("button", { class: "primary", disabled: true, value: "ok" }, game.templateButton?.(template, view) ?? "Confirm");
    const choices = template.choices.map((code, i) => {
      const button = h(
        "button",
        {
          type: "button",
          class: "piece",
          "aria-pressed": "false",
          "aria-label": game.itemName(code, view),
          "data-code": code,
          onclick: () => {
            if (picked.has(i)) picked.delete(i);
            else if (picked.size < template.count) picked.add(i);
            else if (template.count === 1) {
              picked.clear();
              picked.add(i);
            }
            for (const [j, b] of choices.entries()) b.setAttribute("aria-pressed", String(picked.has(j)));
            count.textContent = `${picked.size} of ${template.count}`;
            confirm.disabled = picked.size !== template.count;
          },
        },
        game.face(code, view, this.ctx),
      );
      return button;
    });
    const dialog = h(
      "dialog",
      { class: "choose", "aria-label": game.templateText?.(template, view, names) ?? "Choose" },
      h(
        "form",
        { method: "dialog" },
        h("h2", {}, game.templateText?.(template, view, names) ?? `Choose ${template.count}`),
        h("p", {}, "Chosen: ", count),
        h("div", { class: "choices" }, choices),
        h("div", { class: "button-row" }, h("button", { value: "cancel", formnovalidate: true }, "Later"), confirm),
      ),
    );
    dialog.addEventListener("close", () => {
      if (dialog.returnValue === "ok") {
        const cards = [...picked].map((i) => template.choices[i]);
        this.ctx.act({ type: template.type, cards });
      }
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
  }

  clearSelection() {
    this.selection.picked = [];
    this.ctx.rerender();
  }

  handItems(view) {
    return this.game.handItems?.(view) ?? view.you?.hand ?? [];
  }

  sortedHand(view) {
    return this.game.sortHand(this.handItems(view), view);
  }

  hand(view, legal) {
    const game = this.game;
    const hand = this.sortedHand(view);
    const template = legal.find((a) => isTemplate(a) && a.choices.every((c) => hand.includes(c)));
    const keyed = game.handActions?.(view, this.ctx);
    const plays = new Map();
    for (const a of legal) if (!isTemplate(a) && itemOf(a) !== null) plays.set(itemOf(a), a);
    const sel = this.selectionFor(view);
    const items = hand.map((code, i) => {
      const action = keyed ? keyed.get(code) : plays.get(code);
      const name = game.itemName(code, view);
      const extra = game.itemNote?.(code, view);
      const classes = `piece${extra ? ` ${extra.class}` : ""}`;
      if (template) {
        const chosen = sel.picked.includes(i);
        const full = sel.picked.length >= template.count;
        return h(
          "button",
          {
            type: "button",
            class: classes,
            "aria-pressed": String(chosen),
            "aria-label": name,
            "data-code": code,
            "data-focus": `hand-${i}`,
            disabled: !chosen && full,
            onclick: () => {
              sel.picked = chosen ? sel.picked.filter((j) => j !== i) : [...sel.picked, i];
              this.ctx.rerender();
            },
          },
          game.face(code, view, this.ctx),
        );
      }
      return h(
        "button",
        {
          type: "button",
          class: classes,
          "aria-label": action ? `${game.handVerb?.(action) ?? "Play"} ${name}` : name,
          "data-code": code,
          "data-focus": `hand-${i}`,
          disabled: !action,
          onclick: action ? () => this.ctx.act(action) : null,
        },
        game.face(code, view, this.ctx),
        extra ? h("span", { class: "item-note" }, extra.text) : null,
      );
    });
    return h(
      "section",
      { class: "hand-area", "aria-label": "Your hand" },
      h("h2", { class: "caption" }, game.handCaption?.(view) ?? "Your hand"),
      hand.length ? h("div", { class: "hand" }, items) : h("p", { class: "empty" }, "Your hand is empty."),
    );
  }

  results(view, names, extras) {
    const game = this.game;
    const last = view.last_round;
    const rounds = extras.rounds ?? [];
    const parts = [];
    if (last) {
      const columns = game.resultColumns?.(last, view) ?? defaultResultColumns(last);
      const rows = view.seats.map((_, i) =>
        h("tr", { "data-seat": i }, h("th", { scope: "row" }, names[i]), columns.map((c) => h("td", {}, c.cell(i)))),
      );
      parts.push(
        h(
          "section",
          { class: "results", "aria-label": "Result of the hand" },
          h("h2", {}, `Hand ${last.round ?? view.round} result`),
          game.resultSummary?.(last, names, view) ?? null,
          h(
            "div",
            { class: "scroll" },
            h(
              "table",
              { class: "result-table" },
              h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), columns.map((c) => h("th", { scope: "col" }, c.head)))),
              h("tbody", {}, rows),
            ),
          ),
        ),
      );
    }
    if (rounds.length) {
      parts.push(
        h(
          "details",
          { class: "score-sheet", open: Boolean(last) },
          h("summary", {}, `Score sheet (${rounds.length} hand${rounds.length === 1 ? "" : "s"})`),
          h(
            "div",
            { class: "scroll" },
            h(
              "table",
              {},
              h(
                "thead",
                {},
                h("tr", {}, h("th", { scope: "col" }, "Hand"), game.roundColumns ? h("th", { scope: "col" }, "Contract") : null, view.seats.map((_, i) => h("th", { scope: "col" }, names[i]))),
              ),
              h(
                "tbody",
                {},
                rounds.map((r) =>
                  h(
                    "tr",
                    {},
                    h("th", { scope: "row" }, r.round),
                    game.roundColumns ? h("td", {}, game.roundColumns(r, names)) : null,
                    view.seats.map((_, i) => h("td", {}, game.sheetCell?.(r, i) ?? [`${signed(r.points?.[i])} `, h("small", {}, `(${r.scores?.[i]})`)])),
                  ),
                ),
              ),
            ),
          ),
        ),
      );
    }
    return parts.length ? h("div", { class: "result-area" }, parts) : null;
  }

  log(events, names) {
    const game = this.game;
    const lines = [];
    for (const e of events ?? []) {
      const text = eventText(game, e, names);
      if (text) lines.push(h("li", { "data-seq": e.seq }, text));
    }
    if (!lines.length) return null;
    return h(
      "details",
      { class: "log", open: true },
      h("summary", {}, "What happened"),
      h("ol", { class: "log-lines", reversed: true }, lines.slice(-40).reverse()),
    );
  }
}

// One line of the log: the game's own words for its events, else the shared ones; ""
// for events deliberately left out, null for an event nobody knows.
export function eventText(game, e, names) {
  return game.describeEvent?.(e, names) ?? describeCommonEvent(e, names);
}

function defaultResultColumns(last) {
  const columns = [];
  if (last.tricks) columns.push({ head: "Tricks", cell: (i) => last.tricks[i] });
  columns.push({ head: "This hand", cell: (i) => signed(last.points?.[i]) });
  columns.push({ head: "Total", cell: (i) => last.scores?.[i] });
  return columns;
}

export function signed(n) {
  if (n === undefined || n === null) return "";
  return n > 0 ? `+${n}` : String(n);
}
