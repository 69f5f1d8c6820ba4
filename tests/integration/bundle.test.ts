/**
 * Pages are for slow phones: the browser bundle must stay small. Forms are validated on
 * the server (with JavaScript or without), so zod and the schema modules never ship.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../setup/paths";

type Metafile = { outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }> };

const metafile = JSON.parse(fs.readFileSync(path.join(ROOT, "build", "metafile.js.json"), "utf8")) as Metafile;
const scripts = Object.entries(metafile.outputs).filter(([file]) => file.endsWith(".js"));

describe("browser bundle", () => {
  it("ships no zod and no form schema module", () => {
    const offenders = scripts.flatMap(([file, output]) =>
      Object.entries(output.inputs)
        .filter(([input, info]) => info.bytesInOutput > 0 && (/node_modules\/zod\//.test(input) || /app\/schemas\/(auth|admin-users|account-forms|email)\.ts$/.test(input)))
        .map(([input]) => `${input} in ${file}`),
    );
    expect(offenders).toEqual([]);
  });

  // What a phone loads for one page: the entry, the root, the page's layouts and route
  // module, and the shared chunks each imports (Remix's asset manifest lists them). The
  // budget is per page: the back office grows a screen at a time, and no browser loads
  // every screen's code.
  it("loads under 450 KB of minified JavaScript on every page", async () => {
    const build = (await import(path.join(ROOT, "build", "index.js"))) as {
      assets: {
        entry: { module: string; imports?: string[] };
        routes: Record<string, { parentId?: string; module: string; imports?: string[] }>;
      };
    };
    const { entry, routes } = build.assets;
    const bytes = (url: string) => fs.statSync(path.join(ROOT, "public", url)).size;
    const pages = Object.entries(routes).map(([id]) => {
      const files = new Set([entry.module, ...(entry.imports ?? [])]);
      for (let route: string | undefined = id; route; route = routes[route].parentId) {
        files.add(routes[route].module);
        for (const chunk of routes[route].imports ?? []) files.add(chunk);
      }
      return { id, total: [...files].reduce((sum, file) => sum + bytes(file), 0) };
    });
    expect(pages.length).toBeGreaterThan(10);
    const heavy = pages.filter((page) => page.total >= 450 * 1024).map((page) => `${page.id}: ${(page.total / 1024).toFixed(0)} KB`);
    expect(heavy).toEqual([]);
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
