/**
 * `npm run build`: the Remix classic compiler, then the compiled server
 * (scripts/build-server.mjs). The compiler brings its own esbuild 0.17, which now and
 * then crashes after a build that finished; one retry covers it (docs/architecture.md
 * "Where framework internals are touched"). `npm test` builds through here too.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const env = { ...process.env, VITE_CJS_IGNORE_WARNING: "true" };
const run = (command, args) => spawnSync(command, args, { cwd: ROOT, stdio: "inherit", env }).status === 0;

const remixBuild = () => run(process.execPath, [path.join(ROOT, "node_modules", "@remix-run", "dev", "dist", "cli.js"), "build"]);
if (!remixBuild()) {
  console.error("remix build failed: trying once more (esbuild 0.17 now and then crashes after a finished build)");
  if (!remixBuild()) process.exit(1);
}
writeCatalogueChunks();
if (!run(process.execPath, [path.join(ROOT, "scripts", "build-server.mjs")])) process.exit(1);

/**
 * build/catalogue-chunks.json: the browser chunks of each language's back-office texts (with
 * the storefront's, for the site's chrome), so a back-office page can ask for them at once
 * (<link rel="modulepreload">, app/i18n/page-texts.tsx) instead of after its scripts have run
 * (decision 031).
 */
function writeCatalogueChunks() {
  const metafile = JSON.parse(fs.readFileSync(path.join(ROOT, "build", "metafile.js.json"), "utf8"));
  const chunkOf = (source) => {
    const found = Object.entries(metafile.outputs).find(([, output]) => Object.keys(output.inputs).includes(source));
    if (!found) throw new Error(`catalogue chunks: no browser chunk holds ${source}`);
    return "/" + path.relative(path.join(ROOT, "public"), path.join(ROOT, found[0])).split(path.sep).join("/");
  };
  const chunks = { backOffice: {} };
  for (const language of ["en", "zh-CN"]) {
    chunks.backOffice[language] = [
      chunkOf(`app/i18n/catalogues/${language}/shop.ts`),
      chunkOf("app/i18n/catalogues/messages/shop.ts"),
      chunkOf("app/i18n/messages.ts"),
      chunkOf(`app/i18n/catalogues/${language}/admin.ts`),
      chunkOf("app/i18n/catalogues/messages/admin.ts"),
    ];
  }
  fs.writeFileSync(path.join(ROOT, "build", "catalogue-chunks.json"), JSON.stringify(chunks, null, 2) + "\n");
}
