/**
 * API tokens: short-lived signed access tokens (HS256, JWT_SECRET) and refresh tokens
 * stored hashed, rotated on use, revocable, and limited in age from the first issue:
 * REFRESH_MAX_AGE_ADMIN for users with back-office access, REFRESH_MAX_AGE_USER otherwise.
 */
import { errors, jwtVerify, SignJWT } from "jose";
import { ApiError } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { getEnv } from "~/lib/env.server";
import type { Access } from "~/lib/permissions";
import { findRefreshToken, insertRefreshToken, revokeRefreshToken, deleteUserRefreshTokens } from "~/models/session.server";
import { bumpTokenVersion, findUserById, type User } from "~/models/user.server";
import { MESSAGES } from "~/schemas/auth";
import { randomToken, sha256 } from "./crypto.server";

const secretKey = () => new TextEncoder().encode(getEnv().JWT_SECRET);

export type AccessClaims = {
  sub: string;
  id: number;
  email: string;
  username: string;
  is_admin: boolean;
  emailVerified: boolean;
  /** role objects, as docs/product/storefront.md 3 describes the user "from the session token" */
  roles: Array<{ id: number; name: string; description: string }>;
  tv: number;
};

export async function signAccessToken(user: User, access: Access): Promise<string> {
  const claims: Omit<AccessClaims, "sub"> = {
    id: user.id,
    email: user.email,
    username: user.username,
    is_admin: user.isAdmin,
    emailVerified: user.emailVerified,
    roles: access.roles.map(({ id, name, description }) => ({ id, name, description })),
    tv: user.tokenVersion,
  };
  return new SignJWT({ ...claims, typ: "access" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(String(user.id))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + getEnv().ACCESS_TOKEN_TTL)
    .sign(secretKey());
}

/** Verifies an access token: 401 TOKEN_EXPIRED when expired, 401 INVALID_TOKEN otherwise. */
export async function verifyAccessToken(token: string): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, secretKey(), { algorithms: ["HS256"] });
    if (payload.typ !== "access" || typeof payload.sub !== "string") throw new Error("not an access token");
    return payload as unknown as AccessClaims;
  } catch (error) {
    if (error instanceof errors.JWTExpired) {
      throw new ApiError(401, MESSAGES.tokenExpired, "TOKEN_EXPIRED", undefined, { isExpired: true });
    }
    throw new ApiError(401, MESSAGES.tokenInvalid, "INVALID_TOKEN");
  }
}

const maxAgeSeconds = (access: Access) => (access.hasAdminAccess ? getEnv().REFRESH_MAX_AGE_ADMIN : getEnv().REFRESH_MAX_AGE_USER);

export async function issueRefreshToken(user: User, access: Access, familyIssuedAt = new Date().toISOString()): Promise<string> {
  const token = randomToken(32);
  const expiresAt = new Date(new Date(familyIssuedAt).getTime() + maxAgeSeconds(access) * 1000).toISOString();
  await insertRefreshToken(getDb(), { userId: user.id, tokenHash: sha256(token), familyIssuedAt, expiresAt });
  return token;
}

/**
 * Exchanges a refresh token for a new access token and a new refresh token (the old one
 * is spent). Order matters:
 * 1. A spent token used again means someone else may hold the chain: every refresh token
 *    of the user is revoked and the token version bumped, so access tokens minted from
 *    the stolen chain stop too.
 * 2. The age limit (by the user's current role, from the chain's first issue) is checked
 *    before the token is spent: a client retrying after REFRESH_TOKEN_EXPIRED gets the
 *    same answer again, not a theft alarm that logs out its other devices.
 * 3. Spending the old token and storing the new one happen in one transaction; of two
 *    concurrent uses, one wins.
 */
export async function rotateRefreshToken(
  token: string,
  loadAccess: (user: User) => Promise<Access>,
): Promise<{ user: User; access: Access; accessToken: string; refreshToken: string }> {
  const db = getDb();
  const stored = await findRefreshToken(db, sha256(token));
  if (!stored) throw new ApiError(401, "Invalid refresh token", "INVALID_REFRESH_TOKEN");
  const user = await findUserById(db, stored.user_id);
  if (!user) throw new ApiError(404, MESSAGES.userDeleted, "USER_DELETED");
  if (stored.revoked_at) {
    // every refresh token of the user ends, and so do the access tokens made from them
    await db.transaction().execute(async (trx) => {
      await deleteUserRefreshTokens(trx, user.id);
      await bumpTokenVersion(trx, user.id);
    });
    throw new ApiError(401, "Refresh token already used", "INVALID_REFRESH_TOKEN");
  }
  const access = await loadAccess(user);
  const ageLimit = new Date(stored.family_issued_at).getTime() + maxAgeSeconds(access) * 1000;
  if (Math.min(ageLimit, new Date(stored.expires_at).getTime()) <= Date.now()) {
    throw new ApiError(401, "Refresh token expired", "REFRESH_TOKEN_EXPIRED");
  }
  const refreshToken = randomToken(32);
  const rotated = await db.transaction().execute(async (trx) => {
    if (!(await revokeRefreshToken(trx, stored.id))) return false;
    await insertRefreshToken(trx, {
      userId: user.id,
      tokenHash: sha256(refreshToken),
      familyIssuedAt: stored.family_issued_at,
      expiresAt: new Date(ageLimit).toISOString(),
    });
    return true;
  });
  if (!rotated) throw new ApiError(401, "Refresh token already used", "INVALID_REFRESH_TOKEN");
  return { user, access, accessToken: await signAccessToken(user, access), refreshToken };
}

/** The token part of a login answer: token and accessToken (same value) and refreshToken. */
export async function issueTokenPair(user: User, access: Access) {
  const accessToken = await signAccessToken(user, access);
  return { token: accessToken, accessToken, refreshToken: await issueRefreshToken(user, access) };
}
