/**
 * `npm start`: runs the compiled server (build/server/start.js, see server/start.ts for
 * what it does). Builds once first when there is no build; after changing the code, run
 * `npm run build` (`npm test` and `npm run bench -- --build` do).
 *
 * `npm start` runs it as `node --max-semi-space-size=4 --heap-growing-percent=30
 * server/start.mjs` (package.json): a young generation of 4 MB instead of V8's 16 (the
 * server makes much short-lived garbage per request and the bigger nursery only held
 * memory), and an old generation collected when it has grown by 30 % since the last full
 * collection instead of V8's own factor, which let about 50 MB of live objects grow to
 * 200 MB of heap between collections under load (RSS 283, peak 371 MB → 206, peak
 * 207 MB; same throughput; no hard cap, so no out-of-memory with more data;
 * docs/performance.md). It sets MALLOC_ARENA_MAX=2 (unless set): glibc's allocator with two
 * arenas, not eight per core, about 20 MB less RSS under load. The Dockerfile, the tests and
 * the benchmark start it with the same flags and environment (server/start-command.ts).
 */
import module from "node:module";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

// A stop that comes while the server starts (migrations, the seed, the first build) ends
// the process at once: no handler is installed before it serves, so SIGTERM and SIGINT do
// what they do by default. Each step before serving is a transaction or can be done again,
// so nothing is lost. (A handler that exits was tried: during start-up a SIGTERM now and
// then reached libuv and never the handler, and the stop waited for the kill.) In the
// image, tini is PID 1 for this: node as PID 1 would ignore a signal it has no handler for.
// server/start.ts installs the graceful stop (finish requests and jobs, close the
// database) once it serves.

const ROOT = path.resolve(import.meta.dirname, "..");
const SERVER = path.join(ROOT, "build", "server", "start.js");
const REMIX_BUILD = path.join(ROOT, "build", "index.js");

if (!fs.existsSync(SERVER) || !fs.existsSync(REMIX_BUILD)) {
  console.log("no build found: running `npm run build` once");
  const build = () =>
    spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit", env: { ...process.env, VITE_CJS_IGNORE_WARNING: "true" } }).status;
  // esbuild (inside the Remix compiler) now and then crashes after a finished build: one retry
  if (build() !== 0 && build() !== 0) {
    console.error("build failed: see the output above");
    process.exit(1);
  }
}

// Stack traces in the log name the source files. Only the build's own maps: with every
// package's map (Node's setSourceMapsEnabled), the packages' sources they carry are parsed
// and kept, about 15 MB of the server's memory (docs/performance.md, "Memory, December").
// module.setSourceMapsSupport is Node 22.14's; an older Node keeps them all.
if (typeof module.setSourceMapsSupport === "function") module.setSourceMapsSupport(true, { nodeModules: false, generatedCode: false });
else process.setSourceMapsEnabled(true);
await import(pathToFileURL(SERVER).href);
