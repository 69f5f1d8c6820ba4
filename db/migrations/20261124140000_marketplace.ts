import { sql, type Kysely } from "kysely";

// Frozen: never edit once landed, never import app code.
// Marketplace links (docs/decisions/020-marketplace-links.md):
// - agents: the shopping agents a product page links to, with a URL template per
//   marketplace ({id}, {url}, {url2}); data an admin edits, seeded with the common agents'
//   formats of docs/marketplace-links.md (formats drift: that is why they are data);
// - listing_watch / price_history / listing_reports: the re-checks of external products,
//   the prices seen, and shoppers' reports of dead links.

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

type Agent = {
  name: string;
  weidian?: string;
  taobao?: string;
  tmall?: string;
  "1688"?: string;
  /** older link forms, only read back: "platform template" per line */
  read?: string[];
  referral?: string;
};

const shopType = (host: string): Agent => ({
  name: "",
  weidian: `https://${host}/product/?shop_type=weidian&id={id}`,
  taobao: `https://${host}/product/?shop_type=taobao&id={id}`,
  "1688": `https://${host}/product/?shop_type=ali_1688&id={id}`,
  referral: "ref",
});

const cnfansLike = (host: string): Agent => ({
  name: "",
  weidian: `https://${host}/product?id={id}&platform=WEIDIAN`,
  taobao: `https://${host}/product?id={id}&platform=TAOBAO`,
  "1688": `https://${host}/product?id={id}&platform=ALI_1688`,
  read: [
    `weidian https://${host}/product/?shop_type=weidian&id={id}`,
    `taobao https://${host}/product/?shop_type=taobao&id={id}`,
    `1688 https://${host}/product/?shop_type=ali_1688&id={id}`,
  ],
  referral: "ref",
});

const byUrl = (template: string, referral: string): Agent => ({
  name: "",
  weidian: template,
  taobao: template,
  tmall: template,
  "1688": template,
  referral,
});

const numbered = (base: string, codes: { weidian: string; taobao: string; "1688": string }, referral?: string): Agent => ({
  name: "",
  weidian: `${base}/${codes.weidian}/{id}`,
  taobao: `${base}/${codes.taobao}/{id}`,
  "1688": `${base}/${codes["1688"]}/{id}`,
  referral,
});

// docs/marketplace-links.md, in its order
const AGENTS: Agent[] = [
  { ...cnfansLike("cnfans.com"), name: "CNFans" },
  { ...cnfansLike("mulebuy.com"), name: "Mulebuy" },
  { ...byUrl("https://www.kakobuy.com/item/details?url={url}", "affcode"), name: "Kakobuy" },
  { ...numbered("https://www.hoobuy.com/product", { weidian: "2", taobao: "1", "1688": "0" }, "inviteCode"), name: "Hoobuy" },
  { ...byUrl("https://www.superbuy.com/en/page/buy?from=search-input&url={url}", "partnercode"), name: "Superbuy" },
  { ...byUrl("https://www.allchinabuy.com/en/page/buy?from=search-input&url={url}", "partnercode"), name: "AllChinaBuy" },
  { ...byUrl("https://www.sugargoo.com/#/home/productDetail?productLink={url2}", "memberId"), name: "Sugargoo" },
  {
    name: "CSSBuy",
    weidian: "https://www.cssbuy.com/item-micro-{id}.html",
    taobao: "https://www.cssbuy.com/item-{id}.html",
    "1688": "https://www.cssbuy.com/item-1688-{id}.html",
    referral: "promotionCode",
  },
  { ...numbered("https://www.oopbuy.com/product", { weidian: "weidian", taobao: "1", "1688": "0" }, "inviteCode"), name: "Oopbuy" },
  {
    name: "ACBuy",
    weidian: "https://www.acbuy.com/product/?id={id}&source=WD",
    taobao: "https://www.acbuy.com/product/?id={id}&source=TB",
    "1688": "https://www.acbuy.com/product/?id={id}&source=AL",
    referral: "u",
  },
  { ...shopType("joyabuy.com"), name: "Joyabuy" },
  { ...shopType("orientdig.com"), name: "OrientDig" },
  { ...numbered("https://hipobuy.com/product", { weidian: "weidian", taobao: "taobao", "1688": "1688" }), name: "Hipobuy" },
  { ...numbered("https://gtbuy.com/product", { weidian: "2", taobao: "1", "1688": "0" }), name: "GTBuy" },
  { ...numbered("https://usfans.com/product", { weidian: "3", taobao: "2", "1688": "1" }), name: "USFans" },
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("agents")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("template_weidian", "text")
    .addColumn("template_taobao", "text")
    // empty: Tmall items go through the Taobao template (same item id)
    .addColumn("template_tmall", "text")
    .addColumn("template_1688", "text")
    // older link forms read back to items, one "platform template" per line
    .addColumn("read_patterns", "text", (c) => c.notNull().defaultTo(""))
    // the agent's referral parameter (e.g. "ref") and the site's code for it (empty: none added)
    .addColumn("referral_param", "text")
    .addColumn("referral_code", "text")
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("agents_order").on("agents").columns(["enabled", "sort_order", "id"]).execute();
  for (const [index, agent] of AGENTS.entries()) {
    await db
      .insertInto("agents")
      .values({
        name: agent.name,
        template_weidian: agent.weidian ?? null,
        template_taobao: agent.taobao ?? null,
        template_tmall: agent.tmall ?? null,
        template_1688: agent["1688"] ?? null,
        read_patterns: (agent.read ?? []).join("\n"),
        referral_param: agent.referral ?? null,
        referral_code: null,
        sort_order: (index + 1) * 10,
      })
      .execute();
  }

  // one row per external product checked: when, what it answered, how many misses in a row
  await db.schema
    .createTable("listing_watch")
    .addColumn("product_id", "integer", (c) => c.primaryKey().references("products.id").onDelete("cascade"))
    // set before a check starts: a check cut short by a crash is never repeated the same day
    .addColumn("checked_at", "text")
    // ok | unavailable
    .addColumn("status", "text", (c) => c.notNull().defaultTo("ok"))
    .addColumn("misses", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("unavailable_since", "text")
    .addColumn("last_error", "text")
    .execute();
  await db.schema.createIndex("listing_watch_status").on("listing_watch").columns(["status", "product_id"]).execute();

  await db.schema
    .createTable("price_history")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    // CNY × 100
    .addColumn("price_fen", "integer", (c) => c.notNull())
    .addColumn("recorded_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("price_history_product").on("price_history").columns(["product_id", "recorded_at"]).execute();

  await db.schema
    .createTable("listing_reports")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("note", "text")
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("listing_reports_product").on("listing_reports").columns(["product_id", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["listing_reports", "price_history", "listing_watch", "agents"])
    await db.schema.dropTable(table).ifExists().execute();
}
