// The room before the start: invite link and QR code, seats and teams, computer
// players and the start (host).

import { fairDeal } from "./fair.js";
import { describeOptions } from "./options.js";
import { h } from "./dom.js";
import { seatName, teamName } from "./format.js";
import { gettext, interpolate, ngettext, pgettext } from "./i18n.js";
import { playerButton } from "./report.js";
import { canShare, copyText, share } from "./share.js";
import { ratedText } from "./wording.js";

// Team sizes when players choose a team in the lobby: from the options, or an even split.
export function lobbyTeams(room, seats) {
  if (!seats.some((s) => s.team !== null && s.team !== undefined)) return null;
  const sizes = room.options?.team_sizes;
  if (Array.isArray(sizes) && sizes.length === 2) return sizes;
  const n = seats.length;
  return [Math.floor(n / 2), Math.ceil(n / 2)];
}

// The host as the table knows them: by the name they sit under, not their account name.
export function hostName(room) {
  const seat = (room.seats ?? []).find((s) => s.user === room.host);
  return seat?.display_name || room.host;
}

function presetName(catalogue, preset) {
  return catalogue?.module?.optionValueLabel?.("preset", preset) ?? preset.replaceAll("_", " ");
}

/** @type {{ code: string | null, text: string }} */
let copiedNote = { code: null, text: "" };

/**
 * The lobby. `notice`: why the last step was refused, said where it belongs (a playban's,
 * under the seats' buttons), or null.
 * @param {{ room: any, view: any, user: any, catalogue: any, qrUrl: any, liveStatus: any, act: any, notice?: string | null }} args
 */
export function renderLobby({ room, view, user, catalogue, qrUrl, liveStatus, act, notice = null }) {
  const seats = view.seats;
  const mine = seats.find((s) => s.user === user.username);
  const isHost = room.host === user.username;
  const free = seats.filter((s) => !s.user && !s.is_bot).length;
  const teams = lobbyTeams(room, seats);
  const filled = (t) => seats.filter((s) => s.team === t && (s.user || s.is_bot)).length;

  const invite = h("input", { class: "invite-link", readonly: true, value: room.invite_url, "aria-label": gettext("Invite link"), onfocus: (e) => e.target.select() });
  // What the last copy said stays said when the lobby is drawn again (the QR code arriving,
  // a seat taken), for this room.
  const copied = h("span", { class: "copied", role: "status" }, copiedNote.code === room.code ? copiedNote.text : "");
  const say = (text) => {
    copiedNote = { code: room.code, text };
    copied.textContent = text;
    const shown = document.querySelector(".invite-box .copied");
    if (shown && shown !== copied) shown.textContent = text;
  };
  const copy = async () => {
    try {
      await copyText(room.invite_url);
      say(gettext("Copied."));
    } catch {
      invite.select();
      say(gettext("Select and copy the link."));
    }
  };
  // What the share sheet hands on with the link, read by the person invited.
  const shared = {
    title: gettext("Trick-taking tables"),
    text: catalogue?.name ? interpolate(gettext("Come and play %(game)s with me"), { game: catalogue.name }) : gettext("Come and play with me"),
    url: room.invite_url,
  };
  // The system's share sheet where the browser has one (the messaging apps a phone has);
  // a browser that has it but refuses (no permission) gets the link copied instead.
  const shareButton = canShare(shared)
    ? h(
        "button",
        {
          type: "button",
          class: "primary",
          "data-action": "share-invite",
          onclick: async () => {
            say("");
            try {
              await share(shared);
            } catch {
              await copy();
            }
          },
        },
        gettext("Share link"),
      )
    : null;
  const inviteBox = h(
    "section",
    // Translators: the name of the lobby's part with the invite link and its QR code.
    { class: "panel invite-box", "aria-label": gettext("Invite") },
    h("h2", {}, gettext("Invite players")),
    h("p", {}, gettext("Send this link, or let them scan the code.")),
    h(
      "div",
      { class: "choice-row" },
      invite,
      shareButton,
      h("button", { type: "button", "data-action": "copy-invite", onclick: copy }, gettext("Copy link")),
      copied,
    ),
    qrUrl
      ? h("img", { class: "qr", src: qrUrl, alt: interpolate(gettext("QR code of the invite link %(url)s"), { url: room.invite_url }), width: 180, height: 180 })
      : h("p", { class: "qr-placeholder" }, gettext("Loading the QR code…")),
  );

  const seatList = h(
    "ol",
    { class: "lobby-seats", "aria-label": gettext("Seats") },
    seats.map((s) =>
      h(
        "li",
        { class: `lobby-seat${s.user === user.username ? " me" : ""}`, "data-seat": s.seat },
        h("span", { class: "seat-no" }, interpolate(gettext("Seat %(seat)s"), { seat: s.seat + 1 })),
        h(
          "span",
          { class: "seat-who" },
          // Another person's name opens what can be done about them (their page, a report).
          s.user && !s.is_bot && s.user !== user.username
            ? playerButton({ username: s.user, name: s.display_name || s.user, room: room.code }, s.display_name || s.user)
            : s.user || s.is_bot
              ? seatName(s, s.seat) || s.user
              : // Translators: in the lobby, a seat nobody has taken yet.
                h("em", {}, pgettext("seat", "free")),
          // Translators: a badge by the name of the player who made the room.
          s.user === room.host ? h("span", { class: "badge" }, gettext("host")) : null,
          // Translators: a badge by the name of a seat a computer player holds.
          s.is_bot ? h("span", { class: "badge" }, gettext("computer")) : null,
          // Translators: a badge by the reader's own name in the lobby's seats.
          s.user === user.username ? h("span", { class: "badge" }, gettext("you")) : null,
        ),
        teams && s.team !== null && s.team !== undefined ? h("span", { class: "badge" }, teamName(s.team)) : null,
      ),
    ),
  );

  const controls = [];
  if (!mine) {
    if (teams) {
      controls.push(
        teams.map((size, t) =>
          h(
            "button",
            { class: "primary", "data-action": "join", "data-team": t, disabled: filled(t) >= size, onclick: () => act("join", { team: t }) },
            // Translators: a button that takes a seat in a team: "Join Team A (1/2)", its seats taken of its size.
            interpolate(gettext("Join %(team)s (%(taken)s/%(size)s)"), { team: teamName(t), taken: filled(t), size }),
          ),
        ),
      );
    } else {
      controls.push(
        h("button", { class: "primary", "data-action": "join", disabled: free === 0, onclick: () => act("join", {}) }, free ? gettext("Take a seat") : gettext("The table is full")),
      );
    }
  } else {
    if (teams) {
      const other = 1 - mine.team;
      controls.push(
        h(
          "button",
          { "data-action": "switch-team", disabled: filled(other) >= teams[other], onclick: () => act("join", { team: other }) },
          interpolate(gettext("Switch to %(team)s"), { team: teamName(other) }),
        ),
      );
    }
    if (!isHost) controls.push(h("button", { "data-action": "leave", onclick: () => act("leave") }, gettext("Leave the table")));
  }
  if (isHost) {
    if (teams) {
      controls.push(
        teams.map((size, t) =>
          h(
            "button",
            { "data-action": "add-bot", "data-team": t, disabled: filled(t) >= size, onclick: () => act("bots", { team: t }) },
            interpolate(gettext("Computer player for %(team)s"), { team: teamName(t) }),
          ),
        ),
      );
    } else {
      controls.push(h("button", { "data-action": "add-bot", disabled: free === 0, onclick: () => act("bots", {}) }, gettext("Add a computer player")));
    }
    controls.push(
      h(
        "button",
        { class: "primary", "data-action": "start", disabled: free > 0, onclick: () => act("start") },
        free
          ? // Translators: the host's start button, which waits for the seats still free.
            interpolate(ngettext("Start (%(n)s seat free)", "Start (%(n)s seats free)", free), { n: free })
          : gettext("Start the game"),
      ),
    );
  } else if (mine) {
    controls.push(h("p", { class: "waiting" }, interpolate(gettext("Waiting for %(host)s to start the game."), { host: hostName(room) })));
  }

  const options = describeOptions(catalogue, room.options);
  return h(
    "section",
    { class: "lobby", "data-phase": "lobby", "data-version": view.version, "data-status": view.status },
    h(
      "header",
      { class: "table-head" },
      h("h1", {}, `${catalogue?.name ?? room.game}${room.name ? ` · ${room.name}` : ""}`),
      h(
        "p",
        { class: "meta" },
        // Translators: the lobby's heading line, followed by how the page hears of changes ("live").
        `${interpolate(gettext("Room %(code)s · host %(host)s · updates:"), { code: room.code, host: hostName(room) })} `,
        h("span", { class: "live-status", "data-live": "", title: gettext("How this page hears of changes") }, liveStatus),
      ),
    ),
    h("div", { class: "lobby-grid" }, h(
        "section",
        { class: "panel" },
        h("h2", {}, gettext("Seats")),
        teams
          ? h(
              "p",
              { class: "team-sizes" },
              // Translators: a team's seats taken of its size in the lobby: "Team A: 1 of 2".
              teams.map((size, t) => interpolate(gettext("%(team)s: %(taken)s of %(size)s"), { team: teamName(t), taken: filled(t), size })).join(" · "),
            )
          : null,
        seatList,
        // ratedText's English, translated here (the catalogue has it: wording.js marks it).
        h("p", { class: "rated-note", "data-rated": String(room.options?.rated ?? null) }, gettext(ratedText(room.options?.rated))),
        h("div", { class: "button-row" }, controls),
        notice ? h("p", { class: "lobby-notice", tabindex: "-1", "data-focus": "lobby-notice" }, notice) : null), inviteBox),
    fairDeal(view, room.code),
    options.length
      ? h(
          "details",
          { class: "panel options-summary" },
          h(
            "summary",
            {},
            room.options?.preset ? interpolate(gettext("Rules: %(preset)s"), { preset: presetName(catalogue, room.options.preset) }) : gettext("Rules and pace"),
          ),
          h("dl", {}, options.map(([k, v]) => h("div", { class: "info-item" }, h("dt", {}, k), h("dd", {}, v)))),
        )
      : null,
  );
}
