// What a game's renderer (games/rules/<key>/web.js, its default export) may hold: the
// hooks the table, the replay and the new-room form call, each with the arguments they
// pass and what they do with the answer. Types only: tsc holds each renderer to them
// (`@type {import("@web/games/renderer.js").GameRenderer}` on its default export), so a
// misspelt hook or a wrong signature fails the type check rather than being skipped in
// silence at the table. The browser never loads this module.
//
// Required are the hooks the table calls unguarded, which games/index.js's `generic`
// renderer supplies for a game that leaves them out; every other hook is optional, and a
// missing one (or, where said, a null or undefined answer) gives the table's own words.
//
// The words a hook answers are the page's language's: marked with i18n.js's gettext (one
// phrase per sentence, with named places) and translated when the hook is called, not
// when the module loads, which is before the page's catalogue is. The few words given as
// English, for the table to translate, are said so below.
//
// Argument names used throughout:
//   code   a hand item as the view gives it: a card ("QS") or a tile ("6-4");
//   view   the game's view for this player (per game, hence `any`);
//   names  each seat's name by seat number, the reader's own seat being "You" (format.js
//          youName: the word in the page's language);
//   seat   one of `view.seats`; `i` its seat number;
//   action one of the view's `you.legal_actions` (a move the server accepts).

/**
 * A choice of several items at once among the legal actions (`choices`, `count`): Hearts'
 * pass (with `to`, one seat per card, for the funky pass), Kali Tidi's removal and call.
 * @typedef {{ type: string, count: number, choices: string[], to?: number[] | null, [field: string]: any }} ChoiceTemplate
 */

/**
 * What the hooks given a context may read: the room (its `options` above all). The
 * replay passes only `{ room: { options } }`.
 * @typedef {{ room?: any, [key: string]: any }} RoomContext
 */

/**
 * The table's context (TableView's `ctx`): the room, and `act` to send a move.
 * @typedef {RoomContext & { act: (action: any) => void }} TableContext
 */

/**
 * The hand's moves by item, where they are not the plain plays of the legal actions (Moon's
 * widow: a tap on a tile discards it), and which legal actions they take off the panel.
 * @typedef {Map<string, any> & { taken: (action: any) => boolean }} HandActions
 */

/**
 * One column of a hand's result table: its heading and each seat's cell.
 * @typedef {{ head: string, cell: (i: number) => string | number | Node | null | undefined }} ResultColumn
 */

/**
 * What an element builder takes as a child (dom.js's `h`): text, a node, nothing, or a list of them.
 * @typedef {string | number | Node | null | undefined | (string | number | Node | null | undefined)[]} Child
 */

/**
 * @typedef {object} GameRenderer
 *
 * @property {string} key
 *   The game's catalogue key ("generic" for a game without a renderer).
 * @property {(code: string, view?: any, ctx?: TableContext) => Element} face
 *   The picture of an item, wherever one is drawn (hand, trick, dialogs, replay); no text
 *   of its own: `itemName` is its label.
 * @property {(code: string, view?: any) => string} itemName
 *   An item in words: every piece's accessible name, and the move buttons' text.
 * @property {(hand: string[], view: any) => string[]} sortHand
 *   The items in the order shown (hand, dialog, replay); a new array, the argument untouched.
 * @property {(action: any, view: any, ctx: RoomContext) => string | null | undefined} actionLabel
 *   A move's words on its button or in a long list's choice (given `{ type }` alone: the
 *   list's label); null or undefined: the action's type (in a list, the action as JSON).
 *
 * @property {string} [dealerLabel]
 *   The badge of the dealer's seat in place of "dealer" (Kali Tidi: "first bidder"): the
 *   English words, marked with `gettext_noop`; the table translates them, and names the
 *   badge's class by them (`badge-first-bidder`).
 * @property {(name: string) => string | null} [optionLabel]
 *   An option's label in the new-room form; null: the shared words (wording.js), else the name humanized.
 * @property {(name: string) => string | null} [optionHelp]
 *   An option's help in the new-room form; null: the shared help, if any.
 * @property {(name: string, value: any) => string | null} [optionValueLabel]
 *   A value of an option (or a preset, as name "preset") in the form and the rules line;
 *   null: the shared words, else the value humanized.
 * @property {(name: string, values: Record<string, any>) => boolean} [optionVisible]
 *   Whether an option applies given the form's other values (read at each change); hidden if false.
 * @property {(name: string) => number | null} [optionArity]
 *   How many fields an array option without `minItems` gets; null: one free-text field.
 * @property {(name: string) => string[]} [optionItemLabels]
 *   The labels of an array option's fields; a missing one is "#k".
 *
 * @property {(view: any) => string[]} [handItems]
 *   The items shown as the hand (Moon's widow joins it); undefined: `view.you.hand`.
 * @property {(view: any) => string} [handCaption]
 *   The hand's heading in place of "Your hand".
 * @property {(code: string, view: any) => { class: string, text: string } | null} [itemNote]
 *   A mark on one hand item (a class and a word under it); null: none.
 * @property {(view: any, ctx: TableContext) => HandActions | null} [handActions]
 *   The hand's moves by item, in place of the legal plays; null: the legal plays.
 * @property {(action: any, item: string) => string | null | undefined} [handMove]
 *   An item's move in words, given the item's name (`itemName`): its button's text and
 *   label, one phrase to translate ("Take the widow and discard 6-4"); null or undefined:
 *   "Play <item>".
 * @property {(action: any) => boolean} [asksFirst]
 *   Whether a tap on the item only raises it, the move then confirmed (as with "Confirm each move").
 *
 * @property {(view: any, names: string[], ctx: TableContext) => (string | number | Node)[][]} [info]
 *   The facts of the table (bid, trumps...), each a [label, value] pair (not a tuple type:
 *   the games push pairs onto a list, which tsc reads as arrays); empty: no facts bar.
 * @property {(options: Record<string, any>, view: any) => string[]} [rulesSummary]
 *   The rules in force, a few words each, for the rules line; empty: only the shared
 *   ones (time a turn).
 * @property {(seat: any, view: any, i: number) => string[]} [seatFacts]
 *   A seat's facts under its name; undefined: cards left and tricks taken.
 * @property {(seat: any, view: any, i: number) => string[]} [seatBadges]
 *   Badges of a seat beside the shared ones (dealer, computer, team): English words,
 *   marked with `gettext_noop`; the table translates them, and names each badge's class
 *   by its English (`badge-partner`), the same in every language.
 * @property {(view: any, names: string[]) => string} [yourTurnText]
 *   The turn line when it is this player's move; undefined: "Your turn.".
 * @property {(view: any, names: string[]) => string | null} [waitingText]
 *   What this player waits for while they have no move; null: nothing said.
 * @property {(view: any, names: string[]) => Node | null} [pendingNote]
 *   A note above the moves (what was passed, or received); null: none.
 * @property {(view: any, names: string[], actions: any[], ctx: TableContext) => Node | null} [panel]
 *   The game's own controls for the moves that are not the hand's; null: one button per
 *   move (`actionLabel`, `groupLabel`).
 * @property {(type: string) => string} [groupLabel]
 *   The button beside a long list of one kind of move ("OK" if missing).
 *
 * @property {(template: ChoiceTemplate, view: any, names: string[]) => string} [templateText]
 *   What a choice of several asks for (the dialog's title); undefined: "Choose n".
 * @property {(template: ChoiceTemplate, view: any, ctx: TableContext) => Node | null} [templateNote]
 *   The rule a choice is made under, in its dialog; null: none.
 * @property {(template: ChoiceTemplate, view: any, picked?: string[], names?: string[]) => string} [templateButton]
 *   The button that sends a choice, told the picks so far (none: the button that opens the
 *   dialog); undefined: "Confirm" (or "Choose").
 * @property {(template: ChoiceTemplate, code: string, view: any) => number | null} [choiceCopies]
 *   How many copies of a code the dialog says the others hold (two decks); null: as
 *   many as `choices` offers.
 * @property {(code: string) => string} [choiceGroup]
 *   The row a code goes in within the dialog (Kali Tidi: its suit); "" or missing: one row.
 *
 * @property {(last: any, names: string[], view: any, events: any[], ctx: RoomContext) => Child} [resultSummary]
 *   What a scored hand came to, above its result table (at the table and in the replay); null: nothing.
 * @property {(last: any, view: any) => ResultColumn[]} [resultColumns]
 *   The result table's columns after the player's name; undefined: tricks, this hand, total.
 * @property {(round: any, i: number) => Child} [sheetCell]
 *   One seat's cell of a hand's row on the score sheet; null or undefined: points and total.
 * @property {(round: any, names: string[]) => string} [roundColumns]
 *   A hand's contract on the score sheet (its column exists only if this hook does).
 * @property {(event: any, names: string[]) => string | null | undefined} [describeEvent]
 *   An event in the log and the replay, after the shared words; "" leaves it out, null or
 *   undefined: the common words (format.js).
 */

export {};
