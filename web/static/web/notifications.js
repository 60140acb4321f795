// The notifications page (`/notifications`): what the server may send and when, push
// notices on this device (an explicit opt-in, see push.js), and the account's settings
// (`GET/PATCH me/notifications`): channels, e-mail address (mailed only once confirmed,
// by the link sent to it: see confirm.js), quiet hours. Around them, the account itself
// and where it is signed in (account.js), and last, its data and its closing (privacy.js).

import { accountSection, securitySection } from "./account.js";
import { api } from "./api.js";
import { signedOutPage } from "./auth.js";
import { h, replace } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";
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

// A finished trick's pause as the choice names it: "1.2 s" (the number as JavaScript writes it).
/** @param {number} ms */
function pauseText(ms) {
  // Translators: a length of time in seconds, abbreviated; %(seconds)s is such as 0.6 or 2.
  return interpolate(gettext("%(seconds)s s"), { seconds: ms / 1000 });
}

// On an iPhone or iPad in a browser tab, where no notice can arrive: what does make them
// arrive, step by step. The Home Screen app keeps its own storage, apart from Safari's, so
// the person signs in there again.
function homeScreenAdvice() {
  return [
    h(
      "p",
      { class: "push-unavailable home-screen" },
      gettext("On an iPhone or iPad, notices reach this site only once it is added to your Home Screen as an app (iOS 16.4 or later); a browser tab cannot receive them."),
    ),
    h(
      "ol",
      { class: "home-screen-steps" },
      // Translators: the steps name iOS's own buttons and menus: use the words iOS shows in your language.
      h("li", {}, gettext("Tap the Share button (in Safari, the square with an arrow up).")),
      h("li", {}, gettext("Choose “Add to Home Screen”, then Add.")),
      // Translators: “Trick tables” is the name under the app's Home Screen icon (web/manifest.py's SHORT_NAME): write it as the icon shows it.
      h("li", {}, gettext("Open “Trick tables” from your Home Screen, log in there, and turn notifications on in its Settings.")),
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
    // Translators: the browser tab's title on the Settings page.
    this.app.title(gettext("Settings · Trick-taking tables"));
    if (!this.app.user) {
      // Just closed from this page, which its sign-out draws anew.
      if (closedAccountPage(this.root, this.app)) return;
      signedOutPage(this.root, gettext("Settings"), gettext("Log in to choose how the tables reach you and how you play."));
      return;
    }
    replace(this.root, h("p", { class: "loading" }, gettext("Loading…")));
    let key;
    try {
      [this.settings, key] = await Promise.all([api("me/notifications"), api("push/key")]);
    } catch (err) {
      if (this.gone) return;
      const said = interpolate(gettext("The settings could not be loaded: %(error)s"), { error: err.message });
      replace(this.root, h("section", { class: "panel" }, h("h1", {}, gettext("Settings")), h("p", { class: "form-error", role: "alert" }, said)));
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
      h("h2", { id: "notifications-title" }, gettext("Notifications")),
      h("p", {}, gettext("When a game waits for your move and you are not on the site, the server can tell you:")),
      h(
        "ul",
        {},
        // Translators: the items of a list that follows "the server can tell you:".
        h("li", {}, gettext("at most one notice for each of your turns;")),
        h("li", {}, gettext("on clocks of an hour or more, one reminder before your turn runs out;")),
        h("li", {}, gettext("one notice naming them all when several tables wait for you;")),
        h("li", {}, gettext("nothing during your quiet hours, if you set them.")),
      ),
      h("p", {}, gettext("A notice says which table waits and links to it. It never carries your cards, tiles, or anything else hidden at the table.")),
      h("p", { class: "meta" }, h("a", { href: "/", "data-link": "" }, gettext("Back to your tables"))),
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
      h("h2", { id: "table-settings-title" }, gettext("At the table")),
      check(
        "auto-play-forced",
        gettext("Play my forced moves for me"),
        box,
        gettext("When your only legal move is a single card or tile, the server plays it for you at once. The other players can then see that the move was forced."),
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
      h("option", { value: "device" }, touch ? gettext("As this device suits: on here (a touch screen)") : gettext("As this device suits: off here (a mouse)")),
      // Translators: a choice of "Confirm each move".
      h("option", { value: "on" }, gettext("Always")),
      // Translators: a choice of "Confirm each move".
      h("option", { value: "off" }, gettext("Never")),
    );
    select.value = asString(app.user.confirm_moves);
    return choice(
      "confirm-moves",
      gettext("Confirm each move"),
      select,
      // Translators: "Play" is the table's button of that name, under the player's hand.
      gettext("On: a tap raises a card or tile, and a second tap on it, or the Play button under your hand, plays it. Off: a tap plays at once. Either way a quick second tap is ignored, and Moon's widow asks first."),
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
      shown.map((ms) => h("option", { value: String(ms) }, ms ? pauseText(ms) : gettext("Off: the next trick at once"))),
    );
    select.value = asString(current);
    return choice(
      "trick-pause",
      // Translators: a label followed by a choice of lengths of time ("1.2 s").
      gettext("Keep a finished trick on the table for"),
      select,
      gettext("So that you can see every card of a trick, and who took it, before the next one is drawn."),
    );
  }

  // Push on this device: whether it can, whether it is on, and the one button.
  async renderDevice() {
    const title = h("h2", { id: "device-title" }, gettext("Push notices on this device"));
    if (this.publicKey && iosBrowserTab()) {
      replace(this.device, title, ...homeScreenAdvice());
      return;
    }
    const why = pushUnsupported() ?? (this.publicKey ? null : gettext("This server does not send push notifications (it has no push key set up)."));
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
    const button = h(
      "button",
      { type: "button", class: subscription ? null : "primary", "aria-describedby": "push-error" },
      subscription ? gettext("Turn off on this device") : gettext("Turn on notifications on this device"),
    );
    if (subscription) {
      status.textContent = this.settings.push
        ? gettext("On: this browser receives push notices.")
        : gettext("This browser is ready, but push notices are switched off below.");
    } else if (blocked) {
      status.textContent = gettext("Off: your browser blocks notifications from this site. Allow them in its site settings to turn them on here.");
      button.disabled = true;
    } else {
      status.textContent = gettext("Off on this browser.");
    }
    button.addEventListener("click", async () => {
      error.textContent = "";
      button.disabled = true;
      try {
        if (subscription) {
          await turnOff();
          this.app.toast(gettext("Push notices are off on this device."));
        } else {
          await turnOn(this.publicKey);
          // Turning them on here means wanting them: the channel follows.
          if (!this.settings.push) {
            this.settings = await api("me/notifications", { method: "PATCH", body: { push: true } });
            this.form.fill(this.settings);
          }
          this.app.toast(gettext("Push notices are on for this device."));
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
          ? gettext("Turning them off here stops them on this browser at once and makes the server forget it. Logging out does the same.")
          : gettext("Your browser asks for your permission first. The server then keeps only the address your browser's push service gives for this browser, to send the notices to."),
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
    const again = h("button", { type: "button", "aria-describedby": "confirm-error" }, gettext("Send the link again"));
    const showConfirmation = (settings) => {
      const where = settings.email_address ?? "";
      // A server without a mailer mails nobody: never say a link is on its way.
      const mails = settings.email_available !== false;
      again.hidden = !where || settings.email_confirmed || !mails;
      if (!mails) confirmStatus.textContent = gettext("This server sends no e-mail: notices reach you by push or on the page only.");
      else if (!where) confirmStatus.textContent = "";
      // Translators: %(address)s is an e-mail address.
      else if (settings.email_confirmed) confirmStatus.textContent = interpolate(gettext("Confirmed: e-mail notices go to %(address)s."), { address: where });
      // Not "we sent": an address the account came with has had no link until asked for.
      // Translators: %(address)s is an e-mail address.
      else confirmStatus.textContent = interpolate(gettext("Not confirmed: open the link e-mailed to %(address)s. Nothing else is e-mailed there until then."), { address: where });
    };
    again.addEventListener("click", async () => {
      confirmError.textContent = "";
      again.disabled = true;
      try {
        this.settings = await api("me/notifications/email-confirmation", { method: "POST", body: {} });
        showConfirmation(this.settings);
        // Translators: %(address)s is an e-mail address.
        this.app.toast(interpolate(gettext("A new link is on its way to %(address)s."), { address: this.settings.email_address }));
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
      // Translators: the start of the quiet hours (a time of day).
      field("quiet-start", gettext("From"), start),
      // Translators: the end of the quiet hours (a time of day).
      field("quiet-end", gettext("Until"), end),
      field("quiet-timezone", gettext("Time zone"), zone, gettext("The clock the hours are read on.")),
    );
    const quietError = h("p", { class: "form-error field-error", id: "quiet-error", "data-error-for": "quiet" });
    const general = h("p", { class: "form-error", role: "alert" });
    const saved = h("p", { class: "saved", role: "status" });
    const submit = h("button", { type: "submit", class: "primary" }, gettext("Save"));
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
            saved.textContent = gettext("Saved.");
          } catch (err) {
            if (err.errors?.length) showErrors(err.errors);
            else general.textContent = err.message;
          } finally {
            submit.disabled = false;
          }
        },
      },
      h("h2", { id: "settings-title" }, gettext("How to reach you")),
      h(
        "fieldset",
        {},
        h("legend", {}, gettext("Send notices by")),
        check(
          "notify-push",
          gettext("Push notices"),
          push,
          hasKey ? gettext("To every browser where you turned them on (above).") : gettext("Not available here (see above)."),
        ),
        check("notify-email", gettext("E-mail"), email, gettext("To the address below.")),
      ),
      field("email_address", gettext("E-mail address"), address, gettext("Used for these notices only, once you confirm it by the link we e-mail to it.")),
      h("div", { class: "email-confirmation" }, confirmStatus, again, confirmError),
      h(
        "fieldset",
        {},
        h("legend", {}, gettext("Quiet hours")),
        check("quiet-on", gettext("Send nothing during these hours"), quietOn),
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
