// The offline page's script (web/templates/web/offline.html writes it into the page, which
// the service worker shows when a page cannot be fetched: nothing else can be loaded).
//
// The page stands at the address that failed. It asks the server for that address again
// after a growing pause (2 s, then up to 15 s), at once when the browser says it is back
// online, and when the person asks; the first answer of any kind means the network is
// back, and the page reloads into the page that was wanted.
//
// Its words come from the page, in the page's language (web/views.py offline_words): the
// script can import no catalogue, and is the same text in every language, as the page's
// policy, which names it by its hash, wants.

const FIRST_PAUSE_MS = 2000;
const LONGEST_PAUSE_MS = 15000;

const why = /** @type {HTMLElement} */ (document.getElementById("offline-why"));
const status = /** @type {HTMLElement} */ (document.getElementById("offline-status"));
const retry = /** @type {HTMLButtonElement} */ (document.getElementById("offline-retry"));
/**
 * `waiting`: "Still offline…", by the whole seconds until the next try, from 1 to
 * LONGEST_PAUSE_MS (web/views.py OFFLINE_PAUSE_MAX_SECONDS).
 * @type {{ noServer: string, noNetwork: string, connected: string, trying: string, waiting: Record<string, string> }}
 */
const words = JSON.parse(/** @type {HTMLElement} */ (document.getElementById("offline-words")).textContent ?? "");

let pause = FIRST_PAUSE_MS;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;
let trying = false;

function explain() {
  // The browser knows when the device has no network; otherwise the server is out of reach.
  why.textContent = navigator.onLine ? words.noServer : words.noNetwork;
}

async function tryAgain() {
  if (trying) return;
  trying = true;
  clearTimeout(timer);
  try {
    // Not a navigation, so the service worker lets it through to the network.
    await fetch(location.href, { method: "HEAD", cache: "no-store" });
    status.textContent = words.connected;
    location.reload();
    return;
  } catch {
    // Still offline: the next try comes later.
  } finally {
    trying = false;
  }
  explain();
  status.textContent = words.waiting[String(Math.round(pause / 1000))] ?? "";
  timer = setTimeout(tryAgain, pause);
  pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
}

window.addEventListener("online", () => {
  pause = FIRST_PAUSE_MS;
  tryAgain();
});
window.addEventListener("offline", explain);
retry.addEventListener("click", () => {
  status.textContent = words.trying;
  tryAgain();
});

explain();
timer = setTimeout(tryAgain, pause);

// A module of its own for the type check, so that its names are not the page's globals.
export {};
