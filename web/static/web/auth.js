// Sign up, log in, or play as a guest: each ends with a token kept in localStorage.

import { api, auth } from "./api.js";
import { h, replace } from "./dom.js";
import { gettext } from "./i18n.js";
import { declined, passkeysWork, promptFailed, usePasskey } from "./webauthn.js";

function field(label, input, hint) {
  return h("label", { class: "field" }, h("span", { class: "field-label" }, label), input, hint && h("small", {}, hint));
}

/**
 * @param {string} title
 * @param {unknown[]} fields
 * @param {string} submitLabel
 * @param {(data: FormData) => Promise<void>} submit
 * @param {unknown} [after] What follows the button (a way elsewhere, such as a forgotten password).
 * @param {HTMLElement} [error] The form's one error line, for what happens outside its submit too.
 */
function form(title, fields, submitLabel, submit, after = null, error = h("p", { class: "form-error", role: "alert" })) {
  const button = h("button", { type: "submit", class: "primary" }, submitLabel);
  const el = h(
    "form",
    {
      class: "stack",
      "aria-label": title,
      onsubmit: async (event) => {
        event.preventDefault();
        error.textContent = "";
        button.disabled = true;
        try {
          await submit(new FormData(el));
        } catch (err) {
          error.textContent = err.message;
        } finally {
          button.disabled = false;
        }
      },
    },
    fields,
    error,
    button,
    after,
  );
  return el;
}

async function signIn(token) {
  auth.set(token);
}

/**
 * Asks for the link that resets a forgotten password (`auth/password-reset`), then shows
 * the server's answer in its place: the same answer whether or not the address is an
 * account's, so that the form tells nobody which addresses are.
 * @param {HTMLElement | null} [back] Shown below the form, and below the answer.
 */
export function resetRequestForm(back = null) {
  const box = h("div", { class: "reset-request stack" });
  const email = h("input", { name: "email", type: "email", required: true, maxlength: 254, autocomplete: "email", inputmode: "email" });
  const el = form(
    gettext("Reset your password"),
    [
      h("p", { class: "meta" }, gettext("A link to choose a new password is e-mailed to the address you confirmed in your settings for notices.")),
      field(gettext("E-mail address"), email),
    ],
    gettext("E-mail me a link"),
    async (data) => {
      const answer = await api("auth/password-reset", { method: "POST", body: { email: String(data.get("email") ?? "").trim() } });
      const said = h("p", { class: "reset-sent", role: "status", tabindex: "-1" }, answer?.detail ?? "");
      replace(box, said, back);
      said.focus();
    },
    back,
  );
  return replace(box, el);
}

/**
 * The log-in form. An account with two-step sign-in answers the password alone with
 * `second_factor_required`: the form then asks for a code as well, keeping what was typed,
 * and sends the three together; or, instead of the code, the answer of a passkey. Where
 * the browser has passkeys, a passkey also logs in alone, with nothing typed.
 * @param {() => void} forgot Shows the form that resets a forgotten password.
 */
function loginForm(forgot) {
  const APP = {
    label: gettext("Code from your authenticator app"),
    hint: gettext("The 6 digits the app shows now. Lost your phone? One of your recovery codes works too."),
    other: gettext("Use a recovery code"),
  };
  // A phone's numeric keypad has no letters: a recovery code (abcd-efgh) gets a text one.
  const RECOVERY = {
    label: gettext("Recovery code"),
    hint: gettext("One of the codes you kept when you turned two-step sign-in on. Each works once."),
    other: gettext("Use the code from the app"),
  };
  const code = /** @type {HTMLInputElement} */ (
    h("input", {
      id: "login-code",
      name: "code",
      disabled: true,
      autocomplete: "one-time-code",
      inputmode: "numeric",
      maxlength: 20,
      autocapitalize: "off",
      spellcheck: "false",
      "aria-describedby": "login-code-hint login-code-error",
    })
  );
  const label = h("label", { for: "login-code", class: "field-label" });
  const hint = h("small", { id: "login-code-hint" });
  const codeError = h("p", { class: "form-error field-error", id: "login-code-error", role: "alert" });
  let recovery = false;
  const switchKind = h("button", { type: "button", class: "link code-kind" });
  const kind = () => {
    const words = recovery ? RECOVERY : APP;
    label.textContent = words.label;
    hint.textContent = words.hint;
    switchKind.textContent = words.other;
    code.inputMode = recovery ? "text" : "numeric";
    code.autocomplete = recovery ? "off" : "one-time-code";
  };
  switchKind.addEventListener("click", () => {
    recovery = !recovery;
    kind();
    code.focus();
  });
  kind();
  const error = h("p", { class: "form-error", role: "alert" });
  const username = /** @type {HTMLInputElement} */ (h("input", { name: "username", required: true, autocomplete: "username" }));
  const password = /** @type {HTMLInputElement} */ (h("input", { name: "password", type: "password", required: true, autocomplete: "current-password" }));
  const passkeys = passkeysWork();
  const secondStep = /** @type {HTMLButtonElement} */ (h("button", { type: "button", class: "passkey-second-step" }, gettext("Use a passkey instead")));
  const alone = /** @type {HTMLButtonElement} */ (h("button", { type: "button", class: "passkey-sign-in" }, gettext("Sign in with a passkey")));
  const codeField = h(
    "div",
    { class: "field second-factor" },
    label,
    code,
    hint,
    codeError,
    h("p", { class: "code-kind-row" }, switchKind),
    passkeys && h("p", { class: "passkey-row" }, secondStep),
  );
  // In the form only once the server asks for it: an account without two-step sign-in
  // sees the form as it always was.
  const codeSlot = h("div", { class: "second-factor-slot" });
  const clearCode = () => {
    codeError.textContent = "";
    code.removeAttribute("aria-invalid");
  };
  const askCode = () => {
    codeSlot.replaceChildren(codeField);
    code.disabled = false;
    code.required = true;
    code.focus();
  };

  /**
   * A passkey's ceremony started from `button`: its words go to the form's error line,
   * and the button waits for it.
   * @param {HTMLButtonElement} button
   * @param {() => Promise<void>} run
   */
  async function ceremony(button, run) {
    error.textContent = "";
    clearCode();
    button.disabled = true;
    try {
      await run();
    } catch (err) {
      error.textContent = err.message;
    } finally {
      button.disabled = false;
    }
  }

  // Instead of the code: the username and password as typed, and the passkey's answer
  // to a ceremony begun for a second step.
  secondStep.addEventListener("click", () =>
    ceremony(secondStep, async () => {
      const options = await api("auth/passkey/options", { method: "POST", body: { second_step: true } });
      let passkey;
      try {
        passkey = await usePasskey(options.publicKey);
      } catch (err) {
        error.textContent = declined(err)
          ? gettext("Your passkey was not used: its prompt was closed before it answered. Try again, or type a code instead.")
          : promptFailed(err);
        return;
      }
      let answer;
      try {
        answer = await api("auth/token", { method: "POST", body: { username: username.value, password: password.value, passkey } });
      } catch (err) {
        if (err.code === "wrong_second_factor") {
          error.textContent = gettext("That passkey is not one of this account's: pick the passkey you added for this username, or type a code instead.");
          return;
        }
        throw err;
      }
      await signIn(answer.token);
    }),
  );

  // Alone, the passkey names its account: nothing is typed, and the device checks its
  // person (a fingerprint, a face, a PIN) in place of the password.
  alone.addEventListener("click", () =>
    ceremony(alone, async () => {
      const options = await api("auth/passkey/options", { method: "POST", body: { second_step: false } });
      let credential;
      try {
        credential = await usePasskey(options.publicKey);
      } catch (err) {
        error.textContent = declined(err)
          ? gettext(
              "Your passkey did not log you in: its prompt was closed, or your device could not check that it is you (with your fingerprint, face or PIN). Try again, or log in with your password.",
            )
          : promptFailed(err);
        return;
      }
      let answer;
      try {
        answer = await api("auth/passkey", { method: "POST", body: { credential } });
      } catch (err) {
        if (err.code === "passkey_refused") {
          error.textContent = gettext(
            "That passkey did not log you in. Logging in with a passkey alone takes one you added to this site, on a device that checks it is you (with your fingerprint, face or PIN). You can also log in with your password and use the passkey as the second step.",
          );
          return;
        }
        throw err;
      }
      await signIn(answer.token);
    }),
  );

  return form(
    // Translators: the log-in form's name (read by screen readers), its button, and its tab.
    gettext("Log in"),
    [field(gettext("Username"), username), field(gettext("Password"), password), codeSlot],
    gettext("Log in"),
    async (data) => {
      const body = { username: data.get("username"), password: data.get("password") };
      if (!code.disabled) body.code = String(data.get("code") ?? "").replace(/\s+/g, "");
      clearCode();
      let answer;
      try {
        answer = await api("auth/token", { method: "POST", body });
      } catch (err) {
        if (err.code === "second_factor_required") {
          askCode();
          return;
        }
        if (err.code === "wrong_second_factor") {
          codeError.textContent = err.message;
          code.setAttribute("aria-invalid", "true");
          code.focus();
          code.select();
          return;
        }
        throw err;
      }
      await signIn(answer.token);
    },
    [
      passkeys &&
        h(
          "div",
          { class: "passkey-alone" },
          // Translators: between the log-in form's button and "Sign in with a passkey", the other way in.
          h("p", { class: "or" }, gettext("or")),
          alone,
        ),
      h("p", {}, h("button", { type: "button", class: "link forgot", onclick: forgot }, gettext("Forgot your password?"))),
    ],
    error,
  );
}

export function authPanel({ guestFirst = false, intro = null } = {}) {
  const forms = {
    guest: () =>
      form(
        gettext("Play as a guest"),
        [
          field(
            gettext("Your name at the table"),
            h("input", { name: "display_name", required: true, maxlength: 40, autocomplete: "nickname" }),
            gettext("No password: a guest account lives in this browser."),
          ),
        ],
        // Translators: the button that sends the guest form (also its tab's name).
        gettext("Play as guest"),
        async (data) => {
          const answer = await api("auth/guest", { method: "POST", body: { display_name: data.get("display_name") } });
          await signIn(answer.token);
        },
      ),
    login: () => loginForm(() => show("forgot")),
    // Not a tab: reached from the log-in form, and back to it.
    forgot: () =>
      h(
        "div",
        { class: "stack" },
        h("h2", { class: "forgot-title" }, gettext("Forgot your password?")),
        resetRequestForm(h("p", {}, h("button", { type: "button", class: "link", onclick: () => show("login") }, gettext("Back to log in")))),
      ),
    register: () =>
      form(
        // Translators: the sign-up form's name (read by screen readers), its button, and its tab.
        gettext("Sign up"),
        [
          field(
            gettext("Username"),
            h("input", { name: "username", required: true, minlength: 3, maxlength: 40, autocomplete: "username" }),
          ),
          field(gettext("Name shown at the table"), h("input", { name: "display_name", maxlength: 40 }), gettext("Optional.")),
          field(
            gettext("Password"),
            h("input", { name: "password", type: "password", required: true, minlength: 8, autocomplete: "new-password" }),
            gettext("At least 8 characters."),
          ),
        ],
        gettext("Sign up"),
        async (data) => {
          const body = { username: data.get("username"), password: data.get("password") };
          if (data.get("display_name")) body.display_name = data.get("display_name");
          const answer = await api("auth/register", { method: "POST", body });
          await signIn(answer.token);
        },
      ),
  };
  // A banned person is not shown a door back in as a guest (the server shuts it too).
  const order = (guestFirst ? ["guest", "login", "register"] : ["login", "register", "guest"]).filter((key) => key !== "guest" || !auth.banned);
  const titles = { guest: gettext("Play as guest"), login: gettext("Log in"), register: gettext("Sign up") };
  const body = h("div", { class: "tab-body" });
  const tabs = h("div", { class: "tabs", role: "tablist" });
  const show = (key) => {
    for (const tab of tabs.children) tab.setAttribute("aria-selected", String(tab.dataset.key === key));
    body.replaceChildren(forms[key]());
    body.querySelector("input")?.focus();
  };
  for (const key of order) {
    tabs.append(
      h("button", { type: "button", role: "tab", "data-key": key, class: "tab", onclick: () => show(key) }, titles[key]),
    );
  }
  const notice = auth.notice && h("p", { class: "form-error signed-out-notice", role: "alert" }, auth.notice);
  const panel = h("section", { class: "panel auth" }, notice, intro, tabs, body);
  queueMicrotask(() => show(order[0]));
  return panel;
}

// A page that needs an account, shown to a visitor who has none: what it is, and the
// way in.
export function signedOutPage(root, title, text) {
  replace(root, h("div", { class: "home" }, h("section", { class: "intro" }, h("h1", {}, title), h("p", {}, text)), authPanel()));
}
