// The room before the start: invite link and QR code, seats and teams, computer
// players and the start (host).

import { fairDeal } from "./fair.js";
import { describeOptions } from "./options.js";
import { h } from "./dom.js";
import { teamName } from "./format.js";
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

  const invite = h("input", { class: "invite-link", readonly: true, value: room.invite_url, "aria-label": "Invite link", onfocus: (e) => e.target.select() });
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
      say("Copied.");
    } catch {
      invite.select();
      say("Select and copy the link.");
    }
  };
  const shared = { title: "Trick-taking tables", text: catalogue?.name ? `Come and play ${catalogue.name} with me` : "Come and play with me", url: room.invite_url };
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
        "Share link",
      )
    : null;
  const inviteBox = h(
    "section",
    { class: "panel invite-box", "aria-label": "Invite" },
    h("h2", {}, "Invite players"),
    h("p", {}, "Send this link, or let them scan the code."),
    h(
      "div",
      { class: "choice-row" },
      invite,
      shareButton,
      h("button", { type: "button", "data-action": "copy-invite", onclick: copy }, "Copy link"),
      copied,
    ),
    qrUrl ? h("img", { class: "qr", src: qrUrl, alt: `QR code of the invite link ${room.invite_url}`, width: 180, height: 180 }) : h("p", { class: "qr-placeholder" }, "Loading the QR code…"),
  );

  const seatList = h(
    "ol",
    { class: "lobby-seats", "aria-label": "Seats" },
    seats.map((s) =>
      h(
        "li",
        { class: `lobby-seat${s.user === user.username ? " me" : ""}`, "data-seat": s.seat },
        h("span", { class: "seat-no" }, `Seat ${s.seat + 1}`),
        h(
          "span",
          { class: "seat-who" },
          // Another person's name opens what can be done about them (their page, a report).
          s.user && !s.is_bot && s.user !== user.username
            ? playerButton({ username: s.user, name: s.display_name || s.user, room: room.code }, s.display_name || s.user)
            : s.user || s.is_bot
              ? s.display_name || s.user
              : h("em", {}, "free"),
          s.user === room.host ? h("span", { class: "badge" }, "host") : null,
          s.is_bot ? h("span", { class: "badge" }, "computer") : null,
          s.user === user.username ? h("span", { class: "badge" }, "you") : null,
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
          h("button", { class: "primary", "data-action": "join", "data-team": t, disabled: filled(t) >= size, onclick: () => act("join", { team: t }) }, `Join ${teamName(t)} (${filled(t)}/${size})`),
        ),
      );
    } else {
      controls.push(h("button", { class: "primary", "data-action": "join", disabled: free === 0, onclick: () => act("join", {}) }, free ? "Take a seat" : "The table is full"));
    }
  } else {
    if (teams) {
      const other = 1 - mine.team;
      controls.push(
        h("button", { "data-action": "switch-team", disabled: filled(other) >= teams[other], onclick: () => act("join", { team: other }) }, `Switch to ${teamName(other)}`),
      );
    }
    if (!isHost) controls.push(h("button", { "data-action": "leave", onclick: () => act("leave") }, "Leave the table"));
  }
  if (isHost) {
    if (teams) {
      controls.push(
        teams.map((size, t) =>
          h("button", { "data-action": "add-bot", "data-team": t, disabled: filled(t) >= size, onclick: () => act("bots", { team: t }) }, `Computer player for ${teamName(t)}`),
        ),
      );
    } else {
      controls.push(h("button", { "data-action": "add-bot", disabled: free === 0, onclick: () => act("bots", {}) }, "Add a computer player"));
    }
    controls.push(h("button", { class: "primary", "data-action": "start", disabled: free > 0, onclick: () => act("start") }, free ? `Start (${free} seat${free === 1 ? "" : "s"} free)` : "Start the game"));
  } else if (mine) {
    controls.push(h("p", { class: "waiting" }, `Waiting for ${hostName(room)} to start the game.`));
  }

  const options = describeOptions(catalogue, room.options);
  return h(
    "section",
    { class: "lobby", "data-phase": "lobby", "data-version": view.version, "data-status": view.status },
    h("header", { class: "table-head" }, h("h1", {}, `${catalogue?.name ?? room.game}${room.name ? ` · ${room.name}` : ""}`), h("p", { class: "meta" }, `Room ${room.code} · host ${hostName(room)} · updates: `, h("span", { class: "live-status", "data-live": "", title: "How this page hears of changes" }, liveStatus))),
    h("div", { class: "lobby-grid" }, h(
        "section",
        { class: "panel" },
        h("h2", {}, "Seats"),
        teams ? h("p", { class: "team-sizes" }, teams.map((size, t) => `${teamName(t)}: ${filled(t)} of ${size}`).join(" · ")) : null,
        seatList, h("p", { class: "rated-note", "data-rated": String(room.options?.rated ?? null) }, ratedText(room.options?.rated)), h("div", { class: "button-row" }, controls),
        notice ? h("p", { class: "lobby-notice", tabindex: "-1", "data-focus": "lobby-notice" }, notice) : null), inviteBox),
    fairDeal(view, room.code),
    options.length
      ? h(
          "details",
          { class: "panel options-summary" },
          h("summary", {}, room.options?.preset ? `Rules: ${presetName(catalogue, room.options.preset)}` : "Rules and pace"),
          h("dl", {}, options.map(([k, v]) => h("div", { class: "info-item" }, h("dt", {}, k), h("dd", {}, v)))),
        )
      : null,
  );
}
