/**
 * Unsubscribes: who asked for no more marketing mail, and how.
 */
import type { DB } from "~/lib/db.server";

export async function findUnsubscribe(db: DB, userId: number): Promise<{ createdAt: string } | undefined> {
  const row = await db.selectFrom("email_unsubscribes").select("created_at").where("user_id", "=", userId).executeTakeFirst();
  return row && { createdAt: row.created_at };
}

/** Records an unsubscribe; false when the user had already unsubscribed. */
export async function insertUnsubscribe(db: DB, input: { userId: number; email: string; source: string }): Promise<boolean> {
  const result = await db
    .insertInto("email_unsubscribes")
    .values({ user_id: input.userId, email: input.email, source: input.source })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteUnsubscribe(db: DB, userId: number): Promise<boolean> {
  const result = await db.deleteFrom("email_unsubscribes").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countUnsubscribes(db: DB): Promise<number> {
  const row = await db
    .selectFrom("email_unsubscribes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
