// The end of a match: the banner that says how it ended, and the way on (a rematch with
// the same players, back to the player's tables, or a new table like this one).

import { h } from "../dom.js";
import { endReason, listNames, youName } from "../format.js";
import { gettext, interpolate, ngettext } from "../i18n.js";

/** @typedef {import("../table.js").TableView} TableView */

// The end of the match: who won, or why it ended (said to this reader, in the page's
// language), and the way on: a rematch with the same players, back to the player's
// tables, or a new table like this one.
/** @param {TableView} table */
export function banner(table, view, names) {
  const last = view.last_round;
  const over = view.phase === "match_over" || view.status === "finished";
  const ended = view.status === "abandoned" || view.status === "closed";
  if (!over && !ended) return null;
  const winners = last?.winners ?? [];
  const seated = view.you?.seat !== undefined && view.you?.seat !== null;
  // An abandoned match's reason is a whole sentence ("You did not play in time; the
  // match was abandoned."), said in the page's language (endReason).
  const reason = ended ? endReason(view, names) : "";
  const said = ended
    ? view.status === "abandoned"
      ? h("strong", { class: "status-reason" }, reason || gettext("The match was abandoned."))
      : [h("strong", {}, `${gettext("Room closed.")} `), reason ? h("span", { class: "status-reason" }, reason) : null]
    : [
        h("strong", {}, `${gettext("Match over.")} `),
        winners.length ? winnersText(winners, names) : "",
        // Only a finished match has a replay; an abandoned or closed one keeps its hands hidden.
        view.status === "finished"
          ? [" ", h("a", { href: `/replay/${encodeURIComponent(view.code)}`, "data-link": "", class: "replay-link" }, gettext("Watch the replay"))]
          : null,
      ];
  // A room a moderator closed is not one to set up again.
  const again = seated && view.status !== "closed" && table.ctx.newTable;
  const rematch = seated && view.rematch && table.ctx.rematch ? rematchOffer(table, view, names) : null;
  return h(
    "div",
    { class: `banner ${ended ? "match-ended" : "match-over"}`, role: "status" },
    h("p", {}, said),
    rematch?.said ?? null,
    h(
      "div",
      { class: "button-row onward" },
      rematch?.button ?? null,
      h("a", { href: "/", "data-link": "", class: "button-link", "data-action": "home" }, gettext("Back to your tables")),
      again
        ? h(
            "button",
            {
              type: "button",
              "data-action": "new-table",
              onclick: (event) => {
                event.currentTarget.disabled = true;
                table.ctx.newTable();
              },
            },
            gettext("New table with the same settings"),
          )
        : null,
    ),
    // Why the server refused the rematch, in its words (the room was closed meanwhile...).
    table.rematchError ? h("p", { class: "rematch-error", role: "alert" }, table.rematchError) : null,
  );
}

// Who won, said to the reader when they did ("You win!").
function winnersText(winners, names) {
  if (winners.length === 1 && names[winners[0]] === youName()) return gettext("You win!");
  if (winners.length === 1) return interpolate(gettext("%(name)s wins!"), { name: names[winners[0]] });
  // Translators: %(names)s is two or more players ("Ann and Bob"), the reader perhaps among them ("You and Ann").
  return interpolate(gettext("%(names)s win!"), { names: listNames(winners, names) });
}

// A rematch with the same players, once everyone seated agrees (view.rematch: the seats
// that agreed, then the new room). Before it is made: who asked, and the button, or, once
// this player asked, who the table still waits for; then the way to the new table.
/** @param {TableView} table */
function rematchOffer(table, view, names) {
  const me = view.you.seat;
  const { agreed, room } = view.rematch;
  if (room) {
    return {
      said: h("p", { class: "rematch", "data-rematch": "started" }, gettext("The rematch has started.")),
      button: h(
        "a",
        { href: `/join/${encodeURIComponent(room)}`, "data-link": "", class: "button-link", "data-action": "open-rematch", "data-focus": "rematch" },
        gettext("Open the rematch"),
      ),
    };
  }
  // Everyone seated must agree: a seat a computer player keeps for its person too.
  const people = (view.seats || []).flatMap((s, i) => (s.user ? [i] : []));
  const others = agreed.filter((i) => i !== me);
  if (agreed.includes(me)) {
    const waiting = people.filter((i) => !agreed.includes(i));
    return {
      said: h(
        "p",
        { class: "rematch", "data-rematch": "asked" },
        gettext("You asked for a rematch."),
        waiting.length ? ` ${interpolate(gettext("Waiting for %(names)s to agree."), { names: listNames(waiting, names) })}` : "",
      ),
    };
  }
  return {
    said: others.length
      ? h(
          "p",
          { class: "rematch", "data-rematch": "wanted" },
          interpolate(ngettext("%(names)s wants a rematch.", "%(names)s want a rematch.", others.length), { names: listNames(others, names) }),
        )
      : null,
    button: h(
      "button",
      {
        type: "button",
        class: "primary",
        "data-action": "rematch",
        // Where the keyboard was, the link to the rematch takes its place once it starts.
        "data-focus": "rematch",
        onclick: (event) => {
          event.currentTarget.disabled = true;
          table.ctx.rematch();
        },
      },
      gettext("Rematch with the same players"),
    ),
  };
}
