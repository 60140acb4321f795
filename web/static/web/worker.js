// The site's service worker (`/sw.js`, web/worker/sw.js), registered by every page at load
// for the whole site: it shows the offline page when a page cannot be fetched, and push
// notices once a person turns them on (push.js). Registering asks the person nothing.

export const SW_URL = document.body.dataset.swUrl || "/sw.js";
export const SCOPE = "/";

// Whether this browser can run it: service workers exist only in secure contexts (HTTPS,
// or this machine's own addresses).
export function workerSupported() {
  return window.isSecureContext && "serviceWorker" in navigator;
}

export function registerWorker() {
  return navigator.serviceWorker.register(SW_URL, { scope: SCOPE });
}
