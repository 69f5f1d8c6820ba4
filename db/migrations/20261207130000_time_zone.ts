import type { Kysely } from "kysely";

// Frozen: never edit once landed, never import app code.
// The site's time zone (issue 39, docs/decisions/048-shoppers-comparisons.md): scheduled
// times are typed and shown in it when the admin's browser does not say its own.

export async function up(db: Kysely<any>): Promise<void> {
  const known = await db.selectFrom("site_settings").select("key").where("key", "=", "time_zone").executeTakeFirst();
  if (known) return;
  await db
    .insertInto("site_settings")
    .values({
      key: "time_zone",
      value: "UTC",
      description:
        "The site's time zone (IANA, e.g. Asia/Shanghai): scheduled times are typed and shown in it when the browser does not say its own",
    })
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom("site_settings").where("key", "=", "time_zone").execute();
}
