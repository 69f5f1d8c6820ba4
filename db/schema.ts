/**
 * The database exactly as SQLite stores it: 0/1 integers for booleans, ISO-8601 text
 * for dates, JSON as text. Models map rows to domain objects; components never see rows.
 */
import type { Generated, Insertable, Selectable, Updateable } from "kysely";

export interface SiteSettingsTable {
  key: string;
  value: string;
  description: string;
  updated_at: Generated<string>;
}

export interface Database {
  site_settings: SiteSettingsTable;
}

export type SiteSettingRow = Selectable<SiteSettingsTable>;
export type NewSiteSetting = Insertable<SiteSettingsTable>;
export type SiteSettingUpdate = Updateable<SiteSettingsTable>;
