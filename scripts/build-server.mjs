/**
 * Compiles the server (server/start.ts and everything it imports from server/, app/ and
 * db/) into one ES module, build/server/start.js, so `npm start` runs plain node:
 * (and the campaign worker thread into build/server/campaign-worker.js, decision 018, and
 * the photo worker thread into build/server/photo-worker.js, decision 050;
 * the maintenance scripts, scripts/<name>.ts, into build/server/<name>.js, which
 * scripts/run.mjs runs where tsx is not installed):
 * no TypeScript loader thread and no compiling at run time (about 50 MB less memory;
 * decision 014). Packages stay in node_modules. Part of `npm run build`.
 */
import path from "node:path";
import { build } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "..");

await build({
  absWorkingDir: ROOT,
  // the server, and the campaign worker thread it starts (app/services/campaign-worker.server.ts)
  entryPoints: [
    { in: "server/start.ts", out: "start" },
    { in: "app/services/campaign-worker.server.ts", out: "campaign-worker" },
    // the photo worker thread (app/services/photos/photo-thread.server.ts, decision 050)
    { in: "app/services/photos/photo-worker.server.ts", out: "photo-worker" },
    // the maintenance scripts, for the production image (no tsx there: scripts/run.mjs)
    ...["migrate", "seed", "backup", "restore", "admin-create", "db-copy", "uploads-copy"].map((name) => ({
      in: `scripts/${name}.ts`,
      out: name,
    })),
  ],
  outdir: "build/server",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  packages: "external",
  alias: { "~": "./app" },
  // stack traces in the log name the source files (the launcher turns source maps on); the
  // map's positions only: the sources' text would be parsed and kept in the server's memory
  sourcemap: "linked",
  sourcesContent: false,
  logLevel: "warning",
});
