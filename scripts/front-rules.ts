/**
 * What the server's front reads from a request before it answers from memory
 * (docs/decisions/022-front-rules.md). Each rule reads the request exactly as the app
 * does, with the app's own functions where there are any, so that a stored page or kept
 * answer is only ever given to a request the app would answer the same way:
 * - who may be given what was kept (a visitor: no session, no flash message, no token);
 * - the visitor's choices a page depends on (display currency, preferred agent, language);
 * - the encoding of the answer, negotiated as the express path's `compression` does.
 */
import Negotiator from "negotiator";
import { preferredAgentOfCookieHeader } from "../app/lib/agent-preference.server";
import { currencyOfCookieHeader } from "../app/lib/currency.server";
import { chooseLanguage } from "../app/i18n/languages";

/**
 * True when the Cookie header may carry a session (`sid`) or a flash message (`toast`):
 * the answer is then that person's own. Deliberately wider than the cookie parser (any
 * spacing, any separator before the name): a false "yes" only costs a render.
 */
export function mayCarrySession(cookie: string | undefined): boolean {
  return cookie !== undefined && /(?:^|[;,\s])(?:sid|toast)\s*=/.test(cookie);
}

/** A caller the front may give an answer kept for visitors: no session cookie, no credentials. */
export function isVisitor(headers: { cookie?: string; authorization?: string }): boolean {
  return !headers.authorization && !mayCarrySession(headers.cookie);
}

/**
 * The part of a stored page's key that comes from the visitor's choices: the currency, the
 * agent and the language the app will read from these headers (not their raw text:
 * `currency=krw`, ` currency=KRW ` and `currency=KRW` are one page; `currency=EURx` is the
 * default currency's page; every Accept-Language that picks Chinese is one page).
 */
export function choicesKey(pathname: string, cookie: string | undefined, acceptLanguage: string | undefined): string {
  return `${currencyOfCookieHeader(cookie)}|${preferredAgentOfCookieHeader(cookie) ?? ""}|${chooseLanguage(pathname, cookie, acceptLanguage)}`;
}

export type Encoding = "br" | "gzip" | "deflate" | "identity";

// the lists of compression 1.8 (node has brotli): offered, and preferred when the client
// weighs several alike
const SUPPORTED: Encoding[] = ["br", "gzip", "deflate", "identity"];
const PREFERRED: Encoding[] = ["br", "gzip"];
const negotiated = new Map<string, Encoding>();
const NEGOTIATED_MAX = 200;

/**
 * The content coding the express path's `compression` middleware would choose for this
 * Accept-Encoding: none without the header, else what Negotiator picks among br, gzip,
 * deflate and identity (br, then gzip, on a tie), identity when nothing is acceptable.
 */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  let encoding = negotiated.get(acceptEncoding);
  if (encoding) return encoding;
  const method = new Negotiator({ headers: { "accept-encoding": acceptEncoding } }).encoding(SUPPORTED, PREFERRED) as Encoding | undefined;
  encoding = method ?? "identity";
  if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
  negotiated.set(acceptEncoding, encoding);
  return encoding;
}
