/**
 * Large server-made HTML (a post's body) sent to the browser once, as HTML, instead of
 * twice (as HTML and again inside the loader data the page hydrates from). The loader
 * hands the HTML to the render with provideHtml() (html-slot.server.ts) and leaves it out
 * of its data; <HtmlSlot> renders it on the server, takes it from the page itself when the
 * page hydrates, and from `html` when a client-side navigation fetched it
 * (docs/decisions/017-blog.md).
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";

const ServerHtml = createContext<ReadonlyMap<string, string> | null>(null);

/** Given by app/entry.server.tsx: the HTML the loaders of this request provided, by slot id. */
export function ServerHtmlProvider({ value, children }: { value: ReadonlyMap<string, string>; children: ReactNode }) {
  return <ServerHtml.Provider value={value}>{children}</ServerHtml.Provider>;
}

/** What this browser tab already holds, by cache key (the page it hydrated, bodies it fetched). */
const known = new Map<string, string>();

export function rememberedHtml(cacheKey: string): string | undefined {
  return known.get(cacheKey);
}

/**
 * `id` names the slot (the loader's provideHtml id, and the element's id); `cacheKey`
 * changes when the HTML does (e.g. slug and update time); `html` is given after a
 * client-side navigation. Give it a React key per document so its state starts afresh.
 */
export function HtmlSlot({ id, cacheKey, html, className }: { id: string; cacheKey: string; html?: string; className?: string }) {
  const server = useContext(ServerHtml);
  const [initial] = useState(() => {
    if (html !== undefined) return html;
    if (server) return server.get(id) ?? "";
    // hydrating: the server's HTML is in the page already
    return known.get(cacheKey) ?? (typeof document !== "undefined" ? document.getElementById(id)?.innerHTML : undefined) ?? "";
  });
  const value = html ?? initial;
  useEffect(() => {
    if (value) known.set(cacheKey, value);
  }, [cacheKey, value]);
  return <div id={id} className={className} dangerouslySetInnerHTML={{ __html: value }} />;
}
