/**
 * The one way a password changes: the user's own change, a reset by e-mail code, an
 * admin's reset and `npm run admin:create`. Each ends what the old password opened.
 * And the one check of a signed-in user's current password (before a new password or a
 * new e-mail address).
 */
import { ApiError } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { deleteUserSessions, deleteUserRefreshTokens } from "~/models/session.server";
import { updatePasswordHash, type User } from "~/models/user.server";
import { MESSAGES } from "~/schemas/auth-rules";
import type { UserUpdate } from "../../db/schema";
import { hashPassword, verifyPassword } from "./crypto.server";
import { takeLoginTry, tooManyRequests } from "./rate-limit.server";

/**
 * Proves the account holder by the current password (`hash`: the stored one) before a change
 * only they may make. Each check is a login try of the account (rate-limit.server.ts), so
 * guesses sent together each see the others: a wrong password counts as a failed login (the
 * login form asks for a captcha after 5), and an account with 20 failures in the window
 * answers 429 without a check, here and at login. Wrong: 400 INVALID_PASSWORD naming
 * currentPassword.
 */
export async function checkCurrentPassword(user: User, hash: string, currentPassword: string, ip: string): Promise<void> {
  const loginTry = await takeLoginTry(user.email, ip);
  if (loginTry.before.blockedUntil) {
    await loginTry.settle("uncounted");
    throw tooManyRequests(loginTry.before.blockedUntil);
  }
  const right = await verifyPassword(hash, currentPassword);
  await loginTry.settle(right ? "uncounted" : "failed");
  if (!right) {
    throw new ApiError(400, MESSAGES.currentPasswordWrong, "INVALID_PASSWORD", [
      { field: "currentPassword", message: MESSAGES.currentPasswordWrong },
    ]);
  }
}

/**
 * Sets a new password in one transaction: the new argon2id hash, the token version bumped
 * (older access tokens answer TOKEN_REVOKED), every refresh token revoked and every
 * browser session ended but `keepSessionHash` (the one that made the change, if any).
 * `extra` columns change in the same update (a reset also verifies the e-mail).
 */
export async function setPassword(
  userId: number,
  newPassword: string,
  options: { keepSessionHash?: string; extra?: Omit<UserUpdate, "id" | "password_hash" | "token_version"> } = {},
): Promise<User> {
  const passwordHash = await hashPassword(newPassword);
  const updated = await getDb()
    .transaction()
    .execute(async (trx) => {
      const user = await updatePasswordHash(trx, userId, passwordHash, options.extra);
      if (!user) return undefined;
      await deleteUserSessions(trx, userId, options.keepSessionHash);
      await deleteUserRefreshTokens(trx, userId);
      return user;
    });
  if (!updated) throw new ApiError(404, MESSAGES.userDeleted, "USER_DELETED");
  return updated;
}
