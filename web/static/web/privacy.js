// Privacy, last on the settings page: a copy of everything the server holds about the
// account (`POST me/export`: a task builds the archive and mails a link to it to the
// confirmed address), and closing the account (`POST me/close`). Closing ends every
// sign-in of the account, this browser's too: the settings page is followed by one that
// says the account is closed, until when logging in with the password restores it, and
// offers the log-in form to do so (`auth/token` restores it).

import { errorPlaces, field, phraseWith } from "./account.js";
import { api, auth } from "./api.js";
import { authPanel } from "./auth.js";
import { h, replace } from "./dom.js";
import { gettext, interpolate, ngettext, timeText } from "./i18n.js";
import { siteName } from "./site.js";

// The server's ACCOUNT_CLOSURE_GRACE_DAYS as deployed by default, for the words before
// closing; once closed, the page shows the exact moment the server answered.
const GRACE_DAYS = 7;

/**
 * The account this browser just closed, for the page shown once its token is gone
 * (`closedAccountPage`). Kept in memory only: forgotten at the next sign-in, or when the
 * tab is closed.
 * @type {{ restorableUntil: string | null, guest: boolean } | null}
 */
let closed = null;

window.addEventListener("auth-changed", () => {
  if (auth.token) closed = null;
});

/** @param {string} iso */
function when(iso) {
  return timeText(iso, { dateStyle: "long", timeStyle: "short" });
}

/**
 * The privacy section of the settings page.
 * @param {{ user: { is_guest: boolean, has_password?: boolean } | null }} app
 */
export function privacySection(app) {
  return h(
    "section",
    { class: "settings-group privacy", "aria-labelledby": "privacy-title" },
    h("h2", { id: "privacy-title" }, gettext("Privacy")),
    exportPanel(),
    closePanel(app),
  );
}

// The server says what happened in every case (on its way; no confirmed address to mail
// it to; asked for too recently): its words are shown as they are.
function exportPanel() {
  const status = h("p", { class: "saved export-status", role: "status", tabindex: "-1" });
  const error = h("p", { class: "form-error", role: "alert", tabindex: "-1", id: "export-error" });
  const button = h("button", { type: "button", class: "primary", "aria-describedby": "export-error" }, gettext("E-mail me a link to my data"));
  button.addEventListener("click", async () => {
    status.textContent = "";
    error.textContent = "";
    button.disabled = true;
    let said;
    try {
      const answer = await api("me/export", { method: "POST" });
      said = status;
      said.textContent = answer?.detail || gettext("The archive of your data is being made; a link to it is on its way to your confirmed address.");
    } catch (err) {
      said = error;
      said.textContent = err.message;
    } finally {
      button.disabled = false;
    }
    // The button was disabled meanwhile, which loses the focus: it goes to the answer.
    said.focus();
  });
  return h(
    "section",
    { class: "panel data-export", "aria-labelledby": "export-title" },
    h("h3", { id: "export-title" }, gettext("Download your data")),
    h(
      "p",
      {},
      gettext(
        "A copy of everything this server holds about you, in one JSON file: your account and settings, where you signed in, your apps and tokens (without their secrets), every match you played with your own moves, your ratings, and any moderation entries about you.",
      ),
    ),
    h(
      "p",
      {},
      // Translators: “How to reach you” is the name of a part of the settings page, as it is worded there.
      gettext("The file is made in the background; a link to download it is e-mailed to the address you confirmed under “How to reach you”. The link works once."),
    ),
    h("div", { class: "button-row" }, button),
    status,
    error,
  );
}

/** @param {{ user: { is_guest: boolean, has_password?: boolean } | null }} app */
function closePanel(app) {
  const opener = h("button", { type: "button", class: "close-open", "aria-expanded": "false", "aria-controls": "close-step" }, gettext("Close my account…"));
  const step = h("div", { id: "close-step", class: "close-step", hidden: true });
  const el = h(
    "section",
    { class: "panel close-account", "aria-labelledby": "close-title" },
    h("h3", { id: "close-title" }, gettext("Close your account")),
    h("p", {}, gettext("Stop playing here and have your personal data erased.")),
    h("div", { class: "button-row" }, opener),
    step,
  );

  function hide() {
    replace(step);
    step.hidden = true;
    opener.hidden = false;
    opener.setAttribute("aria-expanded", "false");
    opener.focus();
  }

  // Drawn when asked for, from the account as it is then (a guest may have kept it, with
  // a password, since the page was drawn).
  opener.addEventListener("click", () => {
    const user = app.user;
    const guest = Boolean(user?.is_guest || user?.has_password === false);
    const heading = h("h4", { tabindex: "-1" }, gettext("Before you close it"));
    const secret = guest ? null : field("close-password", gettext("Your password"), passwordInput(), gettext("To be sure it is you."));
    const general = h("p", { class: "form-error", role: "alert" });
    const submit = h("button", { type: "submit", class: "danger" }, gettext("Close my account"));
    const errors = errorPlaces(secret ? { password: secret } : {}, general);
    const form = h(
      "form",
      {
        class: "stack",
        "aria-label": gettext("Close your account"),
        onsubmit: async (event) => {
          event.preventDefault();
          errors.clear();
          submit.disabled = true;
          let answer;
          try {
            answer = await api("me/close", { method: "POST", body: { password: secret ? secret.input.value : "" } });
          } catch (err) {
            submit.disabled = false;
            (errors.show(err) ?? secret?.input ?? submit).focus();
            return;
          }
          closed = { restorableUntil: answer?.restorable_until ?? null, guest };
          // Every sign-in has ended, this one too: the browser forgets its token, as at
          // Log out, and the page that follows (closedAccountPage) says what happened.
          auth.clear();
        },
      },
      heading,
      h(
        "ul",
        { class: "close-consequences" },
        h("li", {}, gettext("You are signed out everywhere at once, and your personal tokens and the apps you allowed stop working.")),
        h("li", {}, gettext("Your seats in games under way go to computer players, who play on; a lobby frees your seat.")),
        // Translators: “closed account N” is how the site names a closed account, as the server words it (N a number).
        h("li", {}, gettext("Your finished matches and ratings stay, shown under “closed account N” in place of your name.")),
        h(
          "li",
          {},
          interpolate(
            ngettext(
              "After %(n)s day your personal data is erased for good: your names, e-mail address, password and settings.",
              "After %(n)s days your personal data is erased for good: your names, e-mail address, password and settings.",
              GRACE_DAYS,
            ),
            { n: GRACE_DAYS },
          ),
        ),
        guest
          ? h("li", {}, h("strong", {}, gettext("A guest account has no password, so it cannot be restored: closing it is final.")))
          : h(
              "li",
              {},
              interpolate(
                ngettext(
                  "Changed your mind? Logging in with your password within that %(n)s day restores your account.",
                  "Changed your mind? Logging in with your password within those %(n)s days restores your account.",
                  GRACE_DAYS,
                ),
                { n: GRACE_DAYS },
              ),
            ),
      ),
      h("p", { class: "meta" }, gettext("To keep a copy of your data, ask for it above first: the link is mailed to your confirmed address.")),
      secret?.el,
      general,
      h("div", { class: "button-row" }, submit, h("button", { type: "button", onclick: hide }, gettext("Cancel"))),
    );
    replace(step, form);
    step.hidden = false;
    opener.hidden = true;
    opener.setAttribute("aria-expanded", "true");
    // The consequences are read first; the password follows them.
    heading.focus();
  });
  return el;
}

function passwordInput() {
  return /** @type {HTMLInputElement} */ (h("input", { type: "password", name: "password", required: true, autocomplete: "current-password", maxlength: 128 }));
}

/**
 * The page after this browser closed the account (its token is gone): that it is closed,
 * until when logging in restores it, and the log-in form to do so. False when this browser
 * closed none, for the page to show what it shows signed out.
 * @param {HTMLElement} root
 * @param {{ title: (text?: string) => void }} app
 */
export function closedAccountPage(root, app) {
  if (!closed) return false;
  const until = closed.restorableUntil;
  app.title(interpolate(gettext("Account closed · %(site)s"), { site: siteName() }));
  const heading = h("h1", { tabindex: "-1" }, gettext("Your account is closed"));
  const date = until ? h("time", { datetime: until }, when(until)) : null;
  const intro = h(
    "section",
    { class: "intro closed-account", "aria-labelledby": "closed-title" },
    heading,
    h("p", {}, gettext("You are signed out everywhere, and no notices are sent to you any more.")),
    closed.guest
      ? h(
          "p",
          { class: "restore" },
          date
            ? phraseWith(gettext("A guest account cannot be restored. Its personal data is erased on %(date)s."), { date })
            : interpolate(
                ngettext(
                  "A guest account cannot be restored. Its personal data is erased after %(n)s day.",
                  "A guest account cannot be restored. Its personal data is erased after %(n)s days.",
                  GRACE_DAYS,
                ),
                { n: GRACE_DAYS },
              ),
        )
      : h(
          "p",
          { class: "restore" },
          date
            ? phraseWith(
                gettext(
                  "Changed your mind? Log in with your password before %(date)s and your account is restored as it was. After that, your personal data is erased for good.",
                ),
                { date },
              )
            : interpolate(
                ngettext(
                  "Changed your mind? Log in with your password before %(n)s day has passed and your account is restored as it was. After that, your personal data is erased for good.",
                  "Changed your mind? Log in with your password before %(n)s days have passed and your account is restored as it was. After that, your personal data is erased for good.",
                  GRACE_DAYS,
                ),
                { n: GRACE_DAYS },
              ),
        ),
  );
  heading.id = "closed-title";
  replace(root, h("div", { class: "home" }, intro, authPanel()));
  // After the log-in form, which takes the focus for itself once drawn (in a microtask too).
  queueMicrotask(() => heading.focus());
  return true;
}
