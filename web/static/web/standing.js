// A person's standing with the moderators (docs/talk/moderation.md): `GET me/sanctions` (their
// warnings, the chat timeouts in force, a playban), their own reports (`GET reports`) and
// the players they blocked (`me/blocks`).
//
// - A moderator's warning is read once before the next table: on every page load signed
//   in, an unread one shows as a modal dialog with "I have read this" (`POST
//   me/warnings/{id}/read`); and when taking a seat or making a room answers 409
//   `unread_warning`, the same dialog comes, and the step is tried again once it is read
//   (`withStanding`).
// - A playban's 409 `playbanned` says until when (in the reader's own time) and why, and
//   that unrated tables are open.
// - Settings shows it all under "Your standing" (`standingPanel`, from account.js).
//
// The moderators' words and people's names are set as text, never markup.

import { api, ApiError, auth } from "./api.js";
import { timeLeft } from "./chat.js";
import { h, replace } from "./dom.js";
import { gettext, interpolate, pgettext, timeText } from "./i18n.js";
import { Modal, REASONS } from "./report.js";

/**
 * @typedef {{ id: number, text: string, created_at: string, read_at: string | null }} Warning
 * @typedef {{ room: string | null, until: string, reason: string }} Timeout
 * @typedef {{ until: string, abandonments: number, reason: string }} Playban
 * @typedef {{ warnings: Warning[], chat_timeouts: Timeout[], playban: Playban | null }} Sanctions
 */

/**
 * A moment in the reader's own time: the time alone today, else with the day.
 * @param {string} iso
 */
export function localWhen(iso) {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  if (at.toDateString() === new Date().toDateString()) return timeText(at, { timeStyle: "short" });
  return timeText(at, { dateStyle: "medium", timeStyle: "short" });
}

// How far off a moment is, said in brackets after it: "in 3 hours", or "now".
/** @param {string} iso */
function fromNow(iso) {
  const seconds = (Date.parse(iso) - Date.now()) / 1000;
  // Translators: how long until a sanction ends; %(time)s is such as "3 hours 20 minutes".
  if (seconds > 0) return interpolate(gettext("in %(time)s"), { time: timeLeft(seconds) });
  // Translators: a sanction ends now (said in brackets after the time it ends).
  return gettext("now");
}

/** @param {string} iso */
function dated(iso) {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? "" : timeText(at, { dateStyle: "medium", timeStyle: "short" });
}

/** @param {Playban} ban */
export function playbanText(ban) {
  // Translators: %(when)s is a time, %(from_now)s how far off it is ("in 3 hours", "now"), %(reason)s the moderator's words. “Not rated” is the choice of a new room's Rated option.
  const phrase = gettext("You can take a seat at a rated table again at %(when)s (%(from_now)s). Why: %(reason)s Unrated tables are open to you meanwhile: set Rated to “Not rated” when you make one.");
  return interpolate(phrase, { when: localWhen(ban.until), from_now: fromNow(ban.until), reason: ban.reason });
}

/** @param {string} text */
function textOf(text) {
  const el = h("p", { class: "warning-text" });
  // The moderator's words as they wrote them: text, never markup.
  el.textContent = text;
  return el;
}

/**
 * The dialog of one unread warning; resolves true once it is marked read (false should
 * the browser close it some other way: the server still asks for it before a table).
 * @param {Warning} warning
 * @param {number} index
 * @param {number} count
 * @returns {Promise<boolean>}
 */
function warningDialog(warning, index, count) {
  return new Promise((resolve) => {
    let read = false;
    const modal = new Modal("warning-dialog", { firm: true, onClose: () => resolve(read) });
    const error = h("p", { class: "form-error", role: "alert" });
    const button = /** @type {HTMLButtonElement} */ (
      h(
        "button",
        {
          type: "button",
          class: "primary",
          onclick: async () => {
            error.textContent = "";
            button.disabled = true;
            try {
              await api(`me/warnings/${warning.id}/read`, { method: "POST" });
            } catch (err) {
              button.disabled = false;
              error.textContent = err instanceof ApiError ? err.message : gettext("That did not go through. Check your connection and try again.");
              button.focus();
              return;
            }
            read = true;
            modal.close();
          },
        },
        gettext("I have read this"),
      )
    );
    const heading =
      count > 1
        ? // Translators: the heading of one of several unread warnings, such as "(2 of 3)".
          interpolate(gettext("A moderator's warning (%(number)s of %(count)s)"), { number: index + 1, count })
        : gettext("A moderator's warning");
    modal.show(
      h("h2", { id: modal.titleId }, heading),
      // Translators: %(date)s is when the warning was sent; the moderator's words follow.
      h("p", { class: "meta" }, interpolate(gettext("Sent %(date)s. The moderator wrote:"), { date: dated(warning.created_at) })),
      textOf(warning.text),
      h("p", {}, gettext("Please read it before your next table: you can take a seat or make a room once you have.")),
      error,
      h("div", { class: "button-row" }, button),
    );
    modal.open();
  });
}

/** @type {Promise<boolean> | null} */
let reading = null;

/**
 * Shows each unread warning (the oldest first) until it is read. One showing at a time:
 * a call meanwhile waits for it. True once none is left unread.
 * @returns {Promise<boolean>}
 */
export function readWarnings() {
  reading ??= (async () => {
    if (!auth.token) return true;
    /** @type {Sanctions} */
    let sanctions;
    try {
      sanctions = await api("me/sanctions");
    } catch {
      // The next page load, or the next seat asked for, asks again.
      return false;
    }
    const unread = (sanctions?.warnings ?? []).filter((w) => !w.read_at).sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
    for (const [index, warning] of unread.entries()) {
      if (!(await warningDialog(warning, index, unread.length))) return false;
    }
    return true;
  })().finally(() => {
    reading = null;
  });
  return reading;
}

/**
 * Runs `act` (taking a seat, making a room). A 409 `unread_warning` shows the warning and
 * runs it again once read; a 409 `playbanned` is thrown with its words for the reader:
 * until when, in their own time, and why.
 * @template T
 * @param {() => Promise<T>} act
 * @returns {Promise<T>}
 */
export async function withStanding(act) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await act();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.code === "unread_warning" && attempt < 2) {
        if (await readWarnings()) continue;
        err.message = gettext("A moderator's warning waits for you: read it, then try again.");
      } else if (err.code === "playbanned") {
        const ban = await api("me/sanctions").then((s) => s?.playban ?? null, () => null);
        if (ban) err.message = playbanText(ban);
      }
      throw err;
    }
  }
}

/**
 * "Your standing", in Settings: warnings (unread first), chat timeouts in force, a
 * playban, the reports made and whether each is handled, and the players blocked.
 */
export function standingPanel() {
  const warnings = h("div", { class: "standing-part standing-warnings" });
  const timeouts = h("div", { class: "standing-part standing-timeouts" });
  const playban = h("div", { class: "standing-part standing-playban" });
  const reports = h("div", { class: "standing-part standing-reports" });
  const blocks = h("div", { class: "standing-part standing-blocks" });
  const status = h("p", { class: "saved", role: "status", tabindex: "-1" });

  // `phrase` says what could not be loaded, with the reason as %(error)s.
  const failed = (part, phrase, err) =>
    replace(part, h("p", { class: "form-error" }, interpolate(phrase, { error: err instanceof ApiError ? err.message : gettext("check your connection.") })));

  async function loadSanctions() {
    /** @type {Sanctions} */
    let got;
    try {
      got = await api("me/sanctions");
    } catch (err) {
      for (const part of [warnings, timeouts, playban]) failed(part, gettext("This part could not be loaded: %(error)s"), err);
      return;
    }
    drawWarnings(got.warnings ?? []);
    drawTimeouts(got.chat_timeouts ?? []);
    drawPlayban(got.playban ?? null);
  }

  /** @param {Warning[]} list */
  function drawWarnings(list) {
    // Unread first (the oldest of them first), then the read ones, the latest first.
    const unread = list.filter((w) => !w.read_at).sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
    const read = list.filter((w) => w.read_at).sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
    replace(
      warnings,
      h("h4", {}, gettext("Warnings")),
      list.length
        ? h(
            "ul",
            { class: "standing-list warning-list" },
            [...unread, ...read].map((w) =>
              h(
                "li",
                { class: `warning${w.read_at ? " read" : " unread"}`, "data-warning": String(w.id) },
                textOf(w.text),
                h(
                  "p",
                  { class: "meta" },
                  // Translators: when a warning was sent; what follows it, after a "·", says whether it was read.
                  `${interpolate(gettext("Sent %(date)s"), { date: dated(w.created_at) })} · `,
                  // Translators: when a warning was read, after when it was sent.
                  w.read_at ? interpolate(gettext("read %(date)s"), { date: dated(w.read_at) }) : h("strong", {}, gettext("not read yet")),
                ),
                w.read_at ? null : h("button", { type: "button", onclick: (e) => markRead(w, e.currentTarget) }, gettext("I have read this")),
              ),
            ),
          )
        : h("p", {}, gettext("No warnings. Thank you for playing fair.")),
    );
  }

  /**
   * @param {Warning} warning
   * @param {HTMLButtonElement} button
   */
  async function markRead(warning, button) {
    status.textContent = "";
    button.disabled = true;
    try {
      await api(`me/warnings/${warning.id}/read`, { method: "POST" });
    } catch (err) {
      button.disabled = false;
      status.textContent = err instanceof ApiError ? err.message : gettext("That did not go through. Check your connection and try again.");
      status.focus();
      return;
    }
    await loadSanctions();
    status.textContent = gettext("Marked as read. You can take a seat again.");
    status.focus();
  }

  /** @param {Timeout[]} list */
  function drawTimeouts(list) {
    replace(
      timeouts,
      h("h4", {}, gettext("Chat timeouts")),
      list.length
        ? h(
            "ul",
            { class: "standing-list" },
            list.map((t) =>
              h(
                "li",
                { class: "chat-timeout" },
                h("p", {}, timeoutText(t)),
                reasonLine(t.reason),
              ),
            ),
          )
        : h("p", {}, gettext("None: you can talk at every table.")),
    );
  }

  /** @param {Playban | null} ban */
  function drawPlayban(ban) {
    replace(
      playban,
      // Translators: the heading of whether the player may sit at rated tables.
      h("h4", {}, gettext("Rated tables")),
      // Translators: under "Rated tables": the player may sit at them.
      ban ? h("p", { class: "playban" }, playbanText(ban)) : h("p", {}, gettext("Open to you.")),
    );
  }

  async function loadReports() {
    let list;
    try {
      list = await api("reports");
    } catch (err) {
      failed(reports, gettext("Your reports could not be loaded: %(error)s"), err);
      return;
    }
    replace(
      reports,
      h("h4", {}, gettext("Your reports")),
      list.length
        ? h(
            "ul",
            { class: "standing-list report-list" },
            list.map((r) =>
              h(
                "li",
                { class: "report", "data-report": String(r.id), "data-username": r.username },
                h(
                  "p",
                  {},
                  h("strong", { class: "report-who" }, r.username),
                  // Translators: when a report was sent, after its reason and where it was made.
                  ` · ${[reasonText(r.reason), where(r), interpolate(gettext("sent %(date)s"), { date: dated(r.created_at) })].filter(Boolean).join(" · ")}`,
                ),
                r.note ? noteLine(r.note) : null,
                // Translators: a report's state: a moderator has dealt with it, or not yet.
                h("p", { class: `report-state ${r.handled ? "handled" : "waiting"}` }, r.handled ? pgettext("report", "Handled") : pgettext("report", "Waiting")),
              ),
            ),
          )
        : h("p", {}, gettext("You haven't reported anyone.")),
      h("p", { class: "meta" }, gettext("A moderator looks at each report; you are told when it is handled, never what was done.")),
    );
  }

  async function loadBlocks() {
    let list;
    try {
      list = await api("me/blocks");
    } catch (err) {
      failed(blocks, gettext("The players you blocked could not be loaded: %(error)s"), err);
      return;
    }
    replace(
      blocks,
      h("h4", { id: "blocked-title", tabindex: "-1" }, gettext("Players you blocked")),
      list.length
        ? h(
            "ul",
            { class: "standing-list block-list" },
            list.map((b) => {
              const name = b.display_name || b.username;
              return h(
                "li",
                { class: "blocked", "data-username": b.username },
                // Translators: when the player was blocked, after their name.
                h("p", {}, h("strong", {}, name), name !== b.username ? ` @${b.username}` : "", ` · ${interpolate(gettext("blocked %(date)s"), { date: dated(b.blocked_at) })}`),
                h("button", { type: "button", "aria-label": interpolate(gettext("Unblock %(name)s"), { name }), onclick: (e) => unblock(b.username, name, e.currentTarget) }, gettext("Unblock")),
              );
            }),
          )
        : h("p", {}, gettext("You haven't blocked anyone. To block someone, open the menu of one of their messages at a table.")),
    );
  }

  async function unblock(username, name, button) {
    status.textContent = "";
    button.disabled = true;
    try {
      await api(`me/blocks/${encodeURIComponent(username)}`, { method: "DELETE" });
    } catch (err) {
      button.disabled = false;
      status.textContent = err instanceof ApiError ? err.message : gettext("Unblocking did not work. Check your connection and try again.");
      status.focus();
      return;
    }
    await loadBlocks();
    status.textContent = interpolate(gettext("You unblocked %(name)s. You can read each other's messages again."), { name });
    status.focus();
  }

  loadSanctions();
  loadReports();
  loadBlocks();
  return h(
    "section",
    { class: "panel standing", id: "standing", "aria-labelledby": "standing-title" },
    h("h3", { id: "standing-title" }, gettext("Your standing")),
    h("p", {}, gettext("What the moderators have told you, the reports you made, and the players you blocked.")),
    warnings,
    timeouts,
    playban,
    reports,
    blocks,
    status,
  );
}

// A chat timeout in force: where (one table, or all), until when, and how far off that is.
/** @param {Timeout} t */
function timeoutText(t) {
  const values = { table: t.room ?? "", when: localWhen(t.until), from_now: fromNow(t.until) };
  return t.room
    ? // Translators: %(table)s is a table's code, %(when)s a time, %(from_now)s how far off it is ("in 3 hours", "now").
      interpolate(gettext("No table talk at table %(table)s until %(when)s (%(from_now)s)."), values)
    : // Translators: %(when)s is a time, %(from_now)s how far off it is ("in 3 hours", "now").
      interpolate(gettext("No table talk at any table until %(when)s (%(from_now)s)."), values);
}

// A report's reason (the API's code) in the player's words, as the report dialog offers it.
/** @param {string} reason */
function reasonText(reason) {
  return Object.hasOwn(REASONS, reason) ? gettext(REASONS[reason]) : reason;
}

// Where a report was made: for a line of a table's talk, at a table, or neither (a page).
/** @param {{ room: string | null, line: number | null }} report */
function where(report) {
  // Translators: where a report was made; %(table)s is a table's code.
  if (report.line) return report.room ? interpolate(gettext("for a message at table %(table)s"), { table: report.room }) : gettext("for a message");
  // Translators: where a report was made; %(table)s is a table's code.
  return report.room ? interpolate(gettext("at table %(table)s"), { table: report.room }) : "";
}

/** @param {string} reason */
function reasonLine(reason) {
  const el = h("p", { class: "meta sanction-reason" });
  // Translators: %(reason)s is the moderator's reason for a sanction, in their words.
  el.textContent = interpolate(gettext("Why: %(reason)s"), { reason });
  return el;
}

/** @param {string} note */
function noteLine(note) {
  const el = h("p", { class: "report-note" });
  el.textContent = note;
  return el;
}
