// Passkeys (WebAuthn) in this browser: the server's options, as WebAuthn's JSON writes
// them, handed to the browser's own prompt through its JSON helpers, and the answer
// written back as JSON for the server. Shared by the settings page (passkeys.js), the
// log-in form (auth.js) and the site's form sign-ins (passkey_step.js), which import
// nothing else but the words (i18n.js, which imports nothing): keep it free of the rest
// of the client.

import { gettext } from "./i18n.js";

/**
 * Whether this page can make and use passkeys: the browser has WebAuthn's JSON helpers,
 * and the address is a name. A passkey belongs to a site's name, never to a numeric
 * address such as 127.0.0.1, where the browser refuses every passkey prompt.
 * @returns {boolean}
 */
export function passkeysWork() {
  const helpers =
    typeof window.PublicKeyCredential === "function" &&
    typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function" &&
    typeof PublicKeyCredential.parseRequestOptionsFromJSON === "function" &&
    Boolean(navigator.credentials);
  return helpers && window.isSecureContext && !numericHost();
}

/** Whether the page's address is an IP address (IPv6 ones come in brackets). */
export function numericHost() {
  const host = location.hostname;
  return host.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
}

/**
 * A new passkey, made by the browser's prompt from the server's creation options.
 * @param {any} publicKey PublicKeyCredentialCreationOptionsJSON
 * @returns {Promise<any>} the answer, as JSON for the server
 */
export async function makePasskey(publicKey) {
  const made = /** @type {PublicKeyCredential} */ (
    await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(publicKey) })
  );
  return made.toJSON();
}

/**
 * A passkey's answer to the server's request options, from the browser's prompt. The
 * options go as the server made them: for the second step after the password they ask
 * the authenticator not to verify its person (presence is all the server checks there).
 * @param {any} publicKey PublicKeyCredentialRequestOptionsJSON
 * @returns {Promise<any>} the answer, as JSON for the server
 */
export async function usePasskey(publicKey) {
  const used = /** @type {PublicKeyCredential} */ (
    await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(publicKey) })
  );
  return used.toJSON();
}

/**
 * Whether the browser's prompt ended without an answer: closed, timed out, or the
 * device could not check its person. Browsers tell these apart to nobody, on purpose.
 * @param {any} err
 */
export function declined(err) {
  return err?.name === "NotAllowedError" || err?.name === "AbortError";
}

/**
 * What to say when the browser's prompt failed otherwise than by a refusal (those have
 * their own words where they happen).
 * @param {any} err
 */
export function promptFailed(err) {
  if (err?.name === "InvalidStateError") return gettext("This device already keeps a passkey for your account: it is in your list.");
  if (err?.name === "SecurityError") return gettext("Passkeys do not work at this address of the site. Open it by its name (not a numeric address) and try again.");
  if (err?.name === "NotSupportedError") return gettext("This device cannot make a passkey that this site can use.");
  // The browser's own words, in the browser's language, where it has some.
  return err?.message || gettext("The passkey prompt failed. Try again.");
}
