import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { scriptsAfterFirstPaint } from "./scripts-after-paint.server";

// What Remix's <Scripts> writes (from a product page of the build), around the data scripts.
const NONCE = "ygbr8HTB2LWZ9WZFF+mFcw==";
const MODULE_BODY = `;
import * as route0 from "/build/root-NMNF4FWU.js";
import * as route1 from "/build/routes/$platform.$itemId-KUOVJ5XF.js";
window.__remixManifest = {"url": "/build/manifest-98926835.js", "note": "</script> in a string"};
window.__remixRouteModules = {"root":route0,"routes/$platform.$itemId":route1};

import("/build/entry.client-Z35U36UZ.js");`;
const PAGE =
  `<!DOCTYPE html><html lang="en"><head><link rel="stylesheet" href="/build/_assets/app.css"/>` +
  `<link rel="modulepreload" href="/build/_shared/admin-texts.js" nonce="${NONCE}" data-catalogue=""/></head><body><main>page</main>` +
  `<link rel="modulepreload" href="/build/entry.client-Z35U36UZ.js"/><link rel="modulepreload" href="/build/_shared/chunk-QS75GVS5.js"/>` +
  `<script nonce="${NONCE}">window.__remixContext = {};</script>` +
  `<script nonce="${NONCE}" type="module" async="">${MODULE_BODY.replace("</script>", "<\\/script>")}</script>` +
  `<script nonce="${NONCE}">window.__remixContext.streamController.enqueue("[]");</script></body></html>`;

/** Runs the page's loader script against a stand-in document and says what it added, and when. */
function runLoader(html: string) {
  const dataBlock = /<script type="text\/plain" id="route-modules">([\s\S]*?)<\/script>/.exec(html)?.[1];
  const loader = /<script nonce="[^"]*">(requestAnimationFrame[\s\S]*?)<\/script>/.exec(html)?.[1];
  expect(loader).toBeDefined();
  const added: Array<Record<string, string>> = [];
  const frames: Array<() => void> = [];
  const tasks: Array<() => void> = [];
  const element = (tag: string) => ({ tag }) as Record<string, string>;
  const document = {
    createElement: element,
    getElementById: (id: string) => (id === "route-modules" ? { textContent: dataBlock } : null),
    head: { appendChild: (node: Record<string, string>) => added.push({ parent: "head", ...node }) },
    body: { appendChild: (node: Record<string, string>) => added.push({ parent: "body", ...node }) },
  };
  vm.runInNewContext(loader!, {
    document,
    requestAnimationFrame: (run: () => void) => frames.push(run),
    setTimeout: (run: () => void) => tasks.push(run),
  });
  return { added, frames, tasks };
}

describe("the page's scripts after its first paint", () => {
  it("takes Remix's preload links and route module script out of the HTML, and leaves the data scripts and other links", () => {
    const html = scriptsAfterFirstPaint(PAGE);
    expect(html).not.toContain('<link rel="modulepreload" href="/build/entry.client');
    expect(html).not.toMatch(/<script[^>]*type="module"/);
    expect(html).toContain(`data-catalogue=""`);
    expect(html).toContain(`<script nonce="${NONCE}">window.__remixContext = {};</script>`);
    expect(html).toContain(`enqueue("[]")`);
    // nothing in the loader can end its <script> element early
    const loader = /<script nonce="[^"]*">(requestAnimationFrame[\s\S]*?)<\/script>/.exec(html)![1];
    expect(loader).not.toContain("<");
    // the module script's text waits as a data block: not run, its imports not fetched
    expect(html).toContain(`<script type="text/plain" id="route-modules">${MODULE_BODY.replace("</script>", "<\\/script>")}</script>`);
  });

  it("adds the same links and module script, with the nonce, in the task after the first frame", () => {
    const { added, frames, tasks } = runLoader(scriptsAfterFirstPaint(PAGE));
    expect(added).toEqual([]);
    frames.forEach((run) => run());
    expect(added).toEqual([]);
    tasks.forEach((run) => run());
    expect(added).toEqual([
      { parent: "head", tag: "link", rel: "modulepreload", href: "/build/entry.client-Z35U36UZ.js", nonce: NONCE },
      { parent: "head", tag: "link", rel: "modulepreload", href: "/build/_shared/chunk-QS75GVS5.js", nonce: NONCE },
      { parent: "body", tag: "script", type: "module", nonce: NONCE, textContent: MODULE_BODY.replace("</script>", "<\\/script>") },
    ]);
  });

  it("takes Remix's module script, not a module script of the admin's analytics snippet", () => {
    const analytics = `<div hidden class="analytics"><script nonce="${NONCE}" type="module" async="">import "https://stats.example/s.js";</script></div>`;
    const html = scriptsAfterFirstPaint(PAGE.replace("<main>", `${analytics}<main>`));
    expect(html).toContain(analytics);
    expect(html).toContain('<script type="text/plain" id="route-modules">;\nimport * as route0');
  });

  it("leaves a page without Remix's scripts as it is", () => {
    const plain = "<!DOCTYPE html><html><body><p>Error</p></body></html>";
    expect(scriptsAfterFirstPaint(plain)).toBe(plain);
  });
});
