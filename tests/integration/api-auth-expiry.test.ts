/**
 * Token lifetimes: ACCESS_TOKEN_TTL=1 gives 401 TOKEN_EXPIRED within seconds, and a
 * refresh token's age (measured from the first issue of its chain, rotations included)
 * is checked against REFRESH_MAX_AGE_USER or _ADMIN by the user's role. Chains are aged
 * by moving their first issue back in the server's database, so no test depends on how
 * fast logins run. This server runs without TRUST_PROXY, so X-Forwarded-For is ignored.
 */
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, registerAccount, type TestAccount } from "../fakes/accounts";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { apiLogin, TEST_ADMIN } from "../setup/api-client";
import { startTestServer, type TestServer } from "../setup/server";
import { openServerDb, type ServerDb } from "../setup/server-db";
import { clockPast } from "../setup/wait";

const USER_MAX_AGE = 60;
const ADMIN_MAX_AGE = 600;

let server: TestServer;
let smtp: FakeSmtp;
let db: ServerDb;
let user: TestAccount;
let userLogin: { accessToken: string; refreshToken: string };
let adminLogin: { accessToken: string; refreshToken: string; user: { id: number } };

const refresh = (refreshToken: string) => client(server.url)("/api/auth/refresh-token", { body: { refreshToken } });

/** Moves the first issue of every refresh chain of a user `seconds` into the past. */
async function ageChains(userId: number, seconds: number) {
  await db
    .updateTable("refresh_tokens")
    .set({ family_issued_at: new Date(Date.now() - seconds * 1000).toISOString() })
    .where("user_id", "=", userId)
    .execute();
}

beforeAll(async () => {
  smtp = await startFakeSmtp();
  server = await startTestServer({
    env: {
      SMTP_URL: smtp.url,
      ACCESS_TOKEN_TTL: "1",
      REFRESH_MAX_AGE_USER: String(USER_MAX_AGE),
      REFRESH_MAX_AGE_ADMIN: String(ADMIN_MAX_AGE),
    },
  });
  db = openServerDb(server.dataDir);
  user = await registerAccount(server.url, smtp);
  [userLogin, adminLogin] = await Promise.all([
    apiLogin(server.url, user.email, user.password),
    apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password),
  ]);
});

afterAll(async () => {
  await db?.close();
  await server?.stop();
  await smtp?.close();
});

describe("access tokens", () => {
  it("carry ACCESS_TOKEN_TTL as their lifetime", () => {
    const claims = decodeJwt(userLogin.accessToken);
    expect(claims.exp! - claims.iat!).toBe(1);
  });

  it("answer 401 with code TOKEN_EXPIRED once expired", async () => {
    // expired from the whole second of their `exp` on (the server's clock is this machine's)
    const expiry = Math.max(...[userLogin, adminLogin].map((login) => decodeJwt(login.accessToken).exp! * 1000));
    await clockPast(expiry, "the access tokens' expiry");
    const response = await client(server.url)("/api/users/me", { token: userLogin.accessToken });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ success: false, code: "TOKEN_EXPIRED", message: expect.any(String) });
    const permissions = await client(server.url)("/api/auth/permissions", { token: adminLogin.accessToken });
    expect(permissions.status).toBe(401);
    expect(permissions.body.code).toBe("TOKEN_EXPIRED");
  });
});

describe("refresh token age", () => {
  it("a young chain rotates; a regular user's chain older than REFRESH_MAX_AGE_USER is refused", async () => {
    const young = await refresh(userLogin.refreshToken);
    expect(young.status).toBe(200);
    await ageChains(user.id, USER_MAX_AGE + 5);
    const old = await refresh(young.body.refreshToken);
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject({ success: false, code: "REFRESH_TOKEN_EXPIRED" });
    expect(old.body.accessToken).toBeUndefined();
  });

  it("an admin's chain of the same age still works, until REFRESH_MAX_AGE_ADMIN", async () => {
    await ageChains(adminLogin.user.id, USER_MAX_AGE + 5);
    const response = await refresh(adminLogin.refreshToken);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(decodeJwt(response.body.accessToken).email).toBe(TEST_ADMIN.email);
    await ageChains(adminLogin.user.id, ADMIN_MAX_AGE + 5);
    expect((await refresh(response.body.refreshToken)).body.code).toBe("REFRESH_TOKEN_EXPIRED");
  });

  it("a client retrying after REFRESH_TOKEN_EXPIRED gets the same answer, and the user's other devices stay logged in", async () => {
    const account = await registerAccount(server.url, smtp);
    const deviceA = await apiLogin(server.url, account.email, account.password);
    await ageChains(account.id, USER_MAX_AGE + 5);
    // device B logged in later: its chain is young
    const deviceB = await apiLogin(server.url, account.email, account.password);
    for (let attempt = 0; attempt < 3; attempt++) {
      const retry = await refresh(deviceA.refreshToken);
      expect(retry.status, `attempt ${attempt}`).toBe(401);
      expect(retry.body.code, `attempt ${attempt}`).toBe("REFRESH_TOKEN_EXPIRED");
    }
    // an access token lives ACCESS_TOKEN_TTL=1 s counted in whole seconds (a JWT's exp): one
    // issued late in a second may expire at once, so the refresh is made early in one
    await clockPast(Math.floor(Date.now() / 1000) * 1000 + 999, "the start of the next whole second");
    const other = await refresh(deviceB.refreshToken);
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    expect((await client(server.url)("/api/users/me", { token: other.body.accessToken })).status).toBe(200);
  });

  it("a fresh login works again after expiry", async () => {
    const again = await apiLogin(server.url, user.email, user.password);
    expect((await refresh(again.refreshToken)).status).toBe(200);
  });
});

describe("client address without TRUST_PROXY", () => {
  it("ignores X-Forwarded-For and records the socket address", async () => {
    const response = await client(server.url, "203.0.113.77")("/api/auth/login", {
      body: { email: user.email, password: user.password },
    });
    expect(response.status).toBe(200);
    expect(response.body.user.last_login_ip).toBe("127.0.0.1");
  });
});
