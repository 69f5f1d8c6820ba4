import type { DB } from "~/lib/db.server";
import type { CodePurpose } from "../../db/schema";

export type StoredCode = {
  id: number;
  codeHash: string;
  userId: number | null;
  attempts: number;
  expiresAt: string;
};

/** Stores a new code and retires the earlier ones of the same address and purpose. */
export async function replaceCode(
  db: DB,
  input: { email: string; purpose: CodePurpose; codeHash: string; userId: number | null; expiresAt: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("verification_codes")
      .set({ consumed_at: new Date().toISOString() })
      .where("email", "=", input.email)
      .where("purpose", "=", input.purpose)
      .where("consumed_at", "is", null)
      .execute();
    await trx
      .insertInto("verification_codes")
      .values({
        email: input.email,
        purpose: input.purpose,
        code_hash: input.codeHash,
        user_id: input.userId,
        expires_at: input.expiresAt,
      })
      .execute();
  });
}

/** The live code (unused, unexpired) of an address and purpose, if any. */
export async function findLiveCode(db: DB, email: string, purpose: CodePurpose): Promise<StoredCode | undefined> {
  const row = await db
    .selectFrom("verification_codes")
    .select(["id", "code_hash", "user_id", "attempts", "expires_at"])
    .where("email", "=", email)
    .where("purpose", "=", purpose)
    .where("consumed_at", "is", null)
    .where("expires_at", ">", new Date().toISOString())
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row && { id: row.id, codeHash: row.code_hash, userId: row.user_id, attempts: row.attempts, expiresAt: row.expires_at };
}

/**
 * Takes one of a code's tries, before it is compared: false when none is left (or the code
 * is used). One conditional update, so guesses sent at the same moment cannot all read
 * "tries left" and get more than `max` between them.
 */
export async function takeAttempt(db: DB, id: number, max: number): Promise<boolean> {
  const result = await db
    .updateTable("verification_codes")
    .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
    .where("id", "=", id)
    .where("consumed_at", "is", null)
    .where("attempts", "<", max)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Consumes a code; true only for the first caller (single use under concurrency). */
export async function consumeCode(db: DB, id: number): Promise<boolean> {
  const result = await db
    .updateTable("verification_codes")
    .set({ consumed_at: new Date().toISOString() })
    .where("id", "=", id)
    .where("consumed_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
