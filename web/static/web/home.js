// The start page: sign in; then the tables waiting for the player's move, a form to
// create a room for any game, and rooms to join.

import { api } from "./api.js";
import { authPanel } from "./auth.js";
import { h, replace } from "./dom.js";
import { gameModule } from "./games/index.js";
import { hostName } from "./lobby.js";
import { optionsForm } from "./options.js";
import { withStanding } from "./standing.js";
import { TurnsPanel } from "./turns.js";

const TITLE = "Hearts, Moon and Kali Tidi";

function roomItem(room, catalogue) {
  const game = catalogue.find((g) => g.key === room.game);
  const taken = room.seats.filter((s) => s.user || s.is_bot).length;
  return h(
    "li",
    {},
    h("a", { href: `/join/${room.code}`, "data-link": "" }, `${game?.name ?? room.game}${room.name ? ` · ${room.name}` : ""}`),
    h("span", { class: "meta" }, ` ${room.code} · ${room.status} · ${taken}/${room.seats.length} seated · host ${hostName(room)}`),
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
          h("section", { class: "intro" }, h("h1", {}, TITLE), h("p", {}, "Play trick-taking games with friends and computer players, live or one move a day.")),
          authPanel(),
        ),
      );
      return;
    }
    const create = this.createForm();
    const mine = h("ul", { class: "room-list" }, h("li", {}, "Loading…"));
    const open = h("ul", { class: "room-list" }, h("li", {}, "Loading…"));
    const code = h("input", { name: "code", required: true, maxlength: 12, autocapitalize: "characters", "aria-label": "Room code" });
    this.turns = new TurnsPanel(this.app);
    replace(
      this.root,
      // The page's name, as the signed-out page has it, in white on the page's green.
      h("h1", { class: "intro" }, TITLE),
      h(
        "div",
        { class: "home" },
        this.turns.el,
        create,
        h(
          "section",
          { class: "panel tables" },
          h("h2", {}, "Join a table"),
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
            h("button", { type: "submit" }, "Go"),
          ),
          h("h2", {}, "Your tables"),
          mine,
          h("h2", {}, "Open tables"),
          open,
        ),
      ),
    );
    this.turns.start();
    const [mineRooms, openRooms] = await Promise.all([api("rooms/?mine=1"), api("rooms/")]);
    const catalogue = this.app.catalogue;
    replace(mine, mineRooms.results.length ? mineRooms.results.map((r) => roomItem(r, catalogue)) : h("li", {}, "None yet."));
    replace(open, openRooms.results.length ? openRooms.results.map((r) => roomItem(r, catalogue)) : h("li", {}, "No open tables right now."));
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
    const name = h("input", { id: "new-name", name: "name", maxlength: 80, placeholder: "optional" });
    const isPublic = h("input", { id: "new-public", type: "checkbox", checked: true });
    const error = h("p", { class: "form-error", role: "alert" });
    const submit = h("button", { type: "submit", class: "primary" }, "Create the room");
    return h(
      "form",
      {
        class: "panel stack create-room",
        "aria-label": "New room",
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
      h("h2", {}, "New room"),
      h("div", { class: "field" }, h("label", { for: "new-game" }, "Game"), pick),
      slot,
      h("div", { class: "field" }, h("label", { for: "new-name" }, "Room name"), name),
      h("div", { class: "field check" }, isPublic, h("label", { for: "new-public" }, "List it among the open tables")),
      error,
      submit,
    );
  }
}
