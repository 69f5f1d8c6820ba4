/**
 * The one way a password changes: the user's own change, a reset by e-mail code, an
 * admin's reset and `npm run admin:create`. Each ends what the old password opened.
 */
import { ApiError } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { deleteUserSessions, deleteUserRefreshTokens } from "~/models/session.server";
import { updatePasswordHash, type User } from "~/models/user.server";
import { MESSAGES } from "~/schemas/auth-rules";
import type { UserUpdate } from "../../db/schema";
import { hashPassword } from "./crypto.server";

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
