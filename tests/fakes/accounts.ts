/**
 * Helpers for the account API tests: unique people, client addresses, and real
 * accounts made through the public API with the code the app mailed to the fake SMTP
 * server. Nothing here reaches into the app's code.
 */
import crypto from "node:crypto";
import { api, type ApiResult } from "../setup/api-client";
import { afterAll, beforeAll, expect } from "vitest";
import { startTestServer, type TestServer } from "../setup/server";
import type { ServerDb } from "../setup/server-db";
import { startFakeSmtp, type FakeSmtp } from "./smtp";

let counter = 0;
const tag = () => `${Date.now().toString(36).slice(-5)}${(counter += 1)}${crypto.randomBytes(2).toString("hex")}`;

export const uniqueEmail = (prefix = "user") => `${prefix}-${tag()}@example.test`;
export const uniqueUsername = (prefix = "u") => `${prefix}_${tag()}`.slice(0, 30);

/**
 * A fresh client address for X-Forwarded-For. The servers of these tests run with
 * TRUST_PROXY=1, so each test can act from its own address and per-address limits of
 * one test do not leak into the next.
 */
export function freshIp(): string {
  const n = crypto.randomInt(1, 250);
  counter += 1;
  return `10.${(counter >> 8) & 255}.${counter & 255}.${n}`;
}

export type Client = <T = any>(
  pathname: string,
  options?: { method?: string; token?: string; body?: unknown; headers?: Record<string, string>; cookie?: string },
) => Promise<ApiResult<T>>;

/** api() bound to a server and, optionally, one client address. */
export function client(baseUrl: string, ip?: string): Client {
  return (pathname, options = {}) =>
    api(baseUrl, pathname, {
      ...options,
      headers: { ...(ip ? { "X-Forwarded-For": ip } : {}), ...options.headers },
    });
}

export type TestAccount = {
  id: number;
  email: string;
  username: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  user: Record<string, any>;
};

/** Registers an account the way a person does: code by mail, then /api/auth/register. */
export async function registerAccount(
  baseUrl: string,
  smtp: FakeSmtp,
  input: { email?: string; username?: string; password?: string; ip?: string } = {},
): Promise<TestAccount> {
  const email = input.email ?? uniqueEmail();
  const username = input.username ?? uniqueUsername();
  const password = input.password ?? `pw-${crypto.randomBytes(6).toString("hex")}`;
  const call = client(baseUrl, input.ip ?? freshIp());
  const since = Date.now();
  const sent = await call("/api/auth/send-registration-code", { body: { email } });
  if (sent.status !== 200) throw new Error(`send-registration-code for ${email}: ${sent.status} ${JSON.stringify(sent.body)}`);
  await smtp.waitForMail(email, { since });
  const code = smtp.lastCode(email);
  const registered = await call("/api/auth/register", { body: { username, email, password, code } });
  if (registered.status !== 201) throw new Error(`register ${email}: ${registered.status} ${JSON.stringify(registered.body)}`);
  return {
    id: registered.body.user.id,
    email,
    username,
    password,
    accessToken: registered.body.accessToken,
    refreshToken: registered.body.refreshToken,
    user: registered.body.user,
  };
}

/**
 * A live captcha whose answer the test knows, inserted into the server's database
 * (openServerDb, tests/setup/server-db.ts) and hashed the way the server hashes answers:
 * HMAC-SHA256 under a key derived from JWT_SECRET (HKDF-SHA256, label "keyed-hash: codes
 * and captchas"). A captcha's answer is otherwise only in its image.
 */
export async function insertKnownCaptcha(
  db: ServerDb,
  jwtSecret: string,
  answer = "k7x2p",
): Promise<{ captchaId: string; captchaText: string }> {
  const key = Buffer.from(crypto.hkdfSync("sha256", jwtSecret, "", "keyed-hash: codes and captchas", 32));
  const captchaId = crypto.randomUUID();
  const answerHash = crypto.createHmac("sha256", key).update(`captcha:${answer.toLowerCase()}`).digest("hex");
  await db
    .insertInto("captchas")
    .values({ id: captchaId, answer_hash: answerHash, expires_at: new Date(Date.now() + 5 * 60_000).toISOString() })
    .execute();
  return { captchaId, captchaText: answer };
}

/** Gives an account a role (by name) straight in the server's database, as a role assignment would. */
export async function grantRole(db: ServerDb, userId: number, roleName: string): Promise<void> {
  const role = await db.selectFrom("roles").select("id").where("name", "=", roleName).executeTakeFirstOrThrow();
  await db.insertInto("user_roles").values({ user_id: userId, role_id: role.id }).execute();
}

/**
 * Checks that a code-mail endpoint answers an address with an account exactly as one
 * without: same status, same body, the same time, with the mail sent after the answer
 * and a failing relay never showing. `send` makes one request for an address; `known`
 * are two addresses that get mail, `unknown()` makes a fresh one that does not.
 */
export async function expectSameAnswer(
  smtp: FakeSmtp,
  send: (email: string) => Promise<ApiResult>,
  known: [string, string],
  unknown: () => string,
): Promise<void> {
  const timed = async (email: string) => {
    const started = performance.now();
    const result = await send(email);
    return { ...result, ms: performance.now() - started, answeredAt: Date.now() };
  };
  // a slow relay: an answer that waited for the mail would take 1.5 s
  smtp.behave({ delayMs: 1_500 });
  try {
    const knownEmail = known[0];
    const forUnknown = await timed(unknown());
    const forKnown = await timed(knownEmail);
    expect(forKnown.status).toBe(200);
    expect(forUnknown.status).toBe(forKnown.status);
    expect(forUnknown.body).toEqual(forKnown.body);
    // the same timing class: both answer well before the relay is done
    expect(forKnown.ms, "answer time with an account").toBeLessThan(1_000);
    expect(forUnknown.ms, "answer time without an account").toBeLessThan(1_000);
    const mail = await smtp.waitForMail(knownEmail, { since: forKnown.answeredAt - 5 });
    expect(mail.receivedAt - forKnown.answeredAt).toBeGreaterThanOrEqual(1_000);

    // a relay that refuses: the answer does not change (the failure is only logged)
    smtp.behave({ reject: { code: 451, message: "try again later" } });
    const unknownAgain = await timed(unknown());
    const knownAgain = await timed(known[1]);
    expect(knownAgain.status).toBe(200);
    expect(unknownAgain.status).toBe(200);
    expect(knownAgain.body).toEqual(forKnown.body);
    expect(unknownAgain.body).toEqual(forKnown.body);
  } finally {
    smtp.behave({});
  }
}

/** An account made by the super admin (POST /api/admin/users): no mail involved. */
export async function createAccountByAdmin(baseUrl: string): Promise<{ id: number; email: string; password: string }> {
  const admin = await api(baseUrl, "/api/auth/login", { body: { email: "admin@example.com", password: "admin-password-test" } });
  const email = uniqueEmail("made");
  const password = `pw-${crypto.randomBytes(6).toString("hex")}`;
  const created = await api(baseUrl, "/api/admin/users", {
    token: admin.body.accessToken,
    body: { username: uniqueUsername("made"), email, password },
  });
  if (created.status !== 201) throw new Error(`admin create ${email}: ${created.status} ${JSON.stringify(created.body)}`);
  return { id: created.body.data.id, email, password };
}

/** name → value of every Set-Cookie of a response (a cleared cookie maps to ""). */
export function setCookies(headers: Headers): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const line of headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair.indexOf("=");
    cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  return cookies;
}

/** A Cookie request header from name → value pairs (empty values left out). */
export function cookieHeader(cookies: Map<string, string>): string {
  return [...cookies]
    .filter(([, value]) => value !== "")
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");
}

/** Logs in through the page form (POST /login) and answers the browser-session cookie header. */
export async function pageLogin(baseUrl: string, identifier: string, password: string, ip?: string): Promise<string> {
  const response = await fetch(`${baseUrl}/login`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: baseUrl,
      ...(ip ? { "X-Forwarded-For": ip } : {}),
    },
    body: new URLSearchParams({ email: identifier, password }).toString(),
  });
  const sid = setCookies(response.headers).get("sid");
  if (response.status !== 302 || !sid) throw new Error(`page login as ${identifier}: ${response.status}, no session cookie`);
  return `sid=${sid}`;
}

/**
 * One real server per test file, mailing through a fake SMTP server and trusting
 * X-Forwarded-For (so each test can act from its own address). Registers the
 * beforeAll/afterAll hooks; read `server` and `smtp` inside tests.
 */
export function useServerWithMail(env: Record<string, string> = {}) {
  const context = {} as { server: TestServer; smtp: FakeSmtp };
  beforeAll(async () => {
    context.smtp = await startFakeSmtp();
    context.server = await startTestServer({ env: { SMTP_URL: context.smtp.url, TRUST_PROXY: "1", ...env } });
  });
  afterAll(async () => {
    await context.server?.stop();
    await context.smtp?.close();
  });
  return context;
}
