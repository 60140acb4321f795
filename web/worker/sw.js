// The web client's service worker, served at the site's root (`/sw.js`, scope "/") and
// registered only when a person turns push notifications on (web/static/web/push.js).
//
// It shows the notices the server pushes and opens the site when one is clicked; that is
// all. It has no fetch handler and keeps no cache: every page and API answer comes from
// the network as if it were not there.
//
// A push carries `{"title", "body", "url", "rooms": [codes], "tag"}`: which tables wait,
// never anything hidden at them. Notices with the same tag replace each other, so a
// player sees one notice per turn, or one digest for several tables.

const FALLBACK_TITLE = "Trick-taking tables";

// `self`, as the service worker it is (its declared type is any worker's scope).
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

worker.addEventListener("install", () => {
  // A new version takes over at once instead of waiting for every tab to close.
  worker.skipWaiting();
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(worker.clients.claim());
});

// Only addresses on this site are opened: a notice can never send the person elsewhere.
// A room's notice links to /rooms/<code>, which the client shows at the room's own
// address, /join/<code>: that one is opened, so that a tab already there is found.
function siteUrl(url) {
  try {
    const target = new URL(url || "/", worker.location.origin);
    target.pathname = target.pathname.replace(/^\/rooms\/([^/]+)\/?$/, "/join/$1");
    if (target.origin === worker.location.origin) return target.href;
  } catch {
    // An unreadable address falls back to the home page, which lists every waiting table.
  }
  return new URL("/", worker.location.origin).href;
}

function readPayload(data) {
  if (!data) return {};
  try {
    const payload = data.json();
    return payload && typeof payload === "object" ? payload : {};
  } catch {
    return { body: data.text() };
  }
}

worker.addEventListener("push", (event) => {
  const payload = readPayload(event.data);
  const rooms = Array.isArray(payload.rooms) ? payload.rooms : [];
  // Browsers require every push to show a notification (userVisibleOnly): always one.
  event.waitUntil(
    worker.registration.showNotification(
      payload.title || FALLBACK_TITLE,
      // `renotify` is not in TypeScript's NotificationOptions yet; browsers read it.
      /** @type {NotificationOptions} */ ({
        body: payload.body || "",
        tag: payload.tag || undefined,
        // A notice that replaces one with its tag is news too (a new turn, a longer digest).
        renotify: Boolean(payload.tag),
        data: { url: siteUrl(payload.url), rooms },
      }),
    ),
  );
});

worker.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openSite(event.notification.data?.url ?? siteUrl("/")));
});

// Brings the site forward at `url`: a tab already there is focused; otherwise an open
// tab of the site is asked to show `url` (the page changes without a reload, see app.js)
// and focused; with no tab open, a new one opens.
async function openSite(url) {
  const windows = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
  const there = windows.find((client) => client.url === url);
  if (there) return there.focus();
  const tab = windows.find((client) => client.focused) ?? windows.find((client) => client.visibilityState === "visible") ?? windows[0];
  if (tab) {
    const target = new URL(url);
    tab.postMessage({ type: "open", path: target.pathname + target.search + target.hash });
    return tab.focus();
  }
  return worker.clients.openWindow(url);
}
