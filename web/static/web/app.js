// The web client's entry: who is signed in, which page the address shows, toasts, and
// the rooms waiting for the player (their count in the document's title on every page).
// Everything goes through the public API (api.js); nothing here is private to the server.

import { ResetPasswordPage } from "./account.js";
import { ApiError, NetworkError, api, auth } from "./api.js";
import { ConfirmEmailPage } from "./confirm.js";
import { h, replace } from "./dom.js";
import { HomePage } from "./home.js";
import { gettext, interpolate } from "./i18n.js";
import { siteName } from "./site.js";
import { speak, wantedLanguage } from "./language.js";
import { LeaderboardPage } from "./leaderboard.js";
import { NotificationsPage } from "./notifications.js";
import { ProfilePage } from "./players.js";
import { turnOff } from "./push.js";
import { ReplayPage } from "./replay.js";
import { RoomPage } from "./room.js";
import { readWarnings } from "./standing.js";
import { TurnsWatch } from "./turns.js";
import { registerWorker, workerSupported } from "./worker.js";


const main = document.getElementById("main");
// The shell (web/templates/web/index.html) always has these.
const account = /** @type {HTMLElement} */ (document.getElementById("account"));
const toasts = /** @type {HTMLElement} */ (document.getElementById("toasts"));

const app = {
  /** @type {{ username: string, display_name?: string, is_guest: boolean, has_password?: boolean, display_name_changeable_at?: string | null } | null} */
  user: null,
  catalogue: [],
  turns: new TurnsWatch(),
  // The page's own title; the count of waiting rooms goes in front of it, leaving out
  // `room`, the room on screen (its turn is in plain view).
  /** @param {string | null} [room] */
  title(text = siteName(), room = null) {
    title = { text, room };
    showTitle();
  },
  // The account as the server answered a change of it (a new display name): the top bar
  // names it so at once.
  setUser(user) {
    app.user = user;
    renderAccount();
  },
  // Everything drawn again, as after a change of language.
  async redraw() {
    app.catalogue = await api("games/").catch(() => app.catalogue);
    renderAccount();
    await route();
  },
  navigate(path) {
    if (path !== location.pathname) history.pushState({}, "", path);
    route();
  },
  // The same words again (a retry that failed again) keep the one toast on screen longer
  // rather than pile up copies of it; a screen reader hears them once.
  toast(message, kind = "info") {
    const shown = [...toasts.children].find((el) => el.textContent === message && el.classList.contains(kind));
    const el = shown ?? h("p", { class: `toast ${kind}`, role: kind === "error" ? "alert" : null }, message);
    if (!shown) toasts.append(el);
    clearTimeout(toastTimers.get(el));
    toastTimers.set(el, setTimeout(() => el.remove(), kind === "error" ? 6000 : 3500));
  },
};

let page = null;
// When each toast on screen goes.
const toastTimers = new WeakMap();
let title = /** @type {{ text: string, room: string | null }} */ ({ text: siteName(), room: null });

function showTitle() {
  const waiting = app.user ? app.turns.count(title.room) : 0;
  document.title = waiting ? `(${waiting}) ${title.text}` : title.text;
}
app.turns.subscribe(showTitle);

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
    h("a", { class: "who", href: `/players/${encodeURIComponent(app.user.username)}`, "data-link": "" }, accountName(app.user)),
    h("a", { href: "/leaderboard", "data-link": "" }, gettext("Leaderboard")),
    h("a", { href: "/notifications", "data-link": "" }, gettext("Settings")),
    h(
      "button",
      {
        type: "button",
        class: "link",
        onclick: async () => {
          // Notices for this account stop reaching this browser, and the server forgets
          // it while the token still works. Best effort; signing out goes on regardless.
          await turnOff().catch(() => {});
          try {
            await api("auth/logout", { method: "POST" });
          } finally {
            auth.clear();
          }
        },
      },
      gettext("Log out"),
    ),
  );
  markCurrentLink();
}

// The account as the top bar names it, a guest's said to be one.
function accountName(user) {
  const name = user.display_name || user.username;
  // Translators: the top bar's name of a guest account (played without signing up).
  return user.is_guest ? interpolate(gettext("%(name)s (guest)"), { name }) : name;
}

// The top bar's link to the page on screen says so.
function markCurrentLink() {
  for (const link of account.querySelectorAll("a[href]")) {
    if (link.getAttribute("href") === location.pathname) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

async function route() {
  page?.destroy();
  // A notice's link to a room (/rooms/<code>) shows the room at its own address.
  const alias = location.pathname.match(/^\/rooms\/([^/]+)\/?$/);
  if (alias) history.replaceState(history.state, "", `/join/${alias[1]}${location.search}${location.hash}`);
  const match = location.pathname.match(/^\/join\/([^/]+)\/?$/);
  const code = match ? decodeURIComponent(match[1]) : null;
  // Translators: the browser tab's title at a table; %(site)s is the site's name.
  app.title(code ? interpolate(gettext("Table %(code)s · %(site)s"), { code, site: siteName() }) : siteName(), code);
  markCurrentLink();
  const replay = location.pathname.match(/^\/replay\/([^/]+)\/?$/);
  const player = location.pathname.match(/^\/players\/([^/]+)\/?$/);
  if (code) page = new RoomPage(main, code, app);
  else if (replay) page = new ReplayPage(main, decodeURIComponent(replay[1]), app);
  else if (player) page = new ProfilePage(main, decodeURIComponent(player[1]), app);
  else if (/^\/leaderboard\/?$/.test(location.pathname)) page = new LeaderboardPage(main, app);
  else if (/^\/notifications\/?$/.test(location.pathname)) page = new NotificationsPage(main, app);
  else if (/^\/confirm-email\/?$/.test(location.pathname)) page = new ConfirmEmailPage(main, app);
  else if (/^\/reset-password\/?$/.test(location.pathname)) page = new ResetPasswordPage(main, app);
  else page = new HomePage(main, app);
  const shown = page;
  try {
    await shown.start();
  } catch (err) {
    // A page left before its start failed (a request of the signed-out token's, refused
    // after logging out) says nothing on the page that replaced it.
    if (shown === page) app.toast(err.message, "error");
  }
}

// The waiting rooms are watched while someone is signed in, and forgotten at sign-out.
// Signed out however it happened (a ban, a sign-out elsewhere: the API's 401 dropped the
// token), this browser also stops receiving the account's push notices: whoever uses it
// next must not see them. A token the server could not be asked about is kept, and so
// are its notices.
function watchTurns() {
  app.turns.stop();
  if (app.user) app.turns.start();
  else if (!auth.token) turnOff({ tellServer: false }).catch(() => {});
}

// The page in `user`'s language (or this browser's, signed out). A catalogue that cannot
// be had leaves the page in the language it speaks; the next load tries again.
async function speakFor(user) {
  return speak(wantedLanguage(user)).catch(() => false);
}

window.addEventListener("auth-changed", async () => {
  await loadUser();
  await speakFor(app.user);
  watchTurns();
  renderAccount();
  // A moderator's warning not yet read is shown once, before the next table.
  if (app.user) readWarnings();
  route();
});
window.addEventListener("popstate", route);
document.addEventListener("click", (event) => {
  const link = /** @type {Element} */ (event.target).closest("a[data-link]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  app.navigate(link.getAttribute("href"));
});

// A clicked notification asks an open tab to show its page (see the service worker):
// the page changes in place, as by a link; a tab showing it already stays as it is.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.addEventListener("message", (event) => {
    const path = event.data?.type === "open" ? event.data.path : null;
    if (typeof path !== "string" || !path.startsWith("/") || path.startsWith("//")) return;
    if (path !== location.pathname + location.search + location.hash) app.navigate(path);
  });
  navigator.serviceWorker.startMessages();
}

async function boot(retried = false) {
  // The words first: nothing is drawn before them.
  await speakFor(null);
  try {
    [app.catalogue] = await Promise.all([api("games/"), loadUser()]);
    // The account's language, where it is another than this browser's last: the games'
    // words again in it.
    if (await speakFor(app.user)) app.catalogue = await api("games/");
  } catch (err) {
    // A token the server no longer takes (revoked, expired, banned) is refused on every
    // call, the catalogue's too; `api` has cleared it (keeping a ban's reason for the
    // sign-in form), so start again signed out rather than call the server unreachable.
    if (!retried && err instanceof ApiError && err.status === 401 && !auth.token) return boot(true);
    const said = err instanceof NetworkError ? err.message : interpolate(gettext("The server cannot be reached: %(error)s"), { error: err.message });
    replace(main, h("p", { class: "notice" }, said));
    return;
  }
  watchTurns();
  renderAccount();
  // A moderator's warning not yet read is shown once, before the next table (standing.js).
  if (app.user) readWarnings();
  await route();
}

boot();

// The service worker, for the page it shows when the network is gone (and the push
// notices turned on in the settings). After the page has loaded, so as not to compete
// with it; a browser that refuses it is only without those.
if (workerSupported()) {
  const register = () => registerWorker().catch(() => {});
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
