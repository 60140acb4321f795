// What the settings page needs to know of the device to give the right advice: whether it
// is an iPhone or iPad, and whether the client runs as an app from the Home Screen. On
// iOS and iPadOS (16.4 and later), Safari delivers push notices only to web apps added to
// the Home Screen, never to a browser tab, and a tab has no Push API to ask.

// iPadOS asks for desktop pages with a Mac's user agent; a touch screen tells it apart.
export function onIos() {
  const ua = navigator.userAgent;
  return /\b(iPhone|iPad|iPod)\b/.test(ua) || (/\bMacintosh\b/.test(ua) && navigator.maxTouchPoints > 1);
}

// Opened as an installed app (from the Home Screen, or a desktop's app window): the
// manifest's `display` is in force. iOS says so by `navigator.standalone` too.
export function homeScreenApp() {
  const standalone = "standalone" in navigator && navigator.standalone === true;
  return standalone || window.matchMedia("(display-mode: standalone), (display-mode: fullscreen)").matches;
}

// An iPhone or iPad in a browser tab: push notices need the Home Screen app first.
export function iosBrowserTab() {
  return onIos() && !homeScreenApp();
}
