/**
 * Registration over real HTTP: the code is mailed through a real SMTP server, code
 * sending is rate limited, codes are single use with 5 attempts, and the captcha
 * endpoint answers an image and an id.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  client,
  createAccountByAdmin,
  expectSameAnswer,
  freshIp,
  insertKnownCaptcha,
  registerAccount,
  uniqueEmail,
  uniqueUsername,
  useServerWithMail,
} from "../fakes/accounts";
import { openServerDb } from "../setup/server-db";

const live = useServerWithMail();

const fieldsOf = (body: { errors?: Array<{ field: string }> }) => (body.errors ?? []).map((e) => e.field);

/** Asks for a registration code and answers it as mailed. */
async function mailedCode(email: string, ip = freshIp()): Promise<string> {
  const since = Date.now();
  const sent = await client(live.server.url, ip)("/api/auth/send-registration-code", { body: { email } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  await live.smtp.waitForMail(email, { since });
  return live.smtp.lastCode(email);
}

describe("POST /api/auth/send-registration-code", () => {
  it("mails a 6-digit code over SMTP (text and HTML bodies)", async () => {
    const email = uniqueEmail("code");
    const since = Date.now();
    const response = await client(live.server.url, freshIp())("/api/auth/send-registration-code", { body: { email } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, message: expect.any(String) });
    expect(JSON.stringify(response.body)).not.toMatch(/\d{6}/); // the code travels by mail only

    const mail = await live.smtp.waitForMail(email, { since });
    expect(mail.to).toEqual([email]);
    const code = live.smtp.lastCode(email);
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.text).toContain(code);
    expect(mail.html).toContain(code);
    expect(mail.html).toMatch(/^<!doctype html>/i);
    // links are absolute, built from PUBLIC_URL (default http://localhost:$PORT)
    expect(mail.text).toContain(`http://localhost:${live.server.port}/`);
  });

  it("refuses a missing or malformed address with 400 naming the field", async () => {
    const call = client(live.server.url, freshIp());
    for (const body of [{}, { email: "" }, { email: "not-an-email" }, { email: 42 }]) {
      const response = await call("/api/auth/send-registration-code", { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ success: false, message: expect.any(String) });
      expect(fieldsOf(response.body)).toContain("email");
    }
  });

  it("answers 429 RATE_LIMITED to a second request for the same address within a minute", async () => {
    const email = uniqueEmail("limit");
    const first = await client(live.server.url, freshIp())("/api/auth/send-registration-code", { body: { email } });
    expect(first.status).toBe(200);
    await live.smtp.waitForMail(email);

    // from another client address too: the limit is per e-mail
    const second = await client(live.server.url, freshIp())("/api/auth/send-registration-code", { body: { email } });
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ success: false, code: "RATE_LIMITED", message: expect.any(String) });
    expect(second.body.message.length).toBeGreaterThan(0);

    // another address is not affected
    const otherEmail = uniqueEmail("limit-other");
    const other = await client(live.server.url, freshIp())("/api/auth/send-registration-code", { body: { email: otherEmail } });
    expect(other.status).toBe(200);
    // and the refused request sent nothing: a code it had queued would have gone out before
    // the later request's (the queue sends account mail in the order it came)
    await live.smtp.waitForMail(otherEmail);
    expect(live.smtp.mailTo(email)).toHaveLength(1);
  });

  it("limits code e-mails per client address too, generously (many people may share one), with a captcha past half", async () => {
    const call = client(live.server.url, freshIp());
    const secrets = JSON.parse(fs.readFileSync(path.join(live.server.dataDir, "secrets.json"), "utf8"));
    const db = openServerDb(live.server.dataDir);
    let accepted = 0;
    const mailed: string[] = [];
    let refused: Awaited<ReturnType<typeof call>> | undefined;
    /** Sends batches of 10 side by side until one is refused; every request under the limit must pass. */
    async function sendUntilRefused(withCaptcha: boolean) {
      refused = undefined;
      while (!refused && accepted < 300) {
        const emails = Array.from({ length: 10 }, (_, i) => uniqueEmail(`ip${accepted + i}`));
        const batch = await Promise.all(
          emails.map(async (email) =>
            call("/api/auth/send-registration-code", {
              body: { email, ...(withCaptcha ? await insertKnownCaptcha(db, secrets.JWT_SECRET) : {}) },
            }),
          ),
        );
        batch.forEach((response, i) => {
          if (response.status === 200) {
            accepted += 1;
            mailed.push(emails[i]);
          } else refused ??= response;
        });
      }
    }
    // half way, the API demands the captcha the registration page shows (same rule)
    await sendUntilRefused(false);
    expect(refused, `no refusal after ${accepted} code e-mails from one address`).toBeDefined();
    expect(refused!.status).toBe(400);
    expect(refused!.body).toMatchObject({ success: false, code: "CAPTCHA_REQUIRED", requiresCaptcha: true });
    expect(accepted).toBeGreaterThanOrEqual(20);
    const wrongCaptcha = await call("/api/auth/send-registration-code", {
      body: { email: uniqueEmail("ip-wrong"), ...(await insertKnownCaptcha(db, secrets.JWT_SECRET, "right")), captchaText: "wrong" },
    });
    expect(wrongCaptcha.status).toBe(400);
    expect(wrongCaptcha.body.requiresCaptcha).toBe(true);
    // with a solved captcha each, sending goes on up to the hourly limit
    await sendUntilRefused(true);
    await db.close();
    expect(refused, `no 429 after ${accepted} code e-mails from one address`).toBeDefined();
    expect(refused!.status).toBe(429);
    expect(refused!.body).toMatchObject({ success: false, code: "RATE_LIMITED", message: expect.any(String) });
    expect(accepted).toBeGreaterThanOrEqual(20);
    // the address stays refused, another one is not
    const again = await call("/api/auth/send-registration-code", { body: { email: uniqueEmail("ip-over") } });
    expect(again.status).toBe(429);
    const elsewhere = await client(live.server.url, freshIp())("/api/auth/send-registration-code", {
      body: { email: uniqueEmail("ip-else") },
    });
    expect(elsewhere.status).toBe(200);
    // every accepted request was really mailed
    for (const email of mailed) await live.smtp.waitForMail(email, { timeoutMs: 30_000 });
  }, 90_000);

  it("answers an address with an account in the same time as a new one: the mail goes after the answer", async () => {
    const known = await Promise.all([createAccountByAdmin(live.server.url), createAccountByAdmin(live.server.url)]);
    await expectSameAnswer(
      live.smtp,
      (email) => client(live.server.url, freshIp())("/api/auth/send-registration-code", { body: { email } }),
      [known[0].email, known[1].email],
      () => uniqueEmail("new"),
    );
  });

  it("answers an address that already has an account exactly like a new one, and mails it no code", async () => {
    const fresh = await client(live.server.url, freshIp())("/api/auth/send-registration-code", { body: { email: uniqueEmail("fresh") } });
    const since = Date.now();
    // the super admin's address has an account and has had no code yet
    const existing = await client(live.server.url, freshIp())("/api/auth/send-registration-code", { body: { email: "admin@example.com" } });
    expect(existing.status).toBe(fresh.status);
    expect(existing.body).toEqual(fresh.body);

    const mail = await live.smtp.waitForMail("admin@example.com", { since });
    expect(mail.text).not.toMatch(/(?<!\d)\d{6}(?!\d)/);
    // so no registration can be made for it
    const attempt = await client(live.server.url, freshIp())("/api/auth/register", {
      body: { username: uniqueUsername(), email: "admin@example.com", password: "secret-password", code: "123456" },
    });
    expect(attempt.status).toBeGreaterThanOrEqual(400);
    expect(attempt.status).toBeLessThan(500);
  });
});

describe("POST /api/auth/register", () => {
  it("creates a verified account with the mailed code: 201, tokens and the user", async () => {
    const email = uniqueEmail("reg");
    const username = uniqueUsername("reg");
    const code = await mailedCode(email);
    const response = await client(live.server.url, freshIp())("/api/auth/register", {
      body: { username, email, password: "secret-password", code },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const body = response.body;
    expect(body.success).toBe(true);
    expect(body.accessToken).toEqual(expect.any(String));
    expect(body.token).toBe(body.accessToken);
    expect(body.refreshToken).toEqual(expect.any(String));
    expect(body.refreshToken).not.toBe(body.accessToken);
    expect(body.user).toMatchObject({ id: expect.any(Number), email, username, emailVerified: true, is_admin: false });
    expect(JSON.stringify(body)).not.toMatch(/password_hash|passwordHash|secret-password/);

    // the token is a working API credential for this user
    const me = await client(live.server.url)("/api/users/me", { token: body.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: body.user.id, email, username, emailVerified: true });

    // and the password logs in
    const login = await client(live.server.url, freshIp())("/api/auth/login", { body: { email, password: "secret-password" } });
    expect(login.status).toBe(200);
  });

  it("refuses a wrong code with 400 naming the code (the right one still works after)", async () => {
    const email = uniqueEmail("wrong");
    const code = await mailedCode(email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const call = client(live.server.url, freshIp());
    const refused = await call("/api/auth/register", {
      body: { username: uniqueUsername(), email, password: "secret-password", code: wrong },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, message: expect.any(String) });
    expect(fieldsOf(refused.body)).toContain("code");

    const accepted = await call("/api/auth/register", { body: { username: uniqueUsername(), email, password: "secret-password", code } });
    expect(accepted.status).toBe(201);
  });

  it("a code works once", async () => {
    const email = uniqueEmail("once");
    const code = await mailedCode(email);
    const call = client(live.server.url, freshIp());
    const first = await call("/api/auth/register", { body: { username: uniqueUsername(), email, password: "secret-password", code } });
    expect(first.status).toBe(201);
    const again = await call("/api/auth/register", { body: { username: uniqueUsername(), email, password: "secret-password", code } });
    expect(again.status).toBe(400);
    expect(fieldsOf(again.body)).toContain("code");
  });

  it("5 wrong attempts use the code up", async () => {
    const email = uniqueEmail("exhaust");
    const code = await mailedCode(email);
    const call = client(live.server.url, freshIp());
    for (let i = 1; i <= 5; i++) {
      const wrong = String((Number(code) + i) % 1_000_000).padStart(6, "0");
      const response = await call("/api/auth/register", {
        body: { username: uniqueUsername(), email, password: "secret-password", code: wrong },
      });
      expect(response.status, `wrong attempt ${i}`).toBe(400);
    }
    const right = await call("/api/auth/register", { body: { username: uniqueUsername(), email, password: "secret-password", code } });
    expect(right.status).toBe(400);
    expect(fieldsOf(right.body)).toContain("code");
  });

  it("a code mailed to one address does not register another", async () => {
    const email = uniqueEmail("owner");
    const code = await mailedCode(email);
    const other = uniqueEmail("thief");
    const response = await client(live.server.url, freshIp())("/api/auth/register", {
      body: { username: uniqueUsername(), email: other, password: "secret-password", code },
    });
    expect(response.status).toBe(400);
  });

  it("refuses a password under 6 characters with 400 naming the field (and keeps the code)", async () => {
    const email = uniqueEmail("short");
    const code = await mailedCode(email);
    const call = client(live.server.url, freshIp());
    const refused = await call("/api/auth/register", { body: { username: uniqueUsername(), email, password: "12345", code } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, message: expect.any(String) });
    expect(fieldsOf(refused.body)).toEqual(["password"]);

    const accepted = await call("/api/auth/register", { body: { username: uniqueUsername(), email, password: "123456", code } });
    expect(accepted.status).toBe(201);
  });

  it("names every missing or malformed field", async () => {
    const response = await client(live.server.url, freshIp())("/api/auth/register", { body: {} });
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body).sort()).toEqual(["code", "email", "password", "username"]);
    const malformed = await client(live.server.url, freshIp())("/api/auth/register", {
      body: { username: "a b<script>", email: "x@y", password: "secret-password", code: "12ab56" },
    });
    expect(malformed.status).toBe(400);
    expect(fieldsOf(malformed.body).sort()).toEqual(["code", "email", "username"]);
  });

  it("stores codes hashed, refuses an expired code, and hashes passwords with argon2id or bcrypt", async () => {
    const db = openServerDb(live.server.dataDir);
    try {
      const email = uniqueEmail("stored");
      const code = await mailedCode(email);
      const rows = await db.selectFrom("verification_codes").selectAll().where("email", "=", email).execute();
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(code);

      // ten minutes later (moved back in the database): the code no longer registers
      await db
        .updateTable("verification_codes")
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where("email", "=", email)
        .execute();
      const late = await client(live.server.url, freshIp())("/api/auth/register", {
        body: { username: uniqueUsername(), email, password: "secret-password", code },
      });
      expect(late.status).toBe(400);
      expect(fieldsOf(late.body)).toContain("code");

      const account = await registerAccount(live.server.url, live.smtp);
      const { password_hash } = await db.selectFrom("users").select("password_hash").where("id", "=", account.id).executeTakeFirstOrThrow();
      expect(password_hash).toMatch(/^\$(argon2id|2[aby])\$/);
      expect(password_hash).not.toContain(account.password);
    } finally {
      await db.close();
    }
  });

  it("refuses a username that is taken (in any letter case) with 409", async () => {
    const existing = await registerAccount(live.server.url, live.smtp, { username: uniqueUsername("Taken") });
    const email = uniqueEmail("dup");
    const code = await mailedCode(email);
    const call = client(live.server.url, freshIp());
    for (const username of [existing.username, existing.username.toUpperCase()]) {
      const response = await call("/api/auth/register", { body: { username, email, password: "secret-password", code } });
      expect(response.status, username).toBe(409);
      expect(response.body).toMatchObject({ success: false, message: expect.any(String) });
      expect(fieldsOf(response.body)).toContain("username");
    }
    // the refusal did not spend the code
    const accepted = await call("/api/auth/register", { body: { username: uniqueUsername(), email, password: "secret-password", code } });
    expect(accepted.status).toBe(201);
  });
});

describe("GET /api/auth/captcha", () => {
  it("limits captchas per client address (30 per 10 minutes), then answers 429", async () => {
    const call = client(live.server.url, freshIp());
    const answers = await Promise.all(Array.from({ length: 30 }, () => call("/api/auth/captcha")));
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    const over = await call("/api/auth/captcha");
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ success: false, code: "RATE_LIMITED" });
    expect((await client(live.server.url, freshIp())("/api/auth/captcha")).status).toBe(200);
  });

  it("answers {captchaId, svg}, a new one each time, never cached", async () => {
    const call = client(live.server.url);
    const first = await call("/api/auth/captcha");
    const second = await call("/api/auth/captcha");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, captchaId: expect.any(String), svg: expect.any(String) });
    expect(first.body.svg.trim()).toMatch(/^<svg[\s\S]*<\/svg>$/);
    expect(first.body.captchaId).not.toBe(second.body.captchaId);
    expect(first.headers.get("cache-control")).toContain("no-store");
  });

  it("is a GET endpoint (405 otherwise)", async () => {
    const response = await client(live.server.url)("/api/auth/captcha", { method: "POST", body: {} });
    expect(response.status).toBe(405);
    expect(response.body).toMatchObject({ success: false });
  });
});
