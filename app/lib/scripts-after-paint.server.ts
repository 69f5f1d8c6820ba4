/**
 * The page's scripts start loading after its first paint (issue 37, docs/performance.md
 * "Lighthouse"), and a page the same for every visitor fetches what it hydrates with instead
 * of carrying it (decision 044).
 *
 * Remix writes a `<link rel="modulepreload">` for each chunk the page hydrates with and a
 * module script that imports the route modules; on a slow connection those downloads (60 KB,
 * about 20 files) share it with the HTML and the stylesheet, so the page's largest text
 * waited for them. Every form works before hydration, so the page is usable from its first
 * paint; its scripts now begin in the task after that paint: the same links and the same
 * module script (its text waits in the page as a data block), made by a small inline script
 * that carries the page's nonce (the CSP allows nothing else). Links that are not Remix's (a
 * back-office page's catalogue chunks, `data-catalogue`) stay.
 *
 * What the page hydrates with (single fetch's data scripts, and the texts its render used:
 * app/i18n/page-texts.tsx) is 2 KB of its 7 KB gzipped, the same facts as its HTML once more.
 * Three ways to write a document (`PageScripts`):
 * - `inline`: the data stays in the page, as Remix writes it. Pages made for one visitor
 *   (signed in, a flash message, an action's answer, an error) are written so: asking again
 *   would not give the same.
 * - `fetched`: a page the server's front may keep for every visitor (`sharingOf`, decision
 *   035) leaves its data out (the page-texts element stays, empty, so the DOM hydrates as
 *   it would); the inline loader asks for it at the page's own address with
 *   `?_hydration=1`, in parallel with the chunks, fills the texts, hands the stream to
 *   Remix, then starts the module script. When that answer fails, the page stays as it is
 *   without JavaScript (every form works).
 * - `data`: the answer to that request: the same render, written as JSON
 *   `{"texts": "<the page-texts JSON>", "stream": "<single fetch's stream>"}`. It is kept
 *   by the front like the page (its own key: the address differs).
 */
import { Transform, type TransformCallback } from "node:stream";

const PRELOAD = /<link rel="modulepreload" href="(\/build\/[^"]+\.js)"\/>/g;
const MODULE_SCRIPT = /<script nonce="([^"]*)" type="module" async="">([\s\S]*?)<\/script>/g;
const STREAM_CHUNK = /<script nonce="[^"]*">window\.__remixContext\.streamController\.enqueue\(("(?:[^"\\]|\\.)*")\);<\/script>/g;
const STREAM_END = /<script nonce="[^"]*">window\.__remixContext\.streamController\.close\(\);<\/script>/g;
const STREAM_END_TEXT = "window.__remixContext.streamController.close();";
const PAGE_TEXTS = /(<script type="application\/json" id="page-texts">)([\s\S]*?)(<\/script>)/;

/** The preload links the loader adds in one task. */
export const LINKS_PER_TASK = 4;

/** Where the route module script waits, as an inert data block (its text, not run, not fetched). */
export const ROUTE_MODULES_ID = "route-modules";

/** The query parameter that asks for a page's hydration data (the last one, as the loader adds it). */
export const PAGE_DATA_PARAM = "_hydration";
const PAGE_DATA_SUFFIX = `${PAGE_DATA_PARAM}=1`;

/**
 * The address without the page-data parameter, or null when it does not end with it. Only
 * the suffix is cut, byte for byte: the app reads the rest of the query exactly as the
 * page's own request had it.
 */
export function withoutPageDataParam(href: string): string | null {
  if (!href.endsWith(PAGE_DATA_SUFFIX)) return null;
  const before = href.charAt(href.length - PAGE_DATA_SUFFIX.length - 1);
  return before === "?" || before === "&" ? href.slice(0, -PAGE_DATA_SUFFIX.length - 1) : null;
}

/** How a document carries what it hydrates with: see the top of this file. */
export type PageScripts = "inline" | "fetched" | "data";

/** The answer to a page-data request: what the page left out. */
export type PageDataJson = { texts: string; stream: string };

/**
 * The HTML with Remix's script loading moved after the first paint and, `fetched`, its data
 * left out for the loader to fetch; as it was when it has no Remix scripts.
 */
export function scriptsAfterFirstPaint(html: string, mode: "inline" | "fetched" = "inline"): string {
  const script = routeModuleScript(html);
  if (!script) return html;
  const [tag, nonce, body] = script;
  const preloads = [...html.matchAll(PRELOAD)].map((match) => match[1]);
  const fetched = mode === "fetched" && html.includes(STREAM_END_TEXT);
  const start =
    `var s=d.createElement("script");s.type="module";s.nonce=${js(nonce)};` + `s.textContent=m.textContent;d.body.appendChild(s)`;
  const loader =
    `requestAnimationFrame(function(){setTimeout(function(){var d=document,` +
    // where Remix's <Scripts> renders them, just before its context script (the one before
    // the route modules' block): hydration adopts them where they are (in the head, it made
    // 18 links again in the body and took these away; elsewhere it moved each: 10-30 ms on a phone)
    `m=d.getElementById(${js(ROUTE_MODULES_ID)}),c=m.previousElementSibling,h=${js(preloads)},` +
    // the module script starts once the links are in (and, fetched, the data has come)
    `w=${fetched ? 2 : 1};function go(){if(!--w){${start}}}` +
    (fetched
      ? `var l=location,q=l.search;fetch(l.pathname+(q?q+"&":"?")+${js(PAGE_DATA_SUFFIX)},{credentials:"same-origin"})` +
        `.then(function(r){if(!r.ok)throw r.status;return r.json()})` +
        `.then(function(j){d.getElementById("page-texts").textContent=j.texts;` +
        `var c=window.__remixContext.streamController;c.enqueue(j.stream);c.close();go()},function(){});`
      : "") +
    // a few links a task: twenty in one task were a long task of their own on a phone (each
    // starts its request as it is added), docs/performance.md "Lighthouse, December"; and no
    // "<" anywhere in the loader, so that nothing can end its element early
    `(function a(){h.splice(0,${LINKS_PER_TASK}).forEach(function(x){var l=d.createElement("link");` +
    `l.rel="modulepreload";l.href=x;l.nonce=${js(nonce)};c.before(l)});h.length?setTimeout(a,0):go()})()` +
    `},0)})`;
  let page = html.replace(PRELOAD, "");
  if (fetched) page = page.replace(STREAM_CHUNK, "").replace(STREAM_END, "").replace(PAGE_TEXTS, "$1$3");
  return page.replace(
    tag,
    () => `<script type="text/plain" id="${ROUTE_MODULES_ID}">${body}</script><script nonce="${nonce}">${loader}</script>`,
  );
}

/** Remix's route module script: the one that sets the route modules (an admin's analytics snippet may hold one of the same shape: app/components/storefront/analytics.tsx). */
function routeModuleScript(html: string): RegExpExecArray | undefined {
  return [...html.matchAll(MODULE_SCRIPT)].find((match) => match[2].includes("window.__remixRouteModules"));
}

/** What a `fetched` page leaves out, as the JSON its page-data request is answered with; null for a page without Remix's data scripts. */
export function pageDataOf(html: string): string | null {
  if (!routeModuleScript(html) || !html.includes(STREAM_END_TEXT)) return null;
  const stream = [...html.matchAll(STREAM_CHUNK)].map((match) => JSON.parse(match[1]) as string).join("");
  const texts = PAGE_TEXTS.exec(html)?.[2] ?? "";
  return JSON.stringify({ texts, stream } satisfies PageDataJson).replace(/</g, "\\u003c");
}

/** A value as JavaScript that is safe inside a <script> element. */
const js = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/** The stream form: the document is whole before it is written (entry.server.tsx renders it all first). */
export class ScriptsAfterFirstPaint extends Transform {
  #chunks: Buffer[] = [];

  constructor(readonly mode: PageScripts = "inline") {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#chunks.push(chunk);
    callback();
  }

  override _flush(callback: TransformCallback): void {
    const html = Buffer.concat(this.#chunks).toString("utf8");
    // (a page-data answer from a render without data scripts: nothing to hydrate with)
    const written = this.mode === "data" ? (pageDataOf(html) ?? "null") : scriptsAfterFirstPaint(html, this.mode);
    callback(null, Buffer.from(written));
  }
}
