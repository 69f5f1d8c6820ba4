/**
 * The profile API over real HTTP: who am I, permissions, profile edits (a new e-mail needs
 * the current password, or a code sent to the current address of an account without one,
 * and is confirmed by a code mailed to it), password change ending other sessions, avatar upload,
 * 401 without credentials, the session cookie on /api, cross-site refusal and the
 * token of a deleted user.
 */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { client, freshIp, pageLogin, registerAccount, uniqueEmail, uniqueUsername, useServerWithMail } from "../fakes/accounts";
import { apiLogin, TEST_ADMIN } from "../setup/api-client";
import { withServerDb } from "../setup/server-db";

const ALL_PERMISSIONS = [
  "product.create",
  "product.edit",
  "product.delete",
  "blog.create",
  "blog.edit",
  "blog.delete",
  "blog.publish",
  "blog.manage_categories",
  "user.create",
  "user.edit",
  "user.delete",
  "qc.upload",
  "qc.review",
  "qc.approve",
  "qc.reject",
  "qc.delete",
  "qc.manage",
];

const live = useServerWithMail();

const call = (pathname: string, options: Parameters<ReturnType<typeof client>>[1] = {}) =>
  client(live.server.url, freshIp())(pathname, options);
const fieldsOf = (body: { errors?: Array<{ field: string }> }) => (body.errors ?? []).map((e) => e.field);

async function upload(token: string, file: Blob, name: string) {
  const form = new FormData();
  form.append("file", file, name);
  return call("/api/upload/avatar", { token, body: form });
}

describe("authentication on user paths", () => {
  it.each([
    ["GET", "/api/users/me", undefined],
    ["PUT", "/api/users/me", { username: "someone" }],
    ["PUT", "/api/users/me/password", { currentPassword: "x", newPassword: "yyyyyy" }],
    ["GET", "/api/auth/permissions", undefined],
  ] as const)("%s %s without credentials answers 401 'Authentication required'", async (method, pathname, body) => {
    const response = await call(pathname, { method, body });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ success: false, message: "Authentication required" });
  });

  it("POST /api/upload/avatar without credentials answers 401 'Authentication required'", async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#f00" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "a.png");
    const response = await call("/api/upload/avatar", { body: form });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ success: false, message: "Authentication required" });
  });

  it("the session cookie is HttpOnly and SameSite=Lax, and Secure behind https (TRUST_PROXY)", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const sidCookie = async (headers: Record<string, string>) => {
      const response = await fetch(`${live.server.url}/login`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": freshIp(), ...headers },
        body: new URLSearchParams({ email: account.email, password: account.password }).toString(),
      });
      expect(response.status).toBe(302);
      return response.headers.getSetCookie().find((c) => c.startsWith("sid=")) ?? "";
    };
    const plain = await sidCookie({ Origin: live.server.url });
    expect(plain).toMatch(/;\s*HttpOnly/i);
    expect(plain).toMatch(/;\s*SameSite=Lax/i);
    expect(plain).not.toMatch(/;\s*Secure/i);
    const behindHttps = await sidCookie({ "X-Forwarded-Proto": "https" });
    expect(behindHttps).toMatch(/;\s*Secure/i);
  });

  it("every page login starts a new session (never the one the browser brought); logout ends it", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const first = await pageLogin(live.server.url, account.email, account.password, freshIp());
    const response = await fetch(`${live.server.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: live.server.url,
        Cookie: first,
        "X-Forwarded-For": freshIp(),
      },
      body: new URLSearchParams({ email: account.email, password: account.password }).toString(),
    });
    expect(response.status).toBe(302);
    const second = response.headers
      .getSetCookie()
      .find((c) => c.startsWith("sid="))
      ?.split(";")[0];
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);

    const logout = await fetch(`${live.server.url}/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: live.server.url, Cookie: second! },
      body: "",
    });
    expect(logout.status).toBe(302);
    expect(logout.headers.get("location")).toBe("/");
    expect((await call("/api/users/me", { cookie: second! })).status).toBe(401);
  });

  it("the browser session cookie works on /api too", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const cookie = await pageLogin(live.server.url, account.email, account.password, freshIp());
    const response = await call("/api/users/me", { cookie });
    expect(response.status).toBe(200);
    expect(response.body.data.id).toBe(account.id);
  });
});

describe("GET /api/auth/permissions", () => {
  it("a regular user: userType user, no admin access, no permissions", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const response = await call("/api/auth/permissions", { token: account.accessToken });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      userType: "user",
      roles: [],
      directPermissions: [],
      allPermissions: [],
      hasAdminAccess: false,
    });
  });

  it("the super admin: every one of the 17 permissions", async () => {
    const admin = await apiLogin(live.server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const response = await call("/api/auth/permissions", { token: admin.accessToken });
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data.userType).toBe("super_admin");
    expect(data.hasAdminAccess).toBe(true);
    expect([...data.allPermissions].sort()).toEqual([...ALL_PERMISSIONS].sort());
    expect(data.roles.map((r: { name: string }) => r.name)).toContain("super_admin");
    expect(data.roles[0]).toEqual({ id: expect.any(Number), name: expect.any(String), description: expect.any(String) });
    expect(Array.isArray(data.directPermissions)).toBe(true);
  });
});

describe("GET and PUT /api/users/me", () => {
  it("answers the user in data with the fields of the spec", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const response = await call("/api/users/me", { token: account.accessToken });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const data = response.body.data;
    for (const field of [
      "id",
      "email",
      "username",
      "is_admin",
      "emailVerified",
      "roles",
      "avatar_url",
      "phone",
      "created_at",
      "updated_at",
      "last_login_at",
      "last_login_ip",
      "firstName",
      "lastName",
    ]) {
      expect(data, field).toHaveProperty(field);
    }
    expect(data).toMatchObject({
      id: account.id,
      email: account.email,
      username: account.username,
      is_admin: false,
      emailVerified: true,
      roles: [],
    });
    expect(JSON.stringify(data)).not.toMatch(/password|token_version|google_id/i);
  });

  it("a new username answers a new accessToken carrying it", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const username = uniqueUsername("renamed");
    const response = await call("/api/users/me", {
      method: "PUT",
      token: account.accessToken,
      body: { username, phone: "+86 138 0000 0000" },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({ username, phone: "+86 138 0000 0000" });
    expect(response.body.accessToken).toEqual(expect.any(String));
    expect(response.body.accessToken).not.toBe(account.accessToken);
    const claims = JSON.parse(Buffer.from(response.body.accessToken.split(".")[1], "base64url").toString("utf8"));
    expect(claims.username).toBe(username);

    const me = await call("/api/users/me", { token: response.body.accessToken });
    expect(me.body.data).toMatchObject({ username, phone: "+86 138 0000 0000" });
    const login = await call("/api/auth/login", { body: { email: username, password: account.password } });
    expect(login.status).toBe(200);
  });

  it("refuses a username someone else has with 409, and bad values with 400 naming the field", async () => {
    const taken = await registerAccount(live.server.url, live.smtp);
    const account = await registerAccount(live.server.url, live.smtp);
    const duplicate = await call("/api/users/me", {
      method: "PUT",
      token: account.accessToken,
      body: { username: taken.username.toUpperCase() },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ success: false, message: expect.any(String) });
    expect(fieldsOf(duplicate.body)).toContain("username");

    const badPhone = await call("/api/users/me", { method: "PUT", token: account.accessToken, body: { phone: "call me maybe" } });
    expect(badPhone.status).toBe(400);
    expect(fieldsOf(badPhone.body)).toContain("phone");

    const me = await call("/api/users/me", { token: account.accessToken });
    expect(me.body.data).toMatchObject({ username: account.username, phone: null });
  });

  it("a new e-mail (with the current password) waits for the code mailed to it; POST /api/auth/verify-email applies it", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const newEmail = uniqueEmail("moved");
    const since = Date.now();
    const response = await call("/api/users/me", {
      method: "PUT",
      token: account.accessToken,
      body: { email: newEmail, currentPassword: account.password },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.email).toBe(account.email);
    expect(response.body.data.pendingEmail).toBe(newEmail);

    await live.smtp.waitForMail(newEmail, { since });
    const code = live.smtp.lastCode(newEmail);
    // not applied yet: the old address still logs in, the new one does not
    expect((await call("/api/auth/login", { body: { email: newEmail, password: account.password } })).status).toBe(401);

    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    expect((await call("/api/auth/verify-email", { body: { email: newEmail, code: wrong } })).status).toBe(400);
    const verified = await call("/api/auth/verify-email", { token: account.accessToken, body: { email: newEmail, code } });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    // the user who changed the address gets an access token carrying it
    const claims = JSON.parse(Buffer.from(verified.body.accessToken.split(".")[1], "base64url").toString("utf8"));
    expect(claims.email).toBe(newEmail);
    expect(verified.body.token).toBe(verified.body.accessToken);

    const me = await call("/api/users/me", { token: account.accessToken });
    expect(me.body.data).toMatchObject({ email: newEmail, emailVerified: true });
    expect(me.body.data.pendingEmail ?? null).toBeNull();
    expect((await call("/api/auth/login", { body: { email: newEmail, password: account.password } })).status).toBe(200);
    expect((await call("/api/auth/login", { body: { email: account.email, password: account.password } })).status).toBe(401);
  });

  it("answers an address that has an account exactly like a free one; its owner gets a notice, nobody a code", async () => {
    const owner = await registerAccount(live.server.url, live.smtp);
    const [mover, control] = [await registerAccount(live.server.url, live.smtp), await registerAccount(live.server.url, live.smtp)];
    const freeEmail = uniqueEmail("free");
    const since = Date.now();
    const free = await call("/api/users/me", {
      method: "PUT",
      token: control.accessToken,
      body: { email: freeEmail, currentPassword: control.password },
    });
    const taken = await call("/api/users/me", {
      method: "PUT",
      token: mover.accessToken,
      body: { email: owner.email, currentPassword: mover.password },
    });
    expect(taken.status).toBe(free.status);
    expect(taken.status).toBe(200);
    expect(taken.body.message).toBe(free.body.message.replace(freeEmail, owner.email));
    expect(taken.body.data.pendingEmail).toBe(owner.email);
    expect(taken.body.emailVerificationRequired).toBe(true);

    const notice = await live.smtp.waitForMail(owner.email, { since });
    expect(notice.text).not.toMatch(/(?<!\d)\d{6}(?!\d)/);
    expect(notice.text).toContain("Nothing was changed");
    await live.smtp.waitForMail(freeEmail, { since });
    // no code exists for the taken address: a guess changes nothing
    const guess = await call("/api/auth/verify-email", { token: mover.accessToken, body: { email: owner.email, code: "123456" } });
    expect(guess.status).toBe(400);
    expect((await call("/api/users/me", { token: mover.accessToken })).body.data.email).toBe(mover.email);
    expect((await call("/api/users/me", { token: owner.accessToken })).body.data.email).toBe(owner.email);
  });

  it("limits e-mail change codes like every code mail (429), taken addresses included", async () => {
    const owner = await registerAccount(live.server.url, live.smtp);
    const account = await registerAccount(live.server.url, live.smtp);
    const currentPassword = account.password;
    for (const email of [uniqueEmail("again"), owner.email]) {
      const first = await call("/api/users/me", { method: "PUT", token: account.accessToken, body: { email, currentPassword } });
      expect(first.status, email).toBe(200);
      const second = await call("/api/users/me", { method: "PUT", token: account.accessToken, body: { email, currentPassword } });
      expect(second.status, email).toBe(429);
      expect(second.body).toMatchObject({ success: false, code: "RATE_LIMITED" });
    }
  });
});

describe("an e-mail change proves the account holder (a session alone cannot take the account over)", () => {
  const REQUIRED = "Current password is required to change your email";
  const putMe = (token: string, body: Record<string, unknown>) => call("/api/users/me", { method: "PUT", token, body });
  const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

  it("without the current password: 400 naming currentPassword, nothing saved and nobody mailed (a code is no substitute)", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const newEmail = uniqueEmail("takeover");
    const since = Date.now();
    for (const body of [
      { email: newEmail, phone: "+1 555 0100" },
      { email: newEmail, currentPassword: "" },
      { email: newEmail, currentPassword: null },
      { email: newEmail, currentEmailCode: "123456" },
    ]) {
      const response = await putMe(account.accessToken, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body, JSON.stringify(body)).toEqual({
        success: false,
        message: REQUIRED,
        code: "CURRENT_PASSWORD_REQUIRED",
        errors: [{ field: "currentPassword", message: REQUIRED }],
      });
    }
    const me = await call("/api/users/me", { token: account.accessToken });
    expect(me.body.data).toMatchObject({ email: account.email, phone: null });
    expect(me.body.data.pendingEmail ?? null).toBeNull();

    // a change with the password goes out after them: by the time it arrives, none of them mailed anyone
    const control = uniqueEmail("control");
    expect((await putMe(account.accessToken, { email: control, currentPassword: account.password })).status).toBe(200);
    await live.smtp.waitForMail(control, { since });
    expect(live.smtp.mailTo(newEmail)).toEqual([]);
    expect(live.smtp.mailTo(account.email).filter((mail) => mail.receivedAt >= since)).toEqual([]);
  });

  it("a wrong current password: 400 naming currentPassword, counted as a failed login with the password change's (429 once throttled)", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const newEmail = uniqueEmail("guessed");
    const changeWith = (currentPassword: string) => putMe(account.accessToken, { email: newEmail, currentPassword });
    for (let i = 0; i < 5; i++) {
      const wrong = await changeWith("guess-guess");
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ success: false, code: "INVALID_PASSWORD", message: "Current password is incorrect" });
      expect(fieldsOf(wrong.body)).toEqual(["currentPassword"]);
    }
    // the tries were failed logins of the account: the login form now wants the captcha
    const login = await call("/api/auth/login", { body: { email: account.email, password: account.password } });
    expect(login.status).toBe(400);
    expect(login.body.requiresCaptcha).toBe(true);
    // one count with the password change's wrong tries
    for (let i = 5; i < 20; i++) {
      const wrong = await call("/api/users/me/password", {
        method: "PUT",
        token: account.accessToken,
        body: { currentPassword: "guess-guess", newPassword: "another-password" },
      });
      expect(wrong.status, `try ${i + 1}`).toBe(400);
    }
    const blocked = await changeWith("guess-guess");
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ success: false, code: "RATE_LIMITED" });
    expect((await changeWith(account.password)).status).toBe(429);

    const me = await call("/api/users/me", { token: account.accessToken });
    expect(me.body.data.email).toBe(account.email);
    expect(me.body.data.pendingEmail ?? null).toBeNull();
    expect(live.smtp.mailTo(newEmail)).toEqual([]);
  });

  it("other changes need no password: username, phone, and the same address sent back in any case", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const username = uniqueUsername("nopass");
    const response = await putMe(account.accessToken, { username, phone: "12345", email: account.email.toUpperCase() });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.emailVerificationRequired).toBe(false);
    expect(response.body.data).toMatchObject({ username, phone: "12345", email: account.email });
    expect(response.body.data.pendingEmail ?? null).toBeNull();
  });

  it("an account without a password (Google sign-in): a code to the current address first, then the change proceeds with it", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    await withServerDb(live.server.dataDir, (db) =>
      db
        .updateTable("users")
        .set({ password_hash: null, google_id: `google-${account.id}` })
        .where("id", "=", account.id)
        .execute(),
    );
    const newEmail = uniqueEmail("googler");
    const change = (body: Record<string, unknown>) => putMe(account.accessToken, { email: newEmail, ...body });

    let since = Date.now();
    const first = await change({ phone: "+1 555 0100" });
    const sent = `We sent a code to ${account.email}: enter it to change your email.`;
    expect(first.status, JSON.stringify(first.body)).toBe(400);
    expect(first.body).toEqual({
      success: false,
      message: sent,
      code: "CURRENT_EMAIL_CODE_SENT",
      errors: [{ field: "currentEmailCode", message: sent }],
    });
    const mail = await live.smtp.waitForMail(account.email, { since });
    // the mail names the address the account would move to
    expect(mail.text).toContain(newEmail);
    const code = live.smtp.lastCode(account.email);
    let me = await call("/api/users/me", { token: account.accessToken });
    expect(me.body.data).toMatchObject({ email: account.email, phone: null });
    expect(me.body.data.pendingEmail ?? null).toBeNull();
    expect(live.smtp.mailTo(newEmail)).toEqual([]);

    // asking again at once: the code mails' limit (one a minute for the address)
    const again = await change({});
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ success: false, code: "RATE_LIMITED" });

    const wrong = await change({ currentEmailCode: otherCode(code) });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ success: false, code: "INVALID_CODE", message: "Invalid or expired verification code" });
    expect(fieldsOf(wrong.body)).toEqual(["currentEmailCode"]);
    const malformed = await change({ currentEmailCode: "12ab" });
    expect(malformed.status).toBe(400);
    expect(fieldsOf(malformed.body)).toEqual(["currentEmailCode"]);

    since = Date.now();
    const right = await change({ currentEmailCode: code, phone: "+1 555 0100" });
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(right.body.emailVerificationRequired).toBe(true);
    expect(right.body.data).toMatchObject({ email: account.email, pendingEmail: newEmail, phone: "+1 555 0100" });
    // the code works once
    const reused = await putMe(account.accessToken, { email: uniqueEmail("again"), currentEmailCode: code });
    expect(reused.status).toBe(400);
    expect(fieldsOf(reused.body)).toEqual(["currentEmailCode"]);

    // from here as for every account: the new address's own code applies it
    await live.smtp.waitForMail(newEmail, { since });
    const verified = await call("/api/auth/verify-email", {
      token: account.accessToken,
      body: { email: newEmail, code: live.smtp.lastCode(newEmail) },
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    me = await call("/api/users/me", { token: verified.body.accessToken });
    expect(me.body.data).toMatchObject({ email: newEmail, emailVerified: true });
  });

  it("the profile page's form asks the same: no password or a wrong one changes nothing (and is not sent back); the right one starts the change", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const cookie = await pageLogin(live.server.url, account.email, account.password, freshIp());
    const newEmail = uniqueEmail("paged");
    const post = (fields: Record<string, string>) =>
      fetch(`${live.server.url}/profile`, {
        method: "POST",
        redirect: "manual",
        headers: {
          Cookie: cookie,
          Origin: live.server.url,
          "Content-Type": "application/x-www-form-urlencoded",
          "X-Forwarded-For": freshIp(),
        },
        body: new URLSearchParams({ intent: "profile", username: account.username, email: newEmail, phone: "", ...fields }).toString(),
      });
    const missing = await post({});
    expect(missing.status).toBe(200);
    const missingPage = await missing.text();
    expect(missingPage).toContain(REQUIRED);
    // the address typed is kept in the form
    expect(missingPage).toContain(`value="${newEmail}"`);

    const wrong = await post({ currentPassword: "not-the-password-123" });
    const wrongPage = await wrong.text();
    expect(wrongPage).toContain("Current password is incorrect");
    expect(wrongPage).not.toContain("not-the-password-123");
    expect((await call("/api/users/me", { token: account.accessToken })).body.data.pendingEmail ?? null).toBeNull();

    const right = await post({ currentPassword: account.password });
    expect(right.status).toBe(302);
    expect(right.headers.get("location")).toBe("/profile");
    expect((await call("/api/users/me", { token: account.accessToken })).body.data.pendingEmail).toBe(newEmail);
  });
});

describe("limits per account, whatever the address", () => {
  it("an account starts at most 5 e-mail changes an hour (each mails a stranger a code), from any number of addresses", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const currentPassword = account.password;
    for (let n = 1; n <= 5; n++) {
      const response = await call("/api/users/me", {
        method: "PUT",
        token: account.accessToken,
        body: { email: uniqueEmail(`move${n}`), currentPassword },
      });
      expect(response.status, `change ${n}`).toBe(200);
    }
    const sixth = await call("/api/users/me", {
      method: "PUT",
      token: account.accessToken,
      body: { email: uniqueEmail("move6"), currentPassword },
    });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toMatchObject({ success: false, code: "RATE_LIMITED" });
  });

  it("a user uploads at most 10 avatar images an hour", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 10, g: 120, b: 40 } } })
      .png()
      .toBuffer();
    for (let n = 1; n <= 10; n++) {
      const response = await upload(account.accessToken, new Blob([new Uint8Array(png)], { type: "image/png" }), `me-${n}.png`);
      expect(response.status, `upload ${n}`).toBe(201);
    }
    const eleventh = await upload(account.accessToken, new Blob([new Uint8Array(png)], { type: "image/png" }), "me-11.png");
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toMatchObject({ success: false, code: "RATE_LIMITED" });
  });
});

describe("PUT /api/users/me/password", () => {
  it("refuses a wrong current password (400) and a short new one (400), naming the field", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const wrong = await call("/api/users/me/password", {
      method: "PUT",
      token: account.accessToken,
      body: { currentPassword: "not-my-password", newPassword: "another-password" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ success: false, message: expect.any(String) });
    expect(fieldsOf(wrong.body)).toContain("currentPassword");

    const short = await call("/api/users/me/password", {
      method: "PUT",
      token: account.accessToken,
      body: { currentPassword: account.password, newPassword: "12345" },
    });
    expect(short.status).toBe(400);
    expect(fieldsOf(short.body)).toEqual(["newPassword"]);
    // nothing changed
    expect((await call("/api/auth/login", { body: { email: account.email, password: account.password } })).status).toBe(200);
  });

  it("counts wrong current passwords as failed logins of the account: captcha at login after 5, 429 after 20", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const attempt = () =>
      call("/api/users/me/password", {
        method: "PUT",
        token: account.accessToken,
        body: { currentPassword: "guess-guess", newPassword: "another-password" },
      });
    for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(400);
    const login = await call("/api/auth/login", { body: { email: account.email, password: account.password } });
    expect(login.status).toBe(400);
    expect(login.body.requiresCaptcha).toBe(true);
    for (let i = 5; i < 20; i++) expect((await attempt()).status, `attempt ${i + 1}`).toBe(400);
    const blocked = await attempt();
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ success: false, code: "RATE_LIMITED" });
    // even the right password waits now: guessing is over for the window
    const right = await call("/api/users/me/password", {
      method: "PUT",
      token: account.accessToken,
      body: { currentPassword: account.password, newPassword: "another-password" },
    });
    expect(right.status).toBe(429);
  });

  it("changes the password and ends every other session and token (the session that changed it stays)", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const otherLogin = await apiLogin(live.server.url, account.email, account.password);
    const otherBrowser = await pageLogin(live.server.url, account.email, account.password, freshIp());
    const thisBrowser = await pageLogin(live.server.url, account.email, account.password, freshIp());

    const response = await call("/api/users/me/password", {
      method: "PUT",
      cookie: thisBrowser,
      headers: { Origin: live.server.url },
      body: { currentPassword: account.password, newPassword: "changed-password" },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.success).toBe(true);

    expect((await call("/api/users/me", { cookie: thisBrowser })).status).toBe(200);
    expect((await call("/api/users/me", { cookie: otherBrowser })).status).toBe(401);
    for (const token of [account.accessToken, otherLogin.accessToken]) {
      const me = await call("/api/users/me", { token });
      expect(me.status).toBe(401);
      expect(me.body.success).toBe(false);
    }
    for (const refreshToken of [account.refreshToken, otherLogin.refreshToken]) {
      expect((await call("/api/auth/refresh-token", { body: { refreshToken } })).status).toBe(401);
    }
    expect((await call("/api/auth/login", { body: { email: account.email, password: account.password } })).status).toBe(401);
    const login = await call("/api/auth/login", { body: { email: account.email, password: "changed-password" } });
    expect(login.status).toBe(200);
    expect((await call("/api/users/me", { token: login.body.accessToken })).status).toBe(200);
  });
});

describe("POST /api/upload/avatar", () => {
  it("stores a real image re-encoded as WebP under /uploads/avatars/ (201 {url}); PUT /api/users/me sets it", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 40, b: 40 } } })
      .png()
      .toBuffer();
    const response = await upload(account.accessToken, new Blob([new Uint8Array(png)], { type: "image/png" }), "me.png");
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.success).toBe(true);
    const url: string = response.body.url;
    expect(url).toMatch(/^\/uploads\/avatars\/.+\.webp$/);
    expect(url).not.toContain("me.png");

    const served = await fetch(`${live.server.url}${url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta.format).toBe("webp");
    expect(Math.max(meta.width!, meta.height!)).toBeLessThan(640); // resized, not just re-wrapped

    const updated = await call("/api/users/me", { method: "PUT", token: account.accessToken, body: { avatarUrl: url } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.avatar_url).toBe(url);
  });

  it("accepts the caller's upload by its absolute address on this site (stored as the path); other sites stay refused", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 10, g: 90, b: 200 } } })
      .png()
      .toBuffer();
    const { body } = await upload(account.accessToken, new Blob([new Uint8Array(png)], { type: "image/png" }), "abs.png");
    const url: string = body.url;
    const outside = await call("/api/users/me", {
      method: "PUT",
      token: account.accessToken,
      body: { avatarUrl: `https://elsewhere.example${url}` },
    });
    expect(outside.status).toBe(400);
    // PUBLIC_URL is unset: http://localhost:<port>
    const site = `http://localhost:${live.server.port}`;
    const absolute = await call("/api/users/me", { method: "PUT", token: account.accessToken, body: { avatarUrl: `${site}${url}` } });
    expect(absolute.status, JSON.stringify(absolute.body)).toBe(200);
    expect(absolute.body.data.avatar_url).toBe(url);
    // sent back the same way again: no change, no error
    const again = await call("/api/users/me", { method: "PUT", token: account.accessToken, body: { avatarUrl: `${site}${url}` } });
    expect(again.status).toBe(200);
    expect(again.body.data.avatar_url).toBe(url);
  });

  it("refuses a file that is not an image with 400 'Please select an image file', whatever its name or type", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    for (const [name, type] of [
      ["notes.txt", "text/plain"],
      ["fake.png", "image/png"],
    ]) {
      const response = await upload(account.accessToken, new Blob(["just some text, not pixels"], { type }), name);
      expect(response.status, name).toBe(400);
      expect(response.body, name).toMatchObject({ success: false, message: "Please select an image file" });
    }
    const empty = await call("/api/upload/avatar", { token: account.accessToken, body: new FormData() });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe("Please select an image file");
  });

  it("refuses more than 5 MB with 413 'Image size cannot exceed 5MB'", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const big = new Uint8Array(5 * 1024 * 1024 + 1024);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const response = await upload(account.accessToken, new Blob([big], { type: "image/png" }), "big.png");
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ success: false, message: "Image size cannot exceed 5MB" });
  });
});

describe("avatars are files the server issued to their user", () => {
  const pngOf = (color: string, width = 64) =>
    sharp({ create: { width, height: width, channels: 3, background: color } })
      .png()
      .toBuffer();
  const pngBlob = async (color: string) => new Blob([new Uint8Array(await pngOf(color))], { type: "image/png" });
  const status = async (url: string) => (await fetch(`${live.server.url}${url}`)).status;

  async function withAvatar(color: string) {
    const account = await registerAccount(live.server.url, live.smtp);
    const uploaded = await upload(account.accessToken, await pngBlob(color), "a.png");
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const set = await call("/api/users/me", { method: "PUT", token: account.accessToken, body: { avatarUrl: uploaded.body.url } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    return { account, url: uploaded.body.url as string };
  }

  it("refuses any avatarUrl but the caller's own uploads (400 naming avatarUrl), and deletes no one else's file", async () => {
    const victim = await withAvatar("#0a0");
    const attacker = await withAvatar("#a00");
    const [, , kind, month, name] = victim.url.split("/");
    for (const avatarUrl of [
      `/uploads/${kind}/../${kind}/${month}/${name}`,
      `/uploads/avatars/${month}/../${month}/${name}`,
      victim.url,
      "/uploads/avatars",
      `/uploads/avatars/${month}`,
      "/uploads/avatars/2026-11/not-issued.webp",
      "https://evil.example/pixel.png",
      "//evil.example/pixel.png",
      "javascript:alert(1)",
    ]) {
      const response = await call("/api/users/me", { method: "PUT", token: attacker.account.accessToken, body: { avatarUrl } });
      expect(response.status, avatarUrl).toBe(400);
      expect(response.body, avatarUrl).toMatchObject({ success: false, message: "The avatar must be an image uploaded to this site" });
      expect(fieldsOf(response.body)).toEqual(["avatarUrl"]);
    }
    // the attacker replaces their own avatar twice: their old files go, the victim's stays
    const second = await upload(attacker.account.accessToken, await pngBlob("#00a"), "b.png");
    const replaced = await call("/api/users/me", {
      method: "PUT",
      token: attacker.account.accessToken,
      body: { avatarUrl: second.body.url },
    });
    expect(replaced.status).toBe(200);
    expect(await status(attacker.url)).toBe(404);
    expect(await status(second.body.url)).toBe(200);
    expect(await status(victim.url)).toBe(200);
    const me = await call("/api/users/me", { token: victim.account.accessToken });
    expect(me.body.data.avatar_url).toBe(victim.url);
  });

  it("accepts the current avatar sent back unchanged, and an empty value removes the avatar (and its file)", async () => {
    const { account, url } = await withAvatar("#0aa");
    const same = await call("/api/users/me", { method: "PUT", token: account.accessToken, body: { avatarUrl: url, phone: "555" } });
    expect(same.status).toBe(200);
    expect(same.body.data.avatar_url).toBe(url);
    expect(await status(url)).toBe(200);
    const removed = await call("/api/users/me", { method: "PUT", token: account.accessToken, body: { avatarUrl: "" } });
    expect(removed.status).toBe(200);
    expect(removed.body.data.avatar_url).toBeNull();
    expect(await status(url)).toBe(404);
  });

  it("the profile page replaces the avatar through the same rules: the old file is deleted", async () => {
    const { account, url } = await withAvatar("#aa0");
    const cookie = await pageLogin(live.server.url, account.email, account.password, freshIp());
    const form = new FormData();
    form.append("avatar", await pngBlob("#a0a"), "new.png");
    const response = await fetch(`${live.server.url}/profile`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, Origin: live.server.url },
      body: form,
    });
    expect(response.status).toBe(302);
    const me = await call("/api/users/me", { token: account.accessToken });
    expect(me.body.data.avatar_url).toMatch(/^\/uploads\/avatars\/\d{4}-\d{2}\/[0-9a-f-]{36}\.webp$/);
    expect(me.body.data.avatar_url).not.toBe(url);
    expect(await status(me.body.data.avatar_url)).toBe(200);
    expect(await status(url)).toBe(404);
  });

  it("an upload becomes the avatar only when set, and only one file is taken per upload", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const uploaded = await upload(account.accessToken, await pngBlob("#555"), "a.png");
    expect(uploaded.status).toBe(201);
    expect((await call("/api/users/me", { token: account.accessToken })).body.data.avatar_url).toBeNull();
    const two = new FormData();
    two.append("file", await pngBlob("#111"), "1.png");
    two.append("file", await pngBlob("#222"), "2.png");
    const refused = await call("/api/upload/avatar", { token: account.accessToken, body: two });
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ success: false, message: "Please select a single image file" });
    const fields = new FormData();
    for (let i = 0; i < 100; i++) fields.append(`f${i}`, "x");
    const tooManyFields = await call("/api/upload/avatar", { token: account.accessToken, body: fields });
    expect(tooManyFields.status).toBe(413);
  });

  it("an admin sets only avatars uploaded by the user or by the admin: no outside URLs", async () => {
    const admin = await apiLogin(live.server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const other = await withAvatar("#0f0");
    const account = await registerAccount(live.server.url, live.smtp);
    const outside = await call(`/api/admin/users/${account.id}`, {
      method: "PUT",
      token: admin.accessToken,
      body: { avatar_url: "https://evil.example/a.png" },
    });
    expect(outside.status).toBe(400);
    expect(fieldsOf(outside.body)).toEqual(["avatar_url"]);
    const someoneElses = await call(`/api/admin/users/${account.id}`, {
      method: "PUT",
      token: admin.accessToken,
      body: { avatar_url: other.url },
    });
    expect(someoneElses.status).toBe(400);
    const byAdmin = await upload(admin.accessToken, await pngBlob("#f0f"), "for-user.png");
    const set = await call(`/api/admin/users/${account.id}`, {
      method: "PUT",
      token: admin.accessToken,
      body: { avatar_url: byAdmin.body.url },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data.avatar_url).toBe(byAdmin.body.url);
    // it now belongs to the user: their next avatar replaces (and deletes) it
    const next = await upload(account.accessToken, await pngBlob("#ff0"), "mine.png");
    expect((await call("/api/users/me", { method: "PUT", token: account.accessToken, body: { avatarUrl: next.body.url } })).status).toBe(
      200,
    );
    expect(await status(byAdmin.body.url)).toBe(404);
  });
});

describe("cross-site requests", () => {
  it("refuses a cross-site POST/PUT that carries the session cookie (403), and changes nothing", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const cookie = await pageLogin(live.server.url, account.email, account.password, freshIp());
    const evil = await call("/api/users/me", {
      method: "PUT",
      cookie,
      headers: { Origin: "https://evil.example" },
      body: { username: uniqueUsername("pwned") },
    });
    expect(evil.status).toBe(403);
    expect(evil.body).toMatchObject({ success: false, message: expect.any(String) });

    const bySecFetch = await call("/api/users/me/password", {
      method: "PUT",
      cookie,
      headers: { "Sec-Fetch-Site": "cross-site" },
      body: { currentPassword: account.password, newPassword: "attacker-password" },
    });
    expect(bySecFetch.status).toBe(403);

    const logout = await fetch(`${live.server.url}/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(logout.status).toBe(403);

    const me = await call("/api/users/me", { cookie });
    expect(me.status).toBe(200);
    expect(me.body.data.username).toBe(account.username);

    // the same request from the site itself passes
    const own = await call("/api/users/me", { method: "PUT", cookie, headers: { Origin: live.server.url }, body: { phone: "12345" } });
    expect(own.status).toBe(200);
    expect(own.body.data.phone).toBe("12345");
  });
});

describe("a deleted user's token", () => {
  it("answers 404 'User account deleted' on user paths", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const admin = await apiLogin(live.server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const deleted = await call(`/api/admin/users/${account.id}`, { method: "DELETE", token: admin.accessToken });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);

    for (const pathname of ["/api/users/me", "/api/auth/permissions"]) {
      const response = await call(pathname, { token: account.accessToken });
      expect(response.status, pathname).toBe(404);
      expect(response.body, pathname).toMatchObject({ success: false, message: "User account deleted" });
    }
    const refreshed = await call("/api/auth/refresh-token", { body: { refreshToken: account.refreshToken } });
    expect(refreshed.status).toBeGreaterThanOrEqual(401);
    expect(refreshed.body.accessToken).toBeUndefined();
  });
});
