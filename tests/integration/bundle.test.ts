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
        .filter(([input, info]) => info.bytesInOutput > 0 && (/node_modules\/zod\//.test(input) || /app\/schemas\/(auth|admin-users|account-forms)\.ts$/.test(input)))
        .map(([input]) => `${input} in ${file}`),
    );
    expect(offenders).toEqual([]);
  });

  it("stays under 450 KB of minified JavaScript in all", () => {
    const total = scripts.reduce((sum, [, output]) => sum + output.bytes, 0);
    expect(total).toBeLessThan(450 * 1024);
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
