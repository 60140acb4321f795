// Reporting someone to the moderators (`POST reports`, docs/talk/moderation.md): from a line of
// table talk (chat.js: the line's author is the one reported), from a seat's name in the
// lobby or at the table (the player and the room), and from a player's page. A small
// dialog asks what is wrong, in plain words, and for an optional note; the moderators
// read it, and the reporter follows it under "Your standing" in Settings (standing.js).
//
// The dialogs here are modal: the page behind them is inert, Tab and Shift+Tab go round
// their controls, and closed they give the focus back to what opened them (found again by
// its `data-focus` key when the page was drawn anew meanwhile, as a live table is).
//
// What people wrote (a reported line, a name) is set as text, never as markup.

import { api, ApiError } from "./api.js";
import { h, replace } from "./dom.js";
import { gettext, gettext_noop, interpolate } from "./i18n.js";

// The API's reasons, in a player's words, in the order offered. Marked here and
// translated where shown (`gettext(REASONS[reason])`): a constant is made before the
// page's catalogue is loaded.
export const REASONS = {
  // Translators: each is a reason offered for reporting a player to the moderators.
  offensive_language: gettext_noop("Offensive or abusive language"),
  cheating: gettext_noop("Cheating, such as sharing cards with a partner"),
  stalling: gettext_noop("Stalling or leaving games"),
  name: gettext_noop("An offensive name"),
  other: gettext_noop("Something else"),
};

export const NOTE_MAX = 500;
export const THANKS = gettext_noop("Thanks — a moderator will look at it. You'll be told when it's handled.");

const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

let made = 0;

/**
 * The person reported, and where: `line` (a table-talk line's id, with its words as
 * `quote`) or `room` (a room's code, for a seat at its table).
 * @typedef {{ username: string, name: string, room?: string | null, line?: number | null, quote?: string | null }} Target
 */

/**
 * A modal dialog labelled by its heading (`titleId`). `open()` shows it over the page;
 * `close()` (or Escape, unless `firm`) closes it and gives the focus back.
 */
export class Modal {
  /**
   * @param {string} kind A class for the dialog (its styles, and tests).
   * @param {{ firm?: boolean, onClose?: () => void }} [options] `firm`: Escape does not
   * close it (a warning that must be read).
   */
  constructor(kind, { firm = false, onClose } = {}) {
    made += 1;
    this.titleId = `modal-title-${made}`;
    this.firm = firm;
    /** @type {HTMLElement | null} */
    this.opener = null;
    this.el = /** @type {HTMLDialogElement} */ (h("dialog", { class: `modal ${kind}`, "aria-labelledby": this.titleId, onkeydown: (e) => this.keys(e) }));
    this.el.addEventListener("cancel", (e) => {
      if (this.firm) e.preventDefault();
    });
    this.el.addEventListener("close", () => {
      this.el.remove();
      this.giveBack();
      onClose?.();
    });
  }

  /** @param {...any} children */
  show(...children) {
    replace(this.el, ...children);
  }

  /** @param {Element | null} [opener] */
  open(opener = document.activeElement) {
    this.opener = opener instanceof HTMLElement && opener !== document.body ? opener : null;
    this.focusKey = this.opener?.closest("[data-focus]")?.getAttribute("data-focus") ?? null;
    document.body.append(this.el);
    this.el.showModal();
  }

  close() {
    if (this.el.open) this.el.close();
  }

  // The focus goes round the dialog's controls, whichever way Tab goes; a firm dialog
  // keeps Escape from closing it.
  /** @param {KeyboardEvent} e */
  keys(e) {
    if (e.key === "Escape" && this.firm) {
      e.preventDefault();
      return;
    }
    if (e.key !== "Tab") return;
    const all = [...this.el.querySelectorAll(TABBABLE)].filter((el) => el instanceof HTMLElement && el.getClientRects().length > 0);
    if (!all.length) return;
    const first = /** @type {HTMLElement} */ (all[0]);
    const last = /** @type {HTMLElement} */ (all[all.length - 1]);
    const at = document.activeElement;
    // A group of radio buttons is one stop of the Tab key: any of them stands for it.
    const isStop = (/** @type {HTMLElement} */ stop) =>
      at === stop || (stop instanceof HTMLInputElement && stop.type === "radio" && at instanceof HTMLInputElement && at.type === "radio" && at.name === stop.name);
    if (e.shiftKey && (isStop(first) || !this.el.contains(at))) {
      e.preventDefault();
      focusStop(last);
    } else if (!e.shiftKey && (isStop(last) || !this.el.contains(at))) {
      e.preventDefault();
      focusStop(first);
    }
  }

  giveBack() {
    const opener = this.opener;
    if (opener?.isConnected) {
      opener.focus({ preventScroll: true });
      return;
    }
    // Drawn anew while the dialog was open: its like in the new drawing.
    const again = this.focusKey ? document.querySelector(`[data-focus="${CSS.escape(this.focusKey)}"]`) : null;
    if (again instanceof HTMLElement) again.focus({ preventScroll: true });
  }
}

// A radio group's stop is its checked button, else its first.
/** @param {HTMLElement} el */
function focusStop(el) {
  if (el instanceof HTMLInputElement && el.type === "radio" && el.form) {
    const checked = el.form.querySelector(`input[type=radio][name="${CSS.escape(el.name)}"]:checked`);
    if (checked instanceof HTMLElement) {
      checked.focus();
      return;
    }
  }
  el.focus();
}

/**
 * Opens the report dialog for `target`, given the focus back to `opener` once closed.
 * @param {Target} target
 * @param {Element | null} [opener]
 */
export function openReport(target, opener = document.activeElement) {
  const modal = new Modal("report-dialog");
  reportForm(modal, target);
  modal.open(opener);
  return modal;
}

/**
 * The report's form in `modal`: what is wrong (one of REASONS), a note, then `POST
 * reports`; once sent, the thanks in its place.
 * @param {Modal} modal
 * @param {Target} target
 */
function reportForm(modal, target) {
  const id = modal.titleId;
  const radios = Object.keys(REASONS).map((value) =>
    /** @type {HTMLInputElement} */ (
      h("input", {
        type: "radio",
        name: "reason",
        value,
        id: `${id}-${value}`,
        "aria-describedby": `${id}-reason-error`,
        // A reason chosen answers "Choose what is wrong."
        onchange: () => {
          reasonError.textContent = "";
          radios[0].removeAttribute("aria-invalid");
        },
      })
    ),
  );
  const reasonError = h("p", { class: "form-error field-error", id: `${id}-reason-error`, role: "alert" });
  const reasons = h(
    "fieldset",
    { class: "report-reasons" },
    h("legend", {}, gettext("What is wrong?")),
    radios.map((radio) => h("div", { class: "radio" }, radio, h("label", { for: radio.id }, gettext(REASONS[radio.value])))),
    reasonError,
  );
  const noteId = `${id}-note`;
  const count = h("small", { id: `${noteId}-count` }, `0/${NOTE_MAX}`);
  const noteError = h("p", { class: "form-error field-error", id: `${noteId}-error`, role: "alert" });
  const textarea = /** @type {HTMLTextAreaElement} */ (
    h("textarea", {
      id: noteId,
      name: "note",
      rows: 3,
      maxlength: NOTE_MAX,
      "aria-describedby": `${noteId}-count ${noteId}-error`,
      oninput: () => {
        count.textContent = `${textarea.value.length}/${NOTE_MAX}`;
      },
    })
  );
  const note = h("div", { class: "field" }, h("label", { for: noteId }, gettext("Anything to add? (optional)")), textarea, count, noteError);
  const general = h("p", { class: "form-error", role: "alert" });
  const send = /** @type {HTMLButtonElement} */ (h("button", { type: "submit", class: "primary" }, gettext("Send the report")));
  // Each refusal under the field its `attr` names, else above the button.
  const places = { reason: { input: radios[0], error: reasonError }, note: { input: textarea, error: noteError } };
  const clear = () => {
    general.textContent = "";
    for (const { input, error } of Object.values(places)) {
      error.textContent = "";
      input.removeAttribute("aria-invalid");
    }
  };
  /** @returns {HTMLElement | null} the first field refused */
  const show = (/** @type {{ errors?: { attr?: string | null, detail: string }[], message: string }} */ err) => {
    let first = null;
    for (const e of err.errors?.length ? err.errors : [{ attr: null, detail: err.message }]) {
      const place = e.attr ? places[e.attr] : undefined;
      const slot = place ? place.error : general;
      slot.textContent = [slot.textContent, e.detail].filter(Boolean).join(" ");
      if (place) {
        place.input.setAttribute("aria-invalid", "true");
        first ??= place.input;
      }
    }
    return first;
  };
  const form = h(
    "form",
    {
      class: "stack",
      novalidate: true,
      onsubmit: async (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        clear();
        const chosen = radios.find((radio) => radio.checked);
        if (!chosen) {
          show({ errors: [{ attr: "reason", detail: gettext("Choose what is wrong.") }], message: "" });
          radios[0].focus();
          return;
        }
        /** @type {Record<string, unknown>} */
        const body = { reason: chosen.value };
        if (textarea.value.trim()) body.note = textarea.value.trim();
        if (target.line !== undefined && target.line !== null) body.line = target.line;
        else {
          body.username = target.username;
          if (target.room) body.room = target.room;
        }
        send.disabled = true;
        try {
          await api("reports", { method: "POST", body });
        } catch (err) {
          send.disabled = false;
          (show(refusal(err, target)) ?? send).focus();
          return;
        }
        thanked(modal);
      },
    },
    reasons,
    note,
    general,
    h(
      "div",
      { class: "button-row" },
      h("button", { type: "button", onclick: () => modal.close() }, gettext("Cancel")),
      send,
    ),
  );
  modal.show(
    // Translators: the heading of the dialog that reports a player; %(name)s is their name.
    h("h2", { id }, interpolate(gettext("Report %(name)s"), { name: target.name })),
    // Translators: before the line of table talk being reported.
    target.quote ? [h("p", { class: "meta" }, gettext("Their message:")), quoted(target.quote)] : null,
    h("p", { class: "report-about" }, gettext("Tell the moderators what happened. Only they read your report.")),
    form,
  );
  // Opened from another step of the same dialog (a player's): the focus was on a button now gone.
  if (modal.el.open) radios[0].focus();
}

/** @param {string} text */
function quoted(text) {
  const el = h("blockquote", { class: "reported-line" });
  // Text, never markup: whatever the line holds shows as written.
  el.textContent = text;
  return el;
}

/** @param {Modal} modal */
function thanked(modal) {
  const close = h("button", { type: "button", class: "primary", onclick: () => modal.close() }, gettext("Close"));
  modal.show(
    h("h2", { id: modal.titleId }, gettext("Report sent")),
    h("p", { class: "report-thanks", role: "status" }, gettext(THANKS)),
    // Translators: "Settings" and "Your standing" are the names of the page and its section.
    h("p", { class: "meta" }, gettext("You can follow it in Settings, under Your standing.")),
    h("div", { class: "button-row" }, close),
  );
  close.focus();
}

// A refusal in plain words, placed as the API places it (`attr`).
/** @param {Target} target */
function refusal(err, target) {
  if (!(err instanceof ApiError)) return { message: gettext("Your report could not be sent. Check your connection and try again.") };
  switch (err.code) {
    case "throttled":
      return { message: gettext("You have sent many reports in a short time. Please wait a while, then try again.") };
    case "not_found":
      return {
        message:
          target.line !== undefined && target.line !== null
            ? gettext("That message can no longer be found, so it cannot be reported.")
            : interpolate(gettext("%(name)s can no longer be found, so they cannot be reported."), { name: target.name }),
      };
    case "report_self":
      // Named by `username`, which is no field of this form: said above its button.
      return { message: err.message };
    default:
      return err;
  }
}

/**
 * A person's name at a seat, as a button that opens what can be done about them: their
 * page, or a report (with the room it happened in).
 * @param {Target} target
 * @param {string} shown The name as the seat shows it.
 */
export function playerButton(target, shown) {
  return h(
    "button",
    {
      type: "button",
      class: "name player-name",
      "aria-haspopup": "dialog",
      "data-focus": `player-${target.username}`,
      "data-player": target.username,
      onclick: (/** @type {MouseEvent} */ e) => openPlayer(target, /** @type {HTMLElement} */ (e.currentTarget)),
    },
    shown,
  );
}

/**
 * The dialog of a person at a table: their page, and "Report <name>…".
 * @param {Target} target
 * @param {HTMLElement} opener
 */
export function openPlayer(target, opener) {
  const modal = new Modal("player-dialog");
  const report = h("button", { type: "button", onclick: () => reportForm(modal, target) }, interpolate(gettext("Report %(name)s…"), { name: target.name }));
  modal.show(
    h("h2", { id: modal.titleId }, target.name),
    target.name !== target.username ? h("p", { class: "meta" }, `@${target.username}`) : null,
    h(
      "p",
      {},
      // A link of the app's: it shows the page in place, and the dialog goes with the table.
      h("a", { href: `/players/${encodeURIComponent(target.username)}`, "data-link": "", onclick: () => modal.close() }, interpolate(gettext("See %(name)s's page"), { name: target.name })),
    ),
    h("div", { class: "button-row" }, report, h("button", { type: "button", onclick: () => modal.close() }, gettext("Close"))),
  );
  modal.open(opener);
  return modal;
}

/**
 * At a table drawn in `root`: the names of the other people seated become buttons of
 * `playerButton` (the computer players' and the reader's own stay as they are).
 * @param {HTMLElement} root
 * @param {{ seats: { user?: string | null, is_bot?: boolean, display_name?: string }[] }} view
 * @param {string} me The reader's username.
 * @param {string} room The room's code.
 */
export function seatNamesOpenPlayers(root, view, me, room) {
  for (const seat of root.querySelectorAll(".ring .seat[data-seat]")) {
    const at = view.seats[Number(/** @type {HTMLElement} */ (seat).dataset.seat)];
    const name = seat.querySelector(".seat-name span.name");
    if (!name || !at?.user || at.is_bot || at.user === me) continue;
    const shown = name.textContent ?? at.user;
    name.replaceWith(playerButton({ username: at.user, name: at.display_name || shown, room }, shown));
  }
}
