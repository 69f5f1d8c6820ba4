/**
 * CONTRACT.md: "after 5 failed attempts for one account or address, answers 400/401 with
 * requiresCaptcha: true". A server without TRUST_PROXY sees every local client as
 * loopback; that address collects failures for the captcha like any other (it is never
 * locked out by the per-address 429, see docs/decisions/021-accounts-audit.md).
 */
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, insertKnownCaptcha, openServerDb, registerAccount, uniqueEmail } from "../fakes/accounts";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { startTestServer, type TestServer } from "../setup/server";

const JWT_SECRET = "loopback-tests-jwt-secret-0123456789abcdef";

let server: TestServer;
let smtp: FakeSmtp;
let db: Database.Database;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  // no TRUST_PROXY: X-Forwarded-For is ignored, every request comes from 127.0.0.1
  server = await startTestServer({ env: { SMTP_URL: smtp.url, JWT_SECRET } });
  db = openServerDb(server.dataDir);
});

afterAll(async () => {
  db?.close();
  await server?.stop();
  await smtp?.close();
});

describe("POST /api/auth/login from a loopback client", () => {
  it("demands a captcha after 5 failures from the address, for every account tried from there", async () => {
    const account = await registerAccount(server.url, smtp);
    const login = (body: Record<string, unknown>) => client(server.url)("/api/auth/login", { body });
    for (let i = 1; i <= 5; i++) {
      const response = await login({ email: uniqueEmail(`spray${i}`), password: "guess" });
      expect(response.status, `failure ${i}`).toBe(401);
      expect(Boolean(response.body.requiresCaptcha), `failure ${i}`).toBe(i >= 5);
    }
    const noCaptcha = await login({ email: account.email, password: account.password });
    expect(noCaptcha.status).toBe(400);
    expect(noCaptcha.body).toMatchObject({ success: false, requiresCaptcha: true, code: "CAPTCHA_REQUIRED" });

    const passed = await login({ email: account.email, password: account.password, ...insertKnownCaptcha(db, JWT_SECRET) });
    expect(passed.status, JSON.stringify(passed.body)).toBe(200);
    expect(passed.body.accessToken).toEqual(expect.any(String));

    // the login page shows the captcha up front to that address
    const page = await fetch(`${server.url}/login`);
    expect(await page.text()).toContain("captchaText");
  });
});
