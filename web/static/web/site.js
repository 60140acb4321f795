// The site's own name, in the page's language: said where it is shown, since a
// constant made before the page's catalogue is loaded would stay English.

import { gettext } from "./i18n.js";

export function siteName() {
  return gettext("Trick-taking tables");
}
