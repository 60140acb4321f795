// What acts for the player, on the settings page: the apps they allowed through OAuth2
// (`GET me/apps`, `DELETE me/apps/{id}`), and personal access tokens (`GET/POST
// me/tokens`, `DELETE me/tokens/{id}`), a token for a script or an app of the player's
// own, with a name and the scopes it may use. A token's secret is shown once, when it is
// made; the server keeps only a digest, so a lost secret is revoked and made again.

import { phraseWith } from "./account.js";
import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { gettext, gettext_noop, interpolate, timeText } from "./i18n.js";

// The scopes in the words the authorize page uses (grants/scopes.py): marked here, made
// before any catalogue is loaded, and translated where shown (`gettext(words)`).
export const SCOPES = [
  ["read", gettext_noop("See rooms, game states, events and your profile")],
  ["play", gettext_noop("Play for you: make moves, create rooms, join, leave, get ready, reclaim a seat, ask for a rematch")],
  ["notifications", gettext_noop("See and change your notification settings and push subscriptions")],
];

// A date and time as `toLocaleString()` writes them, in the page's language.
/** @type {Intl.DateTimeFormatOptions} */
const WHEN = { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" };

/** @param {string} iso */
function when(iso) {
  return timeText(iso, WHEN);
}

/**
 * The apps the player allowed, each with a button to take its access back; loads itself.
 * @param {{ toast: (message: string, kind?: string) => void }} app
 */
export function allowedApps(app) {
  const list = h("ul", { class: "app-list", "aria-live": "polite" });
  async function load() {
    let apps;
    try {
      apps = await api("me/apps");
    } catch (err) {
      replace(list, h("li", { class: "form-error" }, interpolate(gettext("The apps could not be loaded: %(error)s"), { error: err.message })));
      return;
    }
    if (!apps.length) {
      replace(list, h("li", { class: "meta" }, gettext("No app acts for you.")));
      return;
    }
    replace(
      list,
      apps.map((allowed) =>
        h(
          "li",
          { class: "allowed-app" },
          h("strong", {}, allowed.name),
          " ",
          h("span", {}, allowed.scopes.join(", ")),
          // Translators: when the person allowed an app to act for them.
          h("span", { class: "meta" }, ` · ${interpolate(gettext("allowed %(date)s"), { date: when(allowed.allowed_at) })} `),
          h(
            "button",
            {
              type: "button",
              class: "link",
              "aria-label": interpolate(gettext("Take back %(app)s's access"), { app: allowed.name }),
              onclick: async () => {
                try {
                  await api(`me/apps/${allowed.id}`, { method: "DELETE" });
                } catch (err) {
                  app.toast(err.message, "error");
                  return;
                }
                app.toast(interpolate(gettext("%(app)s can no longer act for you."), { app: allowed.name }));
                await load();
              },
            },
            // Translators: a button that takes back an app's access to the account.
            gettext("Take back"),
          ),
        ),
      ),
    );
  }
  load();
  return h(
    "section",
    { class: "panel apps", "aria-labelledby": "apps-title" },
    h("h3", { id: "apps-title" }, gettext("Apps acting for you")),
    h("p", {}, gettext("Apps you allowed on their sign-in page. Taking one's access back stops all of its tokens at once.")),
    list,
  );
}

/**
 * The personal tokens' section, which loads the tokens itself.
 * @param {{ toast: (message: string, kind?: string) => void }} app
 */
export function personalTokens(app) {
  const list = h("ul", { class: "token-list", "aria-live": "polite" });
  const shown = h("div", { class: "token-secret" });
  const error = h("p", { class: "form-error", role: "alert", id: "token-error" });
  const name = h("input", { id: "token-name", maxlength: "60", required: true, autocomplete: "off", "aria-describedby": "token-error" });
  const boxes = SCOPES.map(([scope, words]) => {
    const box = h("input", { type: "checkbox", id: `token-scope-${scope}`, value: scope, checked: scope === "read" });
    return h("div", { class: "field check" }, box, h("label", { for: box.id }, h("code", {}, scope), " — ", gettext(words)));
  });

  async function load() {
    let tokens;
    try {
      tokens = await api("me/tokens");
    } catch (err) {
      replace(list, h("li", { class: "form-error" }, interpolate(gettext("Your tokens could not be loaded: %(error)s"), { error: err.message })));
      return;
    }
    if (!tokens.length) {
      replace(list, h("li", { class: "meta" }, gettext("You have no personal tokens.")));
      return;
    }
    replace(
      list,
      tokens.map((token) =>
        h(
          "li",
          { class: "token", "data-token-id": String(token.id) },
          h("strong", { class: "token-name" }, token.name),
          " ",
          h("span", { class: "token-scopes" }, token.scopes.join(", ")),
          h(
            "span",
            { class: "meta" },
            ` · ${
              token.last_used_at
                ? // Translators: when a personal token was made, and last used.
                  interpolate(gettext("made %(made)s · last used %(used)s"), { made: when(token.created_at), used: when(token.last_used_at) })
                : interpolate(gettext("made %(made)s · last used never"), { made: when(token.created_at) })
            } `,
          ),
          h(
            "button",
            {
              type: "button",
              class: "link",
              "aria-label": interpolate(gettext("Revoke %(token)s"), { token: token.name }),
              onclick: async () => {
                try {
                  await api(`me/tokens/${token.id}`, { method: "DELETE" });
                } catch (err) {
                  app.toast(err.message, "error");
                  return;
                }
                app.toast(interpolate(gettext("Revoked %(token)s: it no longer works."), { token: token.name }));
                await load();
              },
            },
            // Translators: a button that revokes a personal access token.
            gettext("Revoke"),
          ),
        ),
      ),
    );
  }

  const form = h(
    "form",
    {
      class: "token-form",
      onsubmit: async (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        error.textContent = "";
        const scopes = boxes.map((box) => box.querySelector("input")).filter((box) => box?.checked).map((box) => box?.value);
        let made;
        try {
          made = await api("me/tokens", { method: "POST", body: { name: name.value.trim(), scopes } });
        } catch (err) {
          error.textContent = err.message;
          return;
        }
        name.value = "";
        const secret = h("input", { class: "token-value", readonly: true, value: made.token, "aria-label": interpolate(gettext("The secret of %(token)s"), { token: made.name }) });
        replace(
          shown,
          h("p", {}, h("strong", {}, interpolate(gettext("Your new token “%(token)s”. Copy it now: it will not be shown again."), { token: made.name }))),
          secret,
          h(
            "p",
            { class: "meta" },
            // Translators: %(header)s is the HTTP header "Authorization: Bearer <token>", which stays as it is.
            // eslint-disable-next-line i18next/no-literal-string -- the header as it is typed
            phraseWith(gettext("Send it as %(header)s."), { header: h("code", {}, "Authorization: Bearer <token>") }),
          ),
        );
        secret.select();
        await load();
      },
    },
    // Translators: a personal access token's name.
    h("div", { class: "field" }, h("label", { for: "token-name" }, gettext("Name")), name, error),
    h("fieldset", {}, h("legend", {}, gettext("What it may do")), boxes),
    h("div", { class: "button-row" }, h("button", { type: "submit", class: "primary" }, gettext("Make a token"))),
  );

  load();
  return h(
    "section",
    { class: "panel tokens", "aria-labelledby": "tokens-title" },
    h("h3", { id: "tokens-title" }, gettext("Personal access tokens")),
    h(
      "p",
      {},
      gettext(
        "A token lets a script or an app of your own use the API as you, without your password, and only for what you tick. Revoke it here whenever you like.",
      ),
    ),
    shown,
    form,
    list,
  );
}
