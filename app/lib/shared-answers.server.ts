/**
 * Which answers may be stored and given to others (docs/stored-pages.md, decision 035).
 *
 * Keeping is opt-in, answer by answer, in the standard words: an answer that is the same for
 * everyone it may be given to says `Cache-Control: public, …, s-maxage=N` (a shared cache may
 * give it for N seconds; browsers ask again each time, max-age=0) and names in `Vary` what of
 * the request it depends on. The server's front (server/stored-answers.ts)
 * stores exactly those, for at most N seconds and a minute, reading `Vary` as:
 * - `Accept-Encoding`: it makes each coding itself;
 * - `Accept-Language`, `Cookie`: the language, currency and agent the app reads from them
 *   (server/front-rules.ts `choicesKey`) are in the key, and only visitors are given it (no
 *   session or flash-message cookie);
 * - `Authorization`: only callers without credentials are given it;
 * - anything else (or `*`): it cannot tell the requests apart, so the answer is not stored.
 *
 * Whatever an answer says, it is never stored when making it read something that is one
 * caller's own: a session or token that named a user, a rate limit, an outside fetch. Those
 * owners mark the request (answerNotStored() in request-scope.server.ts: the session reader,
 * the rate limiter, the marketplace fetch), and the answer's `Cache-Control` then becomes
 * `private, no-store` on its way out, for the front and every cache after it alike. No list
 * of such pages to keep up to date: a new page is stored only if it says so, and a page that
 * says so is still not stored the moment it reads a visitor's own state.
 */
import type { HeadersFunction } from "@remix-run/node";
import { requestScope } from "./request-scope.server";

/** The front stores nothing longer than this, whatever s-maxage says (content it does not version, such as publishing times, moves on). */
export const STORED_AT_MOST_MS = 60_000;

/** What an answer the same for everyone it may be given to says: shared caches may keep it a minute, browsers ask again each time. */
export const SHARED_FOR_A_MINUTE = "public, max-age=0, s-maxage=60";

/** What an answer that read one caller's own state says, whatever it said before. */
export const PERSONAL = "private, no-store";

/** The headers of a storefront page the same for every visitor: its loader's, and leave to keep it (unless the loader said otherwise). */
export const sharedPageHeaders: HeadersFunction = ({ loaderHeaders }) => {
  const headers = new Headers(loaderHeaders);
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", SHARED_FOR_A_MINUTE);
  headers.append("Vary", "Cookie");
  return headers;
};

/** The headers of an /api answer the same for every caller without credentials. */
export const SHARED_WITH_VISITORS = { "Cache-Control": SHARED_FOR_A_MINUTE, Vary: "Authorization, Cookie" } as const;

/** The headers of an /api answer the same for every caller, with credentials or without. */
export const SHARED_WITH_EVERYONE = { "Cache-Control": SHARED_FOR_A_MINUTE } as const;

/** How the front may store an answer: for how long, and whether only visitors may be given it. */
export type StoreRule = { ttlMs: number; visitorsOnly: boolean };

const VARY_THE_FRONT_READS = new Set(["accept-encoding", "accept-language", "cookie", "authorization"]);

/**
 * Called with every answer on its way out (the server and its front): how the front may
 * store it, or null. When making it read one caller's own state (answerNotStored()), an
 * answer that said it may be shared says `private, no-store` instead, for every cache
 * after this one too. Otherwise the answer's own leave: `Cache-Control: public` with a
 * positive s-maxage and none of private, no-store, no-cache; a `Vary` the front can key
 * (see above).
 */
export function sharingOf(headers: Headers): StoreRule | null {
  if (requestScope.getStore()?.notStored) {
    if (/\bpublic\b/i.test(headers.get("Cache-Control") ?? "")) headers.set("Cache-Control", PERSONAL);
    return null;
  }
  const directives = new Map<string, string>();
  for (const part of (headers.get("Cache-Control") ?? "").split(",")) {
    const [name, value = ""] = part.trim().toLowerCase().split("=", 2);
    if (name) directives.set(name, value.trim());
  }
  if (!directives.has("public") || directives.has("private") || directives.has("no-store") || directives.has("no-cache")) return null;
  const seconds = Number(directives.get("s-maxage"));
  if (!Number.isInteger(seconds) || seconds <= 0) return null;
  const vary = (headers.get("Vary") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (vary.some((name) => !VARY_THE_FRONT_READS.has(name))) return null;
  return {
    ttlMs: Math.min(seconds * 1000, STORED_AT_MOST_MS),
    visitorsOnly: vary.includes("cookie") || vary.includes("authorization"),
  };
}
