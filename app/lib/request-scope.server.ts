/**
 * What one HTTP request carries through its async work: the server (server/serve.ts)
 * runs every request inside requestScope.run(). It counts database queries (logged with
 * the request) and lets the root loader, a layout and a page share what they all need
 * (who the visitor is, what they may do) instead of reading it three times.
 *
 * The scope lives on globalThis: the server and the Remix build each hold a copy of
 * this module, and both must see the same one.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ViewDependency } from "./content-version.server";

export type RequestScope = {
  queries: number;
  /** GET and HEAD change nothing, so what they read stays true for the whole request */
  readOnly: boolean;
  memo: Map<string, Promise<unknown>>;
  /**
   * The request asks for a page's hydration data (`?_hydration=1`, cut from the address the
   * app reads: app/lib/scripts-after-paint.server.ts): the render is written as that JSON.
   */
  pageData?: boolean;
  /** large HTML a loader hands to the render outside its data (app/lib/html-slot.server.ts) */
  html?: Map<string, string>;
  /**
   * The lists ordered by views the answer shows, for the server's front
   * (docs/decisions/022-front-rules.md): a stored copy is dropped when they move.
   */
  dependsOn: Set<ViewDependency>;
  /** the product views making the answer counted (a stored answer may show counts moved by its own) */
  viewsCounted?: number;
  /**
   * The answer shows what other instances change without telling this one (the popular
   * searches on PostgreSQL): the server's front stores no copy of it (answerNotStored()).
   */
  notStored?: boolean;
  /**
   * The texts and translated messages the page's render used, by language, which the page
   * carries for the browser to hydrate with (app/i18n/i18n.server.ts, page-texts.tsx)
   */
  texts?: Map<string, Map<string, string>>;
  messages?: Map<string, Map<string, string>>;
};

declare global {
  var __requestScope: AsyncLocalStorage<RequestScope> | undefined;
}

export const requestScope: AsyncLocalStorage<RequestScope> = (globalThis.__requestScope ??= new AsyncLocalStorage<RequestScope>());

/**
 * The request asks for the data a page hydrates with (decision 044): the page was counted
 * when it was asked for, so the data counts nothing (no view, no search).
 */
export function asksForPageData(): boolean {
  return requestScope.getStore()?.pageData === true;
}

export function newRequestScope(method: string): RequestScope {
  return {
    queries: 0,
    readOnly: method === "GET" || method === "HEAD",
    memo: new Map(),
    dependsOn: new Set(),
  };
}

/**
 * Within one GET or HEAD request, `compute` runs once per key and its promise is shared;
 * in any other request (an action may change what was read) and outside the server, it
 * runs every time.
 */
export function oncePerRequest<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const scope = requestScope.getStore();
  if (!scope?.readOnly) return compute();
  let value = scope.memo.get(key) as Promise<T> | undefined;
  if (!value) {
    value = compute();
    scope.memo.set(key, value);
    value.catch(() => scope.memo.delete(key));
  }
  return value;
}

/**
 * Marks the current request's answer as showing a list ordered by views: a copy stored by
 * the server's front is dropped when `kind` moves (see viewsMoved()).
 */
export function answerDependsOn(kind: ViewDependency): void {
  requestScope.getStore()?.dependsOn.add(kind);
}

/** Marks the current request's answer as one the server's front must not store for others. */
export function answerNotStored(): void {
  const scope = requestScope.getStore();
  if (scope) scope.notStored = true;
}

/** Counts one database query against the current request. */
export function countQuery(): void {
  const scope = requestScope.getStore();
  if (scope) scope.queries += 1;
}

/** Whether the current work answers a request (a statement there keeps a visitor waiting). */
export function inRequest(): boolean {
  return requestScope.getStore() !== undefined;
}
