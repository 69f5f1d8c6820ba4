/**
 * Token lifetimes with short settings: ACCESS_TOKEN_TTL=1 gives 401 TOKEN_EXPIRED within
 * seconds, and REFRESH_MAX_AGE_USER=2 ends a regular user's refresh family (measured from
 * its first issue, rotations included) while an admin's follows REFRESH_MAX_AGE_ADMIN.
 * This server runs without TRUST_PROXY, so X-Forwarded-For must be ignored.
 */
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, registerAccount, type TestAccount } from "../fakes/accounts";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { apiLogin, TEST_ADMIN } from "../setup/api-client";
import { startTestServer, type TestServer } from "../setup/server";

let server: TestServer;
let smtp: FakeSmtp;
let user: TestAccount;
let userLogin: { accessToken: string; refreshToken: string };
let rotatedWhileYoung: { status: number; refreshToken?: string };
let adminLogin: { accessToken: string; refreshToken: string };
let loggedInAt: number;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  smtp = await startFakeSmtp();
  server = await startTestServer({
    env: { SMTP_URL: smtp.url, ACCESS_TOKEN_TTL: "1", REFRESH_MAX_AGE_USER: "2", REFRESH_MAX_AGE_ADMIN: "600" },
  });
  user = await registerAccount(server.url, smtp);
  [userLogin, adminLogin] = await Promise.all([
    apiLogin(server.url, user.email, user.password),
    apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password),
  ]);
  // every token below was issued before this moment
  loggedInAt = Date.now();
  // a rotation while the family is young works
  const rotated = await client(server.url)("/api/auth/refresh-token", { body: { refreshToken: userLogin.refreshToken } });
  rotatedWhileYoung = { status: rotated.status, refreshToken: rotated.body?.refreshToken };
  // everything below happens after both the access token and the user's refresh family aged out
  await sleep(Math.max(0, loggedInAt + 2_200 - Date.now()));
});

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

describe("short token lifetimes", () => {
  it("access tokens carry ACCESS_TOKEN_TTL as their lifetime", () => {
    const claims = decodeJwt(userLogin.accessToken);
    expect(claims.exp! - claims.iat!).toBe(1);
  });

  it("an expired access token answers 401 with code TOKEN_EXPIRED", async () => {
    const response = await client(server.url)("/api/users/me", { token: userLogin.accessToken });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ success: false, code: "TOKEN_EXPIRED", message: expect.any(String) });
    const permissions = await client(server.url)("/api/auth/permissions", { token: adminLogin.accessToken });
    expect(permissions.status).toBe(401);
    expect(permissions.body.code).toBe("TOKEN_EXPIRED");
  });

  it("a regular user's refresh token is refused once REFRESH_MAX_AGE_USER has passed since its first issue", async () => {
    expect(rotatedWhileYoung.status).toBe(200);
    const rotated = await client(server.url)("/api/auth/refresh-token", { body: { refreshToken: rotatedWhileYoung.refreshToken } });
    expect(rotated.status).toBe(401);
    expect(rotated.body).toMatchObject({ success: false, message: expect.any(String) });
    expect(rotated.body.accessToken).toBeUndefined();
  });

  it("an admin's refresh token of the same age still works (REFRESH_MAX_AGE_ADMIN)", async () => {
    const response = await client(server.url)("/api/auth/refresh-token", { body: { refreshToken: adminLogin.refreshToken } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.accessToken).toEqual(expect.any(String));
    expect(decodeJwt(response.body.accessToken).email).toBe(TEST_ADMIN.email);
  });

  it("a fresh login works again after expiry", async () => {
    const again = await apiLogin(server.url, user.email, user.password);
    expect(again.accessToken).toEqual(expect.any(String));
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
