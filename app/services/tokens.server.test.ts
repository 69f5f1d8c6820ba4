import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { ApiError } from "~/lib/api.server";
import { getEnv } from "~/lib/env.server";
import type { Access } from "~/lib/permissions";
import { getDb } from "~/lib/db.server";
import { insertUser } from "~/models/user.server";
import { issueRefreshToken, rotateRefreshToken, signAccessToken, verifyAccessToken } from "./tokens.server";

const userAccess: Access = { userType: "user", roles: [], directPermissions: [], allPermissions: [], hasAdminAccess: false };

describe("tokens", () => {
  it("sign and verify access tokens carrying the profile", async () => {
    const user = await insertUser(getDb(), { username: "tok1", email: "tok1@example.com", passwordHash: null, emailVerified: true });
    const claims = await verifyAccessToken(await signAccessToken(user, userAccess));
    expect(claims).toMatchObject({ sub: String(user.id), email: "tok1@example.com", username: "tok1", is_admin: false, roles: [] });
  });

  it("answer TOKEN_EXPIRED for an expired token and INVALID_TOKEN for a forged one", async () => {
    const key = new TextEncoder().encode(getEnv().JWT_SECRET);
    const expired = await new SignJWT({ typ: "access", tv: 0 })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("1")
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(key);
    await expect(verifyAccessToken(expired)).rejects.toMatchObject({ status: 401, code: "TOKEN_EXPIRED" });
    const forged = await new SignJWT({ typ: "access", tv: 0 })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("1")
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("x".repeat(40)));
    await expect(verifyAccessToken(forged)).rejects.toMatchObject({ status: 401, code: "INVALID_TOKEN" });
  });

  it("rotate refresh tokens once; reuse revokes the family; age counts from the first issue", async () => {
    const user = await insertUser(getDb(), { username: "tok2", email: "tok2@example.com", passwordHash: null, emailVerified: true });
    const first = await issueRefreshToken(user, userAccess);
    const rotated = await rotateRefreshToken(first, async () => userAccess);
    expect(rotated.refreshToken).not.toBe(first);
    await expect(rotateRefreshToken(first, async () => userAccess)).rejects.toBeInstanceOf(ApiError);
    // the reuse above revoked the rotated token as well
    await expect(rotateRefreshToken(rotated.refreshToken, async () => userAccess)).rejects.toMatchObject({ status: 401 });

    const old = await issueRefreshToken(user, userAccess, new Date(Date.now() - (getEnv().REFRESH_MAX_AGE_USER + 5) * 1000).toISOString());
    await expect(rotateRefreshToken(old, async () => userAccess)).rejects.toMatchObject({ status: 401, code: "REFRESH_TOKEN_EXPIRED" });
  });
});
