// The account itself, on the settings page: its display name (`PATCH me`), its password
// (`POST me/password`), and where it is signed in (`me/sign-ins`: each device's sign-in,
// ended one by one or all but this one), beside the apps and tokens that act for it
// (tokens.js); and the account's standing with the moderators (standing.js: warnings,
// timeouts, a playban, its reports and the players it blocked). And the page of the link
// mailed to reset a forgotten password (`/reset-password#<token>`), which shares the
// password fields.

import { api, auth } from "./api.js";
import { resetRequestForm } from "./auth.js";
import { h, replace } from "./dom.js";
import { gettext, gettext_noop, interpolate, ngettext, timeText } from "./i18n.js";
import { siteName } from "./site.js";
import { madeApps } from "./my_apps.js";
import { passkeysPanel } from "./passkeys.js";
import { standingPanel } from "./standing.js";
import { allowedApps, personalTokens } from "./tokens.js";
import { twoFactorPanel } from "./two_factor.js";


/** @param {string | null | undefined} iso */
function when(iso) {
  return iso ? timeText(iso, { dateStyle: "medium", timeStyle: "short" }) : "";
}

/**
 * A translated phrase whose `%(name)s` places hold elements (a link, a name in bold): its
 * words around them and the elements in their places, as children for `h`. The whole
 * sentence is one phrase, so that each language puts the element where it goes.
 * @param {string} phrase
 * @param {Record<string, Node | string>} parts
 * @returns {(Node | string)[]}
 */
export function phraseWith(phrase, parts) {
  return phrase
    .split(/%\((\w+)\)s/)
    // eslint-disable-next-line i18next/no-literal-string -- a placeholder with no part is left as it was
    .map((piece, i) => (i % 2 === 0 ? piece : Object.hasOwn(parts, piece) ? parts[piece] : `%(${piece})s`))
    .filter((piece) => piece !== "");
}

/**
 * A labelled input with its hint and its own error line, both read with it.
 * @param {string} id
 * @param {string} label
 * @param {HTMLInputElement} input
 * @param {string | null} [hint]
 */
export function field(id, label, input, hint = null) {
  const error = h("p", { class: "form-error field-error", id: `${id}-error`, role: "alert" });
  const small = h("small", { id: `${id}-hint` }, hint ?? "");
  small.hidden = !hint;
  input.id = id;
  input.setAttribute("aria-describedby", `${id}-hint ${id}-error`);
  return { el: h("div", { class: "field" }, h("label", { for: id }, label), input, small, error), input, error, hint: small };
}

/**
 * Where a refusal's words go: under the field its `attr` names (the API's field name),
 * or above the form's button when it names none of them.
 * @param {Record<string, { input: HTMLInputElement, error: HTMLElement }>} fields
 * @param {HTMLElement} general
 */
export function errorPlaces(fields, general) {
  return {
    clear() {
      general.textContent = "";
      for (const { input, error } of Object.values(fields)) {
        error.textContent = "";
        input.removeAttribute("aria-invalid");
      }
    },
    /**
     * @param {{ errors?: { attr?: string | null, detail: string }[], message: string }} err
     * @returns {HTMLInputElement | null} the first field refused, to be focused
     */
    show(err) {
      let first = null;
      const errors = err.errors?.length ? err.errors : [{ attr: null, detail: err.message }];
      for (const e of errors) {
        const place = e.attr ? fields[e.attr] : undefined;
        const slot = place ? place.error : general;
        slot.textContent = [slot.textContent, e.detail].filter(Boolean).join(" ");
        if (place) {
          place.input.setAttribute("aria-invalid", "true");
          first ??= place.input;
        }
      }
      return first;
    },
  };
}

function password(name, autocomplete) {
  return /** @type {HTMLInputElement} */ (h("input", { type: "password", name, required: true, autocomplete, maxlength: 128 }));
}

/**
 * The account's section: its name at the table, its password (a guest has none), and its
 * standing with the moderators. Loads the account afresh (`GET me`), for when the name
 * may change next.
 * @param {{ user: any, setUser: (user: any) => void, toast: (message: string, kind?: string) => void }} app
 * @param {{ passwordChanged?: () => void, accountKept?: () => void }} [hooks] `passwordChanged`:
 * other sign-ins may have ended; `accountKept`: a guest's account now has a password.
 */
export function accountSection(app, { passwordChanged, accountKept } = {}) {
  const nameBox = h("section", { class: "panel display-name", "aria-labelledby": "display-name-title" });
  const passwordBox = h("section", { class: "panel password", "aria-labelledby": "password-title" });
  // Each box is drawn again only when what it shows has changed: the fresh `me` that
  // arrives after the page is drawn must not wipe out what the person has begun to type.
  /** @type {any} */
  let shown = null;
  const render = (user) => {
    const before = shown;
    shown = user;
    const nameOf = (u) => [u.username, u.display_name, u.display_name_changeable_at].join("\n");
    if (!before || nameOf(before) !== nameOf(user)) displayName(nameBox, app, user, render);
    if (before && before.is_guest === user.is_guest) return;
    if (user.is_guest) keepAccount(passwordBox, app, render, accountKept);
    else changePassword(passwordBox, user, passwordChanged);
  };
  render(app.user);
  api("me")
    .then((user) => {
      app.setUser(user);
      render(user);
    })
    .catch(() => {
      // Shown from what the page had; the server says the rest if a change is refused.
    });
  return h(
    "section",
    { class: "settings-group account", "aria-labelledby": "account-title" },
    h("h2", { id: "account-title" }, gettext("Account")),
    nameBox,
    passwordBox,
    standingPanel(),
  );
}

function displayName(box, app, user, render) {
  const shown = user.display_name || user.username;
  const input = /** @type {HTMLInputElement} */ (h("input", { name: "display_name", required: true, minlength: 1, maxlength: 40, autocomplete: "nickname", value: shown }));
  const name = field("display-name", gettext("New display name"), input);
  const general = h("p", { class: "form-error", role: "alert" });
  const done = h("p", { class: "saved", role: "status", tabindex: "-1" });
  const submit = h("button", { type: "submit", class: "primary" }, gettext("Change my name"));
  const errors = errorPlaces({ display_name: name }, general);
  // A past date is one the server's clock has passed too (or will within moments).
  const next = user.display_name_changeable_at && Date.parse(user.display_name_changeable_at) > Date.now() ? user.display_name_changeable_at : null;
  name.hint.hidden = false;
  name.hint.textContent = next
    ? interpolate(gettext("You changed it less than a week ago: you can change it again from %(date)s."), { date: when(next) })
    : gettext("The name other players see. You can change it once a week.");
  input.disabled = Boolean(next);
  submit.disabled = Boolean(next);
  const form = h(
    "form",
    {
      class: "stack",
      "aria-labelledby": "display-name-title",
      onsubmit: async (event) => {
        event.preventDefault();
        errors.clear();
        done.textContent = "";
        const wanted = input.value.trim();
        submit.disabled = true;
        let changed;
        try {
          changed = await api("me", { method: "PATCH", body: { display_name: wanted } });
        } catch (err) {
          submit.disabled = false;
          (errors.show(err) ?? input).focus();
          return;
        }
        app.setUser(changed);
        render(changed);
        // The form it was sent from is drawn anew (and closed for a week): focus goes to what it did.
        const said = box.querySelector(".saved");
        if (said instanceof HTMLElement) {
          said.textContent = interpolate(gettext("Saved: other players now see you as %(name)s."), { name: changed.display_name || changed.username });
          said.focus();
        }
      },
    },
    name.el,
    general,
    submit,
    done,
  );
  replace(
    box,
    h("h3", { id: "display-name-title" }, gettext("Display name")),
    h(
      "p",
      {},
      phraseWith(user.is_guest ? gettext("Shown at the table as %(name)s (a guest).") : gettext("Shown at the table as %(name)s."), {
        name: h("strong", { class: "current-name" }, shown),
      }),
    ),
    user.is_guest
      ? null
      : h("p", { class: "meta" }, phraseWith(gettext("You log in as %(username)s, which does not change."), { username: h("strong", {}, user.username) })),
    form,
  );
}

// A guest keeps what they played: the same account gains a username and a password (and
// an address for notices and password resets, once confirmed), `POST me/account`.
function keepAccount(box, app, render, accountKept) {
  const username = field(
    "keep-username",
    gettext("Username"),
    /** @type {HTMLInputElement} */ (h("input", { name: "username", required: true, minlength: 3, maxlength: 40, autocomplete: "username" })),
    // Translators: the characters a username may have; keep ". @ + - _" as they are.
    gettext("3 to 40 letters, digits or . @ + - _"),
  );
  const secret = field("keep-password", gettext("Password"), password("password", "new-password"), gettext("At least 8 characters."));
  secret.input.minLength = 8;
  const address = field(
    "keep-email",
    gettext("E-mail address (optional)"),
    /** @type {HTMLInputElement} */ (h("input", { name: "email_address", type: "email", maxlength: 254, autocomplete: "email" })),
    gettext("For notices, and to reset a forgotten password once you confirm it."),
  );
  const general = h("p", { class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary" }, gettext("Keep my account"));
  const errors = errorPlaces({ username, password: secret, email_address: address }, general);
  const form = h(
    "form",
    {
      class: "stack",
      "aria-labelledby": "password-title",
      onsubmit: async (event) => {
        event.preventDefault();
        errors.clear();
        submit.disabled = true;
        const body = { username: username.input.value.trim(), password: secret.input.value };
        if (address.input.value.trim()) body.email_address = address.input.value.trim();
        let kept;
        try {
          kept = await api("me/account", { method: "POST", body });
        } catch (err) {
          submit.disabled = false;
          (errors.show(err) ?? submit).focus();
          return;
        }
        app.setUser(kept);
        render(kept);
        accountKept?.();
        app.toast(interpolate(gettext("Your account is kept: log in as %(username)s on any device."), { username: kept.username }));
      },
    },
    username.el,
    secret.el,
    address.el,
    general,
    submit,
  );
  replace(
    box,
    h("h3", { id: "password-title" }, gettext("Keep this account")),
    h(
      "p",
      { class: "no-password" },
      gettext(
        "A guest account has no password: it lives in this browser only. Give it a username and a password to keep your seats, matches and ratings and to play from any device.",
      ),
    ),
    form,
  );
}

function changePassword(box, user, passwordChanged) {
  const title = h("h3", { id: "password-title" }, gettext("Password"));
  const current = field("current-password", gettext("Current password"), password("current_password", "current-password"));
  const fresh = field("new-password", gettext("New password"), password("new_password", "new-password"), gettext("At least 8 characters."));
  fresh.input.minLength = 8;
  const others = /** @type {HTMLInputElement} */ (
    h("input", { type: "checkbox", id: "sign-out-others", name: "sign_out_others", checked: true, "aria-describedby": "sign-out-others-hint" })
  );
  const general = h("p", { class: "form-error", role: "alert" });
  const done = h("p", { class: "saved", role: "status" });
  const submit = h("button", { type: "submit", class: "primary" }, gettext("Change my password"));
  const errors = errorPlaces({ current_password: current, new_password: fresh }, general);
  const form = h(
    "form",
    {
      class: "stack",
      "aria-labelledby": "password-title",
      onsubmit: async (event) => {
        event.preventDefault();
        errors.clear();
        done.textContent = "";
        submit.disabled = true;
        let answer;
        try {
          answer = await api("me/password", {
            method: "POST",
            body: { current_password: current.input.value, new_password: fresh.input.value, sign_out_others: others.checked },
          });
        } catch (err) {
          (errors.show(err) ?? submit).focus();
          return;
        } finally {
          submit.disabled = false;
        }
        current.input.value = "";
        fresh.input.value = "";
        const ended = answer?.ended ?? 0;
        done.textContent =
          gettext("Your password is changed.") +
          (ended
            ? " " +
              interpolate(
                // Translators: %(n)s is how many sign-ins ended: devices, tokens and apps together.
                ngettext("Signed out elsewhere: %(n)s (devices, tokens and apps).", "Signed out elsewhere: %(n)s (devices, tokens and apps).", ended),
                { n: ended },
              )
            : "");
        passwordChanged?.();
      },
    },
    current.el,
    fresh.el,
    h(
      "div",
      { class: "field check" },
      others,
      h("label", { for: "sign-out-others" }, gettext("Sign out my other devices")),
      h("small", { id: "sign-out-others-hint" }, gettext("And end the access of your personal tokens and of the apps you allowed. This device stays signed in.")),
    ),
    general,
    submit,
    done,
  );
  replace(box, title, form);
}

// How each sign-in began (`how`), as its list says it: marked here, translated where shown.
/** @type {Record<string, string>} */
const HOW = {
  password: gettext_noop("Logged in with the password"),
  sign_up: gettext_noop("Signed up"),
  guest: gettext_noop("Started as a guest"),
  reset: gettext_noop("Logged in by a password reset"),
  passkey: gettext_noop("Logged in with a passkey"),
  password_change: gettext_noop("Kept when the password changed"),
  earlier: gettext_noop("Signed in before this list was kept"),
};

/**
 * The security section: two-step sign-in (two_factor.js) and passkeys (passkeys.js);
 * where the account is signed in, each other device's sign-in with a button to end it,
 * and one to end them all; then the apps and personal tokens acting for it. `reload()` reads them all again (after a
 * password change ended some, or a guest's account gained a password).
 * @param {{ user: any, toast: (message: string, kind?: string) => void }} app
 */
export function securitySection(app) {
  const heading = h("h3", { id: "sign-ins-title", tabindex: "-1" }, gettext("Where you're signed in"));
  const list = h("ul", { class: "sign-in-list" });
  const status = h("p", { class: "saved", role: "status" });
  const error = h("p", { class: "form-error", role: "alert", id: "sign-ins-error" });
  const everywhere = h("button", { type: "button", "aria-describedby": "sign-ins-error" }, gettext("Sign out everywhere else"));

  async function end(path, said) {
    error.textContent = "";
    status.textContent = "";
    try {
      const answer = await api(path, { method: "DELETE" });
      status.textContent = said(answer);
    } catch (err) {
      error.textContent = err.message;
    }
    await load();
    heading.focus();
  }

  async function load() {
    let signIns;
    try {
      signIns = await api("me/sign-ins");
    } catch (err) {
      replace(list, h("li", { class: "form-error" }, interpolate(gettext("Where you're signed in could not be loaded: %(error)s"), { error: err.message })));
      everywhere.hidden = true;
      return;
    }
    everywhere.hidden = !signIns.some((signIn) => !signIn.current);
    // This device first, then the others as the server orders them (the latest first).
    const ordered = [...signIns.filter((signIn) => signIn.current), ...signIns.filter((signIn) => !signIn.current)];
    replace(
      list,
      ordered.map((signIn) => {
        const device = signIn.device || gettext("Unknown device");
        const started = when(signIn.created_at);
        const how = Object.hasOwn(HOW, signIn.how) ? gettext(HOW[signIn.how]) : signIn.how;
        const facts = signIn.address
          ? // Translators: %(how)s is how a sign-in began, such as "Signed up"; %(address)s is its IP address.
            interpolate(gettext("%(how)s from %(address)s"), { how, address: signIn.address })
          : how;
        return h(
          "li",
          { class: signIn.current ? "sign-in current" : "sign-in", "data-sign-in-id": String(signIn.id) },
          h(
            "div",
            { class: "sign-in-what" },
            h("p", {}, h("strong", { class: "sign-in-device" }, device), signIn.current ? h("span", { class: "this-device" }, gettext("This device")) : null),
            h("p", { class: "meta" }, facts),
            h(
              "p",
              { class: "meta" },
              signIn.last_used_at
                ? interpolate(gettext("Started %(started)s · last used %(used)s"), { started, used: when(signIn.last_used_at) })
                : interpolate(gettext("Started %(started)s · last used not yet"), { started }),
            ),
          ),
          signIn.current
            ? null
            : h(
                "button",
                {
                  type: "button",
                  class: "end-sign-in",
                  "aria-label": interpolate(gettext("End the sign-in on %(device)s, started %(started)s"), { device, started }),
                  onclick: (event) => {
                    event.currentTarget.disabled = true;
                    end(`me/sign-ins/${signIn.id}`, () => interpolate(gettext("Signed out on %(device)s."), { device }));
                  },
                },
                // Translators: a button that ends one device's sign-in.
                gettext("End"),
              ),
        );
      }),
    );
  }

  everywhere.addEventListener("click", async () => {
    everywhere.disabled = true;
    await end("me/sign-ins", (answer) => {
      const ended = answer?.ended ?? 0;
      return interpolate(ngettext("Signed out on %(n)s other device.", "Signed out on %(n)s other devices.", ended), { n: ended });
    });
    everywhere.disabled = false;
  });

  load();
  const twoFactor = twoFactorPanel(app);
  // A passkey added or removed turns two-step sign-in on or off.
  const passkeys = passkeysPanel(app, { changed: () => twoFactor.load() });
  let apps = allowedApps(app);
  let tokens = personalTokens(app);
  // A new password may have ended the tokens and apps' access along with the sign-ins.
  const reload = () => {
    load();
    twoFactor.load();
    passkeys.load();
    const freshApps = allowedApps(app);
    const freshTokens = personalTokens(app);
    apps.replaceWith(freshApps);
    tokens.replaceWith(freshTokens);
    apps = freshApps;
    tokens = freshTokens;
  };
  const el = h(
    "section",
    { class: "settings-group security", "aria-labelledby": "security-title" },
    h("h2", { id: "security-title" }, gettext("Security")),
    twoFactor.el,
    passkeys.el,
    h(
      "section",
      { class: "panel sign-ins", "aria-labelledby": "sign-ins-title" },
      heading,
      h(
        "p",
        {},
        // Translators: "Log out" is the button at the top of the page, as it is worded there.
        gettext("Each device or app where you logged in. Ending one signs it out at its next step; to sign out here, use Log out at the top."),
      ),
      list,
      h("div", { class: "button-row" }, everywhere),
      error,
      status,
    ),
    apps,
    tokens,
    madeApps(app),
  );
  return { el, reload };
}

/**
 * The page of the link mailed to reset a forgotten password (`/reset-password#<token>`):
 * a new password, twice, sent with the token; the answer signs this browser in, and every
 * other sign-in of the account ends. As for the e-mail confirmation link (confirm.js), the
 * token is in the fragment, which browsers never send to the server, and leaves the
 * address bar as soon as it is read.
 */
export class ResetPasswordPage {
  constructor(root, app) {
    this.root = root;
    this.app = app;
  }

  destroy() {
    this.gone = true;
  }

  async start() {
    this.app.title(interpolate(gettext("Choose a new password · %(site)s"), { site: siteName() }));
    const token = decodeURIComponent(location.hash.slice(1));
    if (location.hash) history.replaceState(history.state, "", location.pathname + location.search);
    if (!token) {
      this.askAgain(gettext("This link has no reset code"), gettext("Open the link exactly as the e-mail gives it, or ask for a new one below."));
      return;
    }
    this.showForm(token);
  }

  showForm(token) {
    const fresh = field("reset-new-password", gettext("New password"), password("new_password", "new-password"), gettext("At least 8 characters."));
    const again = field("reset-new-password-again", gettext("New password again"), password("new_password_again", "new-password"));
    fresh.input.minLength = 8;
    const general = h("p", { class: "form-error", role: "alert" });
    const submit = h("button", { type: "submit", class: "primary" }, gettext("Save my new password"));
    const errors = errorPlaces({ new_password: fresh, new_password_again: again }, general);
    const form = h(
      "form",
      {
        class: "stack",
        "aria-labelledby": "reset-title",
        onsubmit: async (event) => {
          event.preventDefault();
          errors.clear();
          if (fresh.input.value !== again.input.value) {
            errors.show({ errors: [{ attr: "new_password_again", detail: gettext("The two passwords are not the same.") }], message: "" });
            again.input.focus();
            return;
          }
          submit.disabled = true;
          let answer;
          try {
            answer = await api("auth/password-reset/confirm", { method: "POST", body: { token, new_password: fresh.input.value } });
          } catch (err) {
            if (this.gone) return;
            submit.disabled = false;
            if (err.code === "bad_reset_token" || err.attr === "token") {
              this.askAgain(gettext("This link does not work"), err.message);
              return;
            }
            (errors.show(err) ?? submit).focus();
            return;
          }
          // Home, signed in: the reset page is not one to come back to.
          history.replaceState({}, "", "/");
          this.app.toast(gettext("Your password is changed, and you are logged in with it."));
          auth.set(answer.token);
        },
      },
      fresh.el,
      again.el,
      general,
      submit,
    );
    replace(
      this.root,
      h(
        "section",
        { class: "panel reset-password" },
        h("h1", { id: "reset-title" }, gettext("Choose a new password")),
        h("p", {}, gettext("Saving it logs you in here, and signs you out on every other device.")),
        form,
      ),
    );
    fresh.input.focus();
  }

  // A link that cannot be used: why, and the form that mails a new one.
  askAgain(title, text) {
    replace(
      this.root,
      h(
        "section",
        { class: "panel reset-password" },
        h("h1", {}, title),
        h("p", { class: "form-error", role: "alert" }, text),
        h("h2", {}, gettext("Ask for a new link")),
        resetRequestForm(),
        h("p", { class: "back" }, h("a", { href: "/", "data-link": "" }, gettext("Back to the home page"))),
      ),
    );
  }
}
