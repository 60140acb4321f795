// ESLint for the web client: every script the browser is served (the modules under
// web/static/web/, each game's renderer beside its rules in games/rules/, and the service
// worker in web/worker/). The recommended rules, and a few more that catch real mistakes
// rather than matters of style (ruff format and prettier-like line lengths are not ours
// to enforce here). `make lint` runs it.
import js from "@eslint/js";
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

export default [
  // tests/contract/ts/ is TypeScript against types generated at test time: its test
  // (tests/contract/test_typescript_client.py) type-checks it strictly with tsc.
  { ignores: ["node_modules/", ".venv/", "var/", "**/.*/", "tests/contract/ts/"] },
  {
    files: CLIENT,
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    rules: { ...js.configs.recommended.rules, ...bugs },
  },
  {
    files: WORKER,
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.serviceworker } },
    rules: { ...js.configs.recommended.rules, ...bugs, "no-implicit-globals": "off" },
  },
];
