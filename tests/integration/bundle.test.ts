/**
 * Pages are for slow phones: the browser bundle must stay small. Forms are validated on
 * the server (with JavaScript or without), so zod and the schema modules never ship.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { ROOT } from "../setup/paths";

type Metafile = { outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }> };

const metafile = JSON.parse(fs.readFileSync(path.join(ROOT, "build", "metafile.js.json"), "utf8")) as Metafile;
const scripts = Object.entries(metafile.outputs).filter(([file]) => file.endsWith(".js"));

describe("browser bundle", () => {
  it("ships no zod and no form schema module", () => {
    const offenders = scripts.flatMap(([file, output]) =>
      Object.entries(output.inputs)
        .filter(([input, info]) => info.bytesInOutput > 0 && (/node_modules\/zod\//.test(input) || /app\/schemas\/(auth|admin-users|account-forms)\.ts$/.test(input)))
        .map(([input]) => `${input} in ${file}`),
    );
    expect(offenders).toEqual([]);
  });

});

type Assets = { entry: { module: string; imports?: string[] }; routes: Record<string, { module: string; imports?: string[]; parentId?: string }> };

/** The scripts a page loads: the client entry, then root's and the route's modules with their imports. */
function scriptsOfPage(assets: Assets, routeId: string): string[] {
  const files = new Set<string>([assets.entry.module, ...(assets.entry.imports ?? [])]);
  for (let id: string | undefined = routeId; id; id = assets.routes[id]?.parentId) {
    const route = assets.routes[id];
    files.add(route.module);
    for (const file of route.imports ?? []) files.add(file);
  }
  return [...files];
}

const gzipped = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(ROOT, "public", file)), { level: 9 }).length;

describe("storefront pages' JavaScript", async () => {
  const build = (await import(path.join(ROOT, "build", "index.js"))) as { assets: Assets };
  const storefront = ["routes/_index", "routes/search", "routes/category.$id", "routes/product.$id", "routes/$platform.$itemId", "routes/collections"];

  it.each(storefront)("%s loads at most 100 KB of gzipped JavaScript", (routeId) => {
    expect(build.assets.routes[routeId], routeId).toBeDefined();
    const total = scriptsOfPage(build.assets, routeId).reduce((sum, file) => sum + gzipped(file), 0);
    expect(total).toBeLessThan(100 * 1024);
  });

  it("never loads the back office's heavy modules (the rich-text editor) on a storefront page", () => {
    const heavy = scripts
      .filter(([, output]) => Object.keys(output.inputs).some((input) => /node_modules\/(@tiptap|prosemirror-)/.test(input)))
      .map(([file]) => `/${file.replace(/^public\//, "")}`);
    for (const routeId of storefront) {
      const loaded = scriptsOfPage(build.assets, routeId);
      expect(loaded.filter((file) => heavy.includes(file)), routeId).toEqual([]);
    }
  });
});

describe("server build", () => {
  it("gives every page route its own ErrorBoundary (a failure keeps the site chrome and says what failed)", async () => {
    const build = (await import(path.join(ROOT, "build", "index.js"))) as {
      routes: Record<string, { module: { default?: unknown; ErrorBoundary?: unknown } }>;
    };
    const pages = Object.entries(build.routes).filter(([, route]) => route.module.default);
    expect(pages.length).toBeGreaterThan(10);
    const missing = pages.filter(([, route]) => !route.module.ErrorBoundary).map(([id]) => id);
    expect(missing).toEqual([]);
  });
});
