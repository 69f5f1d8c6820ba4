// ESLint (flat config): the recommended rules of JavaScript, TypeScript, React, its hooks
// and jsx-a11y, and the layer rules of docs/architecture.md: what each folder of app/ may
// import, and which of the project's homes (app/, db/, server/, scripts/, bench/, tests/)
// may import which. `npm run lint` runs it with Prettier's check; `npm test` runs `npm run lint`.
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** An import of any of these layers, by the `~/` alias or by a relative path. */
const layer = (...names) => names.flatMap((name) => [`~/${name}/**`, `**/app/${name}/**`, `../${name}/**`, `../../${name}/**`]);

/** An import of a folder's server modules (`*.server`), by the `~/` alias or by a relative path. */
const serverModules = (name) => [
  `~/${name}/**/*.server`,
  `**/app/${name}/**/*.server`,
  `../${name}/**/*.server`,
  `../../${name}/**/*.server`,
];

/** An import of one of the project's top-level folders by a relative path (from up to four folders down). */
const home = (...names) => names.flatMap((name) => ["../", "../../", "../../../", "../../../../"].map((up) => `${up}${name}/**`));

/** What code shared with the browser may not import: the server-side layers, and any `.server` module. */
const CLIENT_SAFE = [...layer("models", "services", "controllers", "components", "routes"), "~/lib/*.server", "**/*.server"];

/** The homes app/ never imports: they run it (the server), use it (the commands, the benchmark). */
const OUTSIDE_APP = {
  group: home("server", "scripts", "bench"),
  message: "app/ never imports server/, scripts/ or bench/: they import app/, not the other way round (docs/architecture.md)",
};

/** The homes db/ never imports: it is the bottom of the server side. */
const OUTSIDE_DB = {
  group: home("server", "scripts", "bench"),
  message: "db/ never imports server/, scripts/ or bench/: they import db/, not the other way round (docs/architecture.md)",
};

/**
 * The rule that keeps a folder's imports to the layers below it (message: which rule);
 * `also`: further patterns with messages of their own (a later rule for the same files
 * replaces an earlier one, so a folder's rule carries its home's too); `paths`: names
 * refused from one module.
 */
const only = (message, groups, { allowTypeImports = false, also = [], paths = [] } = {}) => ({
  "no-restricted-imports": "off",
  "@typescript-eslint/no-restricted-imports": [
    "error",
    { paths, patterns: [...groups.map((group) => ({ group, message, allowTypeImports })), ...also] },
  ],
});

/** Stored answers are made stale by the one write path only (app/services/writes.server.ts). */
const staleSignals = [
  {
    name: "~/lib/content-version.server",
    importNames: ["contentChanged", "blogChanged"],
    message: "declare what a write makes stale with staffWrite/contentWrite, or call pagesChanged (app/services/writes.server.ts)",
  },
];

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "public/build/**",
      "node_modules/**",
      ".cache/**",
      ".tmp/**",
      "test-results/**",
      "playwright-report/**",
      "data/**",
      // the Node .ci/run fetches for the tests
      ".ci/node-*/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // unused names are mistakes, except a deliberate `_` and rest siblings that leave fields out
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true, caughtErrors: "none" },
      ],
      // `declare global { var x }` is how a module keeps one value across Remix's re-imports
      "no-var": "error",
    },
  },
  {
    files: ["app/**/*.tsx"],
    ...react.configs.flat.recommended,
    ...react.configs.flat["jsx-runtime"],
    plugins: { react, "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    settings: { react: { version: "18.3" } },
    rules: {
      ...react.configs.flat.recommended.rules,
      ...react.configs.flat["jsx-runtime"].rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // TypeScript checks the props
      "react/prop-types": "off",
      // an apostrophe in text is fine; a stray > or } is a mistake
      "react/no-unescaped-entities": ["error", { forbid: [">", "}"] }],
      // "QC photo 3 of 6" names the thing shown (shoppers' word for it), not the element
      "jsx-a11y/img-redundant-alt": "off",
    },
  },
  {
    // autofocus only where the page or dialog has one task and its first field is it (log
    // in, register, a code, a reset, a new QC folder): a pattern a rule cannot tell apart
    files: ["app/routes/**/*.tsx"],
    rules: { "jsx-a11y/no-autofocus": "off" },
  },
  {
    // a migration sees the database as it was then, not as db/schema.ts says it is now
    files: ["db/migrations/**/*.ts", "db/migrate.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // tests and fixtures: control characters in expected strings are the point; Playwright
    // fixtures that need no other fixture take `{}`; JSON answers are read loosely
    files: ["tests/**/*.ts", "**/*.test.{ts,tsx}"],
    rules: { "no-control-regex": "off", "no-empty-pattern": "off", "@typescript-eslint/no-explicit-any": "off" },
  },
  // ---------------------------------------------------------------- the homes
  // app/ and db/ are imported by the server, the commands and the benchmark, never the
  // other way round; the server is imported by the commands, never the other way round
  // (docs/architecture.md). The layer rules below repeat their home's rule (OUTSIDE_APP,
  // OUTSIDE_DB) for the files they cover.
  {
    files: ["app/**/*.{ts,tsx}"],
    rules: only(OUTSIDE_APP.message, [OUTSIDE_APP.group]),
  },
  {
    files: ["db/**/*.ts"],
    rules: only(OUTSIDE_DB.message, [OUTSIDE_DB.group]),
  },
  {
    files: ["server/**/*.{ts,mjs}"],
    ignores: ["server/**/*.test.ts"],
    rules: only("server/ is what runs in production: it never imports the commands, the benchmark or the tests (docs/architecture.md)", [
      home("scripts", "bench", "tests"),
    ]),
  },
  {
    files: ["scripts/**/*.{ts,mjs}"],
    ignores: ["scripts/**/*.test.ts"],
    rules: only("scripts/ holds the commands: they may use server/, never the benchmark or the tests (docs/architecture.md)", [
      home("bench", "tests"),
    ]),
  },
  // ---------------------------------------------------------------- the layers
  {
    files: ["app/lib/**/*.{ts,tsx}"],
    ignores: ["app/lib/**/*.test.{ts,tsx}"],
    rules: only(
      "app/lib is plumbing: it imports no app layer, nor a feature folder (docs/architecture.md)",
      [layer("models", "services", "marketplace", "controllers", "components", "routes")],
      { also: [OUTSIDE_APP] },
    ),
  },
  {
    files: ["app/schemas/**/*.ts"],
    rules: only(
      "app/schemas is shared with the browser: schemas import only schemas and client-safe lib and app/marketplace modules (docs/architecture.md)",
      [CLIENT_SAFE],
      { also: [OUTSIDE_APP] },
    ),
  },
  {
    files: ["app/models/**/*.ts"],
    rules: only(
      "app/models holds queries: it imports lib and schemas only (docs/architecture.md)",
      [layer("services", "marketplace", "controllers", "components", "routes")],
      { also: [OUTSIDE_APP] },
    ),
  },
  {
    // the services, and the feature folder app/marketplace ("a pasted link becomes an item",
    // whole: docs/architecture.md, "Feature folders"), whose server modules import as a
    // service does and make stored answers stale through the one write path only
    // (pagesChanged, staffWrite, contentWrite)
    files: ["app/services/**/*.ts", "app/marketplace/**/*.ts"],
    rules: only(
      "app/services and app/marketplace may use models, lib, schemas and each other, never pages or components (docs/architecture.md)",
      [layer("controllers", "components", "routes")],
      { also: [OUTSIDE_APP], paths: staleSignals },
    ),
  },
  {
    // the one write path signals what changed
    files: ["app/services/writes.server.ts"],
    rules: only(
      "app/services and app/marketplace may use models, lib, schemas and each other, never pages or components (docs/architecture.md)",
      [layer("controllers", "components", "routes")],
      { also: [OUTSIDE_APP] },
    ),
  },
  {
    // app/marketplace's client-safe modules (no .server: the link grammar) are imported by
    // schemas and components, so they import as a schema does
    files: ["app/marketplace/**/*.ts"],
    ignores: ["app/marketplace/**/*.server.ts", "app/marketplace/**/*.test.ts"],
    rules: only(
      "app/marketplace's client-safe modules (no .server) run in the browser: they import only schemas, client-safe lib modules and each other (docs/architecture.md)",
      [CLIENT_SAFE],
      { also: [OUTSIDE_APP] },
    ),
  },
  {
    files: ["app/controllers/**/*.ts"],
    // a controller may name the props its page's components take (types only)
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: layer("routes"), message: "controllers serve routes, never the other way round (docs/architecture.md)" },
            {
              group: layer("components"),
              allowTypeImports: true,
              message: "a controller imports only the types of components (docs/architecture.md)",
            },
            OUTSIDE_APP,
          ],
        },
      ],
    },
  },
  {
    files: ["app/components/**/*.tsx", "app/components/**/*.ts"],
    ignores: ["app/components/**/*.test.{ts,tsx}"],
    // a component may type its data with its page controller's loader (`typeof loader`,
    // erased from the bundle); services, models and server plumbing stay out entirely
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [...layer("models", "services", "routes"), "~/lib/*.server", ...serverModules("marketplace")],
              message: "components run in the browser: no server modules, not even their types (docs/architecture.md)",
            },
            {
              group: layer("controllers"),
              allowTypeImports: true,
              message: "a component imports only the types of its page controller (docs/architecture.md)",
            },
            OUTSIDE_APP,
          ],
        },
      ],
    },
  },
  {
    files: ["db/migrations/**/*.ts"],
    rules: only(
      "a migration is frozen: it never imports app code, which changes (docs/architecture.md)",
      [["~/**", "**/app/**", "../app/**", "../../app/**"]],
      { also: [OUTSIDE_DB] },
    ),
  },
);
