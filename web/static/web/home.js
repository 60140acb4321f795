// The start page: sign in; then the tables waiting for the player's move, a form to
// create a room for any game, and rooms to join.

import { api } from "./api.js";
import { authPanel } from "./auth.js";
import { h, replace } from "./dom.js";
import { gameModule } from "./games/index.js";
import { gettext, gettext_noop, interpolate, pgettext } from "./i18n.js";
import { hostName } from "./lobby.js";
import { optionsForm } from "./options.js";
import { withStanding } from "./standing.js";
import { TurnsPanel } from "./turns.js";

// Translated where it is shown: a constant is made before the page's catalogue is loaded.
// Translators: the start page's heading, the games the site offers by their names.
const TITLE = gettext_noop("Hearts, Moon and Kali Tidi");

// A room's status (the API's code) in words; a code without words is shown as it is.
function statusText(status) {
  const words = {
    // Translators: each "room status" is where a room stands, in the list of tables.
    lobby: pgettext("room status", "lobby"),
    playing: pgettext("room status", "playing"),
    finished: pgettext("room status", "finished"),
    abandoned: pgettext("room status", "abandoned"),
    closed: pgettext("room status", "closed"),
  };
  return Object.hasOwn(words, status) ? words[status] : status;
}

function roomItem(room, catalogue) {
  const game = catalogue.find((g) => g.key === room.game);
  const taken = room.seats.filter((s) => s.user || s.is_bot).length;
  // Translators: how many of a room's seats are taken, such as 2/4 seated.
  const seated = interpolate(gettext("%(taken)s/%(seats)s seated"), { taken, seats: room.seats.length });
  // Translators: who made a room, in the list of tables.
  const host = interpolate(gettext("host %(name)s"), { name: hostName(room) });
  return h(
    "li",
    {},
    h("a", { href: `/join/${room.code}`, "data-link": "" }, `${game?.name ?? room.game}${room.name ? ` · ${room.name}` : ""}`),
    h("span", { class: "meta" }, ` ${room.code} · ${statusText(room.status)} · ${seated} · ${host}`),
  );
}

export class HomePage {
  constructor(root, app) {
    this.root = root;
    this.app = app;
  }

  destroy() {
    this.turns?.destroy();
  }

  async start() {
    if (!this.app.user) {
      replace(
        this.root,
        h(
          "div",
          { class: "home" },
          h("section", { class: "intro" }, h("h1", {}, gettext(TITLE)), h("p", {}, gettext("Play trick-taking games with friends and computer players, live or one move a day."))),
          authPanel(),
        ),
      );
      return;
    }
    const create = this.createForm();
    const mine = h("ul", { class: "room-list" }, h("li", {}, gettext("Loading…")));
    const open = h("ul", { class: "room-list" }, h("li", {}, gettext("Loading…")));
    const code = h("input", { name: "code", required: true, maxlength: 12, autocapitalize: "characters", "aria-label": gettext("Room code") });
    this.turns = new TurnsPanel(this.app);
    replace(
      this.root,
      // The page's name, as the signed-out page has it, in white on the page's green.
      h("h1", { class: "intro" }, gettext(TITLE)),
      h(
        "div",
        { class: "home" },
        this.turns.el,
        create,
        h(
          "section",
          { class: "panel tables" },
          h("h2", {}, gettext("Join a table")),
          h(
            "form",
            {
              class: "choice-row",
              onsubmit: (e) => {
                e.preventDefault();
                this.app.navigate(`/join/${code.value.trim().toUpperCase()}`);
              },
            },
            code,
            // Translators: the button that opens the table of the room code typed beside it.
            h("button", { type: "submit" }, gettext("Go")),
          ),
          h("h2", {}, gettext("Your tables")),
          mine,
          h("h2", {}, gettext("Open tables")),
          open,
        ),
      ),
    );
    this.turns.start();
    const [mineRooms, openRooms] = await Promise.all([api("rooms/?mine=1"), api("rooms/")]);
    const catalogue = this.app.catalogue;
    replace(mine, mineRooms.results.length ? mineRooms.results.map((r) => roomItem(r, catalogue)) : h("li", {}, gettext("None yet.")));
    replace(open, openRooms.results.length ? openRooms.results.map((r) => roomItem(r, catalogue)) : h("li", {}, gettext("No open tables right now.")));
  }

  createForm() {
    const catalogue = this.app.catalogue;
    const slot = h("div");
    let form = null;
    const pick = h(
      "select",
      { id: "new-game", name: "game" },
      catalogue.map((g) => h("option", { value: g.key }, g.name)),
    );
    const showOptions = () => {
      const game = catalogue.find((g) => g.key === pick.value);
      game.module = gameModule(game.key);
      form = optionsForm(game);
      replace(slot, form.el);
    };
    pick.addEventListener("change", showOptions);
    showOptions();
    // Translators: the placeholder of the new room's name: it may be left empty.
    const name = h("input", { id: "new-name", name: "name", maxlength: 80, placeholder: gettext("optional") });
    const isPublic = h("input", { id: "new-public", type: "checkbox", checked: true });
    const error = h("p", { class: "form-error", role: "alert" });
    const submit = h("button", { type: "submit", class: "primary" }, gettext("Create the room"));
    return h(
      "form",
      {
        class: "panel stack create-room",
        "aria-label": gettext("New room"),
        onsubmit: async (e) => {
          e.preventDefault();
          error.textContent = "";
          submit.disabled = true;
          try {
            // A moderator's unread warning is shown first, then the room is made; a
            // playban's refusal says until when and why (standing.js).
            const room = await withStanding(() =>
              api("rooms/", {
                method: "POST",
                body: { game: pick.value, options: form.values(), name: name.value, public: isPublic.checked },
              }),
            );
            this.app.navigate(`/join/${room.code}`);
          } catch (err) {
            error.textContent = err.message;
          } finally {
            submit.disabled = false;
          }
        },
      },
      h("h2", {}, gettext("New room")),
      h("div", { class: "field" }, h("label", { for: "new-game" }, gettext("Game")), pick),
      slot,
      h("div", { class: "field" }, h("label", { for: "new-name" }, gettext("Room name")), name),
      h("div", { class: "field check" }, isPublic, h("label", { for: "new-public" }, gettext("List it among the open tables"))),
      error,
      submit,
    );
  }
}
