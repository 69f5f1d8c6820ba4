/**
 * API tokens over real HTTP: refresh with rotation and reuse detection, forged or
 * broken access tokens, and password reset by mailed code ending every older token.
 */
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import {
  client,
  createAccountByAdmin,
  expectSameAnswer,
  freshIp,
  pageLogin,
  registerAccount,
  uniqueEmail,
  useServerWithMail,
} from "../fakes/accounts";
import { withServerDb } from "../setup/server-db";

const live = useServerWithMail();

const call = (pathname: string, options: Parameters<ReturnType<typeof client>>[1] = {}) =>
  client(live.server.url, freshIp())(pathname, options);
const me = (token: string) => call("/api/users/me", { token });
const refresh = (refreshToken: unknown) => call("/api/auth/refresh-token", { body: { refreshToken } });

describe("POST /api/auth/refresh-token", () => {
  it("answers a working new accessToken and a new refresh token", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const response = await refresh(account.refreshToken);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ success: true, accessToken: expect.any(String), refreshToken: expect.any(String) });
    expect(response.body.refreshToken).not.toBe(account.refreshToken);
    const check = await me(response.body.accessToken);
    expect(check.status).toBe(200);
    expect(check.body.data.id).toBe(account.id);
    // the rotated token refreshes again
    const next = await refresh(response.body.refreshToken);
    expect(next.status).toBe(200);
  });

  it("rotates: a used refresh token is refused, and that reuse revokes the newer one too", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const first = await refresh(account.refreshToken);
    expect(first.status).toBe(200);
    const reused = await refresh(account.refreshToken);
    expect(reused.status).toBe(401);
    expect(reused.body).toMatchObject({ success: false, message: expect.any(String) });
    // the token handed out by the first rotation is now refused as well
    const descendant = await refresh(first.body.refreshToken);
    expect(descendant.status).toBe(401);
    // logging in again starts a fresh family
    const login = await call("/api/auth/login", { body: { email: account.email, password: account.password } });
    expect((await refresh(login.body.refreshToken)).status).toBe(200);
  });

  it("a reused token also ends the access tokens minted from the stolen chain", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    // someone else uses the refresh token first...
    const stolen = await refresh(account.refreshToken);
    expect(stolen.status).toBe(200);
    expect((await me(stolen.body.accessToken)).status).toBe(200);
    // ...and the owner's client comes back with it: a theft is detected
    const owner = await refresh(account.refreshToken);
    expect(owner.status).toBe(401);
    const afterwards = await me(stolen.body.accessToken);
    expect(afterwards.status).toBe(401);
    expect(afterwards.body.code).toBe("TOKEN_REVOKED");
    // words a spec client takes as "log out" (docs/product/storefront.md 4: isExpired, or "expired" in the message)
    expect(afterwards.body).toMatchObject({ success: false, isExpired: true, message: expect.stringMatching(/expired/) });
    expect((await refresh(stolen.body.refreshToken)).status).toBe(401);
    expect((await me(account.accessToken)).status).toBe(401);
    // the password still works
    const login = await call("/api/auth/login", { body: { email: account.email, password: account.password } });
    expect((await me(login.body.accessToken)).status).toBe(200);
  });

  it("a token revoked by a password change is refused without alarm: other sessions stay", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const changed = await call("/api/users/me/password", {
      method: "PUT",
      token: account.accessToken,
      body: { currentPassword: account.password, newPassword: "second-password" },
    });
    expect(changed.status).toBe(200);
    expect((await refresh(account.refreshToken)).status).toBe(401);
    // the tokens answered by the change keep working
    expect((await me(changed.body.accessToken)).status).toBe(200);
    expect((await refresh(changed.body.refreshToken)).status).toBe(200);
  });

  it("stores refresh tokens hashed", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const rows = await withServerDb(live.server.dataDir, (db) =>
      db.selectFrom("refresh_tokens").selectAll().where("user_id", "=", account.id).execute(),
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(account.refreshToken);
  });

  it("a refresh token is not an access token, nor the other way round", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    expect((await me(account.refreshToken)).status).toBe(401);
    expect((await refresh(account.accessToken)).status).toBe(401);
  });

  it("refuses an unknown token with 401 and a missing one with 400", async () => {
    const unknown = await refresh("a".repeat(43));
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ success: false, message: expect.any(String) });
    const missing = await call("/api/auth/refresh-token", { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).toEqual(["refreshToken"]);
    expect(missing.body.message).toBe("refreshToken is required");
  });
});

describe("access tokens", () => {
  it("refuses forged, altered and malformed bearer tokens with 401 in the envelope", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const [header, payload, signature] = account.accessToken.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    const elevated = Buffer.from(JSON.stringify({ ...claims, sub: "1", id: 1, is_admin: true })).toString("base64url");
    const forged = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(claims.sub)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("not-the-servers-secret-at-all-0123456789"));
    const unsigned = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${payload}.`;
    for (const [name, token] of [
      ["altered payload", `${header}.${elevated}.${signature}`],
      ["other secret", forged],
      ["alg none", unsigned],
      ["garbage", "not-a-token"],
    ]) {
      const response = await me(token);
      expect(response.status, name).toBe(401);
      // "Unauthorized" in the message: a spec client logs out (docs/product/storefront.md 4)
      expect(response.body, name).toMatchObject({
        success: false,
        code: "INVALID_TOKEN",
        message: expect.stringContaining("Unauthorized"),
      });
      expect(response.body.data, name).toBeUndefined();
    }
    expect((await me(account.accessToken)).status).toBe(200);
  });
});

describe("POST /api/auth/send-reset-code and /api/auth/reset-password", () => {
  it("answers the same for an unknown address and mails nothing there", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const nobody = uniqueEmail("nobody");
    const since = Date.now();
    const forNobody = await call("/api/auth/send-reset-code", { body: { email: nobody } });
    const forAccount = await call("/api/auth/send-reset-code", { body: { email: account.email } });
    expect(forNobody.status).toBe(200);
    expect(forAccount.status).toBe(200);
    expect(forNobody.body).toEqual(forAccount.body);
    // the mail to the account arrives; by then a mail to the unknown address would have too
    await live.smtp.waitForMail(account.email, { since });
    expect(live.smtp.lastCode(account.email)).toMatch(/^\d{6}$/);
    expect(live.smtp.mailTo(nobody)).toHaveLength(0);
  });

  it("answers in the same time whether or not the address has an account: the mail goes after the answer, a failing relay never shows", async () => {
    const known = await Promise.all([createAccountByAdmin(live.server.url), createAccountByAdmin(live.server.url)]);
    await expectSameAnswer(
      live.smtp,
      (email) => call("/api/auth/send-reset-code", { body: { email } }),
      [known[0].email, known[1].email],
      () => uniqueEmail("nobody"),
    );
  });

  it("sets a new password with the mailed code and ends every older token", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const other = await call("/api/auth/login", { body: { email: account.email, password: account.password } });
    expect(other.status).toBe(200);
    const browser = await pageLogin(live.server.url, account.email, account.password, freshIp());
    expect((await call("/api/users/me", { cookie: browser })).status).toBe(200);

    const since = Date.now();
    expect((await call("/api/auth/send-reset-code", { body: { email: account.email } })).status).toBe(200);
    await live.smtp.waitForMail(account.email, { since });
    const code = live.smtp.lastCode(account.email);

    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const refused = await call("/api/auth/reset-password", {
      body: { email: account.email, code: wrongCode, newPassword: "brand-new-password" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: { field: string }) => e.field)).toContain("code");

    const reset = await call("/api/auth/reset-password", { body: { email: account.email, code, newPassword: "brand-new-password" } });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body).toMatchObject({ success: true, message: expect.any(String) });

    // the new password works, the old one does not
    const withNew = await call("/api/auth/login", { body: { email: account.email, password: "brand-new-password" } });
    expect(withNew.status).toBe(200);
    const withOld = await call("/api/auth/login", { body: { email: account.email, password: account.password } });
    expect(withOld.status).toBe(401);

    // older refresh tokens and access tokens stop working; the new login's work
    for (const token of [account.refreshToken, other.body.refreshToken]) expect((await refresh(token)).status).toBe(401);
    for (const token of [account.accessToken, other.body.accessToken]) {
      const response = await me(token);
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ success: false });
    }
    expect((await me(withNew.body.accessToken)).status).toBe(200);
    // and every browser session ended
    expect((await call("/api/users/me", { cookie: browser })).status).toBe(401);

    // the code was single use
    const again = await call("/api/auth/reset-password", { body: { email: account.email, code, newPassword: "third-password" } });
    expect(again.status).toBe(400);
  });

  it("refuses a short new password with 400 naming newPassword (the code stays usable)", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    const since = Date.now();
    await call("/api/auth/send-reset-code", { body: { email: account.email } });
    await live.smtp.waitForMail(account.email, { since });
    const code = live.smtp.lastCode(account.email);
    const short = await call("/api/auth/reset-password", { body: { email: account.email, code, newPassword: "12345" } });
    expect(short.status).toBe(400);
    expect(short.body.errors.map((e: { field: string }) => e.field)).toEqual(["newPassword"]);
    const ok = await call("/api/auth/reset-password", { body: { email: account.email, code, newPassword: "123456" } });
    expect(ok.status).toBe(200);
  });

  it("a reset code does not work for another address", async () => {
    const owner = await registerAccount(live.server.url, live.smtp);
    const victim = await registerAccount(live.server.url, live.smtp);
    const since = Date.now();
    await call("/api/auth/send-reset-code", { body: { email: owner.email } });
    await live.smtp.waitForMail(owner.email, { since });
    const code = live.smtp.lastCode(owner.email);
    const response = await call("/api/auth/reset-password", { body: { email: victim.email, code, newPassword: "hijacked-password" } });
    expect(response.status).toBe(400);
    const login = await call("/api/auth/login", { body: { email: victim.email, password: victim.password } });
    expect(login.status).toBe(200);
  });

  it("limits reset codes to one a minute per address (429)", async () => {
    const account = await registerAccount(live.server.url, live.smtp);
    expect((await call("/api/auth/send-reset-code", { body: { email: account.email } })).status).toBe(200);
    const second = await call("/api/auth/send-reset-code", { body: { email: account.email } });
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ success: false, code: "RATE_LIMITED" });
  });
});

describe("Google sign-in without GOOGLE_CLIENT_ID/SECRET", () => {
  it("is not offered: no button on /login, and POST /api/auth/google is refused", async () => {
    const html = await (await fetch(`${live.server.url}/login`)).text();
    expect(html).not.toContain('action="/auth/google"');
    const response = await call("/api/auth/google", { body: { idToken: "eyJhbGciOiJSUzI1NiJ9.e30.c2ln" } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, message: expect.any(String) });
    const start = await fetch(`${live.server.url}/auth/google`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: live.server.url },
      body: "",
    });
    expect(start.status).toBe(302);
    expect(start.headers.get("location")).toMatch(/^\/login(\?|$)/);
  });
});
