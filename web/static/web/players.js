// A player's page (`/players/<username>`): their ratings by game, their match counts, and
// their finished matches, newest first, each linked to its table and its replay; and,
// on someone else's page, "Report <name>…" (report.js).

import { api } from "./api.js";
import { signedOutPage } from "./auth.js";
import { h, replace } from "./dom.js";
import { openReport } from "./report.js";

const shown = (x) => x.toFixed(1);

// A rating's parts in people's words, with what each means exactly (TrueSkill's μ and σ).
const SKILL_MEANS = "μ ± σ: the best estimate so far of how well the player plays (μ), give or take how far off it may still be (σ).";
export const RATING_NOTE =
  "Skill is the best estimate so far of how well the player plays (μ), ± how far off it may still be (σ, which shrinks with each rated match). The rating is skill − 3 × σ: a cautious figure, which the player is very likely above.";

// The counts as the server keeps them: finished matches (won among them), and apart from
// those the matches abandoned while the player sat in them.
function matchCounts({ played, won, abandoned }) {
  const finished = `${played} match${played === 1 ? "" : "es"} finished, ${won} of them won`;
  return abandoned ? `${finished}; ${abandoned} more left unfinished (abandoned).` : `${finished}.`;
}

export class ProfilePage {
  constructor(root, username, app) {
    this.root = root;
    this.username = username;
    this.app = app;
    this.page = 1;
    this.profile = null;
    this.matches = null;
  }

  destroy() {
    this.gone = true;
  }

  gameName(key) {
    return this.app.catalogue.find((g) => g.key === key)?.name ?? key;
  }

  async start() {
    this.app.title(`${this.username} · Trick-taking tables`);
    if (!this.app.user) {
      signedOutPage(this.root, "Players", "Log in to see the players' pages.");
      return;
    }
    replace(this.root, h("p", { class: "loading" }, "Loading…"));
    const name = encodeURIComponent(this.username);
    try {
      [this.profile, this.matches] = await Promise.all([api(`players/${name}`), api(`players/${name}/matches?page=${this.page}`)]);
    } catch (err) {
      if (this.gone) return;
      replace(this.root, h("section", { class: "panel" }, h("h1", {}, "Player"), h("p", { class: "form-error", role: "alert", "data-code": err.code ?? "" }, err.message)));
      return;
    }
    if (this.gone) return;
    this.render();
  }

  async turn(page) {
    this.matches = await api(`players/${encodeURIComponent(this.username)}/matches?page=${page}`);
    this.page = page;
    if (!this.gone) this.render();
  }

  render() {
    const { profile, matches } = this;
    const ratings = Object.entries(profile.ratings);
    const counts = profile.matches;
    replace(
      this.root,
      h(
        "div",
        { class: "profile" },
        h(
          "section",
          { class: "panel", "aria-label": "Player" },
          h("h1", {}, profile.display_name, profile.display_name !== profile.username ? h("span", { class: "muted" }, ` @${profile.username}`) : null),
          h("p", { class: "match-counts" }, matchCounts(counts)),
          profile.username === this.app.user?.username
            ? null
            : h(
                "p",
                { class: "report-player" },
                h(
                  "button",
                  {
                    type: "button",
                    "data-focus": "report-player",
                    onclick: (/** @type {MouseEvent} */ e) =>
                      openReport({ username: profile.username, name: profile.display_name || profile.username }, /** @type {HTMLElement} */ (e.currentTarget)),
                  },
                  `Report ${profile.display_name || profile.username}…`,
                ),
              ),
          ratings.length
            ? h(
                "div",
                { class: "scroll" },
                h(
                  "table",
                  { class: "ratings" },
                  h("caption", {}, "Ratings"),
                  h(
                    "thead",
                    {},
                    h(
                      "tr",
                      {},
                      h("th", { scope: "col" }, "Game"),
                      h("th", { scope: "col" }, "Rating"),
                      h("th", { scope: "col", title: SKILL_MEANS }, "Skill"),
                      h("th", { scope: "col" }, "Rated matches"),
                    ),
                  ),
                  h(
                    "tbody",
                    {},
                    ratings.map(([game, r]) =>
                      h(
                        "tr",
                        { "data-game": game },
                        h("th", { scope: "row" }, h("a", { href: `/leaderboard?game=${game}`, "data-link": "" }, this.gameName(game))),
                        h("td", {}, shown(r.shown)),
                        // A narrow screen breaks the line before "±", never after it.
                        h("td", {}, `${shown(r.mu)} ±\u00a0${shown(r.sigma)}`),
                        h("td", {}, String(r.matches)),
                      ),
                    ),
                  ),
                ),
              )
            : h("p", { class: "no-ratings" }, "No rated match yet."),
          ratings.length ? h("p", { class: "rating-note muted" }, RATING_NOTE) : null,
          h(
            "p",
            { class: "leaderboards" },
            "Leaderboards: ",
            this.app.catalogue.map((g, i) => [i ? " · " : "", h("a", { href: `/leaderboard?game=${g.key}`, "data-link": "" }, g.name)]),
          ),
        ),
        h(
          "section",
          { class: "panel", "aria-label": "Finished matches" },
          h("h2", {}, "Finished matches"),
          matches.results.length
            ? h("ul", { class: "match-list" }, matches.results.map((m) => this.match(m)))
            : h("p", {}, "No finished match yet."),
          pager(matches, this.page, (page) => this.turn(page)),
        ),
      ),
    );
  }

  match(m) {
    const when = m.finished_at ? new Date(m.finished_at).toLocaleDateString() : "";
    const change = m.rating_change
      ? h("span", { class: "rating-change" }, ` · rating ${shown(m.rating_change.shown_before)} → ${shown(m.rating_change.shown_after)}`)
      : null;
    return h(
      "li",
      { class: "match", "data-code": m.code },
      h("p", { class: "match-head" }, h("strong", {}, this.gameName(m.game)), m.name ? ` · ${m.name}` : "", ` · ${when} · place ${m.place} · ${m.score} points`, change, m.rated ? null : " · not rated"),
      h(
        "p",
        { class: "match-players" },
        m.players.map((p, i) => [
          i ? ", " : "",
          p.username ? h("a", { href: `/players/${encodeURIComponent(p.username)}`, "data-link": "" }, p.display_name) : p.display_name,
          ` ${p.score}`,
        ]),
      ),
      h(
        "p",
        { class: "match-links" },
        h("a", { href: `/replay/${encodeURIComponent(m.code)}`, "data-link": "" }, "Replay"),
        " · ",
        h("a", { href: `/join/${encodeURIComponent(m.code)}`, "data-link": "" }, "Table"),
      ),
    );
  }
}

// Previous and next pages of a paginated answer ({count, next, previous, results}).
export function pager(answer, page, go) {
  if (!answer.next && !answer.previous) return null;
  return h(
    "nav",
    { class: "pager button-row", "aria-label": "Pages" },
    h("button", { type: "button", disabled: !answer.previous, onclick: () => go(page - 1) }, "Previous page"),
    h("span", { class: "page-no" }, `Page ${page}`),
    h("button", { type: "button", disabled: !answer.next, onclick: () => go(page + 1) }, "Next page"),
  );
}
