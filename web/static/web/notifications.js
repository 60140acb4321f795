// The notifications page (`/notifications`): what the server may send and when, push
// notices on this device (an explicit opt-in, see push.js), and the account's settings
// (`GET/PATCH me/notifications`): channels, e-mail address (mailed only once confirmed,
// by the link sent to it: see confirm.js), quiet hours. Around them, the account itself
// and where it is signed in (account.js), and last, its data and its closing (privacy.js).

import { accountSection, securitySection } from "./account.js";
import { api } from "./api.js";
import { signedOutPage } from "./auth.js";
import { h, replace } from "./dom.js";
import { gettext } from "./i18n.js";
import { languages, speak } from "./language.js";
import { iosBrowserTab } from "./platform.js";
import { TRICK_PAUSE_DEFAULT_MS } from "./prefs.js";
import { closedAccountPage, privacySection } from "./privacy.js";
import { claimSubscription, pushUnsupported, turnOff, turnOn } from "./push.js";

const DEFAULT_QUIET = { start: "22:00", end: "08:00" };

function browserTimeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

// Every zone the browser knows (IANA names), with `wanted` among them even if it does not.
function timeZones(wanted) {
  const zones = new Set(typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : []);
  zones.add("UTC");
  if (wanted) zones.add(wanted);
  return [...zones].sort();
}

// A labelled field with its own error line, tied to the input for screen readers.
/** @param {string | null} [hint] */
function field(id, label, input, hint = null) {
  const error = h("p", { class: "form-error field-error", id: `${id}-error`, "data-error-for": id });
  input.id = id;
  input.setAttribute("aria-describedby", [hint ? `${id}-hint` : null, `${id}-error`].filter(Boolean).join(" "));
  return h("div", { class: "field" }, h("label", { for: id }, label), input, hint && h("small", { id: `${id}-hint` }, hint), error);
}

/** @param {string | null} [hint] */
function check(id, label, input, hint = null) {
  input.id = id;
  if (hint) input.setAttribute("aria-describedby", `${id}-hint`);
  return h("div", { class: "field check" }, input, h("label", { for: id }, label), hint && h("small", { id: `${id}-hint` }, hint));
}

/** @param {string} hint */
function choice(id, label, select, hint) {
  select.id = id;
  select.setAttribute("aria-describedby", `${id}-hint`);
  return h("div", { class: "field" }, h("label", { for: id }, label), select, h("small", { id: `${id}-hint` }, hint));
}

// Saves one of the account's settings as it is chosen; refused, the choice goes back to
// what the account holds and the server's reason is said, as the forced-plays box does.
async function saveSetting(app, select, name, value, asString) {
  try {
    app.user = await api("me", { method: "PATCH", body: { [name]: value } });
  } catch (err) {
    app.toast(err.message, "error");
  }
  select.value = asString(app.user[name]);
}

// On an iPhone or iPad in a browser tab, where no notice can arrive: what does make them
// arrive, step by step. The Home Screen app keeps its own storage, apart from Safari's, so
// the person signs in there again.
function homeScreenAdvice() {
  return [
    h("p", { class: "push-unavailable home-screen" }, "On an iPhone or iPad, notices reach this site only once it is added to your Home Screen as an app (iOS 16.4 or later); a browser tab cannot receive them."),
    h(
      "ol",
      { class: "home-screen-steps" },
      h("li", {}, "Tap the Share button (in Safari, the square with an arrow up)."),
      h("li", {}, "Choose “Add to Home Screen”, then Add."),
      h("li", {}, "Open “Trick tables” from your Home Screen, log in there, and turn notifications on in its Settings."),
    ),
  ];
}

export class NotificationsPage {
  constructor(root, app) {
    this.root = root;
    this.app = app;
    this.settings = null;
    this.publicKey = null;
    // Set by start(), once the settings are loaded.
    /** @type {ReturnType<NotificationsPage["settingsForm"]>} */
    this.form;
  }

  destroy() {
    this.gone = true;
  }

  async start() {
    this.app.title("Settings · Trick-taking tables");
    if (!this.app.user) {
      // Just closed from this page, which its sign-out draws anew.
      if (closedAccountPage(this.root, this.app)) return;
      signedOutPage(this.root, "Settings", "Log in to choose how the tables reach you and how you play.");
      return;
    }
    replace(this.root, h("p", { class: "loading" }, "Loading…"));
    let key;
    try {
      [this.settings, key] = await Promise.all([api("me/notifications"), api("push/key")]);
    } catch (err) {
      if (this.gone) return;
      replace(this.root, h("section", { class: "panel" }, h("h1", {}, "Settings"), h("p", { class: "form-error", role: "alert" }, `The settings could not be loaded: ${err.message}`)));
      return;
    }
    if (this.gone) return;
    this.publicKey = key?.public_key ?? null;
    this.form = this.settingsForm();
    this.device = h("section", { class: "panel device", "aria-labelledby": "device-title" });
    const security = securitySection(this.app);
    replace(
      this.root,
      h(
        "div",
        { class: "settings" },
        h("h1", {}, gettext("Settings")),
        this.languageChoice(),
        accountSection(this.app, { passwordChanged: security.reload, accountKept: security.reload }),
        this.about(),
        this.device,
        this.form.el,
        this.atTheTable(),
        security.el,
        privacySection(this.app),
      ),
    );
    this.form.fill(this.settings);
    await this.renderDevice();
  }

  // What is sent, when, and what it says: plainly, before anything is switched on.
  about() {
    return h(
      "section",
      { class: "panel about", "aria-labelledby": "notifications-title" },
      h("h2", { id: "notifications-title" }, "Notifications"),
      h("p", {}, "When a game waits for your move and you are not on the site, the server can tell you:"),
      h(
        "ul",
        {},
        h("li", {}, "at most one notice for each of your turns;"),
        h("li", {}, "on clocks of an hour or more, one reminder before your turn runs out;"),
        h("li", {}, "one notice naming them all when several tables wait for you;"),
        h("li", {}, "nothing during your quiet hours, if you set them."),
      ),
      h("p", {}, "A notice says which table waits and links to it. It never carries your cards, tiles, or anything else hidden at the table."),
      h("p", { class: "meta" }, h("a", { href: "/", "data-link": "" }, "Back to your tables")),
    );
  }

  // The language of the page, the mails and the notices: the account's, so every device
  // signed in follows it. Each language is named in itself, for whoever reads only it.
  languageChoice() {
    const app = this.app;
    const known = languages();
    const select = h(
      "select",
      {
        onchange: async () => {
          const code = select.value;
          try {
            app.user = await api("me", { method: "PATCH", body: { language: code } });
          } catch (err) {
            select.value = app.user.language;
            app.toast(err.message, "error");
            return;
          }
          await speak(code).catch(() => false);
          await app.redraw();
        },
      },
      Object.entries(known).map(([code, language]) => h("option", { value: code, lang: code }, language.name)),
    );
    select.value = app.user.language;
    return h(
      "section",
      { class: "panel", "aria-labelledby": "language-title" },
      h("h2", { id: "language-title" }, gettext("Language")),
      choice("language", gettext("Language"), select, gettext("The language of this site, and of the mails and notices it sends you.")),
    );
  }

  // The account's game settings, each with what it does said plainly beside it. They are
  // the account's (PATCH me), so every device signed in follows them.
  atTheTable() {
    const app = this.app;
    const box = h("input", {
      type: "checkbox",
      checked: app.user.auto_play_forced,
      onchange: async () => {
        try {
          app.user = await api("me", { method: "PATCH", body: { auto_play_forced: box.checked } });
        } catch (err) {
          box.checked = app.user.auto_play_forced;
          app.toast(err.message, "error");
        }
      },
    });
    return h(
      "section",
      { class: "panel", "aria-labelledby": "table-settings-title" },
      h("h2", { id: "table-settings-title" }, "At the table"),
      check(
        "auto-play-forced",
        "Play my forced moves for me",
        box,
        "When your only legal move is a single card or tile, the server plays it for you at once. " +
          "The other players can then see that the move was forced.",
      ),
      this.confirmMoves(),
      this.trickPause(),
    );
  }

  // Three ways, as the server keeps it: null leaves it to the device (prefs.js), and the
  // first choice says what the device picked.
  confirmMoves() {
    const app = this.app;
    const asString = (value) => (value === true ? "on" : value === false ? "off" : "device");
    const touch = matchMedia("(pointer: coarse)").matches;
    const select = h(
      "select",
      {
        onchange: () => saveSetting(app, select, "confirm_moves", { on: true, off: false, device: null }[select.value], asString),
      },
      h("option", { value: "device" }, touch ? "As this device suits: on here (a touch screen)" : "As this device suits: off here (a mouse)"),
      h("option", { value: "on" }, "Always"),
      h("option", { value: "off" }, "Never"),
    );
    select.value = asString(app.user.confirm_moves);
    return choice(
      "confirm-moves",
      "Confirm each move",
      select,
      "On: a tap raises a card or tile, and a second tap on it, or the Play button under your hand, plays it. " +
        "Off: a tap plays at once. Either way a quick second tap is ignored, and Moon's widow asks first.",
    );
  }

  trickPause() {
    const app = this.app;
    const asString = (value) => String(value ?? TRICK_PAUSE_DEFAULT_MS);
    const steps = [0, 600, 1200, 2000, 3000];
    const current = app.user.trick_pause_ms ?? TRICK_PAUSE_DEFAULT_MS;
    // A length set elsewhere (through the API) is shown as it is, among the others.
    const shown = [...new Set([...steps, current])].sort((a, b) => a - b);
    const select = h(
      "select",
      { onchange: () => saveSetting(app, select, "trick_pause_ms", Number(select.value), asString) },
      shown.map((ms) => h("option", { value: String(ms) }, ms ? `${ms / 1000} s` : "Off: the next trick at once")),
    );
    select.value = asString(current);
    return choice(
      "trick-pause",
      "Keep a finished trick on the table for",
      select,
      "So that you can see every card of a trick, and who took it, before the next one is drawn.",
    );
  }

  // Push on this device: whether it can, whether it is on, and the one button.
  async renderDevice() {
    const title = h("h2", { id: "device-title" }, "Push notices on this device");
    if (this.publicKey && iosBrowserTab()) {
      replace(this.device, title, ...homeScreenAdvice());
      return;
    }
    const why = pushUnsupported() ?? (this.publicKey ? null : "This server does not send push notifications (it has no push key set up).");
    if (why) {
      replace(this.device, title, h("p", { class: "push-unavailable" }, why));
      return;
    }
    let subscription = null;
    try {
      subscription = await claimSubscription(this.publicKey);
    } catch {
      // Unreadable, or refused by the server: shown as off; turning on starts afresh.
    }
    if (this.gone) return;
    const status = h("p", { class: "push-status", role: "status" });
    const error = h("p", { class: "form-error", role: "alert", id: "push-error" });
    const blocked = Notification.permission === "denied";
    const button = h("button", { type: "button", class: subscription ? null : "primary", "aria-describedby": "push-error" }, subscription ? "Turn off on this device" : "Turn on notifications on this device");
    if (subscription) {
      status.textContent = this.settings.push
        ? "On: this browser receives push notices."
        : "This browser is ready, but push notices are switched off below.";
    } else if (blocked) {
      status.textContent = "Off: your browser blocks notifications from this site. Allow them in its site settings to turn them on here.";
      button.disabled = true;
    } else {
      status.textContent = "Off on this browser.";
    }
    button.addEventListener("click", async () => {
      error.textContent = "";
      button.disabled = true;
      try {
        if (subscription) {
          await turnOff();
          this.app.toast("Push notices are off on this device.");
        } else {
          await turnOn(this.publicKey);
          // Turning them on here means wanting them: the channel follows.
          if (!this.settings.push) {
            this.settings = await api("me/notifications", { method: "PATCH", body: { push: true } });
            this.form.fill(this.settings);
          }
          this.app.toast("Push notices are on for this device.");
        }
      } catch (err) {
        if (!this.gone) error.textContent = err.message;
        button.disabled = false;
        return;
      }
      if (!this.gone) await this.renderDevice();
      this.device.querySelector("button")?.focus();
    });
    replace(
      this.device,
      title,
      status,
      h(
        "p",
        { class: "meta" },
        subscription
          ? "Turning them off here stops them on this browser at once and makes the server forget it. Logging out does the same."
          : "Your browser asks for your permission first. The server then keeps only the address your browser's push service gives for this browser, to send the notices to.",
      ),
      button,
      error,
    );
  }

  settingsForm() {
    // The account's push channel reaches every browser where it was turned on, so it can
    // be chosen here even from a browser that cannot receive push itself; not at all
    // where the server sends none.
    const hasKey = Boolean(this.publicKey);
    const push = h("input", { type: "checkbox", name: "push" });
    const email = h("input", { type: "checkbox", name: "email" });
    const address = h("input", { type: "email", name: "email_address", autocomplete: "email", maxlength: 254, inputmode: "email" });
    const quietOn = h("input", { type: "checkbox", name: "quiet_on" });
    const start = h("input", { type: "time", name: "quiet_start" });
    const end = h("input", { type: "time", name: "quiet_end" });
    const zone = h("select", { name: "quiet_timezone" });
    // Whether the saved address is confirmed, and the link again when it is not.
    const confirmStatus = h("p", { class: "meta email-status", role: "status" });
    const confirmError = h("p", { class: "form-error", role: "alert", id: "confirm-error" });
    const again = h("button", { type: "button", "aria-describedby": "confirm-error" }, "Send the link again");
    const showConfirmation = (settings) => {
      const where = settings.email_address ?? "";
      // A server without a mailer mails nobody: never say a link is on its way.
      const mails = settings.email_available !== false;
      again.hidden = !where || settings.email_confirmed || !mails;
      if (!mails) confirmStatus.textContent = "This server sends no e-mail: notices reach you by push or on the page only.";
      else if (!where) confirmStatus.textContent = "";
      else if (settings.email_confirmed) confirmStatus.textContent = `Confirmed: e-mail notices go to ${where}.`;
      // Not "we sent": an address the account came with has had no link until asked for.
      else confirmStatus.textContent = `Not confirmed: open the link e-mailed to ${where}. Nothing else is e-mailed there until then.`;
    };
    again.addEventListener("click", async () => {
      confirmError.textContent = "";
      again.disabled = true;
      try {
        this.settings = await api("me/notifications/email-confirmation", { method: "POST", body: {} });
        showConfirmation(this.settings);
        this.app.toast(`A new link is on its way to ${this.settings.email_address}.`);
      } catch (err) {
        // 409 (no address, or confirmed already) and 429 (a link went minutes ago) say why.
        if (!this.gone) confirmError.textContent = err.message;
      } finally {
        again.disabled = false;
      }
    });
    const quietFields = h(
      "div",
      { class: "quiet-fields" },
      field("quiet-start", "From", start),
      field("quiet-end", "Until", end),
      field("quiet-timezone", "Time zone", zone, "The clock the hours are read on."),
    );
    const quietError = h("p", { class: "form-error field-error", id: "quiet-error", "data-error-for": "quiet" });
    const general = h("p", { class: "form-error", role: "alert" });
    const saved = h("p", { class: "saved", role: "status" });
    const submit = h("button", { type: "submit", class: "primary" }, "Save");
    const showQuiet = () => {
      quietFields.hidden = !quietOn.checked;
      // Hidden fields are not asked for; shown ones must be filled.
      for (const input of [start, end]) input.required = quietOn.checked;
    };
    quietOn.addEventListener("change", showQuiet);
    const errorSlots = () => [...el.querySelectorAll("[data-error-for]")];
    const clearErrors = () => {
      general.textContent = "";
      for (const slot of errorSlots()) slot.textContent = "";
      for (const input of el.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
    };
    // An error's `attr` names the field ("email_address", "quiet.start"...): its text goes
    // under that field; one the page cannot place goes above the button.
    const INPUTS = {
      push,
      email,
      email_address: address,
      quiet: quietOn,
      "quiet.start": start,
      "quiet.end": end,
      "quiet.timezone": zone,
    };
    const SLOTS = { email_address: "email_address", "quiet.start": "quiet-start", "quiet.end": "quiet-end", "quiet.timezone": "quiet-timezone" };
    const showErrors = (errors) => {
      let first = null;
      for (const e of errors) {
        const attr = e.attr ?? "";
        const slotId = SLOTS[attr] ?? (attr.startsWith("quiet") ? "quiet" : null);
        const slot = slotId && el.querySelector(`[data-error-for="${slotId}"]`);
        const input = INPUTS[attr] ?? (attr.startsWith("quiet") ? quietOn : null);
        if (slot) slot.textContent = [slot.textContent, e.detail].filter(Boolean).join(" ");
        else general.textContent = [general.textContent, e.detail].filter(Boolean).join(" ");
        if (input) {
          input.setAttribute("aria-invalid", "true");
          first ??= input;
        }
      }
      (first ?? submit).focus();
    };
    const values = () => {
      const body = {
        email: email.checked,
        email_address: address.value.trim(),
        quiet: quietOn.checked ? { start: start.value, end: end.value, timezone: zone.value } : null,
      };
      if (hasKey) body.push = push.checked;
      return body;
    };
    const el = h(
      "form",
      {
        class: "panel stack settings-form",
        "aria-labelledby": "settings-title",
        onsubmit: async (event) => {
          event.preventDefault();
          clearErrors();
          saved.textContent = "";
          submit.disabled = true;
          try {
            this.settings = await api("me/notifications", { method: "PATCH", body: values() });
            form.fill(this.settings);
            saved.textContent = "Saved.";
          } catch (err) {
            if (err.errors?.length) showErrors(err.errors);
            else general.textContent = err.message;
          } finally {
            submit.disabled = false;
          }
        },
      },
      h("h2", { id: "settings-title" }, "How to reach you"),
      h(
        "fieldset",
        {},
        h("legend", {}, "Send notices by"),
        check(
          "notify-push",
          "Push notices",
          push,
          hasKey ? "To every browser where you turned them on (above)." : "Not available here (see above).",
        ),
        check("notify-email", "E-mail", email, "To the address below."),
      ),
      field("email_address", "E-mail address", address, "Used for these notices only, once you confirm it by the link we e-mail to it."),
      h("div", { class: "email-confirmation" }, confirmStatus, again, confirmError),
      h(
        "fieldset",
        {},
        h("legend", {}, "Quiet hours"),
        check("quiet-on", "Send nothing during these hours", quietOn),
        quietError,
        quietFields,
      ),
      general,
      submit,
      saved,
    );
    push.disabled = !hasKey;
    const form = {
      el,
      fill: (settings) => {
        push.checked = hasKey && Boolean(settings.push);
        email.checked = Boolean(settings.email);
        address.value = settings.email_address ?? "";
        showConfirmation(settings);
        confirmError.textContent = "";
        const quiet = settings.quiet;
        quietOn.checked = Boolean(quiet);
        start.value = quiet?.start ?? DEFAULT_QUIET.start;
        end.value = quiet?.end ?? DEFAULT_QUIET.end;
        const tz = quiet?.timezone ?? browserTimeZone();
        replace(zone, timeZones(tz).map((name) => h("option", { value: name, selected: name === tz }, name)));
        zone.value = tz;
        showQuiet();
      },
    };
    return form;
  }
}
