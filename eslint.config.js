// ESLint for the web client: every script the browser is served (the modules under
// web/static/web/, each game's renderer beside its rules in games/rules/, and the service
// worker in web/worker/). The recommended rules, and a few more that catch real mistakes
// rather than matters of style (ruff format and prettier-like line lengths are not ours
// to enforce here). `make lint` runs it.
import js from "@eslint/js";
import i18next from "eslint-plugin-i18next";
import globals from "globals";

const CLIENT = ["web/static/web/**/*.js", "games/rules/**/*.js"];
const WORKER = ["web/worker/**/*.js"];

const bugs = {
  "array-callback-return": "error",
  "no-constructor-return": "error",
  "no-promise-executor-return": "error",
  "no-self-compare": "error",
  "no-template-curly-in-string": "error",
  "no-unmodified-loop-condition": "error",
  "no-unreachable-loop": "error",
  // Only in the same scope, where it is a TDZ error; a closure may name what is defined below it.
  "no-use-before-define": ["error", { functions: false, classes: false, variables: false }],
  "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
  "no-duplicate-imports": "error",
  "no-shadow-restricted-names": "error",
  "no-implicit-globals": "error",
  "no-var": "error",
  "prefer-const": "error",
  eqeqeq: ["error", "smart"],
  "no-eval": "error",
  "no-implied-eval": "error",
  "no-new-func": "error",
  "no-return-assign": ["error", "except-parens"],
  "no-sequences": "error",
  "no-throw-literal": "error",
  "default-case-last": "error",
};

// Words a person reads are passed through gettext (web/static/web/i18n.js), so that a
// language is a catalogue (docs/translating.md): a string literal with a capital letter,
// a space or punctuation between letters is an error where it is not the argument of a
// call or the value of a property that names rather than says (a class, a type, a
// media query). What is left are a few keys and formats, each marked where it is.
const wordsTranslated = {
  "i18next/no-literal-string": [
    "error",
    {
      mode: "all",
      "should-validate-template": true,
      callees: {
        exclude: [
          "gettext", "ngettext", "pgettext", "npgettext", "gettext_noop",
          "querySelector(All)?", "closest", "matches", "(get|set|remove|has|toggle)Attribute",
          "addEventListener", "removeEventListener", "dispatchEvent", "(Custom)?Event", "postMessage",
          "(window\\.)?matchMedia", "Intl\\..*", "(Syntax|Type)?Error", "console\\..*",
          "(local|session)Storage\\..*", ".*headers\\.get", ".*\\.split",
        ],
      },
      words: { exclude: ["[^A-Za-z]*", "[a-z0-9_.:/#?&=%\\[\\]-]+", "[A-Z_-]+", "https?://\\S+"] },
      "object-properties": {
        exclude: [
          "class", "type", "role", "id", "name", "autocomplete", "inputmode", "rel", "method", "for", "style",
          "transform", "hash", "cookie", "Authorization", "data-.*", "aria-(hidden|live|current|controls|describedby|labelledby|haspopup|expanded|pressed)",
          "[A-Z_-]+",
        ],
      },
    },
  ],
};

export default [
  // tests/contract/ts/ is TypeScript against types generated at test time: its test
  // (tests/contract/test_typescript_client.py) type-checks it strictly with tsc.
  { ignores: ["node_modules/", ".venv/", "var/", "**/.*/", "tests/contract/ts/"] },
  {
    files: CLIENT,
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    plugins: { i18next },
    rules: { ...js.configs.recommended.rules, ...bugs, ...wordsTranslated },
  },
  {
    files: WORKER,
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.serviceworker } },
    rules: { ...js.configs.recommended.rules, ...bugs, "no-implicit-globals": "off" },
  },
];
