import { sql, type Kysely } from "kysely";

// Frozen: never edit once landed, never import app code.

const defaults: Array<[key: string, value: string, description: string]> = [
  ["site_name", "QC Finder", "Site name shown in the header and e-mails"],
  ["site_url", "", "Public address of the site, e.g. https://example.com (empty = PUBLIC_URL)"],
  ["site_title", "QC Finder – find and check products from Weidian, Taobao, Tmall and 1688", "Default page title"],
  [
    "site_description",
    "Search products from Weidian, Taobao, Tmall and 1688, compare prices in your currency and check real quality-control photos before you buy through a shopping agent.",
    "Meta description",
  ],
  ["site_keywords", "weidian, taobao, tmall, 1688, qc photos, shopping agent", "Meta keywords (comma separated)"],
  ["robots_txt", "", "robots.txt content (empty = the built-in default that points at the sitemap)"],
  ["google_analytics_code", "", "Analytics tracking code injected into every page (empty = none)"],
  ["ad_banner_enabled", "false", "Show the advertisement banner ('true' or 'false')"],
  ["ad_banner_title", "", "Banner title"],
  ["ad_banner_description", "", "Banner description"],
  ["ad_banner_button_text", "", "Banner button text"],
  ["ad_banner_link", "", "Banner button link (full URL)"],
  ["ad_banner_button_subtext", "", "Text under the button on desktop"],
  ["ad_banner_button_subtext_mobile", "", "Text under the button on mobile"],
  ["ad_banner_logo", "", "Banner logo image path or URL"],
  ["show_external_products", "true", "Show imported (external) products on the storefront ('true' or 'false')"],
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("site_settings")
    .addColumn("key", "text", (col) => col.primaryKey())
    .addColumn("value", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("description", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("updated_at", "text", (col) => col.notNull().defaultTo(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`))
    .execute();

  await db
    .insertInto("site_settings")
    .values(defaults.map(([key, value, description]) => ({ key, value, description })))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("site_settings").execute();
}
