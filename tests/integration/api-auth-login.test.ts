/**
 * Login over real HTTP: by e-mail or username, answers that never tell whether an
 * account exists, the captcha after 5 failures (per account and per address), the
 * throttle, unverified addresses, and e-mail verification with a mailed code.
 *
 * A captcha's answer is only in the image, so the passing-captcha cases insert a
 * captcha row of known answer (insertKnownCaptcha, with the JWT_SECRET this file fixes).
 */
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  createAccountByAdmin,
  expectSameAnswer,
  freshIp,
  insertKnownCaptcha,
  registerAccount,
  uniqueEmail,
  uniqueUsername,
} from "../fakes/accounts";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { TEST_ADMIN } from "../setup/api-client";
import { startTestServer, type TestServer } from "../setup/server";
import { openServerDb, type ServerDb } from "../setup/server-db";

const JWT_SECRET = "login-tests-jwt-secret-0123456789abcdef";

let server: TestServer;
let smtp: FakeSmtp;
let db: ServerDb;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, TRUST_PROXY: "1", JWT_SECRET } });
  db = openServerDb(server.dataDir);
});

afterAll(async () => {
  await db?.close();
  await server?.stop();
  await smtp?.close();
});

/** A live captcha whose answer we know (see the file comment). */
const knownCaptcha = (answer?: string) => insertKnownCaptcha(db, JWT_SECRET, answer);

/** Marks an account's address as not verified (the state before its code is entered). */
const unverify = (id: number) => db.updateTable("users").set({ email_verified: 0 }).where("id", "=", id).execute();

const login = (body: Record<string, unknown>, ip = freshIp()) => client(server.url, ip)("/api/auth/login", { body });

describe("POST /api/auth/login", () => {
  it("logs in by e-mail: token === accessToken, refreshToken and the user", async () => {
    const account = await registerAccount(server.url, smtp);
    const ip = freshIp();
    const response = await login({ email: account.email, password: account.password }, ip);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const body = response.body;
    expect(body.success).toBe(true);
    expect(body.accessToken).toEqual(expect.any(String));
    expect(body.token).toBe(body.accessToken);
    expect(body.refreshToken).toEqual(expect.any(String));
    expect(body.user).toMatchObject({
      id: account.id,
      email: account.email,
      username: account.username,
      emailVerified: true,
      is_admin: false,
      roles: [],
      last_login_ip: ip,
    });
    expect(Date.parse(body.user.last_login_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(body)).not.toContain(account.password);
    // the user a client derives from the token (docs/product/storefront.md 3-4)
    expect(decodeJwt(body.accessToken)).toMatchObject({
      sub: String(account.id),
      id: account.id,
      email: account.email,
      username: account.username,
      is_admin: false,
      emailVerified: true,
      roles: [],
    });

    const me = await client(server.url)("/api/users/me", { token: body.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: account.id, last_login_ip: ip });
  });

  it("logs in by username (the e-mail field holds it), in any letter case", async () => {
    const account = await registerAccount(server.url, smtp, { username: uniqueUsername("Mixed") });
    for (const identifier of [account.username, account.username.toLowerCase(), account.email.toUpperCase()]) {
      const response = await login({ email: identifier, password: account.password });
      expect(response.status, identifier).toBe(200);
      expect(response.body.user.id).toBe(account.id);
      expect(response.body.token).toBe(response.body.accessToken);
    }
  });

  it("answers a wrong password with 401 exactly like an unknown account", async () => {
    const account = await registerAccount(server.url, smtp);
    const wrongPassword = await login({ email: account.email, password: "not-the-password" });
    const unknownEmail = await login({ email: uniqueEmail("nobody"), password: "not-the-password" });
    const unknownUsername = await login({ email: uniqueUsername("nobody"), password: "not-the-password" });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body).toMatchObject({ success: false, message: expect.any(String) });
    expect(unknownEmail.status).toBe(401);
    expect(unknownUsername.status).toBe(401);
    expect(unknownEmail.body).toEqual(wrongPassword.body);
    expect(unknownUsername.body).toEqual(wrongPassword.body);
    expect(wrongPassword.body.message).not.toMatch(/not found|no account|does not exist|unknown/i);
  });

  it("refuses missing credentials with 400 naming the fields", async () => {
    const response = await login({});
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false });
    expect(response.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["email", "password"]);
  });

  it("demands a captcha after 5 failures for one account (from any addresses), then accepts a correct one", async () => {
    const account = await registerAccount(server.url, smtp);
    for (let i = 1; i <= 5; i++) {
      const response = await login({ email: account.email, password: `wrong-${i}` });
      expect(response.status, `failure ${i}`).toBe(401);
      expect(Boolean(response.body.requiresCaptcha), `failure ${i}`).toBe(i >= 5);
    }

    // the right password alone is now refused, from a new address too
    const noCaptcha = await login({ email: account.email, password: account.password });
    expect(noCaptcha.status).toBe(400);
    expect(noCaptcha.body).toMatchObject({ success: false, requiresCaptcha: true, message: expect.any(String) });
    expect(noCaptcha.body.accessToken).toBeUndefined();

    // a wrong answer to a real captcha is refused
    const real = await client(server.url)("/api/auth/captcha");
    const wrongAnswer = await login({
      email: account.email,
      password: account.password,
      captchaId: real.body.captchaId,
      captchaText: "zzzzzz",
    });
    expect(wrongAnswer.status).toBe(400);
    expect(wrongAnswer.body).toMatchObject({ success: false, requiresCaptcha: true });

    // a correct answer with the right password passes
    const passed = await login({ email: account.email, password: account.password, ...(await knownCaptcha("ab3cd")) });
    expect(passed.status, JSON.stringify(passed.body)).toBe(200);
    expect(passed.body.token).toBe(passed.body.accessToken);
    expect(passed.body.user.id).toBe(account.id);

    // the success cleared the account's failures: no captcha from a fresh address
    const after = await login({ email: account.email, password: account.password });
    expect(after.status).toBe(200);
  });

  it("refuses an expired captcha", async () => {
    const account = await registerAccount(server.url, smtp);
    for (let i = 1; i <= 5; i++) await login({ email: account.email, password: `wrong-${i}` });
    const captcha = await knownCaptcha("ex9pd");
    await db
      .updateTable("captchas")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", captcha.captchaId)
      .execute();
    const response = await login({ email: account.email, password: account.password, ...captcha });
    expect(response.status).toBe(400);
    expect(response.body.requiresCaptcha).toBe(true);
  });

  it("never throttles successful logins", async () => {
    const account = await registerAccount(server.url, smtp);
    const ip = freshIp();
    for (let i = 1; i <= 25; i++) {
      const response = await login({ email: account.email, password: account.password }, ip);
      expect(response.status, `login ${i}`).toBe(200);
    }
  });

  it("a captcha works once, even when its attempt failed", async () => {
    const account = await registerAccount(server.url, smtp);
    for (let i = 1; i <= 5; i++) await login({ email: account.email, password: `wrong-${i}` });
    const captcha = await knownCaptcha("mn4pq");
    // the captcha is right, the password is not: 401, and the captcha is spent
    const wrongPassword = await login({ email: account.email, password: "still-wrong", ...captcha });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body.requiresCaptcha).toBe(true);
    const reused = await login({ email: account.email, password: account.password, ...captcha });
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ requiresCaptcha: true });
    // a captcha fetched, used once with a wrong answer, is spent as well
    const real = await client(server.url)("/api/auth/captcha");
    await login({ email: account.email, password: account.password, captchaId: real.body.captchaId, captchaText: "wrong" });
    const second = await login({ email: account.email, password: account.password, captchaId: real.body.captchaId, captchaText: "wrong" });
    expect(second.status).toBe(400);
    expect(second.body.requiresCaptcha).toBe(true);
  });

  it("demands a captcha after 5 failures from one address, for every account tried from there", async () => {
    const account = await registerAccount(server.url, smtp);
    const ip = freshIp();
    for (let i = 1; i <= 5; i++) {
      const response = await login({ email: uniqueEmail(`spray${i}`), password: "guess" }, ip);
      expect(response.status).toBe(401);
      expect(Boolean(response.body.requiresCaptcha), `failure ${i}`).toBe(i >= 5);
    }
    const fromThere = await login({ email: account.email, password: account.password }, ip);
    expect(fromThere.status).toBe(400);
    expect(fromThere.body.requiresCaptcha).toBe(true);
    const withCaptcha = await login({ email: account.email, password: account.password, ...(await knownCaptcha()) }, ip);
    expect(withCaptcha.status).toBe(200);
    // the same account from another address needs none
    const elsewhere = await login({ email: account.email, password: account.password });
    expect(elsewhere.status).toBe(200);
  });

  it("throttles an account after many failures (429 in the envelope), captcha or not", async () => {
    const account = await registerAccount(server.url, smtp);
    let failures = 0;
    let throttled: Awaited<ReturnType<typeof login>> | undefined;
    while (!throttled && failures < 100) {
      const response = await login({ email: account.email, password: "wrong-password", ...(failures >= 5 ? await knownCaptcha() : {}) });
      if (response.status === 429) throttled = response;
      else {
        expect(response.status).toBe(401);
        failures += 1;
      }
    }
    expect(throttled, `no 429 after ${failures} failed logins`).toBeDefined();
    expect(failures).toBeGreaterThanOrEqual(5);
    expect(throttled!.body).toMatchObject({ success: false, code: "RATE_LIMITED", message: expect.any(String) });
    // another account is not affected
    const other = await registerAccount(server.url, smtp);
    const otherLogin = await login({ email: other.email, password: other.password });
    expect(otherLogin.status).toBe(200);
  }, 60_000);

  it("answers an unverified address with 403 requiresEmailVerification, only for the right password", async () => {
    const account = await registerAccount(server.url, smtp);
    await unverify(account.id);

    const wrong = await login({ email: account.email, password: "not-the-password" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.requiresEmailVerification).toBeUndefined();

    const right = await login({ email: account.email, password: account.password });
    expect(right.status).toBe(403);
    expect(right.body).toMatchObject({ success: false, requiresEmailVerification: true, message: expect.any(String) });
    expect(right.body.accessToken).toBeUndefined();
    expect(right.body.token).toBeUndefined();
  });

  it("the super admin logs in with the configured credentials", async () => {
    const response = await login({ email: TEST_ADMIN.email, password: TEST_ADMIN.password });
    expect(response.status).toBe(200);
    // roles in the token are role objects, like the user's roles (docs/product/storefront.md 3)
    expect(decodeJwt(response.body.accessToken).roles).toEqual([
      { id: expect.any(Number), name: "super_admin", description: expect.any(String) },
    ]);
    expect(response.body.user).toMatchObject({ email: TEST_ADMIN.email, is_admin: true });
    expect(response.body.user.roles.map((r: { name: string }) => r.name)).toContain("super_admin");
  });
});

describe("POST /api/auth/resend-verification and /api/auth/verify-email", () => {
  it("mails a code to an unverified address; verifying it lets the account log in", async () => {
    const account = await registerAccount(server.url, smtp);
    await unverify(account.id);
    const call = client(server.url, freshIp());

    const since = Date.now();
    const resent = await call("/api/auth/resend-verification", { body: { email: account.email } });
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ success: true, message: expect.any(String) });
    await smtp.waitForMail(account.email, { since });
    const code = smtp.lastCode(account.email);
    expect(code).toMatch(/^\d{6}$/);

    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const refused = await call("/api/auth/verify-email", { body: { email: account.email, code: wrongCode } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false });

    const verified = await call("/api/auth/verify-email", { body: { email: account.email, code } });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body).toMatchObject({ success: true, user: { id: account.id, emailVerified: true } });

    const again = await call("/api/auth/verify-email", { body: { email: account.email, code } });
    expect(again.status).toBe(400);

    const loggedIn = await login({ email: account.email, password: account.password });
    expect(loggedIn.status).toBe(200);
    expect(loggedIn.body.user.emailVerified).toBe(true);
  });

  it("answers the same for an address without an account, and mails nothing there", async () => {
    const unverified = await registerAccount(server.url, smtp);
    await unverify(unverified.id);
    const nobody = uniqueEmail("nobody");
    const since = Date.now();
    const forNobody = await client(server.url, freshIp())("/api/auth/resend-verification", { body: { email: nobody } });
    const forUnverified = await client(server.url, freshIp())("/api/auth/resend-verification", { body: { email: unverified.email } });
    expect(forNobody.status).toBe(200);
    expect(forNobody.body).toEqual(forUnverified.body);
    await smtp.waitForMail(unverified.email, { since });
    expect(smtp.mailTo(nobody)).toHaveLength(0);
  });

  it("answers in the same time whether or not the address waits for verification: the mail goes after the answer", async () => {
    const known = await Promise.all([createAccountByAdmin(server.url), createAccountByAdmin(server.url)]);
    for (const account of known) await unverify(account.id);
    await expectSameAnswer(
      smtp,
      (email) => client(server.url, freshIp())("/api/auth/resend-verification", { body: { email } }),
      [known[0].email, known[1].email],
      () => uniqueEmail("nobody"),
    );
  });

  it("limits resending to one code a minute per address (429)", async () => {
    const account = await registerAccount(server.url, smtp);
    await unverify(account.id);
    const first = await client(server.url, freshIp())("/api/auth/resend-verification", { body: { email: account.email } });
    expect(first.status).toBe(200);
    const second = await client(server.url, freshIp())("/api/auth/resend-verification", { body: { email: account.email } });
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ success: false, code: "RATE_LIMITED" });
  });

  it("a code mailed for another purpose (password reset) does not verify the address", async () => {
    const account = await registerAccount(server.url, smtp);
    await unverify(account.id);
    const since = Date.now();
    expect((await client(server.url, freshIp())("/api/auth/send-reset-code", { body: { email: account.email } })).status).toBe(200);
    await smtp.waitForMail(account.email, { since });
    const resetCode = smtp.lastCode(account.email);
    const response = await client(server.url, freshIp())("/api/auth/verify-email", { body: { email: account.email, code: resetCode } });
    expect(response.status).toBe(400);
    expect((await login({ email: account.email, password: account.password })).status).toBe(403);
  });

  it("refuses a malformed body with 400 naming the fields", async () => {
    const call = client(server.url, freshIp());
    const verify = await call("/api/auth/verify-email", { body: { email: "nope", code: "12" } });
    expect(verify.status).toBe(400);
    expect(verify.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["code", "email"]);
    const resend = await call("/api/auth/resend-verification", { body: {} });
    expect(resend.status).toBe(400);
    expect(resend.body.errors.map((e: { field: string }) => e.field)).toEqual(["email"]);
  });
});
