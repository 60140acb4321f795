// The second step of the site's form sign-ins (the admin's, and an app's authorize page;
// api/sign_in.py) with a passkey instead of the code: a "Use a passkey" button that asks
// the browser's passkey prompt for an answer to a ceremony begun for a second step,
// writes it as JSON into the form's hidden `passkey` field and sends the form. The forms
// work without it: the button's row stays hidden where this does not run, or where the
// browser has no passkeys.
//
// These pages are Django's, not the web client's: their words come from the templates,
// and this script's few (all said after a click) from the client's catalogue, where the
// page names one (`data-catalogue` on any element, the language being `<html lang>`);
// otherwise they stay English.

import { gettext, interpolate, loadCatalogue } from "./i18n.js";
import { declined, passkeysWork, promptFailed, usePasskey } from "./webauthn.js";

const OPTIONS = "/api/v1/auth/passkey/options";

/**
 * The options of a ceremony for a second step; a refusal's words as the API gives them.
 * @returns {Promise<any>} PublicKeyCredentialRequestOptionsJSON
 */
async function secondStepOptions() {
  const res = await fetch(OPTIONS, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ second_step: true }),
    credentials: "same-origin",
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const said = (data?.errors ?? []).map((/** @type {{ detail: string }} */ e) => e.detail).join(" ");
    // Translators: %(status)s is the HTTP status the server answered, such as 503.
    throw new Error(said || interpolate(gettext("The passkey could not be asked for (%(status)s). Try again."), { status: res.status }));
  }
  return data.publicKey;
}

/**
 * The form's one error line is a region of the page (`data-error-line` names it) holding
 * the server's refusal, if any, as one paragraph of the page's own class for them.
 * @param {HTMLFormElement} form
 */
function wire(form) {
  const answer = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name="passkey"]'));
  const row = /** @type {HTMLElement | null} */ (form.querySelector("[data-passkey-step]"));
  const button = /** @type {HTMLButtonElement | HTMLInputElement | null | undefined} */ (row?.querySelector("button, input[type=button]"));
  const region = form.dataset.errorLine ? document.getElementById(form.dataset.errorLine) : null;
  if (!answer || !row || !button || !region) return;
  const code = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name="code"]'));
  const say = (/** @type {string} */ text) => {
    const line = document.createElement("p");
    line.className = region.dataset.lineClass ?? "";
    line.textContent = text;
    region.replaceChildren(...(text ? [line] : []));
  };
  row.hidden = false;
  button.addEventListener("click", async () => {
    // The username and password go with the passkey's answer: asked for first.
    if (!form.reportValidity()) return;
    say("");
    button.disabled = true;
    try {
      const publicKey = await secondStepOptions();
      let used;
      try {
        used = await usePasskey(publicKey);
      } catch (err) {
        say(
          declined(err)
            ? gettext("Your passkey was not used: its prompt was closed before it answered. Try again, or type the code from your authenticator app.")
            : promptFailed(err),
        );
        return;
      }
      answer.value = JSON.stringify(used);
      // The passkey is the second step sent: a code typed meanwhile is not.
      if (code) code.value = "";
      form.requestSubmit();
    } catch (err) {
      say(err.message);
    } finally {
      button.disabled = false;
    }
  });
}

/** The page's catalogue, if it names one: loaded while nothing is said yet. */
async function loadWords() {
  const url = /** @type {HTMLElement | null} */ (document.querySelector("[data-catalogue]"))?.dataset.catalogue;
  if (!url) return;
  try {
    await loadCatalogue(document.documentElement.lang || "en", url);
  } catch {
    // Not loaded (offline, an old address): the words stay English.
  }
}

if (passkeysWork()) {
  loadWords();
  for (const form of document.querySelectorAll("form")) wire(form);
}
