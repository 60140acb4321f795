// The page of the link mailed to confirm an e-mail address (`/confirm-email#<token>`):
// it sends the token to the API and says whether the address is confirmed. The token is
// in the fragment, which browsers never send to the server, so it stays out of its logs;
// no sign-in is needed, as the link may be opened on any device.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";
import { siteName } from "./site.js";


export class ConfirmEmailPage {
  constructor(root, app) {
    this.root = root;
    this.app = app;
  }

  destroy() {
    this.gone = true;
  }

  async start() {
    this.app.title(interpolate(gettext("Confirm your e-mail address · %(site)s"), { site: siteName() }));
    const token = decodeURIComponent(location.hash.slice(1));
    // Read once: the token leaves the address bar and the history.
    if (location.hash) history.replaceState(history.state, "", location.pathname + location.search);
    if (!token) {
      this.show(gettext("This link has no confirmation code"), gettext("Open the link exactly as the e-mail gives it, or ask for a new one in your settings."), true);
      return;
    }
    replace(this.root, h("p", { class: "loading" }, gettext("Confirming…")));
    let answer;
    try {
      answer = await api("email-confirmations", { method: "POST", body: { token } });
    } catch (err) {
      if (!this.gone) this.show(gettext("This link does not work"), err.message, true);
      return;
    }
    if (!this.gone) {
      this.show(
        gettext("Address confirmed"),
        interpolate(gettext("Notices you choose to receive by e-mail now go to %(address)s."), { address: answer.email_address }),
        false,
      );
    }
  }

  show(title, text, failed) {
    replace(
      this.root,
      h(
        "section",
        { class: "panel confirm-email" },
        h("h1", {}, title),
        h("p", failed ? { class: "form-error", role: "alert" } : { role: "status" }, text),
        h(
          "p",
          { class: "meta" },
          h("a", { href: "/notifications", "data-link": "" }, gettext("Your settings")),
          " · ",
          h("a", { href: "/", "data-link": "" }, gettext("Your tables")),
        ),
      ),
    );
  }
}
