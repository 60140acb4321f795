// Push notifications on this device: what the browser can do, and the opt-in and opt-out.
//
// Nothing here runs by itself. Only the person's click on "Turn on" asks the browser for
// permission (Safari asks only from a tap or a click, so nothing is awaited before the
// question), subscribes with the server's public key (VAPID) through the service worker
// every page registers (worker.js: served from the site's root, `/sw.js`, so its scope is
// the whole site) and hands the subscription to the server; "Turn off" undoes the
// subscription on both sides.

import { api } from "./api.js";
import { gettext, interpolate } from "./i18n.js";
import { homeScreenApp, onIos } from "./platform.js";
import { SCOPE, registerWorker } from "./worker.js";

// Why this browser cannot receive push notices, in words for the person; null if it can.
export function pushUnsupported() {
  if (!window.isSecureContext) return gettext("Notifications need the site to be opened over HTTPS.");
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    // On the Home Screen already: only an older iOS is left to blame.
    if (onIos() && homeScreenApp()) return gettext("This iPhone or iPad cannot receive push notifications: they need iOS 16.4 or later.");
    return gettext("This browser cannot receive push notifications. (On an iPhone or iPad, they need the site added to the Home Screen first.)");
  }
  return null;
}

// The subscription this browser holds for the site, or null (never registers anything).
async function currentSubscription() {
  if (pushUnsupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration(SCOPE);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

// The server's key (base64url, as `push/key` gives it) as the bytes PushManager wants.
export function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function sameKey(subscription, key) {
  const held = subscription.options?.applicationServerKey;
  if (!held) return false;
  const a = new Uint8Array(held);
  return a.length === key.length && a.every((b, i) => b === key[i]);
}

// The opt-in. Resolves to the subscription the server now holds; throws an Error whose
// message says what went wrong (permission refused, no push service, the server's answer).
export async function turnOn(publicKey) {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    throw new Error(
      permission === "denied"
        ? gettext("Your browser blocks notifications from this site. Allow them in the browser's site settings, then try again.")
        : gettext("Notifications stay off: the browser's question was not answered."),
    );
  }
  // Registered by the page already, as a rule; registering again is how to be sure.
  const registration = await registerWorker();
  // A push subscription needs an active worker; a fresh registration is still installing.
  await activated(registration);
  const key = keyBytes(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  // A subscription made for another key (the server changed its key) cannot be used.
  if (subscription && !sameKey(subscription, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  if (!subscription) {
    try {
      subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    } catch (err) {
      // Translators: %(error)s is the browser's own message, often in English.
      throw new Error(interpolate(gettext("The browser's push service refused: %(error)s"), { error: err.message }));
    }
  }
  try {
    await api("me/push-subscriptions", { method: "POST", body: subscription.toJSON() });
  } catch (err) {
    // Keep both sides in step: a subscription the server does not know is dropped.
    await subscription.unsubscribe().catch(() => {});
    throw err;
  }
  return subscription;
}

// This browser's subscription, if it was made with the server's current key, handed to
// the server again for the signed-in account: the server may have dropped it (a push
// service said it expired) or hold it for whoever used this browser before. A
// subscription made with another key is of no use any more; null then, as without one.
export async function claimSubscription(publicKey) {
  const subscription = await currentSubscription();
  if (!subscription || !sameKey(subscription, keyBytes(publicKey))) return null;
  await api("me/push-subscriptions", { method: "POST", body: subscription.toJSON() });
  return subscription;
}

// The opt-out: this browser stops receiving at once, then the server forgets the address
// (unless `tellServer` is false: signed out already, there is nobody to tell). Safe to
// call when nothing is subscribed.
export async function turnOff({ tellServer = true } = {}) {
  const subscription = await currentSubscription();
  if (!subscription) return;
  const endpoint = subscription.endpoint;
  await subscription.unsubscribe();
  if (!tellServer) return;
  try {
    await api("me/push-subscriptions", { method: "DELETE", body: { endpoint } });
  } catch (err) {
    // Already forgotten is what was wanted.
    if (err.status !== 404) throw err;
  }
}

/** @returns {Promise<void>} */
function activated(registration) {
  if (registration.active) return Promise.resolve();
  const worker = registration.installing ?? registration.waiting;
  if (!worker) return Promise.resolve();
  return new Promise((resolve, reject) => {
    worker.addEventListener("statechange", () => {
      if (worker.state === "activated") resolve();
      else if (worker.state === "redundant") reject(new Error(gettext("The notification worker could not be installed.")));
    });
  });
}
