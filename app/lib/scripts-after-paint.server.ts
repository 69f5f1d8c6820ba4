/**
 * The page's scripts start loading after its first paint (issue 37, docs/performance.md
 * "Lighthouse"). Remix writes a `<link rel="modulepreload">` for each chunk the page
 * hydrates with and a module script that imports the route modules; on a slow connection
 * those downloads (60 KB, about 20 files) share it with the HTML and the stylesheet, so the
 * page's largest text waited for them. Every form works before hydration, so the page is
 * usable from its first paint; its scripts now begin in the task after that paint:
 * the same links and the same module script (its text waits in the page as a data block),
 * made by a small inline script that carries the page's nonce (the CSP allows nothing else).
 *
 * The data scripts (`__remixContext`, single fetch's stream) stay where they are: the
 * route module script reads what they wrote. Links that are not Remix's (a back-office
 * page's catalogue chunks, `data-catalogue`) stay too.
 */
import { Transform, type TransformCallback } from "node:stream";

const PRELOAD = /<link rel="modulepreload" href="(\/build\/[^"]+\.js)"\/>/g;
const MODULE_SCRIPT = /<script nonce="([^"]*)" type="module" async="">([\s\S]*?)<\/script>/g;

/** Where the route module script waits, as an inert data block (its text, not run, not fetched). */
export const ROUTE_MODULES_ID = "route-modules";

/** The HTML with Remix's script loading moved after the first paint; as it was when it has none. */
export function scriptsAfterFirstPaint(html: string): string {
  // Remix's is the one that sets the route modules (an admin's analytics snippet may hold a
  // module script of the same shape: app/components/storefront/analytics.tsx)
  const script = [...html.matchAll(MODULE_SCRIPT)].find((match) => match[2].includes("window.__remixRouteModules"));
  if (!script) return html;
  const [tag, nonce, body] = script;
  const preloads = [...html.matchAll(PRELOAD)].map((match) => match[1]);
  const loader =
    `requestAnimationFrame(function(){setTimeout(function(){var d=document;` +
    `${js(preloads)}.forEach(function(h){var l=d.createElement("link");l.rel="modulepreload";l.href=h;l.nonce=${js(nonce)};d.head.appendChild(l)});` +
    `var s=d.createElement("script");s.type="module";s.nonce=${js(nonce)};s.textContent=d.getElementById(${js(ROUTE_MODULES_ID)}).textContent;d.body.appendChild(s)},0)})`;
  return html
    .replace(PRELOAD, "")
    .replace(tag, () => `<script type="text/plain" id="${ROUTE_MODULES_ID}">${body}</script><script nonce="${nonce}">${loader}</script>`);
}

/** A value as JavaScript that is safe inside a <script> element. */
const js = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/** The stream form: the document is whole before it is written (entry.server.tsx renders it all first). */
export class ScriptsAfterFirstPaint extends Transform {
  #chunks: Buffer[] = [];

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#chunks.push(chunk);
    callback();
  }

  override _flush(callback: TransformCallback): void {
    callback(null, Buffer.from(scriptsAfterFirstPaint(Buffer.concat(this.#chunks).toString("utf8"))));
  }
}
