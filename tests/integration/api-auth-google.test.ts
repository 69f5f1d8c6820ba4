/**
 * Google sign-in against the fake provider on 127.0.0.1 (GOOGLE_OAUTH_BASE_URL):
 * POST /api/auth/google with ID tokens the fake signs, and the page flow over plain
 * HTTP without a browser (POST /auth/google → provider → callback with the cookies).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, cookieHeader, freshIp, registerAccount, setCookies, uniqueEmail, uniqueUsername } from "../fakes/accounts";
import { randomProfile, startFakeGoogle, type FakeGoogle, type GoogleProfile } from "../fakes/google";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { startTestServer, type TestServer } from "../setup/server";
import { openServerDb, withServerDb, type ServerDb } from "../setup/server-db";

const CLIENT_ID = "test-client-id.apps.googleusercontent.example";
const CLIENT_SECRET = "test-client-secret";

let server: TestServer;
let smtp: FakeSmtp;
let google: FakeGoogle;

beforeAll(async () => {
  [smtp, google] = await Promise.all([startFakeSmtp(), startFakeGoogle({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })]);
  server = await startTestServer({
    env: {
      SMTP_URL: smtp.url,
      TRUST_PROXY: "1",
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
      GOOGLE_OAUTH_BASE_URL: google.url,
    },
  });
});

afterAll(async () => {
  await server?.stop();
  await Promise.all([smtp?.close(), google?.close()]);
});

const call = (pathname: string, options: Parameters<ReturnType<typeof client>>[1] = {}) => client(server.url, freshIp())(pathname, options);
const googleLogin = (idToken: string) => call("/api/auth/google", { body: { idToken } });

/** An account linked to Google with its address not proven, as an older version could leave one; answers its id. */
async function insertGoogleLinked(db: ServerDb, username: string, email: string, googleId: string): Promise<number> {
  const { id } = await db
    .insertInto("users")
    .values({ username, email, password_hash: null, email_verified: 0, google_id: googleId })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

const googleLinkOf = (db: ServerDb, id: number) =>
  db.selectFrom("users").select(["google_id", "email_verified"]).where("id", "=", id).executeTakeFirst();

describe("POST /api/auth/google", () => {
  it("creates an account for a new Google user and answers tokens; the same Google user comes back to it", async () => {
    const profile = randomProfile();
    const response = await googleLogin(await google.signIdToken({ ...profile }));
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const body = response.body;
    expect(body.success).toBe(true);
    expect(body.token).toBe(body.accessToken);
    expect(body.refreshToken).toEqual(expect.any(String));
    expect(body.user).toMatchObject({
      email: profile.email,
      emailVerified: true,
      firstName: profile.given_name,
      lastName: profile.family_name,
      avatar_url: profile.picture,
      is_admin: false,
    });
    expect(body.user.username).toEqual(expect.any(String));

    const me = await call("/api/users/me", { token: body.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(body.user.id);

    const again = await googleLogin(await google.signIdToken({ ...profile }));
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(body.user.id);
  });

  it("links an existing account by a verified Google e-mail", async () => {
    const account = await registerAccount(server.url, smtp);
    const profile = randomProfile({ email: account.email, email_verified: true });
    const response = await googleLogin(await google.signIdToken({ ...profile }));
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.user.id).toBe(account.id);
    // linked by the Google subject from now on, whatever e-mail Google reports later
    const later = await googleLogin(await google.signIdToken({ ...profile, email: `changed-${profile.email}` }));
    expect(later.status).toBe(200);
    expect(later.body.user.id).toBe(account.id);
    // the password still works
    const login = await call("/api/auth/login", { body: { email: account.email, password: account.password } });
    expect(login.status).toBe(200);
  });

  it("an account made by Google has no password to guess: login answers like an unknown account", async () => {
    const profile = randomProfile();
    const created = await googleLogin(await google.signIdToken({ ...profile }));
    expect(created.status).toBe(200);
    const guess = await call("/api/auth/login", { body: { email: profile.email, password: "any-password" } });
    const unknown = await call("/api/auth/login", { body: { email: `nobody-${profile.email}`, password: "any-password" } });
    expect(guess.status).toBe(401);
    expect(guess.body).toEqual(unknown.body);
  });

  it("never links an existing account by an unverified Google e-mail", async () => {
    const account = await registerAccount(server.url, smtp);
    const profile = randomProfile({ email: account.email, email_verified: false });
    const response = await googleLogin(await google.signIdToken({ ...profile }));
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.body).toMatchObject({ success: false, message: expect.any(String) });
    expect(response.body.accessToken).toBeUndefined();
    expect(response.body.token).toBeUndefined();
    // still refused on a second try (no link was made)
    const again = await googleLogin(await google.signIdToken({ ...profile }));
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.body.accessToken).toBeUndefined();
  });

  it("never creates an account, or signs in, through an unverified Google e-mail", async () => {
    const profile = randomProfile({ email_verified: false });
    const response = await googleLogin(await google.signIdToken({ ...profile }));
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      success: false,
      code: "GOOGLE_EMAIL_UNVERIFIED",
      message: expect.stringContaining("Google login failed."),
    });
    expect(response.body.accessToken).toBeUndefined();
    const matching = await withServerDb(server.dataDir, (db) =>
      db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where((eb) => eb.or([eb("email", "=", profile.email!), eb("google_id", "=", profile.sub)]))
        .executeTakeFirstOrThrow(),
    );
    expect(matching).toEqual({ n: 0 });
    // the real owner of the address registers normally afterwards
    const owner = await registerAccount(server.url, smtp, { email: profile.email });
    expect(owner.id).toEqual(expect.any(Number));
  });

  it("an account linked to Google before its address was proven loses the link when the owner resets the password", async () => {
    // the state an older version could leave: an attacker's Google account (subject
    // `attackerSub`) claimed the victim's address unverified and got an account linked to it
    const victimEmail = uniqueEmail("victim");
    const attackerSub = `attacker-${Date.now()}`;
    const db = openServerDb(server.dataDir);
    const victimId = await insertGoogleLinked(db, uniqueUsername("prehijack"), victimEmail, attackerSub);
    // the real owner recovers the address with a reset code
    const since = Date.now();
    expect((await call("/api/auth/send-reset-code", { body: { email: victimEmail } })).status).toBe(200);
    await smtp.waitForMail(victimEmail, { since });
    const reset = await call("/api/auth/reset-password", {
      body: { email: victimEmail, code: smtp.lastCode(victimEmail), newPassword: "owner-password" },
    });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(await googleLinkOf(db, victimId)).toEqual({ google_id: null, email_verified: 1 });
    await db.close();
    // the attacker's Google account, now with a verified address of its own, does not get in
    const attacker = randomProfile({ sub: attackerSub, email: uniqueEmail("attacker"), email_verified: true });
    const attempt = await googleLogin(await google.signIdToken({ ...attacker }));
    expect(attempt.status).toBe(200);
    expect(attempt.body.user.id).not.toBe(victimId);
    expect(attempt.body.user.email).toBe(attacker.email);
    // and the owner logs in with the new password
    expect((await call("/api/auth/login", { body: { email: victimEmail, password: "owner-password" } })).body.user.id).toBe(victimId);
  });

  it("verifying the address by a mailed code also ends a Google link made before", async () => {
    const email = uniqueEmail("unproven");
    const db = openServerDb(server.dataDir);
    const id = await insertGoogleLinked(db, uniqueUsername("unproven"), email, `someone-${Date.now()}`);
    const since = Date.now();
    expect((await call("/api/auth/resend-verification", { body: { email } })).status).toBe(200);
    await smtp.waitForMail(email, { since });
    expect((await call("/api/auth/verify-email", { body: { email, code: smtp.lastCode(email) } })).status).toBe(200);
    expect(await googleLinkOf(db, id)).toEqual({ google_id: null, email_verified: 1 });
    await db.close();
  });

  it.each([
    ["signed by another key", (p: GoogleProfile) => google.signIdToken({ ...p }, { foreignKey: true })],
    ["for another client", (p: GoogleProfile) => google.signIdToken({ ...p, aud: "someone-else.apps.googleusercontent.example" })],
    ["from another issuer", (p: GoogleProfile) => google.signIdToken({ ...p, iss: "https://evil.example" })],
    [
      "expired",
      (p: GoogleProfile) =>
        google.signIdToken({ ...p, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }),
    ],
  ])("refuses an ID token %s with 401", async (_name, make) => {
    const profile = randomProfile();
    const response = await googleLogin(await make(profile));
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ success: false, message: expect.any(String) });
    expect(response.body.accessToken).toBeUndefined();
  });

  it("refuses a missing or malformed token", async () => {
    const missing = await call("/api/auth/google", { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).toEqual(["idToken"]);
    const garbage = await googleLogin("not-a-jwt");
    expect(garbage.status).toBe(401);
  });
});

/** Starts the page flow: POST /auth/google as the login form does. */
async function startFlow(redirectTo = "/profile") {
  const response = await fetch(`${server.url}/auth/google`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
    body: new URLSearchParams({ redirectTo }).toString(),
  });
  return { response, cookies: setCookies(response.headers), location: response.headers.get("location") ?? "" };
}

/** The provider's consent step: GET the authorization URL, answer where it sends the browser back. */
async function consent(authorizationUrl: string): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  expect(response.status).toBe(302);
  return new URL(response.headers.get("location")!);
}

/** The browser coming back to the app's callback (localhost → 127.0.0.1, where the server listens). */
function callback(callbackUrl: URL, cookies: Map<string, string>) {
  const target = new URL(callbackUrl);
  target.hostname = "127.0.0.1";
  return fetch(target, { redirect: "manual", headers: { Cookie: cookieHeader(cookies) } });
}

describe("the Google page flow (/auth/google and its callback)", () => {
  it("login page offers Google sign-in", async () => {
    const html = await (await fetch(`${server.url}/login`)).text();
    expect(html).toMatch(/<form[^>]*action="\/auth\/google"/);
  });

  it("goes to the provider with state and PKCE, comes back with a session cookie 'sid'", async () => {
    const profile = randomProfile();
    google.setNextProfile(profile);
    const start = await startFlow("/profile");
    expect(start.response.status).toBe(302);
    const authorization = new URL(start.location);
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${google.url}/o/oauth2/v2/auth`);
    expect(authorization.searchParams.get("client_id")).toBe(CLIENT_ID);
    expect(authorization.searchParams.get("response_type")).toBe("code");
    expect(authorization.searchParams.get("state")).toEqual(expect.any(String));
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorization.searchParams.get("code_challenge")).toEqual(expect.any(String));
    expect(authorization.searchParams.get("redirect_uri")).toBe(`http://localhost:${server.port}/auth/google/callback`);
    expect(authorization.searchParams.get("scope")?.split(/[ +]/)).toEqual(expect.arrayContaining(["openid", "email", "profile"]));
    // state and PKCE verifier travel in a short-lived HttpOnly cookie (remix-auth-oauth2 names it google_oauth:<id>)
    const stateCookie = start.response.headers.getSetCookie().find((c) => c.startsWith("google_oauth"));
    expect(stateCookie).toMatch(/HttpOnly/i);
    expect(stateCookie).toMatch(/SameSite=Lax/i);

    const back = await consent(start.location);
    expect(back.searchParams.get("state")).toBe(authorization.searchParams.get("state"));
    const tokenCalls = google.calls.filter((c) => c.path === "/token").length;

    const done = await callback(back, start.cookies);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/profile");
    const sid = setCookies(done.headers).get("sid");
    expect(sid).toBeTruthy();
    expect(done.headers.getSetCookie().find((c) => c.startsWith("sid="))).toMatch(/HttpOnly/i);
    // the code was exchanged (with the PKCE verifier) and the profile fetched
    expect(google.calls.filter((c) => c.path === "/token").slice(tokenCalls)).toEqual([{ method: "POST", path: "/token", status: 200 }]);
    expect(google.calls.at(-1)).toEqual({ method: "GET", path: "/oauth2/v3/userinfo", status: 200 });

    const me = await call("/api/users/me", { cookie: `sid=${sid}` });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ email: profile.email, emailVerified: true });
  });

  it("refuses a callback whose state does not match: back to /login, no session, no code exchange", async () => {
    const start = await startFlow();
    const back = await consent(start.location);
    back.searchParams.set("state", "forged-state-value");
    const tokenCalls = google.calls.filter((c) => c.path === "/token").length;

    const done = await callback(back, start.cookies);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toMatch(/^\/login(\?|$)/);
    expect(setCookies(done.headers).get("sid") ?? "").toBe("");
    expect(google.calls.filter((c) => c.path === "/token")).toHaveLength(tokenCalls);
  });

  it("refuses a callback without the state cookie (a link opened in another browser)", async () => {
    const start = await startFlow();
    const back = await consent(start.location);
    const done = await callback(back, new Map());
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toMatch(/^\/login(\?|$)/);
    expect(setCookies(done.headers).get("sid") ?? "").toBe("");
  });

  it("does not sign an unverified Google e-mail into the existing account of that address", async () => {
    const account = await registerAccount(server.url, smtp);
    google.setNextProfile(randomProfile({ email: account.email, email_verified: false }));
    const start = await startFlow();
    const done = await callback(await consent(start.location), start.cookies);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toMatch(/^\/login(\?|$)/);
    expect(setCookies(done.headers).get("sid") ?? "").toBe("");
  });

  it.each(["https://evil.example/steal", "//evil.example", "/\\evil.example"])(
    "never sends the browser off-site afterwards (redirectTo %s)",
    async (redirectTo) => {
      const start = await startFlow(redirectTo);
      const done = await callback(await consent(start.location), start.cookies);
      expect(done.status).toBe(302);
      expect(setCookies(done.headers).get("sid")).toBeTruthy();
      const location = done.headers.get("location") ?? "";
      expect(new URL(location, server.url).origin).toBe(server.url);
      expect(location).toMatch(/^\/(?![/\\])/);
    },
  );

  it("the control endpoint chooses the next profile (for Playwright)", async () => {
    const email = `control-${Date.now()}@gmail.example`;
    const set = await fetch(`${google.url}/__control/next-profile`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, name: "Control Person" }),
    });
    expect(set.status).toBe(200);
    const start = await startFlow("/");
    const done = await callback(await consent(start.location), start.cookies);
    const sid = setCookies(done.headers).get("sid");
    expect(sid).toBeTruthy();
    const me = await call("/api/users/me", { cookie: `sid=${sid}` });
    expect(me.body.data.email).toBe(email);
  });
});
