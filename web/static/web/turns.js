// The rooms where the game waits for the signed-in player ("your turn"), kept fresh for
// every page: the home page lists them, and the document's title carries their count.
//
// `GET me/turns` is the list; the player's own socket `ws/me/` says when it may have
// changed (`your_turn` when a turn of theirs begins in any room, `match_over` when a match
// of theirs ends) and nothing else, so every notice is answered by fetching the list again.
// The socket does not say when a turn ends (the player moved in another tab or on another
// device, or the clock ran out and the server moved for them), so the list is also fetched
// when a listed deadline passes, when the tab is shown again, after every reconnect, and
// now and then while the tab is visible.

import { api, wsUrl } from "./api.js";
import { h, replace } from "./dom.js";
import { countdown } from "./format.js";
import { gettext, interpolate, ngettext, pgettext } from "./i18n.js";
import { Socket } from "./socket.js";

// While the socket is down the list is fetched this often instead.
const POLL_MS = 10000;
// The slow safety net while the socket is up and the tab visible (turns ending elsewhere).
const REFRESH_MS = 60000;
// The server acts for the player at a deadline; the list asks again this long after it...
const AFTER_DEADLINE_MS = 1000;
// ...and, while a passed deadline is still listed (the server not done yet), this often,
// for at most a minute after the deadline.
const RECHECK_MS = 3000;
const RECHECK_FOR_MS = 60000;

export class TurnsWatch {
  constructor() {
    this.turns = null; // null until the first answer
    this.error = null;
    this.listeners = new Set();
    this.socket = this.newSocket();
    /** @type {Record<string, ReturnType<typeof setTimeout> | undefined>} */
    this.timers = {};
    this.stopped = true;
    // Counts the stops, so that an answer asked for before a sign-out (or by the account
    // signed in before) is dropped.
    this.generation = 0;
    this.onVisible = () => {
      if (document.visibilityState === "visible") this.refresh();
    };
  }

  // `listener(watch)` is called at every new answer (and at once, with what is known).
  subscribe(listener) {
    this.listeners.add(listener);
    listener(this);
    return () => this.listeners.delete(listener);
  }

  start() {
    if (!this.stopped) return this;
    this.stopped = false;
    document.addEventListener("visibilitychange", this.onVisible);
    // The socket's opening fetches the list (and, should it fail, polling does).
    this.socket.start();
    this.timers.safety = setInterval(() => {
      if (document.visibilityState === "visible") this.refresh();
    }, REFRESH_MS);
    return this;
  }

  // Signed out: forget the list, close the socket, stop every timer.
  stop() {
    this.stopped = true;
    this.generation += 1;
    this.fetching = false;
    this.again = false;
    document.removeEventListener("visibilitychange", this.onVisible);
    for (const timer of Object.values(this.timers)) {
      clearTimeout(timer);
      clearInterval(timer);
    }
    this.timers = {};
    this.socket.stop();
    this.turns = null;
    this.error = null;
    this.emit();
  }

  emit() {
    for (const listener of this.listeners) listener(this);
  }

  // The rooms waiting for the player, leaving out `except` (the room on screen).
  /** @param {string | null} [except] */
  count(except = null) {
    return (this.turns ?? []).filter((t) => t.code !== except).length;
  }

  // Notices and timers may ask at once: one request at a time, and one more after it if
  // anything asked meanwhile, so the last answer is never older than the last notice.
  async refresh() {
    if (this.stopped) return;
    if (this.fetching) {
      this.again = true;
      return;
    }
    this.fetching = true;
    const generation = this.generation;
    try {
      do {
        this.again = false;
        try {
          const turns = await api("me/turns");
          if (generation !== this.generation) return;
          this.turns = turns;
          this.error = null;
        } catch (err) {
          // A 401 has already signed the browser out (api.js); anything else is shown
          // beside the list as it last stood.
          if (generation !== this.generation) return;
          this.error = err.message;
        }
        this.watchDeadlines();
        this.emit();
      } while (this.again);
    } finally {
      if (generation === this.generation) this.fetching = false;
    }
  }

  // Asks again just after the soonest deadline of the list (see AFTER_DEADLINE_MS).
  watchDeadlines() {
    clearTimeout(this.timers.deadline);
    const now = Date.now();
    const times = (this.turns ?? [])
      .map((t) => (t.deadline ? Date.parse(t.deadline) : NaN))
      .filter((t) => Number.isFinite(t) && t > now - RECHECK_FOR_MS);
    if (!times.length) return;
    const soonest = Math.min(...times);
    const wait = soonest > now ? soonest - now + AFTER_DEADLINE_MS : RECHECK_MS;
    // Beyond setTimeout's range (24.8 days) the safety net asks long before.
    if (wait < 2 ** 31) this.timers.deadline = setTimeout(() => this.refresh(), wait);
  }

  newSocket() {
    return new Socket({
      url: () => wsUrl("ws/me/"),
      // The server says nothing when the socket opens: whatever happened while it was down
      // (or before it opened) is fetched now.
      upOnOpen: true,
      onUp: () => {
        clearInterval(this.timers.poll);
        this.timers.poll = undefined;
        this.refresh();
      },
      onMessage: (data) => {
        if (data.type === "your_turn" || data.type === "match_over") this.refresh();
      },
      // A dropped connection: poll while the socket reconnects.
      onDown: () => this.poll(),
      // 4401: the socket no longer knows the token. The API decides: a 401 there signs the
      // browser out (api.js); if it still answers, the list is polled instead.
      onFinal: () => this.poll(),
    });
  }

  poll() {
    if (this.timers.poll || this.stopped) return;
    this.refresh();
    this.timers.poll = setInterval(() => this.refresh(), POLL_MS);
  }
}

// Words for the phase a turn is in, as the player would say what they must do; the
// phase's own code where there are none. Made when shown, in the page's language.
function phaseText(phase) {
  const words = {
    // Translators: each "turn phase" is what a table waiting for the player asks of them.
    pass: pgettext("turn phase", "pass cards"),
    remove: pgettext("turn phase", "remove cards"),
    bid: pgettext("turn phase", "bid"),
    call: pgettext("turn phase", "call partners"),
    trump: pgettext("turn phase", "choose trumps"),
    widow: pgettext("turn phase", "the widow"),
    play: pgettext("turn phase", "play"),
    moon_choice: pgettext("turn phase", "score the moon"),
    round_over: pgettext("turn phase", "next hand"),
  };
  return Object.hasOwn(words, phase) ? words[phase] : phase;
}

function turnWhen(turn, now) {
  // Translators: a turn's clock, in the list of tables waiting for the player.
  if (!turn.deadline) return gettext("no clock");
  // Translators: a turn's clock, in the list of tables waiting for the player.
  if (Date.parse(turn.deadline) <= now) return gettext("time is up");
  // Translators: %(time)s is how long the player has left for their move, such as 2 h 05 min.
  return interpolate(gettext("%(time)s left"), { time: countdown(turn.deadline, now) });
}

// Whether less than a minute is left: those are marked.
function urgent(turn, now) {
  return turn.deadline !== null && Date.parse(turn.deadline) - now < 60000;
}

// The home page's "Your turn" panel: the list, its countdowns, and a count for screen
// readers that speaks when the number of waiting tables changes (not every second).
export class TurnsPanel {
  constructor(app) {
    this.app = app;
    this.list = h("ul", { class: "turn-list" }, h("li", { class: "empty" }, gettext("Loading…")));
    this.summary = h("p", { class: "meta turn-summary", role: "status" });
    this.error = h("p", { class: "form-error", hidden: true });
    this.el = h(
      "section",
      { class: "panel turns", "aria-labelledby": "turns-title" },
      h(
        "div",
        { class: "panel-head" },
        h("h2", { id: "turns-title" }, gettext("Your turn")),
        h("a", { href: "/notifications", "data-link": "" }, gettext("Notifications")),
      ),
      this.summary,
      this.list,
      this.error,
    );
  }

  start() {
    this.unsubscribe = this.app.turns.subscribe((watch) => this.render(watch));
    this.clock = setInterval(() => this.tick(), 1000);
    // The page was (re)opened: its list is asked for now, not read from a while ago.
    this.app.turns.refresh();
    return this;
  }

  destroy() {
    this.unsubscribe?.();
    clearInterval(this.clock);
  }

  render(watch) {
    const turns = watch.turns;
    this.error.hidden = !watch.error;
    this.error.textContent = watch.error ? interpolate(gettext("Your turns could not be fetched: %(error)s"), { error: watch.error }) : "";
    if (turns === null) return;
    const catalogue = this.app.catalogue;
    const now = Date.now();
    const items = turns.map((turn) => {
      const game = catalogue.find((g) => g.key === turn.game)?.name ?? turn.game;
      return h(
        "li",
        { class: "turn", "data-room": turn.code },
        h("a", { href: `/join/${encodeURIComponent(turn.code)}`, "data-link": "" }, `${game}${turn.name ? ` · ${turn.name}` : ""}`),
        h("span", { class: "meta" }, ` ${turn.code} · ${phaseText(turn.phase)} · `),
        h(
          "span",
          { class: `turn-clock${urgent(turn, now) ? " urgent" : ""}` },
          turn.deadline ? h("time", { datetime: turn.deadline }, turnWhen(turn, now)) : turnWhen(turn, now),
        ),
      );
    });
    replace(this.list, items.length ? items : h("li", { class: "empty" }, gettext("No table is waiting for you right now.")));
    const n = turns.length;
    const said = n === 0 ? "" : interpolate(ngettext("%(n)s table is waiting for you.", "%(n)s tables are waiting for you.", n), { n });
    // Written only when it changes, so the live region speaks once per change.
    if (this.summary.textContent !== said) this.summary.textContent = said;
  }

  tick() {
    const now = Date.now();
    for (const item of this.list.querySelectorAll("li.turn")) {
      const turn = this.app.turns.turns?.find((t) => t.code === item.dataset.room);
      const clock = item.querySelector(".turn-clock");
      if (!turn || !clock) continue;
      clock.classList.toggle("urgent", urgent(turn, now));
      const time = clock.querySelector("time");
      if (time) time.textContent = turnWhen(turn, now);
    }
  }
}
