// The leaderboard (`/leaderboard?game=`): a game's rated players, best shown rating
// first, a page at a time; the game is chosen from the catalogue and kept in the address.

import { api } from "./api.js";
import { signedOutPage } from "./auth.js";
import { h, replace } from "./dom.js";
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
    this.app.title("Leaderboard · Trick-taking tables");
    if (!this.app.user) {
      signedOutPage(this.root, "Leaderboard", "Log in to see the leaderboard.");
      return;
    }
    await this.load();
  }

  async load() {
    try {
      this.board = await api(`leaderboard?game=${encodeURIComponent(this.game)}&page=${this.page}`);
    } catch (err) {
      if (this.gone) return;
      replace(this.root, h("section", { class: "panel" }, h("h1", {}, "Leaderboard"), h("p", { class: "form-error", role: "alert" }, err.message)));
      return;
    }
    if (!this.gone) this.render();
  }

  render() {
    const picker = h(
      "select",
      {
        "aria-label": "Game",
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
    replace(
      this.root,
      h(
        "section",
        { class: "panel leaderboard", "aria-label": "Leaderboard", "data-game": this.game },
        h("h1", {}, "Leaderboard"),
        h("label", {}, "Game ", picker),
        rows.length
          ? [
              h(
                "div",
                { class: "scroll" },
                h(
                  "table",
                  { class: "board" },
                  h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "Matches"].map((t) => h("th", { scope: "col" }, t)))),
                  h(
                    "tbody",
                    {},
                    rows.map((r) =>
                      h(
                        "tr",
                        { "data-username": r.username },
                        h("td", {}, String(r.rank)),
                        h("th", { scope: "row" }, h("a", { href: `/players/${encodeURIComponent(r.username)}`, "data-link": "" }, r.display_name)),
                        h("td", { title: `Skill ${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)} (μ ± σ)` }, r.shown.toFixed(1)),
                        h("td", {}, String(r.matches)),
                      ),
                    ),
                  ),
                ),
              ),
              h("p", { class: "rating-note muted" }, RATING_NOTE),
            ]
          : h("p", { class: "empty" }, `Nobody has played enough rated matches of this game yet: a player is listed after ${document.body.dataset.leaderboardMin ?? 5} rated matches.`),
        pager(this.board, this.page, (page) => {
          this.page = page;
          this.load();
        }),
      ),
    );
  }
}
