/** The server half of app/lib/html-slot.tsx: loaders provide HTML, the render reads it. */
import { requestScope } from "./request-scope.server";

/** Hands `html` to this request's render for the <HtmlSlot id={id}> (not part of the loader's data). */
export function provideHtml(id: string, html: string): void {
  const scope = requestScope.getStore();
  if (!scope) return;
  (scope.html ??= new Map()).set(id, html);
}

/** The HTML this request's loaders provided (entry.server.tsx gives it to the render). */
export function providedHtml(): ReadonlyMap<string, string> {
  return requestScope.getStore()?.html ?? new Map();
}
