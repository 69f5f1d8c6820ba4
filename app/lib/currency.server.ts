/**
 * The visitor's display currency: a plain cookie `currency=<CODE>` (not secret, so not
 * signed; an unknown value reads as the default). Set by POST /currency.
 */
import { DEFAULT_CURRENCY, isCurrencyCode, type CurrencyCode } from "./currency";
import { getEnv } from "./env.server";
import { cookieValues } from "./http";

const COOKIE_NAME = "currency";
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The currency chosen in the cookie, else DEFAULT_CURRENCY. */
export function readCurrency(request: Request): CurrencyCode {
  return currencyOfCookieHeader(request.headers.get("Cookie"));
}

/**
 * The currency a Cookie header chooses: the first `currency` cookie holding a known code
 * (spaces around it and letter case do not matter), else DEFAULT_CURRENCY. The server's
 * front keys stored pages with this same function (docs/decisions/022-front-rules.md).
 */
export function currencyOfCookieHeader(header: string | null | undefined): CurrencyCode {
  for (const value of cookieValues(header, COOKIE_NAME)) {
    const code = value.toUpperCase();
    if (isCurrencyCode(code)) return code;
  }
  return DEFAULT_CURRENCY;
}

/** The Set-Cookie value that keeps a currency for a year. */
export function currencyCookie(code: CurrencyCode): string {
  const secure = getEnv().PUBLIC_URL.startsWith("https://") ? "; Secure" : "";
  return `${COOKIE_NAME}=${code}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax${secure}`;
}
