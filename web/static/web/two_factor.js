// Two-step sign-in, on the settings page: after the password, logging in asks for a code
// from an authenticator app (TOTP), or one of the recovery codes kept for a lost phone
// (`me/factors`). Turning it on, making new recovery codes and turning it off each ask
// for the password again: a sign-in left open on a shared computer is not enough. A
// passkey (passkeys.js, in its own panel) is a second step too: with one, the panel says
// so, and keeps the recovery codes' button even while the app is off.

import { errorPlaces, field, phraseWith } from "./account.js";
import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { gettext, interpolate, ngettext } from "./i18n.js";

// So few recovery codes left that the panel says to make new ones.
const FEW_LEFT = 2;

function passwordInput() {
  return /** @type {HTMLInputElement} */ (h("input", { type: "password", name: "password", required: true, autocomplete: "current-password", maxlength: 128 }));
}

/** @param {string} secret Shown in groups of four, as apps' key fields take it (spaces are ignored). */
function grouped(secret) {
  return secret.replace(/\s+/g, "").replace(/(.{4})(?=.)/g, "$1 ");
}

/** @param {number} left */
function codesLeft(left) {
  return interpolate(ngettext("%(n)s recovery code left.", "%(n)s recovery codes left.", left), { n: left });
}

/**
 * Recovery codes are shown once, as made: the server keeps only their digests. Drawn in
 * `body` in place of what was there, the keyboard on their heading.
 * @param {HTMLElement} body
 * @param {string[]} codes
 * @param {{ said: string, standsIn: string, done: () => void }} words `said`: what just
 * happened; `standsIn`: the sentence saying what a code stands in for, and when (one
 * sentence, as each language words it); `done`: after Done.
 */
export function showRecoveryCodes(body, codes, { said, standsIn, done }) {
  const heading = h("h4", { tabindex: "-1" }, gettext("Your recovery codes"));
  const copied = h("p", { class: "saved copied-codes", role: "status" });
  const copy =
    navigator.clipboard &&
    h(
      "button",
      {
        type: "button",
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(codes.join("\n"));
            // Translators: said once the recovery codes are copied to the clipboard.
            copied.textContent = gettext("Copied.");
          } catch {
            copied.textContent = gettext("They could not be copied: select them and copy them yourself.");
          }
        },
      },
      // Translators: a button that copies the recovery codes to the clipboard.
      gettext("Copy"),
    );
  replace(
    body,
    heading,
    h("p", {}, said),
    h(
      "p",
      { class: "keep-safe" },
      h("strong", {}, gettext("Keep them somewhere safe, such as a password manager or on paper.")),
      ` ${standsIn} ${gettext("They are shown only now.")}`,
    ),
    h("ul", { class: "recovery-codes", "aria-label": gettext("Recovery codes") }, codes.map((one) => h("li", {}, h("code", {}, one)))),
    // Translators: the button under the recovery codes, once they are kept.
    h("div", { class: "button-row" }, copy, h("button", { type: "button", class: "primary", onclick: done }, gettext("Done"))),
    copied,
  );
  heading.focus();
}

/**
 * The panel, which loads its state itself; `load()` reads it again (the account may have
 * gained a password, or the factors changed in another tab).
 * @param {{ user: { is_guest: boolean, has_password?: boolean } | null }} app
 * @returns {{ el: HTMLElement, load: () => Promise<void> }}
 */
export function twoFactorPanel(app) {
  const title = h("h3", { id: "two-factor-title", tabindex: "-1" }, gettext("Two-step sign-in"));
  // Outside the part drawn anew at each step, so that what they say is announced.
  const status = h("p", { class: "saved", role: "status" });
  const alert = h("p", { class: "form-error", role: "alert" });
  const body = h("div", { class: "two-factor-body" });
  const el = h("section", { class: "panel two-factor", "aria-labelledby": "two-factor-title" }, title, status, alert, body);
  // Only the latest read is drawn: a slower earlier one must not undo a step taken since.
  let reads = 0;
  // As last read: how many passkeys the account has (passkeys.js adds and removes them).
  let passkeys = 0;

  function say(text = "", error = "") {
    status.textContent = text;
    alert.textContent = error;
  }

  // From a step back to the panel's state, with the keyboard at its top.
  async function back(text = "", error = "") {
    await load();
    say(text, error);
    title.focus();
  }

  async function load() {
    const read = ++reads;
    const user = app.user;
    if (!user || user.is_guest || user.has_password === false) {
      replace(
        body,
        h(
          "p",
          { class: "no-password" },
          user?.is_guest
            ? gettext(
                // Translators: “Keep this account” names the part of the settings page above, as it is worded there.
                "A guest account has no password to add a second step to: keep your account first (Keep this account, above), then turn two-step sign-in on here.",
              )
            : gettext("Your account has no password to add a second step to."),
        ),
      );
      return;
    }
    let factors;
    try {
      factors = await api("me/factors");
    } catch (err) {
      if (read !== reads) return;
      replace(body, h("p", { class: "form-error" }, interpolate(gettext("Two-step sign-in could not be loaded: %(error)s"), { error: err.message })));
      return;
    }
    if (read !== reads) return;
    draw(factors);
  }

  /** @param {{ totp: boolean, passkeys?: number, recovery_codes_left: number }} factors */
  function draw(factors) {
    passkeys = factors.passkeys ?? 0;
    const left = factors.recovery_codes_left;
    // What else logs in: whole sentences, as each language words its list. (The line is
    // shown only with the app or a passkey.)
    const runOut =
      passkeys && factors.totp
        ? gettext("Make new ones before you run out: without a passkey, the app or a recovery code you cannot log in.")
        : passkeys
          ? gettext("Make new ones before you run out: without a passkey or a recovery code you cannot log in.")
          : gettext("Make new ones before you run out: without the app or a recovery code you cannot log in.");
    const codesLine = h(
      "p",
      { class: left <= FEW_LEFT ? "recovery-left few" : "recovery-left" },
      codesLeft(left),
      left <= FEW_LEFT ? ` ${runOut}` : "",
    );
    if (!factors.totp && passkeys) {
      replace(
        body,
        h(
          "p",
          { class: "two-factor-state" },
          h("strong", {}, gettext("On, with your passkeys.")),
          ` ${gettext("Logging in with your password asks for a passkey next.")}`,
        ),
        h("p", {}, gettext("You can add an authenticator app too, for a code when none of your passkeys is at hand.")),
        codesLine,
        h(
          "div",
          { class: "button-row" },
          h("button", { type: "button", onclick: turnOn }, gettext("Add an authenticator app")),
          h("button", { type: "button", onclick: newCodes }, gettext("New recovery codes")),
        ),
      );
      return;
    }
    if (!factors.totp) {
      replace(
        body,
        h(
          "p",
          { class: "two-factor-state" },
          // Translators: two-step sign-in's state.
          h("strong", {}, gettext("Off.")),
          ` ${gettext("Logging in asks for your password only.")}`,
        ),
        h(
          "p",
          {},
          gettext(
            "Turn it on to be asked, after your password, for a code that an authenticator app on your phone makes anew every 30 seconds: someone who learns your password still cannot log in.",
          ),
        ),
        // Translators: the button that begins turning two-step sign-in on.
        h("div", { class: "button-row" }, h("button", { type: "button", class: "primary", onclick: turnOn }, gettext("Turn on"))),
      );
      return;
    }
    replace(
      body,
      h(
        "p",
        { class: "two-factor-state" },
        // Translators: two-step sign-in's state.
        h("strong", {}, gettext("On.")),
        ` ${
          passkeys
            ? gettext("Logging in asks for a code from your authenticator app, or a passkey, after your password.")
            : gettext("Logging in asks for a code from your authenticator app after your password.")
        }`,
      ),
      codesLine,
      h(
        "div",
        { class: "button-row" },
        h("button", { type: "button", onclick: newCodes }, gettext("New recovery codes")),
        h(
          "button",
          { type: "button", onclick: turnOff },
          passkeys
            ? gettext("Turn off the app")
            : // Translators: the button that begins turning two-step sign-in off.
              gettext("Turn off"),
        ),
      ),
    );
  }

  /**
   * A step that asks for the password, then `POST path` with it; `done` gets the answer.
   * A 409 means the account changed meanwhile (another tab): the panel shows it as it is.
   * @param {{ name: string, intro: string, submitLabel: string, path: string, done: (answer: any) => void }} step
   */
  function askPassword({ name, intro, submitLabel, path, done }) {
    reads++;
    say();
    const secret = field("two-factor-password", gettext("Your password"), passwordInput());
    const general = h("p", { class: "form-error", role: "alert" });
    const submit = h("button", { type: "submit", class: "primary" }, submitLabel);
    const errors = errorPlaces({ password: secret }, general);
    const form = h(
      "form",
      {
        class: "stack",
        "aria-label": name,
        onsubmit: async (event) => {
          event.preventDefault();
          errors.clear();
          submit.disabled = true;
          let answer;
          try {
            answer = await api(path, { method: "POST", body: { password: secret.input.value } });
          } catch (err) {
            submit.disabled = false;
            if (err.status === 409) {
              await back("", err.message);
              return;
            }
            (errors.show(err) ?? secret.input).focus();
            return;
          }
          done(answer);
        },
      },
      h("p", {}, intro),
      secret.el,
      general,
      h("div", { class: "button-row" }, submit, h("button", { type: "button", onclick: () => back() }, gettext("Cancel"))),
    );
    replace(body, form);
    secret.input.focus();
  }

  function turnOn() {
    askPassword({
      name: passkeys ? gettext("Add an authenticator app") : gettext("Turn on two-step sign-in"),
      intro: gettext("Your password first, to be sure it is you."),
      submitLabel: gettext("Continue"),
      path: "me/factors/totp",
      done: setUp,
    });
  }

  function newCodes() {
    askPassword({
      name: gettext("Make new recovery codes"),
      intro: gettext("New recovery codes replace the ones you have: those stop working at once."),
      submitLabel: gettext("Make new codes"),
      path: "me/factors/recovery-codes",
      done: (answer) => showCodes(answer.recovery_codes, gettext("Your new recovery codes. The old ones no longer work.")),
    });
  }

  function turnOff() {
    // With a passkey, only the app goes: the passkeys and the recovery codes stay.
    const kept = passkeys > 0;
    askPassword({
      name: kept ? gettext("Turn off the authenticator app") : gettext("Turn off two-step sign-in"),
      intro: kept
        ? gettext("Logging in will no longer take a code from the app. Your passkeys and recovery codes still work.")
        : gettext("Logging in will ask for your password only, and your recovery codes stop working."),
      submitLabel: kept ? gettext("Turn off the authenticator app") : gettext("Turn off two-step sign-in"),
      path: "me/factors/totp/off",
      done: (answer) => {
        reads++;
        draw(answer);
        say(
          kept
            ? gettext("The authenticator app is off: your passkeys and recovery codes still work.")
            : gettext("Turned off: your recovery codes no longer work either."),
        );
        title.focus();
      },
    });
  }

  /**
   * The app is given the secret (by the QR code, the otpauth: link on a phone, or typed),
   * then one of its codes proves it has it; only then is the second step asked at log-in.
   * @param {{ secret: string, otpauth_uri: string, qr_svg_data_uri: string }} setup
   */
  function setUp(setup) {
    reads++;
    const heading = h("h4", { tabindex: "-1" }, gettext("Add this site to your authenticator app"));
    const input = /** @type {HTMLInputElement} */ (
      h("input", { name: "code", required: true, autocomplete: "one-time-code", inputmode: "numeric", maxlength: 10, spellcheck: "false" })
    );
    const code = field("two-factor-code", gettext("Code from the app"), input, gettext("The 6 digits the app shows for this site now."));
    const general = h("p", { class: "form-error", role: "alert" });
    const submit = h("button", { type: "submit", class: "primary" }, gettext("Confirm and turn on"));
    const errors = errorPlaces({ code }, general);
    const form = h(
      "form",
      {
        class: "stack",
        "aria-label": gettext("Confirm your authenticator app"),
        onsubmit: async (event) => {
          event.preventDefault();
          errors.clear();
          submit.disabled = true;
          let answer;
          try {
            answer = await api("me/factors/totp/confirm", { method: "POST", body: { code: input.value.replace(/\s+/g, "") } });
          } catch (err) {
            submit.disabled = false;
            if (err.status === 409) {
              await back("", err.message);
              return;
            }
            (errors.show(err) ?? input).focus();
            input.select();
            return;
          }
          showCodes(
            answer.recovery_codes,
            passkeys
              ? gettext("The authenticator app is added: logging in now takes a code from it, or a passkey. These recovery codes replace your earlier ones.")
              : gettext("Two-step sign-in is on: logging in now asks for a code from the app."),
          );
        },
      },
      code.el,
      general,
      h("div", { class: "button-row" }, submit, h("button", { type: "button", onclick: () => back() }, gettext("Cancel"))),
    );
    replace(
      body,
      heading,
      h(
        "ol",
        { class: "setup-steps" },
        h(
          "li",
          {},
          h("p", {}, gettext("Scan this QR code with an authenticator app on your phone:")),
          h("img", {
            class: "totp-qr",
            src: setup.qr_svg_data_uri,
            alt: gettext("QR code that adds this site to an authenticator app"),
            width: 192,
            height: 192,
          }),
          h(
            "p",
            {},
            phraseWith(
              // Translators: %(link)s is a link whose words are "Open it in the authenticator app".
              gettext("On that phone already? %(link)s."),
              { link: h("a", { href: setup.otpauth_uri }, gettext("Open it in the authenticator app")) },
            ),
          ),
          h("p", {}, gettext("Or type this key into the app:")),
          h("p", {}, h("code", { class: "totp-secret" }, grouped(setup.secret))),
        ),
        h("li", {}, h("p", {}, gettext("Then type the code it shows:")), form),
      ),
    );
    heading.focus();
  }

  /**
   * @param {string[]} codes
   * @param {string} said
   */
  function showCodes(codes, said) {
    reads++;
    say();
    const standsIn = passkeys
      ? gettext("Each logs you in once in place of a code from the app or a passkey, if you lose your devices.")
      : gettext("Each logs you in once in place of a code from the app, if you lose your phone.");
    showRecoveryCodes(body, codes, { said, standsIn, done: () => back() });
  }

  load();
  return { el, load };
}
