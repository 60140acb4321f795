// Table talk: the room's chat, beside the table from the lobby to after the match
// (docs/talk/table-talk.md). Quick phrases in one tap, or a line of text of up to 280
// characters; each line with its author, whether a spectator said it, and the time.
//
// On a phone the panel is a sheet opened by a "Chat" button in the table's sticky turn
// line (the lobby's heading before the deal), with a count of the lines that came while
// it was closed: closed, it takes nothing from the cards or the controls. On a wide
// screen it is a column of its own beside the table, always open.
//
// New lines come on the room's socket (live.js hands them on); the page reads them over
// HTTP when it opens and each time the socket comes back, from the last line it read
// that way, so that nothing said while the socket was down is missed. A line read twice
// is kept once (by its id). While the socket is down the page polls.
//
// What people write is text and stays text: it is set as an element's textContent, never
// parsed as markup, so tags show as written and addresses are not made into links.

import { api, ApiError, auth } from "./api.js";
import { h, replace } from "./dom.js";
import { gettext, gettext_noop, interpolate, ngettext, npgettext, timeText } from "./i18n.js";
import { openReport } from "./report.js";

// Each page shows a quick phrase in its reader's language (the API names it by its key):
// the English here, marked for the catalogues, is translated where it is shown
// (`phraseWords`), since this table is made before the page's catalogue is loaded.
export const PHRASES = {
  // Translators: a quick phrase, said to the table with one tap (as are the ones below).
  hello: gettext_noop("Hello!"),
  good_luck: gettext_noop("Good luck!"),
  well_played: gettext_noop("Well played!"),
  thanks: gettext_noop("Thanks!"),
  oops: gettext_noop("Oops!"),
  sorry: gettext_noop("Sorry!"),
  one_moment: gettext_noop("One moment, please."),
  good_game: gettext_noop("Good game!"),
  bye: gettext_noop("Bye!"),
};

/**
 * What a line says, in the reader's language: a quick phrase's words by its key, else
 * the line's own text (as written; a phrase this page does not know, in the server's words).
 * @param {{ phrase: string | null, text: string }} line
 */
export function phraseWords(line) {
  const words = line.phrase ? PHRASES[line.phrase] : undefined;
  return words ? gettext(words) : line.text;
}

const ROOT = document.body.dataset.apiRoot || "/api/v1/";
const MAX_TEXT = 280;
// Lines read per request, and the most the panel keeps (the oldest go first).
const PAGE = 100;
const KEEP = 300;
// While the socket is down, the talk is read this often.
const POLL_MS = 5000;
// Wide enough for the table and a column beside it; chat.css uses the same width.
const SIDE = "(min-width: 1100px)";

/**
 * A line as the API and the socket give it.
 * @typedef {{ id: number, channel: string, author: { username: string, display_name: string, seat: number | null }, phrase: string | null, text: string, hand: number | null, sent_at: string }} Line
 */

/** @returns {line is Line} */
export function isLine(line) {
  return (
    typeof line === "object" &&
    line !== null &&
    Number.isInteger(line.id) &&
    typeof line.text === "string" &&
    typeof line.author?.username === "string"
  );
}

// A refusal with the seconds its Retry-After header gives (a timeout's or a throttle's).
class SayError extends ApiError {
  constructor(status, body, retryAfter) {
    super(status, body);
    /** @type {number | null} */
    this.retryAfter = retryAfter;
  }
}

// Says a line. Not through api(): it hands back the body alone, and the time left of a
// timeout or a throttle is in the answer's Retry-After header.
async function post(path, body) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json", "Content-Type": "application/json" };
  if (auth.token) headers.Authorization = `Token ${auth.token}`;
  const res = await fetch(ROOT + path, { method: "POST", headers, body: JSON.stringify(body), credentials: "omit" });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const wait = Number(res.headers.get("Retry-After"));
    throw new SayError(res.status, data, Number.isFinite(wait) && wait > 0 ? wait : null);
  }
  return data;
}

/** @param {number} n */
const secondsText = (n) => interpolate(ngettext("%(n)s second", "%(n)s seconds", n), { n });
/** @param {number} n */
const minutesText = (n) => interpolate(ngettext("%(n)s minute", "%(n)s minutes", n), { n });
/** @param {number} n */
const hoursText = (n) => interpolate(ngettext("%(n)s hour", "%(n)s hours", n), { n });
/** @param {number} n */
const daysText = (n) => interpolate(ngettext("%(n)s day", "%(n)s days", n), { n });

// "45 seconds", "12 minutes", "2 hours 5 minutes", "3 days 4 hours", in the page's language.
export function timeLeft(seconds) {
  if (seconds < 60) return secondsText(Math.ceil(seconds));
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return minutesText(minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 24) {
    if (!(minutes % 60)) return hoursText(hours);
    // Translators: a time left in hours and minutes, each written with its unit ("2 hours 5 minutes").
    return interpolate(gettext("%(hours)s %(minutes)s"), { hours: hoursText(hours), minutes: minutesText(minutes % 60) });
  }
  const days = Math.floor(hours / 24);
  if (!(hours % 24)) return daysText(days);
  // Translators: a time left in days and hours, each written with its unit ("3 days 4 hours").
  return interpolate(gettext("%(days)s %(hours)s"), { days: daysText(days), hours: hoursText(hours % 24) });
}

// Why a line was not said, in plain words.
function explain(err) {
  if (!(err instanceof ApiError)) return gettext("Your message could not be sent. Check your connection and try again.");
  const wait = err instanceof SayError ? err.retryAfter : null;
  switch (err.code) {
    case "chat_timed_out":
      // Translators: %(time)s is a time left, such as "2 hours 5 minutes".
      return wait ? interpolate(gettext("A moderator has paused your chat. You can talk again in %(time)s."), { time: timeLeft(wait) }) : err.message;
    case "throttled":
      // Translators: %(time)s is a time left, such as "10 seconds".
      return interpolate(gettext("That's a lot of messages in a short time. Please wait %(time)s and try again."), { time: timeLeft(wait ?? 10) });
    case "chat_off_during_hand":
      return gettext("Free text is off during a hand at this table. Quick phrases still work, and you can write again once the hand is over.");
    case "bidi_control":
      return gettext("That text holds invisible direction marks. Please remove them and try again.");
    case "max_length":
      return interpolate(ngettext("A message can be at most %(n)s character.", "A message can be at most %(n)s characters.", MAX_TEXT), { n: MAX_TEXT });
    default:
      return err.message;
  }
}

function clock(iso) {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? "" : timeText(at, { hour: "numeric", minute: "2-digit" });
}

export class TableTalk {
  /**
   * Mounts the panel after `root` (the room page's main, which is drawn anew at every
   * change: the panel, and what is being typed in it, stays apart from that) and reads
   * what was said so far.
   * @param {string} code The room's code.
   * @param {{ username: string }} user Who reads.
   * @param {HTMLElement} root
   */
  constructor(code, user, root) {
    this.code = code;
    this.user = user;
    /** @type {Map<number, Line>} */
    this.lines = new Map();
    /** @type {Set<string>} */
    this.blocked = new Set();
    // The last line read over HTTP: every line up to it is known, whatever the socket did.
    this.readTo = 0;
    this.loaded = false;
    this.loading = false;
    this.again = false;
    this.sending = false;
    this.stopped = false;
    this.open = false;
    this.unread = 0;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pollTimer = undefined;
    this.side = matchMedia(SIDE);
    // The text box, made by build().
    /** @type {HTMLInputElement} */
    this.input;
    // What sends a line (the Send button and the quick phrases), made by build().
    /** @type {HTMLButtonElement[]} */
    this.senders = [];
    this.onWidth = () => this.showUnread();
    this.side.addEventListener("change", this.onWidth);
    this.build();
    root.after(this.el);
    this.catchUp();
  }

  build() {
    this.list = h("ol", { class: "talk-lines" });
    this.empty = h("p", { class: "talk-empty" }, gettext("Nothing said yet. Say hello!"));
    // A log is read out as lines are added; it scrolls, so it takes the focus too.
    this.scroller = h("div", { class: "talk-scroll", role: "log", "aria-label": gettext("Messages"), tabindex: "0" }, this.empty, this.list);
    this.error = h("p", { class: "talk-error", role: "status" });
    this.hint = h("p", { class: "talk-hint", hidden: true });
    this.count = h("span", { class: "talk-count", id: "talk-count" }, `0/${MAX_TEXT}`);
    this.input = /** @type {HTMLInputElement} */ (
      h("input", {
        id: "talk-text",
        type: "text",
        name: "text",
        maxlength: MAX_TEXT,
        autocomplete: "off",
        enterkeyhint: "send",
        placeholder: gettext("Write a message"),
        "aria-describedby": "talk-count",
        oninput: () => this.counted(),
      })
    );
    const phraseButtons = Object.entries(PHRASES).map(([key, words]) =>
      h("button", { type: "button", class: "talk-phrase", "data-phrase": key, onclick: () => this.say({ phrase: key }) }, gettext(words)),
    );
    const phrases = h("div", { class: "talk-phrases", role: "group", "aria-label": gettext("Quick phrases") }, phraseButtons);
    // Translators: the button that sends a message to the table.
    const send = h("button", { type: "submit", class: "primary" }, gettext("Send"));
    // What sends a line: each waits while one is on its way (say), so a second tap sends
    // nothing twice and a tap meanwhile is not lost without a word.
    this.senders = [/** @type {HTMLButtonElement} */ (send), ...phraseButtons.map((b) => /** @type {HTMLButtonElement} */ (b))];
    const form = h(
      "form",
      {
        class: "talk-form",
        onsubmit: (e) => {
          e.preventDefault();
          const text = this.input.value.trim();
          if (!text) {
            this.warn(gettext("Write something first, or tap a quick phrase."));
            return;
          }
          this.say({ text });
        },
      },
      h("label", { for: "talk-text", class: "sr-only" }, gettext("Message to the table")),
      h("div", { class: "talk-entry" }, this.input, send),
      this.count,
    );
    this.heading = h("h2", { id: "talk-title", tabindex: "-1" }, gettext("Table talk"));
    this.el = h(
      "aside",
      {
        id: "talk",
        class: "talk",
        "aria-labelledby": "talk-title",
        onkeydown: (e) => {
          if (e.key === "Escape" && this.open && !this.side.matches) {
            e.preventDefault();
            this.setOpen(false, true);
          }
        },
      },
      // Translators: the button that closes the table talk's panel (on a phone).
      h("div", { class: "talk-head" }, this.heading, h("button", { type: "button", class: "talk-close", onclick: () => this.setOpen(false, true) }, gettext("Close"))),
      this.hint,
      this.scroller,
      this.error,
      phrases,
      form,
    );
    this.unreadEl = h("span", { class: "talk-unread", hidden: true });
    this.toggle = h(
      "button",
      {
        type: "button",
        class: "talk-toggle",
        "aria-controls": "talk",
        "aria-expanded": "false",
        "data-focus": "talk-toggle",
        onclick: () => this.setOpen(!this.open, false),
      },
      // Translators: the button that opens the table talk's panel (on a phone).
      gettext("Chat"),
      // A space between the two, for the button's name: "Chat 2 new".
      " ",
      this.unreadEl,
    );
  }

  /**
   * Puts the "Chat" button where the page drawn at `view` keeps it in sight: the table's
   * sticky turn line, else the lobby's heading. The room page calls this after each draw.
   * @param {HTMLElement} root
   */
  dock(root, view) {
    if (this.stopped) return;
    const slot = root.querySelector(".turn-line") ?? root.querySelector(".table-head");
    if (slot && this.toggle.parentElement !== slot) slot.append(this.toggle);
    // A spectator's word reaches the players only outside a hand (docs/talk/table-talk.md).
    const watching = view && !view.you;
    const inHand = view?.status === "playing" && view.phase !== "round_over";
    this.hint.hidden = !watching;
    this.hint.textContent = inHand
      ? gettext("You are watching: during a hand, only other spectators read what you say.")
      : gettext("You are watching: the players read what you say only outside a hand.");
  }

  // The room's live link: read what was missed whenever it comes back; poll while it is down.
  onLive(status) {
    if (this.stopped) return;
    if (status === "live") {
      this.stopPolling();
      this.catchUp();
    } else if (status === "polling" || status === "refused") {
      if (!this.pollTimer) this.pollTimer = setInterval(() => this.catchUp(), POLL_MS);
    } else if (status === "unauthorized") {
      // The room page asks the API; if it still answers, polling follows.
      this.stopPolling();
    } else if (status === "gone") {
      this.destroy();
    }
  }

  // A line pushed on the socket.
  heard(line) {
    if (!this.stopped && isLine(line)) this.add([line], true);
  }

  destroy() {
    this.stopped = true;
    this.stopPolling();
    this.side.removeEventListener("change", this.onWidth);
    this.el.remove();
    this.toggle.remove();
  }

  stopPolling() {
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  // Reads the lines after the last one read over HTTP, a page at a time; one reading at
  // a time (a call meanwhile reads again once it is done). A failure waits for the next
  // reconnect or poll.
  async catchUp() {
    if (this.loading) {
      this.again = true;
      return;
    }
    this.loading = true;
    try {
      do {
        this.again = false;
        for (let page = 0; page < 50 && !this.stopped; page++) {
          const got = await api(`rooms/${encodeURIComponent(this.code)}/chat?after=${this.readTo}&limit=${PAGE}`);
          if (this.stopped || !Array.isArray(got)) return;
          const lines = got.filter(isLine);
          // What was said before the page opened is not news.
          this.add(lines, this.loaded);
          if (lines.length) this.readTo = Math.max(this.readTo, lines[lines.length - 1].id);
          if (got.length < PAGE) break;
        }
        this.loaded = true;
      } while (this.again && !this.stopped);
    } catch {
      // Said nowhere: the talk is not the table, and the next reconnect or poll reads again.
    } finally {
      this.loading = false;
    }
  }

  get visible() {
    return this.side.matches || this.open;
  }

  /**
   * Adds lines not shown yet, in id order; `fresh` ones by others count as unread while
   * the panel is closed.
   * @param {Line[]} lines
   * @param {boolean} fresh
   */
  add(lines, fresh) {
    const atEnd = this.scroller.scrollHeight - this.scroller.scrollTop - this.scroller.clientHeight < 40;
    let mineAdded = false;
    let added = 0;
    for (const line of lines) {
      if (this.lines.has(line.id) || this.blocked.has(line.author.username)) continue;
      this.lines.set(line.id, line);
      const el = this.lineEl(line);
      const after = [...this.list.children].find((li) => Number(/** @type {HTMLElement} */ (li).dataset.id) > line.id);
      this.list.insertBefore(el, after ?? null);
      added++;
      const mine = line.author.username === this.user.username;
      mineAdded ||= mine;
      if (fresh && !mine && !this.visible) this.unread++;
    }
    if (!added) return;
    // The oldest lines go once there are many.
    while (this.list.children.length > KEEP) {
      const first = /** @type {HTMLElement} */ (this.list.firstElementChild);
      this.lines.delete(Number(first.dataset.id));
      first.remove();
    }
    this.empty.hidden = this.list.children.length > 0;
    this.showUnread();
    // Someone reading older lines is left where they are; otherwise the newest show.
    if (atEnd || mineAdded) this.scrollToEnd();
  }

  /** @param {Line} line */
  lineEl(line) {
    const mine = line.author.username === this.user.username;
    const name = line.author.display_name || line.author.username;
    const text = h("p", { class: `talk-text${line.phrase ? " talk-said-phrase" : ""}` });
    // Text, never markup: whatever it holds shows as written, and makes no link.
    text.textContent = phraseWords(line);
    const spectator = line.channel === "spectators";
    return h(
      "li",
      { class: `talk-line${mine ? " mine" : ""}${spectator ? " spectator" : ""}`, "data-id": line.id, "data-author": line.author.username },
      h(
        "div",
        { class: "talk-meta" },
        // Translators: the author of a line of table talk, when it is the reader.
        h("span", { class: "talk-who" }, mine ? gettext("You") : name),
        // Translators: a badge on a line of table talk said by someone watching, not playing.
        spectator ? h("span", { class: "badge" }, gettext("spectator")) : null,
        h("time", { datetime: line.sent_at }, clock(line.sent_at)),
      ),
      text,
      mine ? null : this.menu(line.author.username, name, line),
    );
  }

  // A line's own menu: block its author, once asked to confirm, or report them for it
  // (report.js: its dialog gives the focus back to the button).
  /** @param {Line} line */
  menu(username, name, line) {
    const body = h("div", { class: "talk-menu-body" });
    const details = /** @type {HTMLDetailsElement} */ (
      h("details", { class: "talk-menu" }, h("summary", {}, h("span", { "aria-hidden": "true" }, "⋯"), h("span", { class: "sr-only" }, interpolate(gettext("Options for this message from %(name)s"), { name }))), body)
    );
    const first = () =>
      replace(
        body,
        h(
          "div",
          { class: "talk-menu-row" },
          h(
            "button",
            {
              type: "button",
              onclick: () => {
                ask();
                body.querySelector("button")?.focus();
              },
            },
            interpolate(gettext("Block %(name)s"), { name }),
          ),
          h(
            "button",
            {
              type: "button",
              onclick: (/** @type {MouseEvent} */ e) =>
                openReport({ username, name, line: line.id, quote: phraseWords(line) }, /** @type {HTMLElement} */ (e.currentTarget)),
            },
            interpolate(gettext("Report %(name)s…"), { name }),
          ),
        ),
      );
    const ask = () =>
      replace(
        body,
        h("p", {}, interpolate(gettext("Block %(name)s? You won't see each other's messages any more, and you won't be seated at the same table."), { name })),
        h(
          "div",
          { class: "talk-menu-row" },
          h("button", { type: "button", class: "danger", onclick: () => this.block(username, name) }, interpolate(gettext("Yes, block %(name)s"), { name })),
          h(
            "button",
            {
              type: "button",
              onclick: () => {
                details.open = false;
                first();
                details.querySelector("summary")?.focus();
              },
            },
            gettext("Cancel"),
          ),
        ),
      );
    first();
    return details;
  }

  async block(username, name) {
    try {
      await api("me/blocks", { method: "POST", body: { username } });
    } catch (err) {
      this.warn(err instanceof ApiError ? err.message : gettext("Blocking did not work. Check your connection and try again."));
      return;
    }
    this.blocked.add(username);
    for (const [id, line] of this.lines) if (line.author.username === username) this.lines.delete(id);
    for (const li of this.list.querySelectorAll(`[data-author="${CSS.escape(username)}"]`)) li.remove();
    this.empty.hidden = this.list.children.length > 0;
    // The menu that had the focus is gone with the lines.
    this.scroller.focus({ preventScroll: true });
    this.note(interpolate(gettext("You blocked %(name)s. Their messages are hidden, and they won't see yours."), { name }));
  }

  /** @param {{ phrase?: string, text?: string }} body */
  async say(body) {
    if (this.sending || this.stopped) return;
    this.sending = true;
    const focused = document.activeElement;
    for (const button of this.senders) button.disabled = true;
    this.note("");
    try {
      const line = await post(`rooms/${encodeURIComponent(this.code)}/chat`, body);
      if (isLine(line)) this.add([line], false);
      // The box is emptied of what was sent, not of what was typed while it was on its way.
      if (body.text !== undefined && this.input.value.trim() === body.text) {
        this.input.value = "";
        this.counted();
      }
    } catch (err) {
      this.warn(explain(err));
    } finally {
      this.sending = false;
      for (const button of this.senders) button.disabled = false;
      // A button disabled while it had the focus lost it: it is given back.
      if (focused instanceof HTMLButtonElement && this.senders.includes(focused) && document.activeElement === document.body) {
        focused.focus({ preventScroll: true });
      }
    }
  }

  counted() {
    this.count.textContent = `${this.input.value.length}/${MAX_TEXT}`;
  }

  // The panel's one line for what went wrong (or what was done), said calmly.
  warn(text) {
    this.error.dataset.kind = "error";
    this.error.textContent = text;
  }

  note(text) {
    this.error.dataset.kind = "note";
    this.error.textContent = text;
  }

  setOpen(open, giveBack) {
    this.open = open;
    this.el.classList.toggle("open", open);
    this.toggle.setAttribute("aria-expanded", String(open));
    if (open) {
      this.showUnread();
      this.scrollToEnd();
      this.heading.focus({ preventScroll: true });
    } else if (giveBack) {
      this.toggle.focus({ preventScroll: true });
    }
  }

  showUnread() {
    if (this.visible) this.unread = 0;
    this.unreadEl.hidden = this.unread === 0;
    // Translators: after the number of lines that came while the table talk was closed,
    // read out by screen readers only: "Chat 2 new".
    const fresh = npgettext("unread messages", "new", "new", this.unread);
    replace(this.unreadEl, String(this.unread), h("span", { class: "sr-only" }, ` ${fresh}`));
  }

  scrollToEnd() {
    this.scroller.scrollTop = this.scroller.scrollHeight;
  }
}
