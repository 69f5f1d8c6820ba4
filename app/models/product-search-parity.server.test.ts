/**
 * The product search gives the same answers on both engines (PostgreSQL runs only;
 * docs/decisions/030-postgresql.md): the same 1,500 products written into a SQLite
 * database and into PostgreSQL, then 200 searches (English words of 3+ letters, Chinese
 * terms of 1–2 and 3+ characters, two-term searches, shop and category names) compared:
 * the same matches counted, and the same first ten in relevance order, for at least 95 %
 * of them (ties in bm25 broken by id on both), and the same pages in every other sort,
 * also for searches of more matches than are counted.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, type DB } from "~/lib/db.server";
import { createKysely, openSqlite } from "../../db/connection";
import { migrateToLatest } from "../../db/migrate";
import { TMP_ROOT } from "../../tests/setup/paths";
import { searchProducts, splitTerms, type ProductSort } from "./product.server";

const BRANDS = ["Nike", "Adidas", "耐克", "阿迪达斯", "New Balance", "Stussy", "Carhartt", "北面", "The North Face", "Arc'teryx"];
const ITEMS = ["hoodie", "jacket", "外套", "卫衣", "sneakers", "运动鞋", "cargo pants", "T恤", "tee", "beanie", "羽绒服", "down jacket"];
const COLOURS = ["black", "white", "黑色", "白色", "olive", "navy", "grey", "灰色", "red", "cream"];
const DETAILS = [
  "heavyweight cotton",
  "oversized fit",
  "重磅",
  "reflective logo",
  "fleece lined",
  "防水",
  "vintage wash",
  "embroidered",
  "1:1",
  "batch",
];
const SHOPS = ["Top Dreamer", "潮牌工厂", "Moon Store", "外贸原单店", "Hidden Batch"];

/** A fixed catalogue: the same rows, in the same order, on both engines (so the same ids). */
function catalogue(count: number) {
  const pick = <T>(list: T[], n: number, salt: number) => list[(n * 7 + salt * 13 + Math.floor(n / list.length)) % list.length];
  return Array.from({ length: count }, (_, n) => {
    const name = `${pick(BRANDS, n, 1)} ${pick(COLOURS, n, 2)} ${pick(ITEMS, n, 3)}${n % 4 === 0 ? ` ${pick(DETAILS, n, 4)}` : ""}`;
    const description = Array.from({ length: n % 5 }, (_, k) => `${pick(DETAILS, n + k, 5)} ${pick(ITEMS, n + k, 6)}`).join(". ");
    return {
      name,
      description: description || null,
      shop_name: n % 3 === 0 ? null : pick(SHOPS, n, 7),
      price_fen: n % 9 === 0 ? null : 1000 + ((n * 3701) % 90_000),
      qc_count: (n * 5) % 7,
      view_count: (n * 11) % 50,
      is_external: n % 2,
      platform: (["weidian", "taobao", "tmall", "1688"] as const)[n % 4],
      platform_item_id: String(6_000_000_000 + n),
    };
  });
}

/** 200 searches of the kinds shoppers type. */
function queries(): string[] {
  const single = [...BRANDS, ...ITEMS, ...COLOURS, ...DETAILS, ...SHOPS].map((term) => term.toLowerCase());
  const pairs = [
    ...BRANDS.flatMap((brand) => ITEMS.slice(0, 6).map((item) => `${brand} ${item}`)),
    ...COLOURS.flatMap((colour) => ITEMS.slice(6).map((item) => `${colour} ${item}`)),
    ...DETAILS.flatMap((detail) => ["hoodie", "外套"].map((item) => `${detail} ${item}`)),
  ];
  const short = ["鞋", "衣", "黑", "耐", "克", "外", "套", "羽绒", "北面", "tn", "nb", "1"];
  const parts = ["oodi", "acke", "arhar", "運動", "lack hood", "cotton fit", "moon", "dream"];
  return [...single, ...pairs, ...short, ...parts].slice(0, 200);
}

let sqliteDb: DB;
let postgresDb: DB;

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(TMP_ROOT, "parity-"));
  sqliteDb = createKysely(openSqlite(path.join(dir, "app.db")));
  await migrateToLatest(sqliteDb);
  postgresDb = getDb();
  const rows = catalogue(1500);
  for (const db of [sqliteDb, postgresDb]) {
    for (let at = 0; at < rows.length; at += 250)
      await db
        .insertInto("products")
        .values(rows.slice(at, at + 250))
        .execute();
  }
}, 120_000);

afterAll(async () => {
  await sqliteDb?.destroy();
});

const search = (db: DB, q: string, sort: ProductSort, page = 1) => searchProducts(db, splitTerms(q), { page, limit: 10, sort });

describe("the same search on SQLite and PostgreSQL", () => {
  it("counts the same matches and ranks the same first ten for at least 95 % of 200 searches", async () => {
    const all = queries();
    expect(all).toHaveLength(200);
    const differing: string[] = [];
    for (const q of all) {
      const [onSqlite, onPostgres] = await Promise.all([search(sqliteDb, q, "relevance"), search(postgresDb, q, "relevance")]);
      expect({ q, total: onPostgres.totalItems }).toEqual({ q, total: onSqlite.totalItems });
      const ids = (page: typeof onSqlite) => page.items.map((item) => item.id);
      if (JSON.stringify(ids(onSqlite)) !== JSON.stringify(ids(onPostgres))) differing.push(q);
    }
    expect(differing.length, `top ten differ for: ${differing.join(" | ")}`).toBeLessThanOrEqual(10);
  });

  it("gives the same pages in the other sorts", async () => {
    // the last three match more than 500 products: too many to rank, their order is the sort's
    for (const q of ["hoodie", "耐克", "black jacket", "鞋", "nike", "a", "o", "e"]) {
      for (const sort of ["newest", "price_asc", "price_desc", "popular", "qc"] as const) {
        for (const page of [1, 3]) {
          const [onSqlite, onPostgres] = await Promise.all([search(sqliteDb, q, sort, page), search(postgresDb, q, sort, page)]);
          expect(onPostgres.totalCapped).toBe(q.length === 1 && /[a-z]/.test(q));
          expect({ q, sort, page, ids: onPostgres.items.map((item) => item.id) }).toEqual({
            q,
            sort,
            page,
            ids: onSqlite.items.map((item) => item.id),
          });
        }
      }
    }
  });
});
