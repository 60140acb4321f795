// The web client's entry: who is signed in, which page the address shows, and toasts.
// Everything goes through the public API (api.js); nothing here is private to the server.

import { api, auth } from "./api.js";
import { h, replace } from "./dom.js";
import { HomePage } from "./home.js";
import { RoomPage } from "./room.js";

const main = document.getElementById("main");
const account = document.getElementById("account");
const toasts = document.getElementById("toasts");

const app = {
  user: null,
  catalogue: [],
  navigate(path) {
    if (path !== location.pathname) history.pushState({}, "", path);
    route();
  },
  toast(message, kind = "info") {
    const el = h("p", { class: `toast ${kind}`, role: kind === "error" ? "alert" : null }, message);
    toasts.append(el);
    setTimeout(() => el.remove(), kind === "error" ? 6000 : 3500);
  },
};

let page = null;

async function loadUser() {
  if (!auth.token) {
    app.user = null;
    return;
  }
  try {
    app.user = await api("me");
  } catch {
    app.user = null;
  }
}

function renderAccount() {
  if (!app.user) {
    replace(account);
    return;
  }
  replace(
    account,
    h("span", { class: "who" }, app.user.display_name || app.user.username, app.user.is_guest ? " (guest)" : ""),
    forcedPlaysSetting(),
    h(
      "button",
      {
        type: "button",
        class: "link",
        onclick: async () => {
          try {
            await api("auth/logout", { method: "POST" });
          } finally {
            auth.clear();
          }
        },
      },
      "Log out",
    ),
  );
}

// The account's one game setting, with what it costs said plainly beside it.
function forcedPlaysSetting() {
  const box = h("input", {
    type: "checkbox",
    id: "auto-play-forced",
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
    "label",
    { class: "setting" },
    box,
    " Play my forced moves for me",
    h(
      "small",
      {},
      " When your only legal move is a single card or tile, the server plays it for you at once. " +
        "The other players can then see that the move was forced.",
    ),
  );
}

async function route() {
  page?.destroy();
  const match = location.pathname.match(/^\/join\/([^/]+)\/?$/);
  page = match ? new RoomPage(main, decodeURIComponent(match[1]), app) : new HomePage(main, app);
  try {
    await page.start();
  } catch (err) {
    app.toast(err.message, "error");
  }
}

window.addEventListener("auth-changed", async () => {
  await loadUser();
  renderAccount();
  route();
});
window.addEventListener("popstate", route);
document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-link]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  app.navigate(link.getAttribute("href"));
});

async function boot() {
  try {
    [app.catalogue] = await Promise.all([api("games/"), loadUser()]);
  } catch (err) {
    replace(main, h("p", { class: "notice" }, `The server cannot be reached: ${err.message}`));
    return;
  }
  renderAccount();
  await route();
}

boot();
