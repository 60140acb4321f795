// Which language the page speaks, and switching it. The person's account says
// (`me.language`, chosen in Settings); before anyone has signed in, this browser's last
// choice, else the language the server picked from the browser's own (the shell's
// `<html lang>`). The catalogues' and the manifests' addresses and each language's name
// and direction come with the shell (`data-languages`, web/catalogues.py).

import { currentLanguage, loadCatalogue } from "./i18n.js";

const STORED = "language";

/** @typedef {{ name: string, url: string, bidi: boolean, manifest: string }} Language */

/** @returns {Record<string, Language>} */
export function languages() {
  try {
    return JSON.parse(document.body.dataset.languages || "{}");
  } catch {
    return {};
  }
}

/**
 * The language the page should speak for `user` (null: nobody signed in).
 * @param {{ language?: string } | null} user
 */
export function wantedLanguage(user) {
  const known = languages();
  for (const code of [user?.language, storedLanguage(), document.documentElement.lang]) {
    if (code && Object.hasOwn(known, code)) return code;
  }
  return "en";
}

function storedLanguage() {
  try {
    return localStorage.getItem(STORED);
  } catch {
    return null;
  }
}

let loaded = false;

/**
 * Speak `code` from now on: its catalogue loaded (English needs none), the document's
 * language, direction and app manifest set, and the choice kept for the next visit, and
 * in the cookie by which the server writes its own pages (`django_language`). Whether it
 * changed.
 * @param {string} code
 */
export async function speak(code) {
  if (loaded && code === currentLanguage()) return false;
  const language = languages()[code];
  if (!language) return false;
  await loadCatalogue(code, language.url);
  loaded = true;
  document.documentElement.lang = code;
  document.documentElement.dir = language.bidi ? "rtl" : "ltr";
  // The app installed from here on is named in this language too (web/manifest.py).
  document.querySelector('link[rel="manifest"]')?.setAttribute("href", language.manifest);
  try {
    localStorage.setItem(STORED, code);
  } catch {
    // Storage refused (a private window): the next visit asks the account, or the browser.
  }
  document.cookie = `django_language=${code}; path=/; max-age=31536000; SameSite=Lax`;
  return true;
}
