/**
 * `npm run migrate | seed | backup | restore | admin:create`: runs scripts/<name>.ts.
 * From a checkout (tsx installed) the TypeScript source runs as it is; in the production
 * image (no dev packages) the same script compiled by `npm run build` runs
 * (build/server/<name>.js, scripts/build-server.mjs). Arguments after `--` are passed on.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = path.resolve(import.meta.dirname, "..");
const [name, ...args] = process.argv.slice(2);
const source = path.join(ROOT, "scripts", `${name}.ts`);
const compiled = path.join(ROOT, "build", "server", `${name}.js`);

let hasTsx = true;
try {
  createRequire(import.meta.url).resolve("tsx");
} catch {
  hasTsx = false;
}

if (hasTsx && fs.existsSync(source)) {
  const result = spawnSync(process.execPath, ["--import", "tsx", source, ...args], { stdio: "inherit" });
  process.exit(result.status ?? 1);
} else if (fs.existsSync(compiled)) {
  // the compiled script reads its arguments where the source would
  process.argv = [process.argv[0], compiled, ...args];
  await import(pathToFileURL(compiled).href);
} else {
  console.error(`no script "${name}": neither scripts/${name}.ts with tsx nor build/server/${name}.js (run \`npm run build\`)`);
  process.exit(1);
}
