// Room options rendered from the catalogue's schema: any game, any option, no special
// knowledge needed; a game module may add labels and say when an option applies.

import { h } from "./dom.js";
import { gettext, gettext_noop, interpolate, npgettext, pgettext } from "./i18n.js";
import { OPTION_WORDS, VALUE_WORDS } from "./wording.js";

const TIMING = ["turn_seconds", "abandon_seconds", "between_rounds_seconds"];
// The paces' words are made before the page's catalogue is loaded: marked here, and
// translated where they are shown.
const PACES = {
  live: {
    // Translators: a pace of play in the new-room form.
    label: gettext_noop("Live"),
    // Translators: a pace's hint, how long a turn may take.
    hint: gettext_noop("a minute a turn"),
    values: { turn_seconds: 60, abandon_seconds: 300, between_rounds_seconds: 20 },
  },
  relaxed: {
    // Translators: a pace of play in the new-room form.
    label: gettext_noop("Relaxed"),
    hint: gettext_noop("ten minutes a turn"),
    values: { turn_seconds: 600, abandon_seconds: 3600, between_rounds_seconds: 60 },
  },
  daily: {
    // Translators: a pace of play in the new-room form: a move a day, or so.
    label: gettext_noop("Play by move"),
    hint: gettext_noop("a day a turn"),
    values: { turn_seconds: 86400, abandon_seconds: 259200, between_rounds_seconds: 3600 },
  },
};

export function humanize(name) {
  const text = String(name).replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// The shared words (wording.js) are its tables' English, marked there: translated here.
// A value or an option no one has words for is its name humanized, as the API spells it.
function valueLabel(game, name, value) {
  const shared = VALUE_WORDS[name]?.[String(value)];
  return game.module?.optionValueLabel?.(name, value) ?? (shared ? gettext(shared) : humanize(value));
}

export function optionLabel(game, name) {
  const shared = OPTION_WORDS[name]?.label;
  return game.module?.optionLabel?.(name) ?? (shared ? gettext(shared) : humanize(name));
}

// The page's own help for an option; the API's description is for programmers.
function optionHelp(game, name) {
  const shared = OPTION_WORDS[name]?.help;
  const help = game.module?.optionHelp?.(name) ?? (shared ? gettext(shared) : undefined);
  return help ? h("small", {}, help) : null;
}

// One control for one option; `read()` gives its value in the schema's type.
function control(game, name, spec) {
  const id = `opt-${name}`;
  const label = optionLabel(game, name);
  const help = optionHelp(game, name);
  let input;
  let read;
  if (spec.type === "boolean" && spec.default === null) {
    // Yes, no, or the server's own choice (rated: when every seat is a person).
    input = h(
      "select",
      { id, name },
      [null, true, false].map((v) => h("option", { value: String(v) }, valueLabel(game, name, v))),
    );
    read = () => (input.value === "null" ? undefined : input.value === "true");
    return {
      name,
      el: h("div", { class: "field" }, h("label", { for: id }, label), input, help),
      read,
      write: (v) => (input.value = String(v ?? null)),
    };
  }
  if (spec.type === "boolean") {
    input = h("input", { type: "checkbox", id, name, checked: Boolean(spec.default) });
    read = () => input.checked;
    return {
      name,
      el: h("div", { class: "field check" }, input, h("label", { for: id }, label), help),
      read,
      write: (v) => (input.checked = Boolean(v)),
    };
  }
  const span = spec.type === "integer" && spec.minimum !== undefined && spec.maximum !== undefined ? spec.maximum - spec.minimum : null;
  const auto = spec.default === null || spec.default === undefined;
  if (Array.isArray(spec.choices) || (span !== null && span <= 8)) {
    // A short range of numbers reads best as a list too; "automatic" leaves a derived default to the server.
    const values = spec.choices ?? Array.from({ length: /** @type {number} */ (span) + 1 }, (_, i) => spec.minimum + i);
    input = h(
      "select",
      { id, name },
      // Translators: an option's value left for the server to work out.
      auto ? h("option", { value: "" }, gettext("Automatic")) : null,
      values.map((c) => h("option", { value: String(c), selected: c === spec.default }, valueLabel(game, name, c))),
    );
    read = () => (input.value === "" ? undefined : spec.type === "integer" ? Number(input.value) : input.value);
  } else if (spec.type === "integer") {
    input = h("input", {
      id,
      name,
      type: "number",
      inputmode: "numeric",
      min: spec.minimum,
      max: spec.maximum,
      step: spec.step ?? 1,
      value: spec.default ?? "",
      // Translators: the placeholder of an empty number field left for the server to work out.
      placeholder: spec.default === null || spec.default === undefined ? gettext("automatic") : null,
    });
    // An empty field leaves the server's default (some defaults depend on other options).
    read = () => (input.value === "" ? undefined : Number(input.value));
  } else if (spec.type === "array") {
    const count = spec.minItems ?? game.module?.optionArity?.(name) ?? null;
    const item = spec.items ?? {};
    if (count) {
      const labels = game.module?.optionItemLabels?.(name) ?? [];
      // Translators: the placeholder of a small empty number field left for the server to work out (short).
      const autoWord = gettext("auto");
      const inputs = Array.from({ length: count }, (_, k) =>
        h("input", { id: `${id}-${k}`, type: "number", inputmode: "numeric", min: item.minimum, max: item.maximum, value: spec.default?.[k] ?? "", placeholder: autoWord }),
      );
      // All blank: the server's default (an even split, for team sizes).
      read = () => (inputs.every((i) => i.value === "") ? undefined : inputs.map((i) => Number(i.value)));
      return {
        name,
        el: h(
          "fieldset",
          { class: "field array" },
          h("legend", {}, label),
          // Translators: an option's k-th number, where the game gives it no name ("#1", "#2").
          inputs.map((inp, k) => h("label", { for: inp.id }, `${labels[k] ?? interpolate(gettext("#%(n)s"), { n: k + 1 })} `, inp)),
          help,
        ),
        read,
        write: (v) => inputs.forEach((inp, k) => (inp.value = Array.isArray(v) ? (v[k] ?? "") : "")),
      };
    }
    input = h("input", { id, name, value: (spec.default ?? []).join(", ") });
    read = () => {
      const parts = input.value.split(/[\s,]+/).filter(Boolean).map(Number);
      return parts.length ? parts : undefined;
    };
    return {
      name,
      el: h("div", { class: "field" }, h("label", { for: id }, label), input, help),
      read,
      write: (v) => (input.value = Array.isArray(v) ? v.join(", ") : ""),
    };
  } else {
    input = h("input", { id, name, value: spec.default ?? "" });
    read = () => input.value;
  }
  return {
    name,
    el: h("div", { class: "field" }, h("label", { for: id }, label), input, help),
    read,
    write: (v) => (input.value = v === null || v === undefined ? "" : String(v)),
  };
}

// The options part of the "new room" form for one catalogue entry.
export function optionsForm(game) {
  const schema = game.options || {};
  const controls = Object.entries(schema)
    .filter(([name]) => !TIMING.includes(name))
    .map(([name, spec]) => control(game, name, spec));
  const timing = TIMING.filter((n) => schema[n]).map((n) => control(game, n, schema[n]));
  const presets = Object.keys(game.presets || {});
  const presetSelect = presets.length
    ? h(
        "select",
        { id: "opt-preset", name: "preset" },
        h("option", { value: "" }, gettext("Standard rules")),
        presets.map((p) => h("option", { value: p }, valueLabel(game, "preset", p))),
      )
    : null;

  const refresh = () => {
    const values = Object.fromEntries(controls.map((c) => [c.name, c.read()]));
    for (const c of controls) {
      const visible = game.module?.optionVisible?.(c.name, values) ?? true;
      c.el.hidden = !visible;
    }
  };
  presetSelect?.addEventListener("change", () => {
    // A preset is a bundle of values: show them, so what is sent is what is seen.
    const bundle = { ...Object.fromEntries(Object.entries(schema).map(([n, sp]) => [n, sp.default])) };
    Object.assign(bundle, game.presets[presetSelect.value] || {});
    for (const c of controls) c.write(bundle[c.name]);
    refresh();
  });
  for (const c of controls) c.el.addEventListener("change", refresh);

  const paceName = "pace";
  const custom = h("div", { class: "custom-timing", hidden: true }, timing.map((c) => c.el));
  const paces = h(
    "fieldset",
    { class: "pace" },
    // Translators: how fast a room plays: the time its players have for each turn.
    h("legend", {}, gettext("Pace")),
    /** @type {[string, { label: string, hint: string }][]} */ ([
      ...Object.entries(PACES),
      // Translators: a pace of play in the new-room form (its times set one by one), and its hint.
      ["custom", { label: gettext_noop("Custom"), hint: gettext_noop("set the seconds") }],
    ]).map(([key, pace]) =>
      h(
        "label",
        { class: "radio" },
        h("input", {
          type: "radio",
          name: paceName,
          value: key,
          checked: key === "live",
          onchange: () => {
            custom.hidden = key !== "custom";
            if (PACES[key]) for (const c of timing) c.write(PACES[key].values[c.name]);
          },
        }),
        ` ${gettext(pace.label)} `,
        // Translators: a pace's hint, after its name ("Live (a minute a turn)").
        h("small", {}, interpolate(gettext("(%(hint)s)"), { hint: gettext(pace.hint) })),
      ),
    ),
    custom,
  );

  const el = h(
    "div",
    { class: "options stack" },
    // Translators: the label of the list of a game's sets of rules (its presets).
    presetSelect && h("div", { class: "field" }, h("label", { for: "opt-preset" }, gettext("Rules")), presetSelect),
    // Translators: the heading of a game's own options in the new-room form.
    controls.length ? h("details", { class: "rules-options", open: true }, h("summary", {}, gettext("Options")), controls.map((c) => c.el)) : null,
    timing.length ? paces : null,
  );
  refresh();

  return {
    el,
    values() {
      const out = {};
      if (presetSelect?.value) out.preset = presetSelect.value;
      for (const c of [...controls, ...timing]) {
        if (c.el.hidden && !timing.includes(c)) continue;
        const v = c.read();
        if (v !== undefined && !(typeof v === "number" && Number.isNaN(v))) out[c.name] = v;
      }
      return out;
    },
  };
}

export function describeOptions(game, options) {
  const schema = game?.options || {};
  return Object.entries(options || {})
    // Unset options (null: worked out by the server) are left out; `rated` is said apart.
    .filter(([name, value]) => name !== "preset" && name !== "rated" && schema[name] && value !== null && value !== undefined)
    .map(([name, value]) => {
      const label = optionLabel(game, name);
      const shown =
        typeof value === "boolean" ? (value ? pgettext("option", "yes") : pgettext("option", "no")) : TIMING.includes(name) ? duration(value) : valueLabel(game, name, value);
      return [label, Array.isArray(value) ? value.join(" + ") : shown];
    });
}

// A time as a room's options say it, short: "1 min", "1.5 h", "3 d".
export function duration(seconds) {
  if (seconds >= 86400 && seconds % 3600 === 0) {
    const n = +(seconds / 86400).toFixed(1);
    // Translators: a number of days, short (a room's time per turn, pause): "3 d".
    return interpolate(npgettext("duration", "%(n)s d", "%(n)s d", n), { n });
  }
  if (seconds >= 3600) {
    const n = +(seconds / 3600).toFixed(1);
    // Translators: a number of hours, short (a room's time per turn, pause): "1.5 h".
    return interpolate(npgettext("duration", "%(n)s h", "%(n)s h", n), { n });
  }
  if (seconds >= 60) {
    const n = +(seconds / 60).toFixed(1);
    // Translators: a number of minutes, short (a room's time per turn, pause): "10 min".
    return interpolate(npgettext("duration", "%(n)s min", "%(n)s min", n), { n });
  }
  // Translators: a number of seconds, short (a room's time per turn, pause): "20 s".
  return interpolate(npgettext("duration", "%(n)s s", "%(n)s s", seconds), { n: seconds });
}
