/**
 * The browser chunks of each language's back-office texts (build/catalogue-chunks.json,
 * written by scripts/build.mjs), for a back-office page's <link rel="modulepreload">
 * (app/routes/admin.tsx). Without the file (a build by another way), pages simply do not
 * preload them.
 */
import fs from "node:fs";
import type { Language } from "./languages";

export type CatalogueChunks = { backOffice: Partial<Record<Language, string[]>> };

let chunks: CatalogueChunks | undefined;

export function catalogueChunks(): CatalogueChunks {
  if (!chunks) {
    try {
      // the server build is build/index.js: the file is beside it
      chunks = JSON.parse(fs.readFileSync(new URL("./catalogue-chunks.json", import.meta.url), "utf8")) as CatalogueChunks;
    } catch {
      chunks = { backOffice: {} };
    }
  }
  return chunks;
}
