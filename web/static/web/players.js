// A player's page (`/players/<username>`): their ratings by game, their match counts, and
// their finished matches, newest first, each linked to its table and its replay; and,
// on someone else's page, "Report <name>…" (report.js).

import { api } from "./api.js";
import { signedOutPage } from "./auth.js";
import { h, replace } from "./dom.js";
import { computerName } from "./format.js";
import { gettext, gettext_noop, interpolate, ngettext, timeText } from "./i18n.js";
import { openReport } from "./report.js";

const shown = (x) => x.toFixed(1);

// A rating's parts in people's words, with what each means exactly (TrueSkill's μ and σ).
// Marked here, translated where shown (`gettext(RATING_NOTE)`): a constant is made before
// the page's catalogue is loaded.
const SKILL_MEANS = gettext_noop("μ ± σ: the best estimate so far of how well the player plays (μ), give or take how far off it may still be (σ).");
export const RATING_NOTE = gettext_noop(
  "Skill is the best estimate so far of how well the player plays (μ), ± how far off it may still be (σ, which shrinks with each rated match). The rating is skill − 3 × σ: a cautious figure, which the player is very likely above.",
);

// The counts as the server keeps them: finished matches (won among them), and apart from
// those the matches abandoned while the player sat in them.
function matchCounts({ played, won, abandoned }) {
  if (!abandoned) {
    return interpolate(ngettext("%(played)s match finished, %(won)s of them won.", "%(played)s matches finished, %(won)s of them won.", played), { played, won });
  }
  // Two counts, each with its own plural: the finished ones, then those left unfinished.
  const finished = interpolate(ngettext("%(played)s match finished, %(won)s of them won", "%(played)s matches finished, %(won)s of them won", played), { played, won });
  // Translators: %(finished)s is the count of finished matches, such as "4 matches finished, 2 of them won".
  return interpolate(ngettext("%(finished)s; %(abandoned)s more left unfinished (abandoned).", "%(finished)s; %(abandoned)s more left unfinished (abandoned).", abandoned), { finished, abandoned });
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
    // Translators: the browser tab's title on a player's page; %(name)s is their username.
    this.app.title(interpolate(gettext("%(name)s · Trick-taking tables"), { name: this.username }));
    if (!this.app.user) {
      signedOutPage(this.root, gettext("Players"), gettext("Log in to see the players' pages."));
      return;
    }
    replace(this.root, h("p", { class: "loading" }, gettext("Loading…")));
    const name = encodeURIComponent(this.username);
    try {
      [this.profile, this.matches] = await Promise.all([api(`players/${name}`), api(`players/${name}/matches?page=${this.page}`)]);
    } catch (err) {
      if (this.gone) return;
      replace(this.root, h("section", { class: "panel" }, h("h1", {}, gettext("Player")), h("p", { class: "form-error", role: "alert", "data-code": err.code ?? "" }, err.message)));
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
          { class: "panel", "aria-label": gettext("Player") },
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
                  interpolate(gettext("Report %(name)s…"), { name: profile.display_name || profile.username }),
                ),
              ),
          ratings.length
            ? h(
                "div",
                { class: "scroll" },
                h(
                  "table",
                  { class: "ratings" },
                  h("caption", {}, gettext("Ratings")),
                  h(
                    "thead",
                    {},
                    h(
                      "tr",
                      {},
                      h("th", { scope: "col" }, gettext("Game")),
                      h("th", { scope: "col" }, gettext("Rating")),
                      h("th", { scope: "col", title: gettext(SKILL_MEANS) }, gettext("Skill")),
                      h("th", { scope: "col" }, gettext("Rated matches")),
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
                        // eslint-disable-next-line i18next/no-literal-string -- two numbers and a sign
                        h("td", {}, `${shown(r.mu)} ±\u00a0${shown(r.sigma)}`),
                        h("td", {}, String(r.matches)),
                      ),
                    ),
                  ),
                ),
              )
            : h("p", { class: "no-ratings" }, gettext("No rated match yet.")),
          ratings.length ? h("p", { class: "rating-note muted" }, gettext(RATING_NOTE)) : null,
          h(
            "p",
            { class: "leaderboards" },
            // Translators: before the links to each game's leaderboard.
            gettext("Leaderboards:"),
            " ",
            this.app.catalogue.map((g, i) => [i ? " · " : "", h("a", { href: `/leaderboard?game=${g.key}`, "data-link": "" }, g.name)]),
          ),
        ),
        h(
          "section",
          { class: "panel", "aria-label": gettext("Finished matches") },
          h("h2", {}, gettext("Finished matches")),
          matches.results.length
            ? h("ul", { class: "match-list" }, matches.results.map((m) => this.match(m)))
            : h("p", {}, gettext("No finished match yet.")),
          pager(matches, this.page, (page) => this.turn(page)),
        ),
      ),
    );
  }

  match(m) {
    // The date alone, as toLocaleDateString writes it, in the page's language.
    const when = m.finished_at ? timeText(m.finished_at, { year: "numeric", month: "numeric", day: "numeric" }) : "";
    // Translators: a rated match's change of the player's rating, such as "rating 21.3 → 22.0".
    const rating = m.rating_change ? interpolate(gettext("rating %(before)s → %(after)s"), { before: shown(m.rating_change.shown_before), after: shown(m.rating_change.shown_after) }) : "";
    const change = m.rating_change ? h("span", { class: "rating-change" }, ` · ${rating}`) : null;
    // Translators: where the player finished a match, such as "place 2" (of the players at the table).
    const place = interpolate(gettext("place %(place)s"), { place: m.place });
    // Translators: the player's score in a match.
    const score = interpolate(ngettext("%(score)s point", "%(score)s points", m.score), { score: m.score });
    return h(
      "li",
      { class: "match", "data-code": m.code },
      // Translators: said of a match that did not count for the ratings.
      h("p", { class: "match-head" }, h("strong", {}, this.gameName(m.game)), m.name ? ` · ${m.name}` : "", ` · ${when} · ${place} · ${score}`, change, m.rated ? null : ` · ${gettext("not rated")}`),
      h(
        "p",
        { class: "match-players" },
        m.players.map((p, i) => [
          i ? ", " : "",
          // A seat without an account is a computer player's, named in the page's language.
          p.username ? h("a", { href: `/players/${encodeURIComponent(p.username)}`, "data-link": "" }, p.display_name) : computerName(p.seat),
          ` ${p.score}`,
        ]),
      ),
      h(
        "p",
        { class: "match-links" },
        h("a", { href: `/replay/${encodeURIComponent(m.code)}`, "data-link": "" }, gettext("Replay")),
        " · ",
        // Translators: the link to a finished match's table (its room).
        h("a", { href: `/join/${encodeURIComponent(m.code)}`, "data-link": "" }, gettext("Table")),
      ),
    );
  }
}

// Previous and next pages of a paginated answer ({count, next, previous, results}).
export function pager(answer, page, go) {
  if (!answer.next && !answer.previous) return null;
  return h(
    "nav",
    { class: "pager button-row", "aria-label": gettext("Pages") },
    h("button", { type: "button", disabled: !answer.previous, onclick: () => go(page - 1) }, gettext("Previous page")),
    h("span", { class: "page-no" }, interpolate(gettext("Page %(page)s"), { page })),
    h("button", { type: "button", disabled: !answer.next, onclick: () => go(page + 1) }, gettext("Next page")),
  );
}
