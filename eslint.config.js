// ESLint for the web client (plain ES modules run by the browser) and its Node tests.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["src/spieltisch/web/vendor/**", "node_modules/**", ".venv/**", "build/**", "dist/**"] },
  js.configs.recommended,
  {
    files: ["src/spieltisch/web/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["tests/web/**/*.js"],
    // the tests run under Node with a jsdom page installed as the browser globals (page.js)
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
  {
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      // the client's one-letter builders (h, s, t) and its drawing helpers must not be hidden
      "no-shadow": "error",
      "no-use-before-define": ["error", { functions: false, classes: true, variables: true }],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
];
