import type { DB } from "~/lib/db.server";
import { SITE_SETTING_KEYS, type SiteSettingKey, type SiteSettings } from "~/schemas/site-settings";

export type SiteSettingEntry = { value: string; description: string };

/** Every known setting as key → value; a missing row reads as "". */
export async function getAllSettings(db: DB): Promise<SiteSettings> {
  const rows = await db.selectFrom("site_settings").select(["key", "value"]).execute();
  const byKey = new Map(rows.map((row) => [row.key, row.value]));
  return Object.fromEntries(SITE_SETTING_KEYS.map((key) => [key, byKey.get(key) ?? ""])) as SiteSettings;
}

/** Every stored setting with its description (admin view). */
export async function getSettingEntries(db: DB): Promise<Record<string, SiteSettingEntry>> {
  const rows = await db.selectFrom("site_settings").select(["key", "value", "description"]).orderBy("key").execute();
  return Object.fromEntries(rows.map((row) => [row.key, { value: row.value, description: row.description }]));
}

/** Upserts the given settings in one transaction; other keys are untouched. */
export async function saveSettings(db: DB, values: Partial<Record<SiteSettingKey, string>>): Promise<void> {
  const entries = Object.entries(values) as Array<[SiteSettingKey, string]>;
  if (entries.length === 0) return;
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    for (const [key, value] of entries) {
      await trx
        .insertInto("site_settings")
        .values({ key, value, description: "", updated_at: now })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: now }))
        .execute();
    }
  });
}
