// Handing a link to another person: the system's share sheet where the browser has the Web
// Share API (phones, and some desktops), else the clipboard.

import { h } from "./dom.js";

// Whether the browser can hand `data` to the system's share sheet.
export function canShare(data) {
  if (typeof navigator.share !== "function") return false;
  // canShare is younger than share: without it, a link is assumed to be shareable.
  return typeof navigator.canShare !== "function" || navigator.canShare(data);
}

// Shares `data` by the share sheet; throws what the browser throws. A person who closes
// the sheet without choosing shares nothing: "cancelled" then, not an error.
/** @param {ShareData} data @returns {Promise<"shared" | "cancelled">} */
export async function share(data) {
  try {
    await navigator.share(data);
    return "shared";
  } catch (err) {
    if (err.name === "AbortError") return "cancelled";
    throw err;
  }
}

/** @param {string} text */
export async function copyText(text) {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Outside a secure context the clipboard API is missing; the old way still works.
  const area = h("textarea", { class: "sr-only" }, text);
  document.body.append(area);
  area.select();
  document.execCommand("copy");
  area.remove();
}
