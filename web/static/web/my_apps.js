// The apps a person registered themselves, on the settings page (`GET/POST me/apps/made`,
// `DELETE me/apps/made/{id}`): public OAuth2 clients, with no secret, that send people to
// the authorize page with a PKCE challenge. Each has its redirect URIs (https, a phone
// app's own scheme such as com.example.app:/callback, or http://127.0.0.1 on any port)
// and the scopes it may ask for; the authorize page says who made it.

import { phraseWith } from "./account.js";
import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";
import { SCOPES } from "./tokens.js";

/**
 * The "Apps you made" section, which loads the apps itself.
 * @param {{ toast: (message: string, kind?: string) => void }} app
 */
export function madeApps(app) {
  const list = h("ul", { class: "made-app-list", "aria-live": "polite" });
  const error = h("p", { class: "form-error", role: "alert", id: "made-app-error" });
  const name = h("input", { id: "made-app-name", maxlength: "60", required: true, autocomplete: "off", "aria-describedby": "made-app-error" });
  const uris = h("textarea", {
    id: "made-app-redirects",
    rows: "2",
    required: true,
    spellcheck: "false",
    placeholder: "com.example.app:/oauth/callback",
    "aria-describedby": "made-app-error",
  });
  const boxes = SCOPES.map(([scope, words]) => {
    const box = h("input", { type: "checkbox", id: `made-app-scope-${scope}`, value: scope, checked: scope === "read" });
    return h("div", { class: "field check" }, box, h("label", { for: box.id }, h("code", {}, scope), " — ", gettext(words)));
  });

  async function load() {
    let apps;
    try {
      apps = await api("me/apps/made");
    } catch (err) {
      replace(list, h("li", { class: "form-error" }, interpolate(gettext("Your apps could not be loaded: %(error)s"), { error: err.message })));
      return;
    }
    if (!apps.length) {
      replace(list, h("li", { class: "meta" }, gettext("You have registered no apps.")));
      return;
    }
    replace(
      list,
      apps.map((made) =>
        h(
          "li",
          { class: "made-app", "data-app-id": String(made.id) },
          h("strong", { class: "made-app-name" }, made.name),
          " ",
          h("span", { class: "made-app-scopes" }, made.scopes.join(", ")),
          h("div", {}, phraseWith(gettext("Client id: %(client_id)s"), { client_id: h("code", { class: "made-app-client-id" }, made.client_id) })),
          // Translators: %(uris)s is the app's redirect URIs, joined by " · ".
          h("div", { class: "meta" }, interpolate(gettext("Sends people back to: %(uris)s"), { uris: made.redirect_uris.join(" · ") })),
          h(
            "button",
            {
              type: "button",
              class: "link",
              "aria-label": interpolate(gettext("Delete %(app)s"), { app: made.name }),
              onclick: async () => {
                try {
                  await api(`me/apps/made/${made.id}`, { method: "DELETE" });
                } catch (err) {
                  app.toast(err.message, "error");
                  return;
                }
                app.toast(interpolate(gettext("Deleted %(app)s: its tokens no longer work."), { app: made.name }));
                await load();
              },
            },
            // Translators: a button that deletes an app the person registered.
            gettext("Delete"),
          ),
        ),
      ),
    );
  }

  const form = h(
    "form",
    {
      class: "made-app-form",
      onsubmit: async (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        error.textContent = "";
        const scopes = boxes.map((box) => box.querySelector("input")).filter((box) => box?.checked).map((box) => box?.value);
        const redirectUris = uris.value.split(/\s+/).filter(Boolean);
        let made;
        try {
          made = await api("me/apps/made", { method: "POST", body: { name: name.value.trim(), redirect_uris: redirectUris, scopes } });
        } catch (err) {
          error.textContent = err.message;
          return;
        }
        name.value = "";
        uris.value = "";
        app.toast(interpolate(gettext("Registered %(app)s. Its client id is %(client_id)s."), { app: made.name, client_id: made.client_id }));
        await load();
      },
    },
    h("div", { class: "field" }, h("label", { for: "made-app-name" }, gettext("Name people will see")), name),
    h("div", { class: "field" }, h("label", { for: "made-app-redirects" }, gettext("Redirect URIs, one a line")), uris, error),
    h("fieldset", {}, h("legend", {}, gettext("What it may ask for")), boxes),
    h("div", { class: "button-row" }, h("button", { type: "submit", class: "primary" }, gettext("Register the app"))),
  );

  load();
  return h(
    "section",
    { class: "panel made-apps", "aria-labelledby": "made-apps-title" },
    h("h3", { id: "made-apps-title" }, gettext("Apps you made")),
    h(
      "p",
      {},
      phraseWith(
        gettext(
          // Translators: %(scheme)s and %(loopback)s are example addresses, "com.example.app:/callback" and "http://127.0.0.1/…".
          "Register an app of your own to let people sign in to it here (OAuth2 with PKCE; it keeps no secret). Its sign-in page says you made it. Redirect URIs are https, your app's own scheme such as %(scheme)s, or %(loopback)s on any port.",
        ),
        { scheme: h("code", {}, "com.example.app:/callback"), loopback: h("code", {}, "http://127.0.0.1/…") },
      ),
    ),
    form,
    list,
  );
}
