/**
 * `npm run build`: the Remix classic compiler, then the compiled server
 * (scripts/build-server.mjs). The compiler brings its own esbuild 0.17, which now and
 * then crashes after a build that finished; one retry covers it (docs/architecture.md
 * "Where framework internals are touched"). `npm test` builds through here too.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const env = { ...process.env, VITE_CJS_IGNORE_WARNING: "true" };
const run = (command, args) => spawnSync(command, args, { cwd: ROOT, stdio: "inherit", env }).status === 0;

const remixBuild = () => run(process.execPath, [path.join(ROOT, "node_modules", "@remix-run", "dev", "dist", "cli.js"), "build"]);
if (!remixBuild()) {
  console.error("remix build failed: trying once more (esbuild 0.17 now and then crashes after a finished build)");
  if (!remixBuild()) process.exit(1);
}
if (!run(process.execPath, [path.join(ROOT, "scripts", "build-server.mjs")])) process.exit(1);
