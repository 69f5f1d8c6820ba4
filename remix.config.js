/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Tests, stories and server-only helpers next to routes are never routes.
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}", "**/*.spec.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverDependenciesToBundle: [],
  // The browser renders with Preact's React-compatible layer, the server with React: the same
  // components, 38 KB less JavaScript on every page (docs/decisions/042-preact-in-the-browser.md).
  // `browserAlias` is this project's patch of the compiler (patches/@remix-run+dev+*.patch).
  browserAlias: {
    react: "preact/compat",
    "react-dom": "preact/compat",
  },
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
