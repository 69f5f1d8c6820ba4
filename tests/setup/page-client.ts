/**
 * Pages over plain HTTP, as a browser without JavaScript uses them: log in through the
 * login form, GET a page with the session cookie, POST a form (same-origin, as browsers
 * mark it). Redirects are not followed, so tests see them. The browser asks for English
 * (Accept-Language: en): the back office, Chinese by default, answers in it
 * (tests/integration/languages.test.ts covers the choice itself).
 */
import { expect } from "vitest";

/** Logs in through the login form and returns the session cookie ("sid=..."). */
export async function formLogin(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl },
    body: new URLSearchParams({ email, password, redirectTo: "/" }),
    redirect: "manual",
  });
  expect(response.status).toBe(302);
  const sid = response.headers.getSetCookie().find((c) => c.startsWith("sid="));
  expect(sid).toBeDefined();
  return sid!.split(";")[0];
}

export function getPage(baseUrl: string, path: string, cookie?: string): Promise<Response> {
  return fetch(`${baseUrl}${path}`, { headers: { "Accept-Language": "en", ...(cookie ? { Cookie: cookie } : {}) }, redirect: "manual" });
}

/** Posts a urlencoded form; `fields` may repeat a name (pass entries or URLSearchParams). */
export function postForm(
  baseUrl: string,
  path: string,
  cookie: string,
  fields: Record<string, string> | Array<[string, string]> | URLSearchParams,
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl, "Accept-Language": "en" },
    body: fields instanceof URLSearchParams ? fields : new URLSearchParams(fields),
    redirect: "manual",
    signal,
  });
}

/** The toast a redirect carries, read from the page it leads to. */
export async function toastAfter(baseUrl: string, response: Response, cookie: string): Promise<string> {
  expect(response.status, await response.clone().text()).toBe(302);
  const toast = response.headers
    .getSetCookie()
    .find((c) => c.startsWith("toast="))
    ?.split(";")[0];
  const next = await getPage(baseUrl, response.headers.get("location")!, toast ? `${cookie}; ${toast}` : cookie);
  return next.text();
}
