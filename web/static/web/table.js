// The table during a match, drawn generically from the view every game shares (phase,
// to_act, deadline, you.hand, you.legal_actions, seats, trick, trump, bid, scores,
// last_round); each game module adds its words, its pieces and its special controls.

import { countdown, describeCommonEvent, listNames, seatNames, teamName } from "./format.js";
import { append, h, replace } from "./dom.js";
import { duration } from "./options.js";

const ACTION_KEYS = ["card", "tile"];

// What a hand item's play action is keyed by ("card" or "tile").
export function itemOf(action) {
  for (const key of ACTION_KEYS) if (key in action) return action[key];
  return null;
}

export const isTemplate = (a) => Array.isArray(a.choices) && typeof a.count === "number";

// "1 trick", "2 tricks".
export function count(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function genericSeatFacts(seat) {
  const facts = [];
  if (seat.cards_left !== undefined) facts.push(count(seat.cards_left, "card"));
  if (seat.tiles_left !== undefined) facts.push(count(seat.tiles_left, "tile"));
  if (seat.tricks_taken !== undefined) facts.push(count(seat.tricks_taken, "trick"));
  return facts;
}

export class TableView {
  // ctx: { game (module), room, act(action), rerender(), newTable(), rematch() }
  constructor(ctx) {
    this.ctx = ctx;
    // Cards picked for a multi-card choice, kept across re-renders of the same phase.
    this.selection = { key: null, picked: [] };
    this.dialogKey = null;
    // Why the server refused a rematch (room.js sets it), shown under the banner.
    this.rematchError = null;
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
    const turn = this.turnText(view, names, myTurn);
    const idle = this.idleClock(view);
    append(section, [
      this.head(view, extras),
      this.turnLine(view, turn, myTurn, idle),
      this.banner(view, names),
      this.ring(view, names, me),
      this.info(view, names),
      this.houseRules(view),
      me !== null ? this.actions(view, names, legal) : h("p", { class: "spectating" }, "You are watching this table."),
      me !== null ? this.hand(view, legal) : null,
      this.results(view, names, extras),
      this.log(extras.events, names),
    ]);
    replace(root, section);
    this.tick(root, view);
    // The end is said in the server's words (to this reader: "You did not play in time");
    // the idle clock once, as the turn is, without its seconds.
    const ended = view.status === "abandoned" && view.status_reason ? view.status_reason : null;
    this.announce(view, ended ?? (idle && turn ? `${turn} If you do not act, ${idle.what} before this turn's time runs out.` : turn));
  }

  // The countdowns are redrawn every second without rebuilding the table. They are not in
  // a live region: a screen reader would read out every second.
  tick(root, view) {
    const clock = root.querySelector("[data-countdown]");
    if (clock) clock.textContent = countdown(view.deadline);
    const idle = root.querySelector("[data-idle-countdown]");
    if (idle) idle.textContent = countdown(view.abandon_deadline);
  }

  // The player's own idle clock (abandon_deadline: when, if they do not act, they will
  // have kept the table waiting abandon_seconds in all), shown when it runs out before
  // the turn does: then it, not the turn clock, is what ends their game. What happens
  // then is the room's on_abandon, said for this player.
  idleClock(view) {
    if (view.status !== "playing" || !view.abandon_deadline) return null;
    if (view.deadline && Date.parse(view.abandon_deadline) >= Date.parse(view.deadline)) return null;
    const me = view.you?.seat;
    // A computer player takes the seat (on_abandon: bot) only while another person plays
    // on; with nobody else, handing it over abandons the match all the same.
    const others = (view.seats || []).some((s, i) => i !== me && s.user && !s.is_bot);
    const toBot = this.ctx.room?.options?.on_abandon === "bot" && others;
    return toBot
      ? { kind: "bot", what: "a computer player takes your seat", after: "before a computer player takes your seat" }
      : { kind: "end", what: "the match is abandoned", after: "before the match is abandoned" };
  }

  // Turns are announced once each, in a region that outlives the re-renders (one that is
  // rebuilt with the table is either read out at every change or not at all).
  announce(view, text) {
    const key = `${view.round}:${view.phase}:${(view.to_act || []).join(",")}:${view.tricks_played ?? ""}:${text}`;
    if (!text || key === this.announced) return;
    this.announced = key;
    let region = document.getElementById("turn-announcer");
    if (!region) {
      region = h("div", { id: "turn-announcer", class: "sr-only", "aria-live": "polite", "aria-atomic": "true" });
      document.body.append(region);
    }
    // The same words twice in a row (your turn, again) are read again only if they change.
    region.textContent = "";
    requestAnimationFrame(() => (region.textContent = text));
  }

  turnText(view, names, myTurn) {
    const game = this.game;
    const waiting = (view.to_act || []).filter((s) => s !== view.you?.seat);
    // Why it ended is the banner's to say, in the server's words.
    if (view.status === "abandoned") return "The match was abandoned.";
    if (view.status === "closed") return "The room was closed.";
    if (view.phase === "match_over" || view.status === "finished") return "The match is over.";
    if (myTurn) return game.yourTurnText?.(view, names) ?? "Your turn.";
    if (view.phase === "round_over") {
      return waiting.length ? `The hand is over. Waiting for ${listNames(waiting, names)}.` : "The hand is over.";
    }
    if (waiting.length) return `Waiting for ${listNames(waiting, names)}.`;
    return "";
  }

  head(view, extras) {
    const title = `${extras.catalogue?.name ?? view.game}${view.round ? ` · hand ${view.round}` : ""}`;
    return h(
      "header",
      { class: "table-head" },
      h("h1", {}, title),
      h("p", { class: "meta" }, `Room ${view.code} · `, h("span", { class: "live-status", "data-live": "" }, extras.liveStatus)),
    );
  }

  // Whose turn it is and the time left stay in view (sticky) while the player scrolls to
  // their hand, the results or the log; so does the idle clock when it comes first.
  turnLine(view, line, myTurn, idle) {
    const showClock = view.deadline && view.status === "playing" && (view.to_act || []).length > 0;
    // Between hands the clock is the pause: when it runs out the next hand is dealt.
    const clock = !showClock
      ? null
      : view.phase === "round_over"
        ? h("span", { class: "clock" }, " The next hand starts by itself in ", h("span", { class: "nowrap" }, h("span", { "data-countdown": "" }), "."))
        : h("span", { class: "clock" }, " · ", h("span", { class: "nowrap" }, h("span", { "data-countdown": "" }), " left"));
    const idleClock = idle
      ? h("span", { class: "idle-clock", "data-idle": idle.kind }, h("span", { class: "nowrap", "data-idle-countdown": "" }), ` ${idle.after}`)
      : null;
    return h("p", { class: `turn-line${myTurn ? " mine" : ""}` }, h("span", { class: "turn-text" }, line), clock, idleClock);
  }

  // The end of the match: who won, or why it ended (the server's words, said to this
  // reader), and the way on: a rematch with the same players, back to the player's
  // tables, or a new table like this one.
  banner(view, names) {
    const last = view.last_round;
    const over = view.phase === "match_over" || view.status === "finished";
    const ended = view.status === "abandoned" || view.status === "closed";
    if (!over && !ended) return null;
    const winners = last?.winners ?? [];
    const seated = view.you?.seat !== undefined && view.you?.seat !== null;
    // An abandoned match's reason is a whole sentence ("You did not play in time; the
    // match was abandoned."); a moderator's reason for closing the room is theirs alone.
    const said = ended
      ? view.status === "abandoned"
        ? h("strong", { class: "status-reason" }, view.status_reason || "The match was abandoned.")
        : [h("strong", {}, "Room closed. "), view.status_reason ? h("span", { class: "status-reason" }, view.status_reason) : null]
      : [
          h("strong", {}, "Match over. "),
          winners.length ? `${listNames(winners, names)} ${winners.length === 1 && names[winners[0]] !== "You" ? "wins" : "win"}!` : "",
          // Only a finished match has a replay; an abandoned or closed one keeps its hands hidden.
          view.status === "finished" ? [" ", h("a", { href: `/replay/${encodeURIComponent(view.code)}`, "data-link": "", class: "replay-link" }, "Watch the replay")] : null,
        ];
    // A room a moderator closed is not one to set up again.
    const again = seated && view.status !== "closed" && this.ctx.newTable;
    const rematch = seated && view.rematch && this.ctx.rematch ? this.rematch(view, names) : null;
    return h(
      "div",
      { class: `banner ${ended ? "match-ended" : "match-over"}`, role: "status" },
      h("p", {}, said),
      rematch?.said ?? null,
      h(
        "div",
        { class: "button-row onward" },
        rematch?.button ?? null,
        h("a", { href: "/", "data-link": "", class: "button-link", "data-action": "home" }, "Back to your tables"),
        again
          ? h(
              "button",
              {
                type: "button",
                "data-action": "new-table",
                onclick: (event) => {
                  event.currentTarget.disabled = true;
                  this.ctx.newTable();
                },
              },
              "New table with the same settings",
            )
          : null,
      ),
      // Why the server refused the rematch, in its words (the room was closed meanwhile...).
      this.rematchError ? h("p", { class: "rematch-error", role: "alert" }, this.rematchError) : null,
    );
  }

  // A rematch with the same players, once everyone seated agrees (view.rematch: the seats
  // that agreed, then the new room). Before it is made: who asked, and the button, or, once
  // this player asked, who the table still waits for; then the way to the new table.
  rematch(view, names) {
    const me = view.you.seat;
    const { agreed, room } = view.rematch;
    if (room) {
      return {
        said: h("p", { class: "rematch", "data-rematch": "started" }, "The rematch has started."),
        button: h(
          "a",
          { href: `/join/${encodeURIComponent(room)}`, "data-link": "", class: "button-link", "data-action": "open-rematch", "data-focus": "rematch" },
          "Open the rematch",
        ),
      };
    }
    // Everyone seated must agree: a seat a computer player keeps for its person too.
    const people = (view.seats || []).flatMap((s, i) => (s.user ? [i] : []));
    const others = agreed.filter((i) => i !== me);
    if (agreed.includes(me)) {
      const waiting = people.filter((i) => !agreed.includes(i));
      return {
        said: h(
          "p",
          { class: "rematch", "data-rematch": "asked" },
          "You asked for a rematch.",
          waiting.length ? ` Waiting for ${listNames(waiting, names)} to agree.` : "",
        ),
      };
    }
    return {
      said: others.length
        ? h("p", { class: "rematch", "data-rematch": "wanted" }, `${listNames(others, names)} ${others.length === 1 ? "wants" : "want"} a rematch.`)
        : null,
      button: h(
        "button",
        {
          type: "button",
          class: "primary",
          "data-action": "rematch",
          // Where the keyboard was, the link to the rematch takes its place once it starts.
          "data-focus": "rematch",
          onclick: (event) => {
            event.currentTarget.disabled = true;
            this.ctx.rematch();
          },
        },
        "Rematch with the same players",
      ),
    };
  }

  // The players around the table as the viewer sits at it: the viewer at the bottom, the
  // others clockwise (the next seat on the viewer's left), the trick in the middle.
  ring(view, names, me) {
    const n = view.seats.length;
    const places = seatPlaces(n, me ?? 0);
    const top = places.filter((p) => p.side === "top").length;
    const rows = Math.max(1, ...["left", "right"].map((side) => places.filter((p) => p.side === side).length));
    const sides = places.some((p) => p.side === "left" || p.side === "right");
    const middle = Math.max(top, 1);
    const first = top ? 2 : 1;
    const area = (p) => {
      // The seats across share the whole edge for their facts: one takes it all, two a half each.
      if (p.side === "top" && top === 1) return `1 / 1 / 2 / ${middle + 3}`;
      if (p.side === "top" && top === 2) return `1 / ${1 + 2 * p.index} / 2 / ${3 + 2 * p.index}`;
      if (p.side === "top") return `1 / ${2 + p.index} / 2 / ${3 + p.index}`;
      if (p.side === "left") return `${first + p.index} / 1 / ${first + p.index + 1} / 2`;
      if (p.side === "right") return `${first + p.index} / ${middle + 2} / ${first + p.index + 1} / ${middle + 3}`;
      return `${first + rows} / 1 / ${first + rows + 1} / ${middle + 3}`;
    };
    return h(
      "div",
      {
        class: `ring${sides ? " with-sides" : ""} players-${n}`,
        style: `--middle: ${middle}`,
      },
      h(
        "ul",
        { class: "seats", "aria-label": "Players" },
        places.map((p) => this.seat(view, names, me, p, area(p))),
      ),
      this.trick(view, names, places, `${first} / 2 / ${first + rows} / ${middle + 2}`),
    );
  }

  seat(view, names, me, place, area) {
    const game = this.game;
    const i = place.seat;
    const seat = view.seats[i];
    const acting = (view.to_act || []).includes(i) && !["match_over", "complete"].includes(view.phase);
    const badges = [
      // "Computer 3" says it already; a computer player with another name gets the badge.
      seat.is_bot && !/computer/i.test(names[i]) ? "computer" : null,
      view.dealer === i ? (game.dealerLabel ?? "dealer") : null,
      seat.team !== null && seat.team !== undefined ? teamName(seat.team) : null,
      ...(game.seatBadges?.(seat, view, i) ?? []),
    ].filter(Boolean);
    const facts = game.seatFacts?.(seat, view, i) ?? genericSeatFacts(seat);
    return h(
      "li",
      {
        class: `seat side-${place.side}${acting ? " to-act" : ""}${i === me ? " me" : ""}${seat.partner ? " partner" : ""}`,
        "data-seat": i,
        style: `grid-area: ${area}`,
      },
      h(
        "div",
        { class: "seat-name" },
        acting ? h("span", { class: "dot-acting", title: "to act" }, "● ") : null,
        h("span", { class: "name" }, names[i]),
        acting ? h("span", { class: "sr-only" }, " (to act)") : null,
      ),
      badges.length ? h("div", { class: "badges" }, badges.map((b) => h("span", { class: `badge badge-${b.replace(/\W+/g, "-").toLowerCase()}` }, b))) : null,
      // A fact wraps whole ("0 pts", never "0" and "pts" on two lines).
      h("div", { class: "facts" }, facts.map((f, k) => [k ? " · " : "", h("span", { class: "fact" }, f)])),
      view.scores ? h("div", { class: "score" }, "Score ", h("strong", {}, view.scores[i])) : null,
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

  // The rules in force, in a line: a person should not have to remember the lobby.
  houseRules(view) {
    const options = this.ctx.room?.options ?? {};
    const items = [...(this.game.rulesSummary?.(options, view) ?? [])];
    if (options.turn_seconds) items.push(`${duration(options.turn_seconds)} a turn`);
    if (!items.length) return null;
    const preset = options.preset ? `${this.game.optionValueLabel?.("preset", options.preset) ?? options.preset}: ` : "";
    return h(
      "section",
      { class: "house-rules", "aria-label": "Rules in force" },
      h("h2", { class: "sr-only" }, "Rules in force"),
      h("p", {}, h("strong", {}, "Rules "), preset, items.map((text, k) => [k ? " · " : "", h("span", { class: "rule" }, text)])),
    );
  }

  trick(view, names, places, area) {
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
    // Up to four players each card lies in front of whoever played it; more would pile
    // up, so larger tables list the trick in play order, each card with its player's name.
    const placed = places.length <= 4;
    const where = new Map(places.map((p) => [p.seat, p]));
    return h(
      "section",
      { class: `trick-area${old ? " old" : ""}${placed ? " placed" : ""}`, "aria-label": "Trick", style: `grid-area: ${area}` },
      h("h2", { class: "caption" }, caption ?? "Nothing played yet"),
      h(
        "ol",
        { class: "trick" },
        played.map((p) => {
          const code = p.card ?? p.tile;
          const angle = (where.get(p.seat)?.angle ?? 90) * (Math.PI / 180);
          return h(
            "li",
            {
              class: `played${last && old && p.seat === last.winner ? " winner" : ""}`,
              "data-code": code,
              "data-seat": p.seat,
              style: placed ? `--x: ${Math.cos(angle).toFixed(3)}; --y: ${Math.sin(angle).toFixed(3)}` : null,
            },
            game.face(code, view, this.ctx),
            h("span", { class: placed ? "played-by sr-only" : "played-by" }, names[p.seat]),
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
    const claim = legal.find((a) => a.type === "claim");
    const rest = legal.filter(
      (a) =>
        a !== claim && !isTemplate(a) && !(itemOf(a) !== null && handCodes.has(itemOf(a))) && !(handKeyed && handKeyed.taken(a)),
    );
    const parts = [];
    for (const template of templates) {
      if (template.choices.every((c) => handCodes.has(c))) parts.push(this.handTemplatePanel(view, names, template));
      else parts.push(this.popupTemplatePanel(view, names, template));
    }
    const custom = game.panel?.(view, names, rest, this.ctx);
    if (custom) parts.push(custom);
    else if (rest.length) parts.push(this.genericButtons(view, names, rest));
    if (claim) parts.push(this.claimButton(claim));
    const waiting = view.you && !legal.length ? game.waitingText?.(view, names) : null;
    const pending = game.pendingNote?.(view, names);
    if (!parts.length && !waiting && !pending) return null;
    return h("section", { class: "actions", "aria-label": "Your move" }, pending, waiting && h("p", { class: "waiting" }, waiting), parts);
  }

  // Offered at every turn of trick play, whatever the hands: the server proves the claim
  // or refuses it ("not certain"), and the refusal shows as any refused move does.
  claimButton(claim) {
    const ask = () => {
      if (window.confirm("Claim the rest? The server plays out the hand if every remaining trick is certain to be yours.")) {
        this.ctx.act(claim);
      }
    };
    return h("div", { class: "button-row claim" }, h("button", { type: "button", "data-action": "claim", "data-focus": "claim", onclick: ask }, "Claim the rest"));
  }

  genericButtons(view, names, actions) {
    const game = this.game;
    const byType = new Map();
    for (const a of actions) byType.set(a.type, [...(byType.get(a.type) ?? []), a]);
    const groups = [];
    // The bids first, then passing on them.
    const types = [...byType.keys()].sort((a, b) => Number(a === "pass") - Number(b === "pass"));
    for (const type of types) {
      const list = byType.get(type);
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
        // The slots and the buttons share a row: the hand below stays on a phone's first screen.
        h(
          "div",
          { class: "slot-row" },
          h("ol", { class: "slots" }, slots),
          h(
            "div",
            { class: "slot-buttons" },
            h(
              "button",
              { class: "primary", disabled: !ready, "data-focus": "confirm-template", "data-action": template.type, onclick: () => this.ctx.act(action) },
              game.templateButton?.(template, view) ?? "Confirm",
            ),
            sel.picked.length ? h("button", { "data-focus": "clear-template", onclick: () => this.clearSelection() }, "Clear") : null,
          ),
        ),
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
    // With two decks a code is offered once per copy: one button per code, with its count.
    const offered = new Map();
    for (const code of template.choices) offered.set(code, (offered.get(code) ?? 0) + 1);
    const chosen = new Map();
    const total = () => [...chosen.values()].reduce((a, b) => a + b, 0);
    const tally = h("span", {}, `0 of ${template.count}`);
    const confirm = h("button", { class: "primary", disabled: true, value: "ok" }, game.templateButton?.(template, view) ?? "Confirm");
    const buttons = new Map();
    const copiesOf = (code) => game.choiceCopies?.(template, code, view) ?? offered.get(code);
    // Where any card comes in two copies (two decks), every card says how many.
    const counted = [...offered.keys()].some((code) => copiesOf(code) > 1);
    const label = (code, k) => {
      const copies = copiesOf(code);
      const parts = [game.itemName(code, view)];
      if (copies > 1) parts.push(`${copies} copies`);
      else if (counted) parts.push("1 copy");
      if (k && offered.get(code) > 1) parts.push(`${k} chosen`);
      return parts.join(", ");
    };
    const update = () => {
      for (const [code, button] of buttons) {
        const k = chosen.get(code) ?? 0;
        button.setAttribute("aria-pressed", String(k > 0));
        button.setAttribute("aria-label", label(code, k));
        button.dataset.chosen = k;
        const mark = button.querySelector(".chosen-count");
        if (mark) mark.textContent = k ? `${k} of ${offered.get(code)}` : "";
      }
      tally.textContent = `${total()} of ${template.count}`;
      confirm.disabled = total() !== template.count;
    };
    // A tap takes one more copy while there is one and room for it, else puts the card back.
    const tap = (code) => {
      const k = chosen.get(code) ?? 0;
      if (k < offered.get(code) && total() < template.count) chosen.set(code, k + 1);
      else if (k > 0) chosen.delete(code);
      else if (template.count === 1) {
        chosen.clear();
        chosen.set(code, 1);
      }
      update();
    };
    for (const code of offered.keys()) {
      const copies = copiesOf(code);
      buttons.set(
        code,
        h(
          "button",
          { type: "button", class: "piece", "aria-pressed": "false", "aria-label": label(code, 0), "data-code": code, "data-copies": copies, onclick: () => tap(code) },
          game.face(code, view, this.ctx),
          counted ? h("span", { class: "copies", "aria-hidden": "true" }, `×${copies}`) : null,
          offered.get(code) > 1 ? h("span", { class: "chosen-count", "aria-hidden": "true" }) : null,
        ),
      );
    }
    // In the order the hand is sorted in; a game may set them out in rows (Kali Tidi: a
    // suit a row).
    const groups = new Map();
    for (const code of game.sortHand([...offered.keys()], view)) {
      const group = game.choiceGroup?.(code) ?? "";
      groups.set(group, [...(groups.get(group) ?? []), code]);
    }
    const title = game.templateText?.(template, view, names) ?? `Choose ${template.count}`;
    const hand = view.you?.hand ?? [];
    const dialog = h(
      "dialog",
      { class: "choose", "aria-label": title },
      h(
        "form",
        { method: "dialog" },
        h("h2", {}, title),
        game.templateNote?.(template, view, this.ctx) ?? null,
        // What the chooser holds decides what to call: the hand stays in sight.
        hand.length
          ? h(
              "section",
              { class: "dialog-hand", "aria-label": "Your hand" },
              h("h3", {}, "Your hand"),
              h("div", { class: "mini-hand" }, this.sortedHand(view).map((code) => h("span", { class: "mini" }, game.face(code, view, this.ctx), h("span", { class: "sr-only" }, game.itemName(code, view))))),
            )
          : null,
        h("p", { class: "chosen-line" }, "Chosen: ", tally),
        h("div", { class: "choices" }, [...groups.values()].map((codes) => h("div", { class: "choice-group" }, codes.map((code) => buttons.get(code))))),
        h("div", { class: "button-row" }, h("button", { value: "cancel", formnovalidate: true }, "Later"), confirm),
      ),
    );
    dialog.addEventListener("close", () => {
      if (dialog.returnValue === "ok") {
        const cards = [...chosen].flatMap(([code, k]) => Array(k).fill(code));
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
    // An empty hand (between hands, before the deal) takes no room from the table.
    if (!hand.length) return null;
    // Unplayable pieces are dimmed only while some piece may be played: while bidding,
    // naming trumps, calling partners or waiting, the hand is there to be read.
    const idle = !template && !items.some((b) => !b.disabled);
    return h(
      "section",
      { class: "hand-area", "aria-label": "Your hand" },
      h("h2", { class: "caption" }, game.handCaption?.(view) ?? "Your hand"),
      h(
        "div",
        {
          class: `hand${idle ? " idle" : ""}`,
          "data-size": handSize(hand.length),
          // Rows of even length, one to three (the style sheet picks per screen): a long
          // hand overlaps its pieces rather than spill over more rows.
          style: [1, 2, 3].map((rows) => `--cols${rows}: ${handColumns(Math.ceil(hand.length / rows))};`).join(" "),
        },
        items,
      ),
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
          dealCheck(rounds.find((r) => r.round === (last.round ?? view.round))),
          game.resultSummary?.(last, names, view, extras.events ?? [], this.ctx) ?? null,
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
              { class: view.seats.length > 4 ? "many" : null },
              h(
                "thead",
                {},
                h(
                  "tr",
                  {},
                  h("th", { scope: "col", class: "hand-no" }, h("abbr", { title: "Hand" }, "#")),
                  game.roundColumns ? h("th", { scope: "col", class: "contract" }, "Contract") : null,
                  view.seats.map((_, i) => h("th", { scope: "col", class: "player" }, h("span", {}, names[i]))),
                ),
              ),
              h(
                "tbody",
                {},
                rounds.map((r) => [
                  // On a phone the contract takes a row of its own above the scores (the
                  // style sheet shows one of the two), leaving the width to the players.
                  game.roundColumns
                    ? h("tr", { class: "contract-row" }, h("td", { colspan: view.seats.length + 2 }, `${r.round}. `, game.roundColumns(r, names)))
                    : null,
                  h(
                    "tr",
                    {},
                    h("th", { scope: "row" }, r.round, r.verified === false ? h("span", { class: "deal-check bad", title: "The deal did not verify" }, " ✗") : null),
                    game.roundColumns ? h("td", { class: "contract" }, game.roundColumns(r, names)) : null,
                    view.seats.map((_, i) => h("td", {}, game.sheetCell?.(r, i) ?? [`${signed(r.points?.[i])} `, h("small", {}, `(${r.scores?.[i]})`)])),
                  ),
                ]),
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

// A row of `n` pieces: each column a step wide or less (then the next piece overlaps it),
// the last as wide as a whole piece, so the row never spills past its box.
function handColumns(n) {
  return n > 1 ? `repeat(${n - 1}, minmax(0, var(--step))) var(--last)` : "var(--last)";
}

// How many rows a hand of `n` pieces takes (the style sheet decides per screen width).
function handSize(n) {
  if (n <= 9) return "short";
  if (n <= 20) return "long";
  return "longer";
}

export function signed(n) {
  if (n === undefined || n === null) return "";
  return n > 0 ? `+${n}` : String(n);
}

// Where each seat sits, seen from `viewer`'s chair at the bottom of the screen. Seats are
// numbered clockwise, so going round from the viewer the next seat is on their left, then
// across, then on their right. `angle` is in screen degrees (y down; 90 is the bottom);
// `side` is the edge of the table the seat sits at; `index` its order along that edge
// (left to right on top, top to bottom at the sides).
export function seatPlaces(n, viewer) {
  const places = Array.from({ length: n }, (_, k) => {
    const angle = (90 + (k * 360) / n) % 360;
    let side = "right";
    if (k === 0) side = "bottom";
    else if (angle > 100 && angle <= 225) side = "left";
    else if (angle > 225 && angle < 315) side = "top";
    return { seat: (viewer + k) % n, k, angle, side, index: 0 };
  });
  const along = {
    top: (p) => p.angle,
    left: (p) => -p.angle,
    right: (p) => (p.angle < 90 ? p.angle + 360 : p.angle),
    bottom: () => 0,
  };
  for (const side of Object.keys(along)) {
    places
      .filter((p) => p.side === side)
      .sort((a, b) => along[side](a) - along[side](b))
      .forEach((p, index) => (p.index = index));
  }
  return places;
}

// Whether the browser found the hand's revealed deal to be the one its seeds give
// (web/static/web/fairness.js); nothing for hands that cannot be checked.
function dealCheck(round) {
  if (round?.verified === true) {
    return h("p", { class: "deal-check ok", title: "The revealed server seed matches its commitment and gives these deals" }, "Deal verified ✓");
  }
  if (round?.verified === false) return h("p", { class: "deal-check bad", role: "alert" }, "Deal NOT verified ✗");
  return null;
}
