// Sign up, log in, or play as a guest: each ends with a token kept in localStorage.

import { api, auth } from "./api.js";
import { h, replace } from "./dom.js";

function field(label, input, hint) {
  return h("label", { class: "field" }, h("span", { class: "field-label" }, label), input, hint && h("small", {}, hint));
}

function form(title, fields, submitLabel, submit) {
  const error = h("p", { class: "form-error", role: "alert" });
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
  );
  return el;
}

async function signIn(token) {
  auth.set(token);
}

export function authPanel({ guestFirst = false, intro = null } = {}) {
  const forms = {
    guest: () =>
      form(
        "Play as a guest",
        [
          field(
            "Your name at the table",
            h("input", { name: "display_name", required: true, maxlength: 40, autocomplete: "nickname" }),
            "No password: a guest account lives in this browser.",
          ),
        ],
        "Play as guest",
        async (data) => {
          const answer = await api("auth/guest", { method: "POST", body: { display_name: data.get("display_name") } });
          await signIn(answer.token);
        },
      ),
    login: () =>
      form(
        "Log in",
        [
          field("Username", h("input", { name: "username", required: true, autocomplete: "username" })),
          field(
            "Password",
            h("input", { name: "password", type: "password", required: true, autocomplete: "current-password" }),
          ),
        ],
        "Log in",
        async (data) => {
          const answer = await api("auth/token", {
            method: "POST",
            body: { username: data.get("username"), password: data.get("password") },
          });
          await signIn(answer.token);
        },
      ),
    register: () =>
      form(
        "Sign up",
        [
          field(
            "Username",
            h("input", { name: "username", required: true, minlength: 3, maxlength: 40, autocomplete: "username" }),
          ),
          field("Name shown at the table", h("input", { name: "display_name", maxlength: 40 }), "Optional."),
          field(
            "Password",
            h("input", { name: "password", type: "password", required: true, minlength: 8, autocomplete: "new-password" }),
            "At least 8 characters.",
          ),
        ],
        "Sign up",
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
  const titles = { guest: "Play as guest", login: "Log in", register: "Sign up" };
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
