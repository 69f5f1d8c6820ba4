/**
 * Compiles the server (scripts/start.ts and everything it imports from app/, db/ and
 * scripts/) into one ES module, build/server/start.js, so `npm start` runs plain node:
 * no TypeScript loader thread and no compiling at run time (about 50 MB less memory;
 * decision 014). Packages stay in node_modules. Part of `npm run build`.
 */
import path from "node:path";
import { build } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "..");

await build({
  absWorkingDir: ROOT,
  entryPoints: ["scripts/start.ts"],
  outfile: "build/server/start.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  alias: { "~": "./app" },
  // stack traces in the log name the source files (the launcher turns source maps on)
  sourcemap: "linked",
  logLevel: "warning",
});
