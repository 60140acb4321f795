// The page's words in its person's language: Django's JSON catalogue of the language
// (web/catalogues.py), loaded once before the page draws anything, and the functions
// every module marks its words with. `make messages` finds them by these names:
//
//   gettext("Your turn")                          a phrase
//   ngettext("%(n)s card", "%(n)s cards", n)      a phrase with a number in it
//   pgettext("suit", "Spades")                    the same English, told apart by context
//   interpolate(gettext("%(name)s passed."), { name })
//
// A phrase the catalogue lacks is the English one. Numbers, times and dates are written
// by `Intl` in the page's language (`numberText`, `timeText`).

/** @typedef {{ catalog: Record<string, string | string[]>, plural: string | null }} Catalogue */

let language = "en";
/** @type {Record<string, string | string[]>} */
let phrases = {};
/** @type {(n: number) => number} */
let pluralIndex = (n) => (n === 1 ? 0 : 1);

/** The language the page speaks now (a code of the server's `languages`). */
export function currentLanguage() {
  return language;
}

/**
 * Take `catalogue` as the page's words in `code`.
 * @param {string} code
 * @param {Catalogue} catalogue
 */
export function useCatalogue(code, catalogue) {
  language = code;
  phrases = catalogue.catalog || {};
  pluralIndex = catalogue.plural ? pluralRule(catalogue.plural) : (n) => (n === 1 ? 0 : 1);
}

/**
 * Fetch a language's catalogue from its address and take it.
 * @param {string} code
 * @param {string} url
 */
export async function loadCatalogue(code, url) {
  const response = await fetch(url, { credentials: "omit" });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  useCatalogue(code, /** @type {Catalogue} */ (await response.json()));
}

/** @param {string} message */
export function gettext(message) {
  const found = phrases[message];
  if (typeof found === "string" && found) return found;
  if (Array.isArray(found) && found[0]) return found[0];
  return message;
}

/**
 * @param {string} singular
 * @param {string} plural
 * @param {number} count
 */
export function ngettext(singular, plural, count) {
  const found = phrases[singular];
  if (Array.isArray(found)) {
    const form = found[pluralIndex(count)];
    if (form) return form;
  }
  return count === 1 ? singular : plural;
}

/**
 * @param {string} context
 * @param {string} message
 */
export function pgettext(context, message) {
  const found = gettext(`${context}\x04${message}`);
  return found.includes("\x04") ? message : found;
}

/**
 * @param {string} context
 * @param {string} singular
 * @param {string} plural
 * @param {number} count
 */
export function npgettext(context, singular, plural, count) {
  const found = ngettext(`${context}\x04${singular}`, `${context}\x04${plural}`, count);
  return found.includes("\x04") ? (count === 1 ? singular : plural) : found;
}

/**
 * Fill a phrase's named places, `%(name)s`, as Python does. A number is written as it
 * is; `numberText(n)` writes it as the page's language does (1,234; 1.234; 1,234).
 * @param {string} phrase
 * @param {Record<string, string | number>} values
 */
export function interpolate(phrase, values) {
  return phrase.replace(/%\((\w+)\)s/g, (whole, name) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

/**
 * Marks a phrase for the catalogues without translating it, for a constant made before
 * any catalogue is loaded: `gettext(CONSTANT)` translates it where it is shown.
 * @param {string} message
 */
export function gettext_noop(message) {
  return message;
}

// The locale `Intl` writes in: the browser's own where it is a form of the page's
// language (an English page in a British browser writes "15:05" and "29/11/2026"),
// else the page's language.
function intlLocale() {
  const browser = typeof navigator === "undefined" ? [] : navigator.languages || [navigator.language];
  return browser.find((tag) => tag && tag.split("-")[0].toLowerCase() === language) ?? language;
}

/** A number as the page's language writes it (digits, grouping). @param {number} n */
export function numberText(n) {
  return new Intl.NumberFormat(intlLocale()).format(n);
}

/**
 * A moment as the page's language writes it, in the device's time zone.
 * @param {Date | string | number} when
 * @param {Intl.DateTimeFormatOptions} [options]
 */
export function timeText(when, options = { dateStyle: "medium", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(intlLocale(), options).format(new Date(when));
}

/**
 * A list as the page's language joins it ("a, b and c").
 * @param {string[]} items
 */
export function listText(items) {
  return new Intl.ListFormat(intlLocale(), { style: "long", type: "conjunction" }).format(items);
}

// -- the catalogue's plural rule ----------------------------------------------------------
//
// A catalogue says which plural form a number takes as gettext's C expression of `n`
// (`n != 1`; Arabic's has six forms). It is read here, not run with `Function`: the
// page's Content-Security-Policy allows no `eval`, and a catalogue is data.

/**
 * @param {string} expression
 * @returns {(n: number) => number}
 */
export function pluralRule(expression) {
  const tokens = [];
  const token = /\s*(\d+|n|&&|\|\||[=!<>]=|[-+*/%<>!?:()])\s*/y;
  while (token.lastIndex < expression.length) {
    const found = token.exec(expression);
    if (!found) throw new SyntaxError(`plural rule: cannot read ${expression}`);
    tokens.push(found[1]);
  }
  let at = 0;
  const peek = () => tokens[at];
  const take = (/** @type {string} */ expected) => {
    if (tokens[at] !== expected) throw new SyntaxError(`plural rule: expected ${expected} in ${expression}`);
    at += 1;
  };
  /** @typedef {(n: number) => number} Node */
  /** @returns {Node} */
  const ternary = () => {
    const test = or();
    if (peek() !== "?") return test;
    take("?");
    const yes = ternary();
    take(":");
    const no = ternary();
    return (n) => (test(n) ? yes(n) : no(n));
  };
  /**
   * @param {() => Node} operand
   * @param {Record<string, (a: number, b: number) => number>} operators
   * @returns {Node}
   */
  const binary = (operand, operators) => {
    let left = operand();
    while (Object.hasOwn(operators, peek())) {
      const apply = operators[tokens[at++]];
      const [a, b] = [left, operand()];
      left = (n) => apply(a(n), b(n));
    }
    return left;
  };
  const num = (/** @type {boolean} */ value) => (value ? 1 : 0);
  const or = () => binary(and, { "||": (a, b) => num(Boolean(a || b)) });
  const and = () => binary(equality, { "&&": (a, b) => num(Boolean(a && b)) });
  const equality = () => binary(relation, { "==": (a, b) => num(a === b), "!=": (a, b) => num(a !== b) });
  const relation = () =>
    binary(sum, {
      "<": (a, b) => num(a < b),
      ">": (a, b) => num(a > b),
      "<=": (a, b) => num(a <= b),
      ">=": (a, b) => num(a >= b),
    });
  const sum = () => binary(product, { "+": (a, b) => a + b, "-": (a, b) => a - b });
  const product = () =>
    binary(unary, { "*": (a, b) => a * b, "/": (a, b) => Math.trunc(a / b), "%": (a, b) => a % b });
  /** @returns {Node} */
  const unary = () => {
    const next = tokens[at++];
    if (next === "!") {
      const operand = unary();
      return (n) => num(!operand(n));
    }
    if (next === "(") {
      const inner = ternary();
      take(")");
      return inner;
    }
    if (next === "n") return (n) => n;
    if (next !== undefined && /^\d+$/.test(next)) {
      const value = Number(next);
      return () => value;
    }
    throw new SyntaxError(`plural rule: unexpected ${next} in ${expression}`);
  };
  const rule = ternary();
  if (at !== tokens.length) throw new SyntaxError(`plural rule: unexpected ${peek()} in ${expression}`);
  return (n) => Number(rule(Math.abs(Math.trunc(n))));
}
