/**
 * The shopper's preferred shopping agent: a plain cookie `agent=<id>` (not secret, so not
 * signed; an unknown or disabled agent reads as none). Set by POST /agent-preference.
 */
import { getEnv } from "./env.server";
import { cookieValues } from "./http";

export const AGENT_COOKIE = "agent";
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export function readPreferredAgent(request: Request): number | null {
  return preferredAgentOfCookieHeader(request.headers.get("Cookie"));
}

/**
 * The agent id a Cookie header names: the first `agent` cookie holding a whole number
 * (spaces around it do not matter), else null. The server's front keys stored pages with
 * this same function (docs/decisions/022-front-rules.md).
 */
export function preferredAgentOfCookieHeader(header: string | null | undefined): number | null {
  for (const value of cookieValues(header, AGENT_COOKIE)) if (/^\d{1,9}$/.test(value)) return Number(value);
  return null;
}

/** The Set-Cookie value that keeps a preferred agent for a year (none: clears it). */
export function agentCookie(id: number | null): string {
  const secure = getEnv().PUBLIC_URL.startsWith("https://") ? "; Secure" : "";
  return id === null
    ? `${AGENT_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure}`
    : `${AGENT_COOKIE}=${id}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax${secure}`;
}
