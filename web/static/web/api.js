// The public API, and nothing else: token auth, JSON in and out, one error shape.

import { currentLanguage, gettext, interpolate } from "./i18n.js";

const ROOT = document.body.dataset.apiRoot || "/api/v1/";
const TOKEN_KEY = "tt.token";
// Why the server signed this browser out (a ban and its reason), shown with the sign-in form.
const NOTICE_KEY = "tt.signedOutNotice";
// Set once this browser's account was banned (see `auth.banned`).
const BANNED_KEY = "tt.banned";

export class ApiError extends Error {
  constructor(status, body) {
    const errors = body?.errors ?? [];
    // The server's details are in the page's language already; only the fallback is ours.
    // Translators: %(status)s is the HTTP status code of the answer, such as 500.
    super(errors.map((e) => e.detail).join(" ") || interpolate(gettext("Request failed (%(status)s)."), { status }));
    this.status = status;
    this.code = errors[0]?.code ?? null;
    this.attr = errors[0]?.attr ?? null;
    this.errors = errors;
  }
}

// No answer at all: the request never reached the server (no network, the server down).
// Said in people's words; the browser's own ("Failed to fetch") is for programmers.
export class NetworkError extends Error {
  constructor() {
    super(gettext("You seem to be offline: the server cannot be reached."));
  }
}

export const auth = {
  get token() {
    return localStorage.getItem(TOKEN_KEY);
  },
  get notice() {
    return sessionStorage.getItem(NOTICE_KEY);
  },
  // This browser's account was banned: guest play is not offered (the server refuses it
  // too, from the cookie its answer set). A sign-in to an account in good standing lifts it.
  get banned() {
    return localStorage.getItem(BANNED_KEY) === "1";
  },
  set(token) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.removeItem(BANNED_KEY);
    sessionStorage.removeItem(NOTICE_KEY);
    window.dispatchEvent(new Event("auth-changed"));
  },
  /**
   * @param {string | null} [notice] Said on the sign-in form that follows (a ban's reason).
   * @param {boolean} [banned] The account was banned.
   */
  clear(notice = null, banned = false) {
    localStorage.removeItem(TOKEN_KEY);
    if (banned) localStorage.setItem(BANNED_KEY, "1");
    if (notice) sessionStorage.setItem(NOTICE_KEY, notice);
    else sessionStorage.removeItem(NOTICE_KEY);
    window.dispatchEvent(new Event("auth-changed"));
  },
};

function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  // Outside a secure context there is no randomUUID; random bytes do as well.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * @param {string} path
 * @param {{ method?: string, body?: unknown, idempotent?: boolean, text?: boolean }} [options]
 */
export async function api(path, { method = "GET", body, idempotent = false, text = false } = {}) {
  // The server's error details in the page's language (their codes never change).
  const headers = { Accept: text ? "*/*" : "application/json", "Accept-Language": currentLanguage() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const token = auth.token;
  if (token) headers.Authorization = `Token ${token}`;
  // A retried move (after a dropped connection) must not be applied twice.
  if (idempotent) headers["Idempotency-Key"] = newKey();
  let res;
  try {
    res = await fetch(ROOT + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      // Token auth only: the client proves the API works without Django's session. The
      // sign-in endpoints, which read no session, take the browser's cookies: a banned
      // account's answer marks the browser, and a guest is refused where it is marked.
      credentials: path.startsWith("auth/") ? "same-origin" : "omit",
    });
  } catch (err) {
    // fetch rejects with a TypeError when nothing answered; anything else is not the network's.
    throw err instanceof TypeError ? new NetworkError() : err;
  }
  if (res.status === 204) return null;
  if (res.ok && text) return res.text();
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const error = new ApiError(res.status, data);
    // A banned account's token answers `banned` with the moderator's reason: the sign-in
    // form that replaces the page keeps saying it. Only the token still kept is dropped: a
    // request sent before logging out may be refused after it, and that late answer must
    // neither redraw the log-in form being typed into nor end the sign-in that followed.
    if (res.status === 401 && token && token === auth.token) {
      const banned = error.code === "banned";
      // Asked once more with the browser's cookies, so that the answer marks it as a
      // banned account's (accounts/banned_browser.py); the token is checked first, so
      // no session is read.
      if (banned) await fetch(ROOT + "me", { headers: { Authorization: `Token ${token}` }, credentials: "same-origin" }).catch(() => null);
      auth.clear(banned ? error.message : null, banned);
    }
    throw error;
  }
  return data;
}

export function wsUrl(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/${path}?token=${encodeURIComponent(auth.token ?? "")}`;
}
