import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { LINKS_PER_TASK, pageDataOf, scriptsAfterFirstPaint, withoutPageDataParam } from "./scripts-after-paint.server";

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

// A whole page as Remix and the root write it: the texts the render used, and single fetch's
// stream in two chunks (escaped as Remix escapes them) and its end.
const TEXTS = '{"texts":{"shop.footer.home":"Home \\u003c3"},"messages":{}}';
const CHUNKS = ['[{"_1":2},"loaderData",{"name":"</script> & more"}', ',"extra"]\n'];
const enqueued = (chunk: string) =>
  JSON.stringify(chunk).replace(/[&<>\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
const WHOLE = PAGE.replace(
  `<script nonce="${NONCE}">window.__remixContext.streamController.enqueue("[]");</script>`,
  `<script type="application/json" id="page-texts">${TEXTS}</script>` +
    CHUNKS.map((chunk) => `<script nonce="${NONCE}">window.__remixContext.streamController.enqueue(${enqueued(chunk)});</script>`).join(
      "",
    ) +
    `<script nonce="${NONCE}">window.__remixContext.streamController.close();</script>`,
);

/** Runs the page's loader script against a stand-in document and says what it added, and when. */
function runLoader(html: string, page: { fetch?: (url: string, init: object) => Promise<unknown>; search?: string } = {}) {
  const dataBlock = /<script type="text\/plain" id="route-modules">([\s\S]*?)<\/script>/.exec(html)?.[1];
  const loader = /<script nonce="[^"]*">(requestAnimationFrame[\s\S]*?)<\/script>/.exec(html)?.[1];
  expect(loader).toBeDefined();
  const added: Array<Record<string, string>> = [];
  const frames: Array<() => void> = [];
  const tasks: Array<() => void> = [];
  const element = (tag: string) => ({ tag }) as Record<string, string>;
  const texts = { textContent: "" };
  const stream: string[] = [];
  const fetched: string[] = [];
  // the body's end as the page has it: Remix's context script, then the route modules' block
  const body = {
    appendChild: (node: Record<string, string>) => added.push({ parent: "body", ...node }),
    insertBefore: (node: Record<string, string>, before: { id: string }) => added.push({ parent: "body", before: before.id, ...node }),
  };
  const contextScript = {
    id: "(Remix's context script)",
    parentNode: body,
    before: (node: Record<string, string>) => added.push({ parent: "body", before: "(Remix's context script)", ...node }),
  };
  const routeModules = { textContent: dataBlock, previousElementSibling: contextScript, parentNode: body };
  const document = {
    createElement: element,
    getElementById: (id: string) => (id === "route-modules" ? routeModules : id === "page-texts" ? texts : null),
    head: { appendChild: (node: Record<string, string>) => added.push({ parent: "head", ...node }) },
    body,
  };
  const window = {
    __remixContext: { streamController: { enqueue: (chunk: string) => stream.push(chunk), close: () => stream.push("(end)") } },
  };
  vm.runInNewContext(loader!, {
    document,
    window,
    location: { pathname: "/tmall/1", search: page.search ?? "" },
    fetch: (url: string, init: object) => {
      fetched.push(url);
      return page.fetch!(url, init);
    },
    requestAnimationFrame: (run: () => void) => frames.push(run),
    setTimeout: (run: () => void) => tasks.push(run),
  });
  return { added, frames, tasks, texts, stream, fetched };
}

/** Runs the tasks the loader queued, and those they queue, in order; answers how many links each added. */
function runTasks(tasks: Array<() => void>, added?: Array<Record<string, string>>): number[] {
  const perTask: number[] = [];
  while (tasks.length) {
    const before = added?.length ?? 0;
    tasks.shift()!();
    perTask.push((added?.length ?? 0) - before);
  }
  return perTask;
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
    runTasks(tasks);
    expect(added).toEqual([
      // where Remix's <Scripts> renders them (before its context script): hydration adopts them in place
      {
        parent: "body",
        before: "(Remix's context script)",
        tag: "link",
        rel: "modulepreload",
        href: "/build/entry.client-Z35U36UZ.js",
        nonce: NONCE,
      },
      {
        parent: "body",
        before: "(Remix's context script)",
        tag: "link",
        rel: "modulepreload",
        href: "/build/_shared/chunk-QS75GVS5.js",
        nonce: NONCE,
      },
      { parent: "body", tag: "script", type: "module", nonce: NONCE, textContent: MODULE_BODY.replace("</script>", "<\\/script>") },
    ]);
  });

  it("adds a few links a task (twenty in one task were a long task on a phone), then the module script", () => {
    const many = Array.from({ length: 10 }, (_, n) => `<link rel="modulepreload" href="/build/_shared/chunk-${n}.js"/>`).join("");
    const { added, frames, tasks } = runLoader(scriptsAfterFirstPaint(PAGE.replace("<main>page</main>", `<main>page</main>${many}`)));
    frames.forEach((run) => run());
    const perTask = runTasks(tasks, added);
    // 12 links: 4, 4, then 4 and the module script
    expect(perTask).toEqual([LINKS_PER_TASK, LINKS_PER_TASK, LINKS_PER_TASK + 1]);
    expect(added.filter((node) => node.tag === "link")).toHaveLength(12);
    expect(added.at(-1)).toMatchObject({ tag: "script", type: "module" });
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

  it("leaves a page the same for every visitor without its data, which the loader fetches before it starts the module script", async () => {
    const html = scriptsAfterFirstPaint(WHOLE, "fetched");
    expect(html).not.toContain("streamController.enqueue(");
    expect(html).not.toContain("streamController.close();</script>");
    // the texts' element stays, empty, where the render put it (the DOM hydrates as rendered)
    expect(html).toContain('<script type="application/json" id="page-texts"></script>');
    expect(html).toContain(`<script nonce="${NONCE}">window.__remixContext = {};</script>`);
    const loader = /<script nonce="[^"]*">(requestAnimationFrame[\s\S]*?)<\/script>/.exec(html)![1];
    expect(loader).not.toContain("<");

    const answer = JSON.parse(pageDataOf(WHOLE)!) as { texts: string; stream: string };
    let respond!: (value: unknown) => void;
    const run = runLoader(html, {
      search: "?q=a+b",
      fetch: () => new Promise((resolve) => (respond = resolve)),
    });
    run.frames.forEach((step) => step());
    runTasks(run.tasks);
    expect(run.fetched).toEqual(["/tmall/1?q=a+b&_hydration=1"]);
    // the chunks load meanwhile; the module script waits for the data
    expect(run.added.map((node) => node.tag)).toEqual(["link", "link"]);
    respond({ ok: true, json: async () => answer });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(run.texts.textContent).toBe(TEXTS);
    expect(run.stream).toEqual([CHUNKS.join(""), "(end)"]);
    expect(run.added.at(-1)).toMatchObject({ tag: "script", type: "module", nonce: NONCE });
  });

  it("leaves a page whose data does not come as it is without JavaScript", async () => {
    const failures = [() => Promise.resolve({ ok: false, status: 404 }), () => Promise.reject(new TypeError("offline"))];
    for (const failure of failures) {
      const run = runLoader(scriptsAfterFirstPaint(WHOLE, "fetched"), { fetch: failure });
      run.frames.forEach((step) => step());
      runTasks(run.tasks);
      expect(run.fetched).toEqual(["/tmall/1?_hydration=1"]);
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(run.stream).toEqual([]);
      expect(run.added.map((node) => node.tag)).toEqual(["link", "link"]);
    }
  });

  it("answers a page-data request with the page's texts and its stream, decoded from Remix's escaping", () => {
    const json = pageDataOf(WHOLE)!;
    // safe inside HTML too: no "<" anywhere
    expect(json).not.toContain("<");
    expect(JSON.parse(json)).toEqual({ texts: TEXTS, stream: CHUNKS.join("") });
    expect(pageDataOf("<!DOCTYPE html><html><body><p>Error</p></body></html>")).toBeNull();
  });

  it("keeps the data of a page that has not got all of it (no end of the stream) in the page", () => {
    const html = scriptsAfterFirstPaint(PAGE, "fetched");
    expect(html).toContain('enqueue("[]")');
    expect(html).not.toContain("_hydration");
  });

  it("reads the page-data parameter only as the last one, and cuts only it", () => {
    expect(withoutPageDataParam("http://shop.test/tmall/1?_hydration=1")).toBe("http://shop.test/tmall/1");
    expect(withoutPageDataParam("http://shop.test/search?q=a%20b+c&page=2&_hydration=1")).toBe("http://shop.test/search?q=a%20b+c&page=2");
    expect(withoutPageDataParam("http://shop.test/search?q=x_hydration=1")).toBeNull();
    expect(withoutPageDataParam("http://shop.test/search?_hydration=1&q=x")).toBeNull();
    expect(withoutPageDataParam("http://shop.test/tmall/1")).toBeNull();
  });
});
