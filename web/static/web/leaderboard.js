// The leaderboard (`/leaderboard?game=`): a game's rated players, best shown rating
// first, a page at a time; the game is chosen from the catalogue and kept in the address.

import { api } from "./api.js";
import { signedOutPage } from "./auth.js";
import { h, replace } from "./dom.js";
import { gettext, interpolate, ngettext } from "./i18n.js";
import { RATING_NOTE, pager } from "./players.js";

export class LeaderboardPage {
  constructor(root, app) {
    this.root = root;
    this.app = app;
    const query = new URLSearchParams(location.search);
    const keys = app.catalogue.map((g) => g.key);
    this.game = keys.includes(query.get("game")) ? query.get("game") : keys[0];
    this.page = 1;
  }

  destroy() {
    this.gone = true;
  }

  async start() {
    // Translators: the browser tab's title on the leaderboard.
    this.app.title(gettext("Leaderboard · Trick-taking tables"));
    if (!this.app.user) {
      signedOutPage(this.root, gettext("Leaderboard"), gettext("Log in to see the leaderboard."));
      return;
    }
    await this.load();
  }

  async load() {
    try {
      this.board = await api(`leaderboard?game=${encodeURIComponent(this.game)}&page=${this.page}`);
    } catch (err) {
      if (this.gone) return;
      replace(this.root, h("section", { class: "panel" }, h("h1", {}, gettext("Leaderboard")), h("p", { class: "form-error", role: "alert" }, err.message)));
      return;
    }
    if (!this.gone) this.render();
  }

  render() {
    const picker = h(
      "select",
      {
        "aria-label": gettext("Game"),
        onchange: (e) => {
          this.game = e.target.value;
          this.page = 1;
          history.replaceState(history.state, "", `/leaderboard?game=${encodeURIComponent(this.game)}`);
          this.load();
        },
      },
      this.app.catalogue.map((g) => h("option", { value: g.key, selected: g.key === this.game }, g.name)),
    );
    const rows = this.board.results;
    const least = Number(document.body.dataset.leaderboardMin ?? 5);
    const headings = [
      // Translators: the heading of the leaderboard's column of ranks (1, 2, 3…).
      gettext("#"),
      gettext("Player"),
      gettext("Rating"),
      // Translators: the heading of the leaderboard's column of rated matches played.
      gettext("Matches"),
    ];
    replace(
      this.root,
      h(
        "section",
        { class: "panel leaderboard", "aria-label": gettext("Leaderboard"), "data-game": this.game },
        h("h1", {}, gettext("Leaderboard")),
        h("label", {}, gettext("Game"), " ", picker),
        rows.length
          ? [
              h(
                "div",
                { class: "scroll" },
                h(
                  "table",
                  { class: "board" },
                  h("thead", {}, h("tr", {}, headings.map((t) => h("th", { scope: "col" }, t)))),
                  h(
                    "tbody",
                    {},
                    rows.map((r) =>
                      h(
                        "tr",
                        { "data-username": r.username },
                        h("td", {}, String(r.rank)),
                        h("th", { scope: "row" }, h("a", { href: `/players/${encodeURIComponent(r.username)}`, "data-link": "" }, r.display_name)),
                        h("td", { title: interpolate(gettext("Skill %(mu)s ± %(sigma)s (μ ± σ)"), { mu: r.mu.toFixed(1), sigma: r.sigma.toFixed(1) }) }, r.shown.toFixed(1)),
                        h("td", {}, String(r.matches)),
                      ),
                    ),
                  ),
                ),
              ),
              h("p", { class: "rating-note muted" }, gettext(RATING_NOTE)),
            ]
          : h(
              "p",
              { class: "empty" },
              interpolate(
                ngettext(
                  "Nobody has played enough rated matches of this game yet: a player is listed after %(n)s rated match.",
                  "Nobody has played enough rated matches of this game yet: a player is listed after %(n)s rated matches.",
                  least,
                ),
                { n: least },
              ),
            ),
        pager(this.board, this.page, (page) => {
          this.page = page;
          this.load();
        }),
      ),
    );
  }
}
