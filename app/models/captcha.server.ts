import type { DB } from "~/lib/db.server";

export async function insertCaptcha(db: DB, input: { id: string; answerHash: string; expiresAt: string }): Promise<void> {
  await db.insertInto("captchas").values({ id: input.id, answer_hash: input.answerHash, expires_at: input.expiresAt }).execute();
}

/** Uses up a captcha (whatever the answer) and returns its stored answer hash if it was live. */
export async function takeCaptcha(db: DB, id: string): Promise<string | undefined> {
  const row = await db
    .updateTable("captchas")
    .set({ used_at: new Date().toISOString() })
    .where("id", "=", id)
    .where("used_at", "is", null)
    .where("expires_at", ">", new Date().toISOString())
    .returning("answer_hash")
    .executeTakeFirst();
  return row?.answer_hash;
}
