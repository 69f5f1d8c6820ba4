import { describe, expect, it } from "vitest";
import { getDb } from "~/lib/db.server";
import { sql } from "kysely";
import { insertProduct, listProducts, searchProducts, SEARCH_COUNT_CAP, splitTerms, updateProduct } from "./product.server";

describe("splitTerms", () => {
  it("sends 3+ character terms to the trigram index and shorter ones to the grams index", () => {
    const unit = (term: string) => (Array.from(term).length >= 3 ? { long: [term], short: [] } : { long: [], short: [term] });
    expect(splitTerms("Nike 耐克 运动鞋 XL")).toEqual(["nike", "耐克", "运动鞋", "xl"].map(unit));
    expect(splitTerms("' OR 1=1 --")).toEqual(["or", "1=1"].map(unit));
    expect(splitTerms('" * ( -')).toEqual([]);
    expect(splitTerms("ＮＩＫＥ")).toEqual([unit("nike")]);
  });
});

describe("searchProducts", () => {
  it("counts up to the cap, and every sort pages through the same matches", async () => {
    const db = getDb();
    // letters only: a tag holding digits could hold the number searched for below
    const tag = `capcheck${Date.now()
      .toString()
      .replace(/\d/g, (digit) => "abcdefghij"[Number(digit)])}`;
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < SEARCH_COUNT_CAP + 200; i++) {
        await insertProduct(trx, { name: `${tag} 款式 ${i}`, priceCny: (i * 37) % 500, showInListing: i % 10 !== 0 }, [], null);
      }
    });
    const terms = splitTerms(tag);
    for (const sort of ["relevance", "newest", "price_asc", "price_desc", "popular"] as const) {
      const first = await searchProducts(db, terms, { page: 1, limit: 8, sort, listedOnly: true });
      expect(first.totalItems, sort).toBe(SEARCH_COUNT_CAP);
      expect(first.totalCapped, sort).toBe(true);
      expect(first.items, sort).toHaveLength(8);
      expect(
        first.items.every((p) => p.showInListing && p.name.startsWith(tag)),
        sort,
      ).toBe(true);
      if (sort === "price_asc")
        expect(first.items.map((p) => p.priceCny)).toEqual([...first.items.map((p) => p.priceCny)].sort((a, b) => a! - b!));
      if (sort === "price_desc")
        expect(first.items.map((p) => p.priceCny)).toEqual([...first.items.map((p) => p.priceCny)].sort((a, b) => b! - a!));
    }
    // a narrower search is counted exactly and ranked
    const exact = await searchProducts(db, splitTerms(`${tag} 款式`), {
      page: 1,
      limit: 8,
      sort: "relevance",
      listedOnly: true,
      hideExternal: true,
    });
    expect(exact.totalCapped).toBe(true);
    const last = SEARCH_COUNT_CAP + 199;
    // a sorted search of many matches walks its sort's index, or gathers the matches: the
    // same pages either way (the walk falls back to gathering when its window holds too
    // few: 250 cheaper products that do not match come first when going up by price)
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < 250; i++) await insertProduct(trx, { name: `decoy ${i}`, priceCny: 0.01 }, [], null);
    });
    for (const sort of ["price_asc", "price_desc", "popular", "qc"] as const) {
      for (const filter of [{}, { listedOnly: true }, { listedOnly: true, minPriceFen: 40_000 }, { qc: "without" as const }]) {
        for (const page of [1, 3, 30]) {
          const options = { ...filter, page, limit: 8, sort };
          const walked = await searchProducts(db, terms, { ...options, walkWhenMatches: 0 });
          const gathered = await searchProducts(db, terms, { ...options, walkWhenMatches: Infinity });
          expect(
            walked.items.map((p) => p.id),
            `${sort} ${JSON.stringify(filter)} page ${page}`,
          ).toEqual(gathered.items.map((p) => p.id));
          expect(walked.items.length, `${sort} page ${page}`).toBe(8);
        }
      }
    }
    const one = await searchProducts(db, splitTerms(`${tag} 款式 ${last}`), { page: 1, limit: 8, sort: "relevance" });
    expect(one.totalCapped).toBe(false);
    expect(one.items.map((p) => p.name)).toEqual([`${tag} 款式 ${last}`]);
  });

  it("keeps both indexes in step with renames", async () => {
    const db = getDb();
    const product = await db.transaction().execute((trx) => insertProduct(trx, { name: "Renamed 旧名字 item" }, [], null));
    expect((await searchProducts(db, splitTerms("旧名"), { page: 1, limit: 8, sort: "relevance" })).items.map((p) => p.id)).toContain(
      product.id,
    );
    await updateProduct(db, product.id, { name: "Renamed 新名字 item" });
    expect((await searchProducts(db, splitTerms("旧名"), { page: 1, limit: 8, sort: "relevance" })).items.map((p) => p.id)).not.toContain(
      product.id,
    );
    expect((await searchProducts(db, splitTerms("新名"), { page: 1, limit: 8, sort: "relevance" })).items.map((p) => p.id)).toContain(
      product.id,
    );
    expect((await searchProducts(db, splitTerms("新名字"), { page: 1, limit: 8, sort: "newest" })).items.map((p) => p.id)).toContain(
      product.id,
    );
  });

  it("ranks and sorts a countable search as the lists' SQL orders them, with filters", async () => {
    const db = getDb();
    const tag = `ordercheck${Math.random()
      .toString(36)
      .replace(/[^a-z]/g, "")
      .slice(0, 6)}`;
    const platforms = ["weidian", "taobao", "tmall", "1688"] as const;
    const ids: number[] = [];
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < 40; i++) {
        const product = await insertProduct(
          trx,
          {
            name: i % 3 ? `${tag} item ${i}` : `${tag} ${tag} item ${i}`,
            priceCny: i % 7 === 0 ? null : (i * 53) % 400,
            platform: platforms[i % 4],
            platformItemId: `${tag}-${i}`,
          },
          [],
          null,
        );
        ids.push(product.id);
      }
    });
    for (const [index, id] of ids.entries()) {
      if (index % 5 === 0) continue;
      await sql`UPDATE products SET view_count = ${(index * 37) % 11} WHERE id = ${id}`.execute(db);
      for (let n = 0; n < index % 4; n++) {
        await sql`INSERT INTO qc_images (product_id, status, image_url, set_key) VALUES (${id}, 'approved', ${`https://img.example/${id}-${n}.jpg`}, ${`s${id}`})`.execute(
          db,
        );
      }
    }
    const filters = [{}, { platforms: ["weidian", "1688"] as ("weidian" | "1688")[] }, { qc: "with" as const, minPriceFen: 5000 }];
    for (const filter of filters) {
      for (const sort of ["newest", "price_asc", "price_desc", "popular", "qc"] as const) {
        const all = await listProducts(db, { ...filter, page: 1, limit: 100, sort, nameContains: tag });
        for (const page of [1, 2]) {
          const found = await searchProducts(db, splitTerms(tag), { ...filter, page, limit: 7, sort });
          expect(found.totalItems, `${sort} ${JSON.stringify(filter)}`).toBe(all.totalItems);
          expect(
            found.items.map((p) => p.id),
            `${sort} ${JSON.stringify(filter)} page ${page}`,
          ).toEqual(all.items.slice((page - 1) * 7, page * 7).map((p) => p.id));
        }
      }
      // best match: the names that say it twice first
      const relevance = await searchProducts(db, splitTerms(tag), { ...filter, page: 1, limit: 100, sort: "relevance" });
      const twice = relevance.items.filter((p) => p.name.startsWith(`${tag} ${tag}`)).length;
      expect(relevance.items.slice(0, twice).every((p) => p.name.startsWith(`${tag} ${tag}`))).toBe(true);
    }
  });
});
