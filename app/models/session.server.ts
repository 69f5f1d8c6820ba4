/** Browser sessions and API refresh tokens: rows keyed by the SHA-256 of the secret. */
import type { DB } from "~/lib/db.server";

export async function insertSession(
  db: DB,
  input: { idHash: string; userId: number; expiresAt: string; ip: string | null; userAgent: string | null },
): Promise<void> {
  await db
    .insertInto("sessions")
    .values({
      id: input.idHash,
      user_id: input.userId,
      expires_at: input.expiresAt,
      ip: input.ip,
      user_agent: input.userAgent?.slice(0, 300) ?? null,
    })
    .execute();
}

export async function findSession(db: DB, idHash: string): Promise<{ userId: number; expiresAt: string } | undefined> {
  const row = await db.selectFrom("sessions").select(["user_id", "expires_at"]).where("id", "=", idHash).executeTakeFirst();
  return row && { userId: row.user_id, expiresAt: row.expires_at };
}

export async function deleteSession(db: DB, idHash: string): Promise<void> {
  await db.deleteFrom("sessions").where("id", "=", idHash).execute();
}

/** Ends every session of a user, optionally keeping one. */
export async function deleteUserSessions(db: DB, userId: number, exceptIdHash?: string): Promise<void> {
  let query = db.deleteFrom("sessions").where("user_id", "=", userId);
  if (exceptIdHash) query = query.where("id", "!=", exceptIdHash);
  await query.execute();
}

export async function insertRefreshToken(
  db: DB,
  input: { userId: number; tokenHash: string; familyIssuedAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto("refresh_tokens")
    .values({
      user_id: input.userId,
      token_hash: input.tokenHash,
      family_issued_at: input.familyIssuedAt,
      expires_at: input.expiresAt,
    })
    .execute();
}

export async function findRefreshToken(db: DB, tokenHash: string) {
  return db
    .selectFrom("refresh_tokens")
    .select(["id", "user_id", "family_issued_at", "expires_at", "revoked_at"])
    .where("token_hash", "=", tokenHash)
    .executeTakeFirst();
}

/**
 * Marks a refresh token spent by rotation; true only for the caller that spent it first.
 * A spent token that comes back is the sign of a stolen chain (see rotateRefreshToken).
 */
export async function revokeRefreshToken(db: DB, id: number): Promise<boolean> {
  const result = await db
    .updateTable("refresh_tokens")
    .set({ revoked_at: new Date().toISOString() })
    .where("id", "=", id)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Ends every refresh token of a user (password change or reset, a stolen chain). The rows
 * go: such a token used later is simply unknown, not mistaken for a stolen one.
 */
export async function deleteUserRefreshTokens(db: DB, userId: number): Promise<void> {
  await db.deleteFrom("refresh_tokens").where("user_id", "=", userId).execute();
}

/** Housekeeping: expired sessions, tokens, codes and captchas. */
export async function deleteExpired(db: DB): Promise<void> {
  const now = new Date().toISOString();
  await db.deleteFrom("sessions").where("expires_at", "<", now).execute();
  await db.deleteFrom("refresh_tokens").where("expires_at", "<", now).execute();
  await db.deleteFrom("verification_codes").where("expires_at", "<", now).execute();
  await db.deleteFrom("captchas").where("expires_at", "<", now).execute();
  await db.deleteFrom("rate_limits").where("window_ends_at", "<", Date.now()).execute();
}
