// One room's page (`/join/<code>`): invite for visitors, the lobby, then the table.
// It keeps the room's view fresh from the live link and acts through the API.
//
// The socket pushes each change as this reader's view with the events it logged, and the
// page draws that. It fetches only what the push does not carry: everything when it
// opens, while it polls (the socket down) and when a notice tells of a change that came
// without a view (the embedded server's worker pushes none); the events when a pushed
// batch does not join its log; the room's own facts in the lobby and when the status
// changes; and the score sheet when a hand has been scored.

import { api, ApiError } from "./api.js";
import { authPanel } from "./auth.js";
import { focusKey, h, replace, restoreFocus } from "./dom.js";
import { gameModule } from "./games/index.js";
import { verifyRounds } from "./fairness.js";
import { gettext, interpolate, pgettext } from "./i18n.js";
import { renderLobby } from "./lobby.js";
import { EventLog } from "./eventlog.js";
import { endReason, seatNames } from "./format.js";
import { RoomLive } from "./live.js";
import { TableView } from "./table.js";
import { clocksDue } from "./table/status.js";
import { movePrefs } from "./prefs.js";
import { TableTalk } from "./chat.js";
import { seatNamesOpenPlayers } from "./report.js";
import { withStanding } from "./standing.js";

const AUTOJOIN_KEY = "tt.autojoin";
const MAX_EVENTS = 200;
const EVENTS_PAGE = 500;
const ROUNDS_PAGE = 100;
// The seats this browser's people held, by person and room, for as many rooms as this.
const HELD_KEY = "tt.seatsHeld";
const HELD_ROOMS = 50;

// The seat `username` last held in room `code` in this browser, or null. Kept in
// localStorage: a tab opened after a moderator took the seat must still know it was theirs.
function seatHeld(username, code) {
  return readHeld()[`${username} ${code}`] ?? null;
}

function holdSeat(username, code, seat) {
  const key = `${username} ${code}`;
  const held = readHeld();
  if (held[key] === seat) return;
  delete held[key];
  // The newest last: the oldest rooms are let go first.
  const kept = Object.entries(held).slice(-(HELD_ROOMS - 1));
  localStorage.setItem(HELD_KEY, JSON.stringify(Object.fromEntries([...kept, [key, seat]])));
}

function readHeld() {
  try {
    const held = JSON.parse(localStorage.getItem(HELD_KEY) ?? "{}");
    return held && typeof held === "object" ? held : {};
  } catch {
    return {};
  }
}

// What the invite link names, from the page the server served for it.
function inviteText(code) {
  const { inviteGame: game, inviteHost: host } = document.body.dataset;
  return game && host
    ? interpolate(gettext("%(host)s invites you to play %(game)s (room %(code)s)."), { host, game, code })
    : interpolate(gettext("Room %(code)s."), { code });
}

// How the page hears of the room's changes, said after "updates:" (the live link's status).
function liveText(status) {
  switch (status) {
    case "live":
      // Translators: how the page hears of the room's changes (after "updates:"): the socket is up.
      return pgettext("updates", "live");
    case "polling":
      // Translators: how the page hears of the room's changes (after "updates:"): the socket is down.
      return pgettext("updates", "reconnecting (polling)");
    case "connecting":
      // Translators: how the page hears of the room's changes (after "updates:").
      return pgettext("updates", "connecting…");
    case "unauthorized":
      // Translators: how the page hears of the room's changes (after "updates:"): not at all.
      return pgettext("updates", "signed out");
    case "refused":
      // Translators: how the page hears of the room's changes (after "updates:"): the server refused the socket.
      return pgettext("updates", "polling (socket refused)");
    case "gone":
      // Translators: how the page hears of the room's changes (after "updates:"): not at all.
      return pgettext("updates", "no such room");
    default:
      return status;
  }
}

export class RoomPage {
  constructor(root, code, app) {
    this.root = root;
    this.code = code;
    this.app = app;
    this.view = null;
    this.room = null;
    this.log = new EventLog(MAX_EVENTS);
    this.rounds = [];
    // The moves on their way to the server (TableView.send says which may go).
    this.moving = 0;
    this.destroyed = false;
    // Translators: how the page hears of the room's changes (after "updates:"), before it tries.
    this.liveStatus = pgettext("updates", "connecting");
    // What the page still has to do (sync() does it, one thing at a time): draw a pushed
    // view that needs a fetch first, and fetch the view when a notice is newer than it
    // (Infinity: whatever it is, as a poll does).
    /** @type {import("./live.js").PushedView | null} */
    this.pushed = null;
    this.wantState = 0;
    // The newest version pushed, drawn or on its way: its own notice needs no fetch.
    this.pushedVersion = 0;
    this.syncing = false;
    // Why taking a seat was last refused, said in the lobby under its buttons (a playban).
    /** @type {string | null} */
    this.lobbyNotice = null;
    // The hand-overs that took a seat from its player for good (a moderator's, a ban's: a
    // `seat_to_bot` that is not an idle player's), by seat, noted as the events pass: the
    // log keeps only the latest events, which a long match soon has more of.
    /** @type {Map<number, any>} */
    this.handOvers = new Map();
    // Set by start(), once the room is known.
    /** @type {TableView} */
    this.table;
  }

  async start() {
    if (!this.app.user) {
      this.renderInvite();
      return;
    }
    try {
      this.room = await api(`rooms/${encodeURIComponent(this.code)}/`);
    } catch (err) {
      if (!this.destroyed) this.renderMissing(err.status === 404 ? undefined : err.message);
      return;
    }
    if (this.destroyed) return;
    this.game = gameModule(this.room.game);
    this.catalogue = this.app.catalogue.find((g) => g.key === this.room.game) ?? null;
    if (this.catalogue) this.catalogue.module = this.game;
    this.table = new TableView({
      game: this.game,
      room: this.room,
      act: (action) => this.act(action),
      rerender: () => this.render(),
      newTable: () => this.newTable(),
      rematch: () => this.rematch(),
      // Read at each use: a change in Settings (another tab, another device) applies at once.
      prefs: () => movePrefs(this.app.user),
    });
    // Table talk sits beside the page, not in it: a redraw leaves what is being typed alone.
    this.chat = new TableTalk(this.code, this.app.user, this.root);
    await this.refresh();
    await this.autojoin();
    // Left while it loaded: no socket, no clock for a page no longer on screen.
    if (this.destroyed) return;
    this.live = new RoomLive(
      this.code,
      (version, seq) => this.onChange(version, seq),
      (status) => this.onLive(status),
      (pushed) => this.onView(pushed),
      (line) => this.chat?.heard(line),
    ).start();
    this.timer = setInterval(() => {
      if (!this.view) return;
      this.table.tick(this.root, this.view);
      clocksDue(this.root, this.view);
    }, 1000);
  }

  destroy() {
    // A fetch still on its way (a catch-up verifying a long match's deals) must not draw
    // this room over the page that replaced it.
    this.destroyed = true;
    this.live?.stop();
    this.chat?.destroy();
    clearInterval(this.timer);
    document.querySelector("dialog.choose")?.remove();
    if (this.qrUrl) URL.revokeObjectURL(this.qrUrl);
  }

  // A visitor from an invite link: a guest name is all it takes (or log in).
  renderInvite() {
    sessionStorage.setItem(AUTOJOIN_KEY, this.code);
    replace(
      this.root,
      h(
        "div",
        { class: "invite-page" },
        authPanel({
          guestFirst: true,
          intro: h(
            "div",
            {},
            h("h1", {}, gettext("You're invited to a table")),
            h("p", { class: "invite-what" }, inviteText(this.code)),
            h("p", {}, gettext("Pick a name to play as a guest, or log in.")),
          ),
        }),
      ),
    );
  }

  async autojoin() {
    if (sessionStorage.getItem(AUTOJOIN_KEY) !== this.code) return;
    sessionStorage.removeItem(AUTOJOIN_KEY);
    const seated = this.view?.seats?.some((s) => s.user === this.app.user.username);
    // The link's promise is a seat. With teams, the server seats the newcomer in the team
    // with the most room (the first, when both have as much); the lobby lets them switch.
    if (this.view?.status === "lobby" && !seated) await this.lobbyAct("join", {});
  }

  onLive(status) {
    this.liveStatus = liveText(status);
    const el = this.root.querySelector("[data-live]");
    if (el) el.textContent = this.liveStatus;
    this.chat?.onLive(status);
    if (status === "unauthorized") this.signedOut();
    else if (status === "gone") this.renderMissing();
    else if (status === "refused") this.live?.pollOnly();
  }

  // The socket says the sign-in is no longer valid. The API decides: a 401 there clears
  // the token, and the page becomes the sign-in form for this room; if the API still
  // answers, the page keeps itself fresh by polling.
  async signedOut() {
    try {
      await api("me");
    } catch (err) {
      if (err.status === 401) {
        // A ban's answer carries the moderator's reason; say that rather than a bare sign-out.
        const message = err.code === "banned" ? err.message : gettext("You have been signed out. Log in again to return to this table.");
        this.app.toast(message, "error");
        return;
      }
    }
    this.live?.pollOnly();
  }

  renderMissing(message = interpolate(gettext("There is no room %(code)s."), { code: this.code })) {
    this.missing = true;
    this.live?.stop();
    clearInterval(this.timer);
    replace(
      this.root,
      h(
        "section",
        { class: "panel missing-room" },
        h("h1", {}, gettext("No such room")),
        h("p", {}, message),
        h("a", { href: "/", "data-link": "" }, gettext("Back to the start")),
      ),
    );
  }

  // A notice or a pong: where the room stands (a poll's null: it may have changed).
  onChange(version, seq) {
    if (version === null) {
      this.refresh();
      return;
    }
    if (seq !== undefined) this.log.heard(seq);
    // A change pushed with its view needs no fetch (the view stands for its notice).
    if (version > Math.max(this.view?.version ?? -1, this.pushedVersion)) this.wantState = Math.max(this.wantState, version);
    this.sync();
  }

  // A change pushed with this reader's view and its events.
  onView(pushed) {
    if (this.destroyed) return;
    this.noteHandOvers(pushed.events);
    const added = this.log.pushed(pushed);
    if (pushed.version > Math.max(this.view?.version ?? -1, this.pushedVersion)) {
      this.pushedVersion = pushed.version;
      if (this.needsFetchFor(pushed.view)) {
        this.pushed = pushed;
      } else {
        // Drawn at once, even while a fetch is on its way (its older view will not be drawn).
        this.pushed = null;
        this.setView(pushed.view);
      }
    } else if (added) {
      this.renderLog();
    }
    this.sync();
  }

  // A change's events that come after its view was drawn (the mover's own answer comes
  // before its push): only the log is drawn again, so that a tap under way on the table
  // (a card pressed and not yet released) is not lost to a table drawn anew under it.
  // A hand's end is drawn whole: its result reads the events.
  renderLog() {
    const view = this.view;
    const partial = view && !this.destroyed && view.status === "playing" && view.phase !== "round_over";
    if (partial && this.table.renderLog(this.root, view, this.log.events)) return;
    this.render();
  }

  // Whether drawing `view` takes a fetch first: the room's own facts, or the score sheet.
  needsFetchFor(view) {
    return view.status !== this.room.status || view.status === "lobby" || this.roundsBehind(view);
  }

  // Fetches the view (and all it needs) now, or as soon as the fetch on its way is done.
  refresh() {
    this.wantState = Infinity;
    return this.sync();
  }

  // Does what the page still has to do, one thing at a time; a call while it runs adds to
  // its work. A failure is said, and the next notice, pong or poll tries again.
  async sync() {
    if (this.syncing) return;
    this.syncing = true;
    try {
      while (!this.destroyed) {
        const pushed = this.pushed;
        const want = this.wantState;
        if (pushed) {
          this.pushed = null;
          await this.roomFacts(pushed.view);
          await this.catchUpRounds(pushed.view);
          this.setView(pushed.view);
        } else if (want) {
          this.wantState = 0;
          if (want > (this.view?.version ?? -1)) await this.fetchView();
        } else if (this.log.behind) {
          await this.catchUpEvents();
          this.render();
        } else {
          break;
        }
      }
    } catch (err) {
      // A pushed view left undrawn is fetched at the next notice of its version or later.
      this.pushed = null;
      this.pushedVersion = 0;
      this.app.toast(err instanceof ApiError ? err.message : gettext("You seem to be offline; retrying…"), "error");
    } finally {
      this.syncing = false;
    }
  }

  async fetchView() {
    const view = await api(`rooms/${encodeURIComponent(this.code)}/state`);
    await this.roomFacts(view);
    await this.catchUp(view);
    this.setView(view);
  }

  // The room's own facts (status, seats in the lobby) change rarely: read them when they may have.
  async roomFacts(view) {
    if (view.status !== this.room.status || view.status === "lobby") {
      this.room = await api(`rooms/${encodeURIComponent(this.code)}/`);
      this.table.ctx.room = this.room;
    }
  }

  // New events since the last seen, and the score sheet when a hand has been scored.
  async catchUp(view) {
    await this.catchUpEvents();
    await this.catchUpRounds(view);
  }

  async catchUpEvents() {
    const from = this.log.fetching();
    // The server answers at most a page of events at a time (500): read on until the end.
    for (let page = 0; page < 20; page++) {
      const fetched = await api(`rooms/${encodeURIComponent(this.code)}/events?after=${this.log.lastSeq}`);
      this.noteHandOvers(fetched);
      // Two catch-ups may overlap (a move's answer and a live notice), and the socket
      // pushes meanwhile: the log keeps each event once.
      this.log.add(fetched);
      if (fetched.length < EVENTS_PAGE) {
        this.log.fetched(from);
        return;
      }
    }
  }

  noteHandOvers(events) {
    for (const e of events) if (e.type === "seat_to_bot" && !e.idle) this.handOvers.set(e.seat, e);
  }

  roundsBehind(view) {
    const scored = view.last_round?.round;
    const known = this.rounds.at(-1)?.round ?? 0;
    return Boolean((scored && scored > known) || (!this.rounds.length && view.round > 1));
  }

  async catchUpRounds(view) {
    if (!this.roundsBehind(view)) return;
    // The hands scored since the last one read, a page (ROUNDS_PAGE) at a time: a long
    // match has more hands than one page holds.
    let after = this.rounds.at(-1)?.round ?? 0;
    for (let page = 0; page < 100; page++) {
      const fetched = await api(`rooms/${encodeURIComponent(this.code)}/rounds?after=${after}&limit=${ROUNDS_PAGE}`);
      const verified = await verifyRounds(fetched.filter((r) => r.round > (this.rounds.at(-1)?.round ?? 0)));
      // Overlapping catch-ups: keep each hand once (another may have added some meanwhile).
      const fresh = verified.filter((r) => r.round > (this.rounds.at(-1)?.round ?? 0));
      if (fresh.length) this.rounds = [...this.rounds, ...fresh];
      if (fetched.length < ROUNDS_PAGE) break;
      after = fetched.at(-1).round;
    }
  }

  // After a move or a rematch of this page's own: the answer is the view. Its events come
  // pushed on the socket; without one (polling), they are fetched.
  async caughtUpAfter(view) {
    if (this.live?.status !== "live") await this.catchUpEvents();
    await this.catchUpRounds(view);
  }

  setView(view) {
    if (this.view && view.version < this.view.version) return;
    this.view = view;
    this.render();
  }

  render() {
    const view = this.view;
    if (!view || this.missing || this.destroyed) return;
    const key = focusKey(document.activeElement);
    const wasInside = this.root.contains(document.activeElement);
    if (!this.room.started_at && (view.status === "closed" || view.status === "abandoned")) {
      this.renderUnstarted(view);
    } else if (view.status === "lobby") {
      this.loadQr();
      replace(
        this.root,
        renderLobby({
          room: this.room,
          view,
          user: this.app.user,
          catalogue: this.catalogue,
          qrUrl: this.qrUrl,
          liveStatus: this.liveStatus,
          act: (what, body) => this.lobbyAct(what, body),
          notice: this.lobbyNotice,
        }),
      );
    } else {
      this.table.render(this.root, view, { catalogue: this.catalogue, events: this.log.events, rounds: this.rounds, liveStatus: this.liveStatus });
      // The other people's names at the table open their page or a report of them.
      seatNamesOpenPlayers(this.root, view, this.app.user.username, this.code);
      // The seat this page's player held here, kept so that a hand-over that takes it for
      // good (a moderator's) can be told when the page turns into a spectator's.
      const username = this.app.user.username;
      if (view.you) holdSeat(username, this.code, view.you.seat);
      const held = view.you ? null : seatHeld(username, this.code);
      const takenBy = held === null ? null : (this.handOvers.get(held) ?? null);
      if (takenBy) {
        const given = takenBy.reason
          ? // Translators: %(reason)s is the moderator's reason, as they wrote it.
            interpolate(gettext("A moderator gave your seat to a computer player: %(reason)s."), { reason: takenBy.reason })
          : gettext("A moderator gave your seat to a computer player.");
        this.root.prepend(
          h(
            "p",
            { class: "away handed-over", role: "alert" },
            `${given} `,
            gettext("It is not yours to take back; you can watch the table from here."),
          ),
        );
      }
      // A computer player holds the seat since its player was away (on_abandon: bot).
      const mine = view.you ? view.seats[view.you.seat] : null;
      if (view.status === "playing" && mine?.is_bot) {
        this.root.prepend(
          h(
            "p",
            { class: "away", role: "status" },
            `${gettext("You did not play in time; a computer player plays your seat until you come back.")} `,
            h("button", { type: "button", onclick: () => this.lobbyAct("reclaim") }, gettext("Take my seat back")),
          ),
        );
      }
    }
    this.chat?.dock(this.root, view);
    restoreFocus(this.root, key);
    // A keyboard player whose button went away (a card played) lands on the next choice.
    if (wasInside && !this.root.contains(document.activeElement)) {
      const next = this.root.querySelector(".actions button:not([disabled]), .hand button:not([disabled])");
      (next ?? this.root).focus({ preventScroll: true });
    }
  }

  // A room that ended before its match began (a moderator closed it in the lobby, or
  // everyone left): no table to draw, only why, and the way back.
  renderUnstarted(view) {
    const closed = view.status === "closed";
    const reason = endReason(view, seatNames(view, view.you?.seat ?? null));
    replace(
      this.root,
      h(
        "section",
        { class: "panel unstarted-room", "data-status": view.status },
        h("h1", {}, closed ? gettext("This table was closed before it began") : gettext("This table broke up before it began")),
        reason ? h("p", { class: "status-reason" }, reason) : null,
        h("p", {}, h("a", { href: "/", "data-link": "", "data-action": "home" }, gettext("Back to your tables"))),
      ),
    );
  }

  // The QR code needs the token, so it is fetched and shown from a blob URL.
  async loadQr() {
    if (this.qrUrl || this.qrLoading) return;
    this.qrLoading = true;
    try {
      const svg = await api(`rooms/${encodeURIComponent(this.code)}/qr.svg`, { text: true });
      this.qrUrl = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
      this.render();
    } catch {
      this.qrLoading = false;
    }
  }

  // A seat asked for while a moderator's warning is unread shows it first, and is asked
  // for again once it is read (standing.js); a playban's refusal stays said in the lobby.
  async lobbyAct(what, body) {
    const said = this.lobbyNotice;
    this.lobbyNotice = null;
    try {
      await withStanding(() => api(`rooms/${encodeURIComponent(this.code)}/${what}`, { method: "POST", body: body ?? {} }));
    } catch (err) {
      if (err.code === "playbanned" && this.view?.status === "lobby") {
        this.lobbyNotice = err.message;
        this.render();
        this.root.querySelector(".lobby-notice")?.focus();
      } else {
        this.app.toast(err.message, "error");
      }
    }
    if (said && !this.lobbyNotice) this.render();
    // The change comes pushed on a live socket; without one it is fetched.
    if (this.live?.status !== "live") await this.refresh();
  }

  // After a match: a room of the same game with the same options, name and listing,
  // hosted by this player, who then invites the others from its lobby.
  async newTable() {
    try {
      const room = await withStanding(() =>
        api("rooms/", {
          method: "POST",
          // The options as the host asked for them: `rated` left to the seats stays so,
          // rather than what the seats of this match decided.
          body: { game: this.room.game, options: this.room.asked_options ?? this.room.options, name: this.room.name, public: this.room.public },
        }),
      );
      this.app.navigate(`/join/${encodeURIComponent(room.code)}`);
    } catch (err) {
      this.app.toast(err.message, "error");
      this.render();
    }
  }

  // After a match: this player agrees to a rematch with the same players. The answer is
  // their view: who agreed so far, or, when they were the last, the new room, started.
  // A refusal is shown in the banner in the server's words.
  async rematch() {
    this.table.rematchError = null;
    try {
      const view = await api(`rooms/${encodeURIComponent(this.code)}/rematch`, { method: "POST", body: {} });
      await this.caughtUpAfter(view);
      this.setView(view);
      // The one who made it goes on from the link to it (their button is gone).
      if (view.rematch?.room) this.root.querySelector("[data-action=open-rematch]")?.focus({ preventScroll: true });
    } catch (err) {
      this.table.rematchError = err instanceof ApiError ? err.message : gettext("The server cannot be reached; try again.");
      this.render();
      await this.refresh();
    }
  }

  async act(action) {
    if (!this.view) return;
    this.moving += 1;
    this.root.classList.add("busy");
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const view = await api(`rooms/${encodeURIComponent(this.code)}/actions`, {
            method: "POST",
            body: { version: this.view.version, action },
            idempotent: true,
          });
          await this.caughtUpAfter(view);
          this.setView(view);
          return;
        } catch (err) {
          if (err.code !== "stale_version") throw err;
          // Someone else moved first (in a simultaneous pass, often). The move is sent
          // again only if the fresh view still offers it; otherwise the player decides anew.
          const fresh = await api(`rooms/${encodeURIComponent(this.code)}/state`);
          await this.catchUp(fresh);
          this.setView(fresh);
          if (attempt >= 2 || !stillLegal(action, fresh)) {
            this.app.toast(gettext("The table moved on; here it is now."));
            return;
          }
        }
      }
    } catch (err) {
      this.app.toast(err.message, "error");
      await this.refresh();
    } finally {
      this.moving -= 1;
      if (!this.moving) this.root.classList.remove("busy");
    }
  }
}

// Whether `action` is among the view's legal actions (a template's cards among its
// choices, and a funky pass's seats those of its `to`).
export function stillLegal(action, view) {
  const legal = view.you?.legal_actions ?? [];
  return legal.some((a) => {
    if (a.type !== action.type) return false;
    if (Array.isArray(a.choices)) {
      const chosen = action.cards ?? [];
      const seats = (to) => JSON.stringify([...(to ?? [])].sort());
      return chosen.every((c) => a.choices.includes(c)) && seats(action.to) === seats(a.to);
    }
    const keys = new Set([...Object.keys(a), ...Object.keys(action)]);
    return [...keys].every((k) => JSON.stringify(a[k]) === JSON.stringify(action[k]));
  });
}
