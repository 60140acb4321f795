// Passkeys, on the settings page beside two-step sign-in (`me/passkeys`): each one the
// account has, whether it is synced between devices, when it was added and last used;
// adding one (the password first, then the browser's own prompt), renaming and removing
// (the password again). A passkey signs in alone, and is the second step after the
// password; the account's first second step brings recovery codes, shown once.

import { errorPlaces, field, phraseWith } from "./account.js";
import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { gettext, interpolate, timeText } from "./i18n.js";
import { showRecoveryCodes } from "./two_factor.js";
import { declined, makePasskey, numericHost, passkeysWork, promptFailed } from "./webauthn.js";

/** @param {string | null | undefined} iso */
function when(iso) {
  return iso ? timeText(iso, { dateStyle: "medium", timeStyle: "short" }) : "";
}

function passwordInput() {
  return /** @type {HTMLInputElement} */ (h("input", { type: "password", name: "password", required: true, autocomplete: "current-password", maxlength: 128 }));
}

/**
 * @typedef {{ id: number, name: string, backed_up: boolean, created_at: string, last_used_at: string | null }} Passkey
 */

/**
 * The panel, which loads its state itself; `load()` reads it again.
 * @param {{ user: { is_guest: boolean, has_password?: boolean } | null }} app
 * @param {{ changed?: () => void }} [hooks] `changed`: a passkey was added or removed,
 * so two-step sign-in's panel has something new to say.
 * @returns {{ el: HTMLElement, load: () => Promise<void> }}
 */
export function passkeysPanel(app, { changed } = {}) {
  const title = h("h3", { id: "passkeys-title", tabindex: "-1" }, gettext("Passkeys"));
  // Outside the part drawn anew at each step, so that what they say is announced.
  const status = h("p", { class: "saved", role: "status" });
  const alert = h("p", { class: "form-error", role: "alert" });
  const body = h("div", { class: "passkeys-body" });
  const el = h("section", { class: "panel passkeys", "aria-labelledby": "passkeys-title" }, title, status, alert, body);
  // Only the latest read is drawn: a slower earlier one must not undo a step taken since.
  let reads = 0;
  /** @type {{ totp: boolean, passkeys: number }} */
  let factors = { totp: false, passkeys: 0 };

  function say(text = "", error = "") {
    status.textContent = text;
    alert.textContent = error;
  }

  // From a step back to the list, with the keyboard at the panel's top.
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
            ? // Translators: “Keep this account” names the part of the settings page above, as it is worded there.
              gettext("A guest account cannot have passkeys yet: keep your account first (Keep this account, above), then add one here.")
            : gettext("Your account has no password, so it cannot have passkeys yet."),
        ),
      );
      return;
    }
    let list;
    try {
      [list, factors] = await Promise.all([api("me/passkeys"), api("me/factors")]);
    } catch (err) {
      if (read !== reads) return;
      replace(body, h("p", { class: "form-error" }, interpolate(gettext("Your passkeys could not be loaded: %(error)s"), { error: err.message })));
      return;
    }
    if (read !== reads) return;
    draw(list);
  }

  /** @param {Passkey[]} list */
  function draw(list) {
    const works = passkeysWork();
    replace(
      body,
      h(
        "p",
        {},
        gettext(
          "A passkey logs you in with your device's screen lock (your fingerprint, face or PIN) instead of your password, and no fake site can trick you into giving it away. Once you have one, logging in with your password asks for a passkey next.",
        ),
      ),
      list.length
        ? h(
            "ul",
            { class: "passkey-list", "aria-label": gettext("Your passkeys") },
            list.map((passkey) => item(passkey, list.length)),
          )
        : h("p", { class: "no-passkeys" }, gettext("You have no passkeys yet.")),
      works
        ? h("div", { class: "button-row" }, h("button", { type: "button", class: "primary", onclick: add }, gettext("Add a passkey")))
        : unavailable(),
    );
  }

  // Why there is no button to add one here, and where there would be.
  function unavailable() {
    if (!numericHost()) {
      return h(
        "p",
        { class: "meta passkeys-unavailable" },
        gettext("This browser cannot make passkeys. Add one from a recent browser; the ones listed here can still be renamed or removed."),
      );
    }
    // `make run` prints its numeric address; the same server answers at its name.
    const local = location.hostname === "127.0.0.1" ? `${location.protocol}//localhost${location.port ? `:${location.port}` : ""}` : null;
    return h(
      "p",
      { class: "meta passkeys-unavailable" },
      gettext("Passkeys work only when the site is opened by its name, not by a numeric address like this one."),
      local
        ? [
            " ",
            phraseWith(
              // Translators: %(address)s is a link to the site at its name, such as http://localhost:8000.
              gettext("Open %(address)s, log in there and add one."),
              { address: h("a", { href: `${local}${location.pathname}` }, local) },
            ),
          ]
        : "",
    );
  }

  /**
   * @param {Passkey} passkey
   * @param {number} count
   */
  function item(passkey, count) {
    return h(
      "li",
      { class: "passkey", "data-passkey-id": String(passkey.id) },
      h(
        "div",
        { class: "passkey-what" },
        h(
          "p",
          {},
          h("strong", { class: "passkey-name" }, passkey.name),
          h(
            "span",
            { class: passkey.backed_up ? "passkey-kind synced" : "passkey-kind" },
            passkey.backed_up
              ? // Translators: a passkey kept in sync between the person's devices.
                gettext("Synced")
              : // Translators: a passkey kept on one device only.
                gettext("This device only"),
          ),
        ),
        h(
          "p",
          { class: "meta" },
          passkey.backed_up ? gettext("Kept in sync between your devices by your password manager.") : gettext("Kept on the one device or security key that made it."),
        ),
        h(
          "p",
          { class: "meta" },
          passkey.last_used_at
            ? interpolate(gettext("Added %(added)s · last used %(used)s"), { added: when(passkey.created_at), used: when(passkey.last_used_at) })
            : interpolate(gettext("Added %(added)s · last used never"), { added: when(passkey.created_at) }),
        ),
      ),
      h(
        "div",
        { class: "button-row" },
        h(
          "button",
          { type: "button", "aria-label": interpolate(gettext("Rename the passkey %(name)s"), { name: passkey.name }), onclick: () => rename(passkey) },
          // Translators: a button that renames a passkey.
          gettext("Rename"),
        ),
        h(
          "button",
          { type: "button", "aria-label": interpolate(gettext("Remove the passkey %(name)s"), { name: passkey.name }), onclick: () => remove(passkey, count) },
          // Translators: a button that removes a passkey.
          gettext("Remove"),
        ),
      ),
    );
  }

  // The password, a name, then the browser's prompt: the options work once, so a prompt
  // closed before it finished starts again from the password (still filled in).
  function add() {
    reads++;
    say();
    const secret = field("passkey-password", gettext("Your password"), passwordInput());
    const named = field(
      "passkey-name",
      // Translators: the name a person gives a passkey.
      gettext("Name (optional)"),
      /** @type {HTMLInputElement} */ (h("input", { name: "name", maxlength: 60, autocomplete: "off" })),
      gettext("To tell your passkeys apart, such as “Work laptop” or “Phone”."),
    );
    const general = h("p", { class: "form-error", role: "alert" });
    const submit = h("button", { type: "submit", class: "primary" }, gettext("Continue"));
    const errors = errorPlaces({ password: secret, name: named }, general);
    const form = h(
      "form",
      {
        class: "stack",
        "aria-label": gettext("Add a passkey"),
        onsubmit: async (event) => {
          event.preventDefault();
          errors.clear();
          submit.disabled = true;
          try {
            await making(secret.input, named.input.value.trim(), general, errors);
          } finally {
            submit.disabled = false;
          }
        },
      },
      h(
        "p",
        {},
        gettext("Your password first, to be sure it is you. Your browser then asks where to keep the passkey: on this device, on a phone, or on a security key."),
      ),
      secret.el,
      named.el,
      general,
      h("div", { class: "button-row" }, submit, h("button", { type: "button", onclick: () => back() }, gettext("Cancel"))),
    );
    replace(body, form);
    secret.input.focus();
  }

  /**
   * @param {HTMLInputElement} password
   * @param {string} name
   * @param {HTMLElement} general
   * @param {ReturnType<typeof errorPlaces>} errors
   */
  async function making(password, name, general, errors) {
    let options;
    try {
      options = await api("me/passkeys/options", { method: "POST", body: { password: password.value } });
    } catch (err) {
      if (err.status === 409) {
        await back("", err.message);
        return;
      }
      (errors.show(err) ?? password).focus();
      return;
    }
    let credential;
    try {
      credential = await makePasskey(options.publicKey);
    } catch (err) {
      general.textContent = declined(err)
        ? gettext("No passkey was added: the prompt was closed before it finished. Try again when you are ready.")
        : promptFailed(err);
      return;
    }
    let answer;
    try {
      answer = await api("me/passkeys", { method: "POST", body: { credential, name } });
    } catch (err) {
      errors.show(err);
      return;
    }
    changed?.();
    const added = answer.passkey.name;
    if (answer.recovery_codes.length) {
      reads++;
      say();
      showRecoveryCodes(body, answer.recovery_codes, {
        said: interpolate(gettext("Your passkey “%(name)s” is added: logging in with your password now asks for it next."), { name: added }),
        standsIn: gettext("Each logs you in once in place of a passkey, if you lose your devices."),
        done: () => back(),
      });
      return;
    }
    await back(interpolate(gettext("Your passkey “%(name)s” is added."), { name: added }));
  }

  /** @param {Passkey} passkey */
  function rename(passkey) {
    reads++;
    say();
    const named = field(
      "passkey-new-name",
      // Translators: a passkey's new name.
      gettext("New name"),
      /** @type {HTMLInputElement} */ (h("input", { name: "name", required: true, maxlength: 60, autocomplete: "off", value: passkey.name })),
    );
    const general = h("p", { class: "form-error", role: "alert" });
    const submit = h("button", { type: "submit", class: "primary" }, gettext("Save the name"));
    const errors = errorPlaces({ name: named }, general);
    const form = h(
      "form",
      {
        class: "stack",
        "aria-label": interpolate(gettext("Rename the passkey %(name)s"), { name: passkey.name }),
        onsubmit: async (event) => {
          event.preventDefault();
          errors.clear();
          submit.disabled = true;
          let renamed;
          try {
            renamed = await api(`me/passkeys/${passkey.id}`, { method: "PATCH", body: { name: named.input.value.trim() } });
          } catch (err) {
            submit.disabled = false;
            if (err.status === 404) {
              await back("", gettext("That passkey is gone: it was removed meanwhile."));
              return;
            }
            (errors.show(err) ?? named.input).focus();
            return;
          }
          await back(interpolate(gettext("Renamed to “%(name)s”."), { name: renamed.name }));
        },
      },
      named.el,
      general,
      h("div", { class: "button-row" }, submit, h("button", { type: "button", onclick: () => back() }, gettext("Cancel"))),
    );
    replace(body, h("h4", {}, interpolate(gettext("Rename “%(name)s”"), { name: passkey.name })), form);
    named.input.focus();
    named.input.select();
  }

  /**
   * @param {Passkey} passkey
   * @param {number} count
   */
  function remove(passkey, count) {
    reads++;
    say();
    // The last second step going: the password alone logs in again, the codes go too.
    const last = count === 1 && !factors.totp;
    const secret = field("passkey-remove-password", gettext("Your password"), passwordInput());
    const general = h("p", { class: "form-error", role: "alert" });
    const submit = h("button", { type: "submit", class: "danger" }, gettext("Remove the passkey"));
    const errors = errorPlaces({ password: secret }, general);
    const form = h(
      "form",
      {
        class: "stack",
        "aria-label": interpolate(gettext("Remove the passkey %(name)s"), { name: passkey.name }),
        onsubmit: async (event) => {
          event.preventDefault();
          errors.clear();
          submit.disabled = true;
          try {
            await api(`me/passkeys/${passkey.id}/remove`, { method: "POST", body: { password: secret.input.value } });
          } catch (err) {
            submit.disabled = false;
            if (err.status === 404 || err.status === 409) {
              await back("", err.status === 404 ? gettext("That passkey is gone: it was removed meanwhile.") : err.message);
              return;
            }
            (errors.show(err) ?? secret.input).focus();
            return;
          }
          changed?.();
          await back(
            last
              ? interpolate(gettext("“%(name)s” is removed. Your password alone logs you in again."), { name: passkey.name })
              : interpolate(gettext("“%(name)s” is removed."), { name: passkey.name }),
          );
        },
      },
      h(
        "p",
        {},
        last
          ? gettext("It is your last second step: once it is removed, your password alone logs you in, and your recovery codes stop working.")
          : gettext("It stops logging you in at once."),
        ` ${gettext("Remove it from your device or password manager too, where it stays until you do.")}`,
      ),
      secret.el,
      general,
      h("div", { class: "button-row" }, submit, h("button", { type: "button", onclick: () => back() }, gettext("Cancel"))),
    );
    replace(body, h("h4", {}, interpolate(gettext("Remove “%(name)s”"), { name: passkey.name })), form);
    secret.input.focus();
  }

  load();
  return { el, load };
}
