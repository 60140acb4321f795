// The web client's service worker, served at the site's root (`/sw.js`, scope "/") and
// registered by every page of the client when it loads (web/static/web/worker.js).
//
// Three things. It shows the notices the server pushes and opens the site at the table
// when one is clicked. It stands in for the browser's error page: a page that cannot
// be fetched (no network, the server out of reach) is answered with the site's own
// offline page (`/offline`, kept in the worker's cache of it), which says so and
// reloads once the network is back. And it keeps the web client's words: each
// language's catalogue, fetched once per version (web/catalogues.py). Nothing else is
// cached or answered from a cache: every page and API answer comes from the network, as
// if the worker were not there.
//
// A push carries `{"title", "body", "url", "rooms": [codes], "tag"}`: which tables wait,
// never anything hidden at them. Notices with the same tag replace each other, so a
// player sees one notice per turn, or one digest for several tables.

const FALLBACK_TITLE = "Trick-taking tables";

// `self`, as the service worker it is (its declared type is any worker's scope).
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

const OFFLINE_URL = "/offline";
const CACHE = "offline-page";
// A language's catalogue is at an address naming its version (/i18n/<language>/<version>.json),
// so what is there never changes: answered from this cache once fetched, one version
// kept per language.
const CATALOGUES = "catalogues";
const CATALOGUE_PATH = /^\/i18n\/([^/]+)\/[^/]+\.json$/;

// Fetches the offline page into the cache. Best effort: a worker that could not keep it
// still shows notices, and the next page loaded from the network tries again.
async function keepOfflinePage() {
  const response = await fetch(OFFLINE_URL, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${OFFLINE_URL} answered ${response.status}`);
  const cache = await caches.open(CACHE);
  await cache.put(OFFLINE_URL, response);
}

// Whether this run of the worker has fetched the offline page yet. The browser stops an
// idle worker, so a page loaded from the network fetches it again about once a visit:
// a new version of the page reaches the cache though the worker's own script is unchanged.
let offlinePageFresh = false;

worker.addEventListener("install", (event) => {
  event.waitUntil(keepOfflinePage().then(() => (offlinePageFresh = true), () => {}));
  // A new version takes over at once instead of waiting for every tab to close.
  worker.skipWaiting();
});

worker.addEventListener("activate", (event) => {
  // Navigation preload: the browser asks the network for a page while the worker starts,
  // so a worker that has to wake up costs a page no time.
  event.waitUntil(Promise.all([worker.clients.claim(), worker.registration.navigationPreload?.enable()]));
});

// Only page loads (navigations) and the catalogues are answered, and only GETs (a
// form's POST is never replayed); every other request goes to the network without the
// worker.
worker.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") return;
  const url = new URL(event.request.url);
  if (url.origin === worker.location.origin && CATALOGUE_PATH.test(url.pathname)) {
    event.respondWith(catalogue(event.request, url));
  } else if (event.request.mode === "navigate") {
    event.respondWith(pageOrOffline(event));
  }
});

// A catalogue from the cache, else from the network; kept when the server says it never
// changes at that address (an older version's address answers today's words, uncached),
// in place of the language's version kept before.
/** @param {Request} request @param {URL} url */
async function catalogue(request, url) {
  const cache = await caches.open(CATALOGUES);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok && /\bimmutable\b/.test(response.headers.get("Cache-Control") ?? "")) {
    const language = url.pathname.match(CATALOGUE_PATH)?.[1];
    for (const old of await cache.keys()) {
      if (new URL(old.url).pathname.match(CATALOGUE_PATH)?.[1] === language) await cache.delete(old);
    }
    await cache.put(request, response.clone());
  }
  return response;
}

/** @param {FetchEvent} event */
async function pageOrOffline(event) {
  try {
    const response = (await event.preloadResponse) ?? (await fetch(event.request));
    if (!offlinePageFresh) {
      offlinePageFresh = true;
      event.waitUntil(keepOfflinePage().catch(() => (offlinePageFresh = false)));
    }
    return response;
  } catch {
    // No answer at all (an HTTP error is an answer, and is shown as it is).
    const offline = await caches.match(OFFLINE_URL, { cacheName: CACHE });
    return offline ?? Response.error();
  }
}

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

// Brings the site forward at `url`: an open tab of the site is told to show `url` (the page
// changes without a reload, or stays if it is there already: see app.js) and focused; with
// no tab open, a new one opens. A tab opened at `url` (by an earlier notice) is the one
// chosen, else the focused one, else a visible one. A tab's `url` is the address it was
// opened at, not where the client has moved it since (history.pushState, which browsers
// do not tell the worker): so no tab is merely focused on the strength of it.
async function openSite(url) {
  const windows = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
  const tab =
    windows.find((client) => client.url === url) ??
    windows.find((client) => client.focused) ??
    windows.find((client) => client.visibilityState === "visible") ??
    windows[0];
  if (!tab) return worker.clients.openWindow(url);
  const target = new URL(url);
  tab.postMessage({ type: "open", path: target.pathname + target.search + target.hash });
  return tab.focus();
}
