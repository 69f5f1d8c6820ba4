import { sql, type Kysely } from "kysely";

// Frozen: never edit once landed, never import app code.
// More shopping agents' link forms (docs/marketplace-links.md, issue 22): the agents the
// public link converters read that the table did not hold (added hidden: their links are
// read back to items, and an admin shows them on product pages when they choose), and
// further forms of the agents already there (mobile pages, app pages, other paths),
// appended to their read patterns ("platform template" per line).

type NewAgent = {
  name: string;
  weidian?: string;
  taobao?: string;
  "1688"?: string;
  read?: string[];
  referral?: string;
};

const byPlatform = (template: (code: string) => string, codes: { weidian?: string; taobao?: string; "1688"?: string }) => ({
  ...(codes.weidian ? { weidian: template(codes.weidian) } : {}),
  ...(codes.taobao ? { taobao: template(codes.taobao) } : {}),
  ...(codes["1688"] ? { "1688": template(codes["1688"]) } : {}),
});

const readEach = (template: (code: string) => string, codes: { weidian?: string; taobao?: string; "1688"?: string }) =>
  (["weidian", "taobao", "1688"] as const).flatMap((platform) => (codes[platform] ? [`${platform} ${template(codes[platform]!)}`] : []));

const SHOP_TYPES = { weidian: "weidian", taobao: "taobao", "1688": "ali_1688" };
const CHANNELS = { weidian: "weidian", taobao: "taobao", "1688": "1688" };

const NEW_AGENTS: NewAgent[] = [
  {
    name: "LoveGoBuy",
    ...byPlatform((code) => `https://www.lovegobuy.com/product?id={id}&shop_type=${code}`, SHOP_TYPES),
    read: [
      ...readEach((code) => `https://www.lovegobuy.com/product?platform=${code}&goodsId={id}`, CHANNELS),
      ...readEach((code) => `https://www.lovegobuy.com/pc/#/goods/detail?platform=${code}&goodsId={id}`, CHANNELS),
      "1688 https://www.lovegobuy.com/product?id={id}&shop_type=1688",
    ],
    referral: "invite_code",
  },
  {
    name: "Basetao",
    ...byPlatform((code) => `https://www.basetao.com/best-taobao-agent-service/products/agent/${code}/{id}.html`, CHANNELS),
  },
  {
    name: "HubbuyCN",
    weidian: "https://www.hubbuycn.com/product/item?url={url}",
    taobao: "https://www.hubbuycn.com/product/item?url={url}",
    "1688": "https://www.hubbuycn.com/product/item?url={url}",
    read: ["taobao https://www.hubbuycn.com/taobaoID={id}", "weidian https://www.hubbuycn.com/weidianID={id}"],
    referral: "invitation_code",
  },
  {
    name: "Joyagoo",
    ...byPlatform((code) => `https://joyagoo.com/product?id={id}&platform=${code}`, {
      weidian: "WEIDIAN",
      taobao: "TAOBAO",
      "1688": "ALI_1688",
    }),
    read: readEach((code) => `https://joyagoo.com/product/?shop_type=${code}&id={id}`, SHOP_TYPES),
    referral: "ref",
  },
  {
    name: "Ponybuy",
    taobao: "https://www.ponybuy.com/products/1/{id}",
    weidian: "https://www.ponybuy.com/goods?product_id={id}&platform=weidian",
    read: ["taobao https://www.ponybuy.com/goods?product_id={id}&platform=taobao"],
    referral: "inviteCode",
  },
  {
    name: "Loongbuy",
    weidian: "https://www.loongbuy.com/product-details?url={url}",
    taobao: "https://www.loongbuy.com/product-details?url={url}",
    "1688": "https://www.loongbuy.com/product-details?url={url}",
    read: readEach((code) => `https://www.loongbuy.com/product-details?${code}={id}`, CHANNELS),
    referral: "invitecode",
  },
  {
    name: "CNShopper",
    ...byPlatform((code) => `https://cnshopper.com/goods/detail?keyword={id}&platform=${code}`, CHANNELS),
    referral: "invite_id",
  },
  {
    name: "OOTDBuy",
    ...byPlatform((code) => `https://www.ootdbuy.com/goods/details?id={id}&channel=${code}`, CHANNELS),
    referral: "inviteCode",
  },
  {
    name: "Litbuy",
    ...byPlatform((code) => `https://www.litbuy.com/products/details?id={id}&channel=${code}`, CHANNELS),
    read: [...readEach((code) => `https://www.litbuy.com/product/${code}/{id}`, CHANNELS), "1688 https://www.litbuy.com/product/0/{id}"],
    referral: "inviteCode",
  },
  {
    name: "Fansbuy",
    weidian: "https://www.fansbuy.com/item-micro-{id}.html",
    taobao: "https://www.fansbuy.com/item-{id}.html",
    "1688": "https://www.fansbuy.com/item-1688-{id}.html",
  },
  {
    name: "BBDBuy",
    ...byPlatform((code) => `https://www.bbdbuyeu.com/goods/${code}/{id}`, { weidian: "WEIDIAN", taobao: "TAOBAO" }),
  },
  {
    name: "Panglobalbuy",
    ...byPlatform((code) => `https://panglobalbuy.com/#/details?type=${code}&offerId={id}`, { weidian: "3", taobao: "1" }),
    referral: "share_id",
  },
  {
    name: "Sifubuy",
    ...byPlatform((code) => `https://www.sifubuy.com/detail?id={id}&type=${code}`, { weidian: "4", taobao: "2", "1688": "1" }),
    referral: "invite_code",
  },
  {
    name: "Wegobuy",
    ...byPlatform(() => "https://www.wegobuy.com/en/page/buy?from=search-input&url={url}", CHANNELS),
    referral: "partnercode",
  },
];

/** Further forms of the agents the first marketplace migration seeded. */
const MORE_FORMS: Record<string, string[]> = {
  Hoobuy: readEach((code) => `https://www.hoobuy.com/m/product/${code}/{id}`, { weidian: "2", taobao: "1", "1688": "0" }),
  CNFans: readEach((code) => `https://cnfans.com/pages/product/product?id={id}&shoptype=${code}`, SHOP_TYPES),
  Mulebuy: [
    ...readEach((code) => `https://mulebuy.com/pages/product/product?id={id}&shoptype=${code}`, SHOP_TYPES),
    ...readEach((code) => `https://mulebuy.com/product-test/product/?shop_type=${code}&id={id}`, SHOP_TYPES),
  ],
  Oopbuy: [
    ...readEach((code) => `https://www.oopbuy.com/goods/details?id={id}&channel=${code}`, CHANNELS),
    ...readEach((code) => `https://www.oopbuy.com/pages/goods/details?id={id}&channel=${code}`, CHANNELS),
    ...readEach((code) => `https://www.oopbuy.com/product/${code}/{id}`, { weidian: "2", taobao: "taobao", "1688": "1688" }),
  ],
  CSSBuy: ["weidian https://www.cssbuy.com/shop/goodsDetail?type=micro&id={id}"],
  Superbuy: readEach((code) => `https://www.superbuy.com/en/page/buy?platform=${code}&id={id}`, { weidian: "WD", taobao: "TB" }),
};

export async function up(db: Kysely<any>): Promise<void> {
  const last = await db
    .selectFrom("agents")
    .select((eb) => eb.fn.max("sort_order").as("top"))
    .executeTakeFirst();
  let order = Number(last?.top ?? 0);
  for (const agent of NEW_AGENTS) {
    // an admin may have added one of them already: theirs stays
    const exists = await db
      .selectFrom("agents")
      .select("id")
      .where(sql`lower(name)`, "=", agent.name.toLowerCase())
      .executeTakeFirst();
    if (exists) continue;
    order += 10;
    await db
      .insertInto("agents")
      .values({
        name: agent.name,
        template_weidian: agent.weidian ?? null,
        template_taobao: agent.taobao ?? null,
        template_tmall: null,
        template_1688: agent["1688"] ?? null,
        read_patterns: (agent.read ?? []).join("\n"),
        referral_param: agent.referral ?? null,
        referral_code: null,
        enabled: 0,
        sort_order: order,
      })
      .execute();
  }
  for (const [name, lines] of Object.entries(MORE_FORMS)) {
    const row = await db.selectFrom("agents").select(["id", "read_patterns"]).where("name", "=", name).executeTakeFirst();
    if (!row) continue;
    const have = new Set(
      String(row.read_patterns)
        .split("\n")
        .map((line) => line.trim()),
    );
    const added = lines.filter((line) => !have.has(line));
    if (added.length === 0) continue;
    const patterns = [String(row.read_patterns).trim(), ...added].filter(Boolean).join("\n");
    await db.updateTable("agents").set({ read_patterns: patterns }).where("id", "=", row.id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .deleteFrom("agents")
    .where(
      "name",
      "in",
      NEW_AGENTS.map((agent) => agent.name),
    )
    .where("enabled", "=", 0)
    .execute();
}
