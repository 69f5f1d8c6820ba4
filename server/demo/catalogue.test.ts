import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/lib/db.server";
import { getEnv } from "~/lib/env.server";
import { searchProducts, splitTerms } from "~/models/product.server";
import { marketplaceUrl } from "~/schemas/catalogue-rules";
import { DEMO_PRODUCTS, initialsOf, planCatalogue } from "./catalogue";
import { seedDatabase } from "./seed";

afterAll(() => closeDb());

const CANONICAL: Record<string, RegExp> = {
  weidian: /^https:\/\/weidian\.com\/item\.html\?itemID=\d{10}$/,
  taobao: /^https:\/\/item\.taobao\.com\/item\.htm\?id=\d{12}$/,
  tmall: /^https:\/\/detail\.tmall\.com\/item\.htm\?id=\d{12}$/,
  "1688": /^https:\/\/detail\.1688\.com\/offer\/\d{12}\.html$/,
};

describe("demo catalogue seed", () => {
  it("plans the same catalogue every time", () => {
    expect(planCatalogue()).toEqual(planCatalogue());
    expect(initialsOf("Nike Air Force 1 耐克空军一号 白色")).toBe("NA");
    expect(initialsOf("加绒连帽卫衣 Fleece hoodie")).toBe("FH");
    expect(initialsOf("纯中文")).toBe("QC");
    expect(marketplaceUrl("1688", "123")).toBe("https://detail.1688.com/offer/123.html");
  });

  it("fills an empty catalogue, and a second run writes nothing", async () => {
    const db = getDb();
    const started = performance.now();
    expect(await seedDatabase(db)).toBe(true);
    const seconds = (performance.now() - started) / 1000;
    expect(seconds).toBeLessThan(15);

    // categories: 6+, some children, one level only
    const categories = await db.selectFrom("categories").selectAll().execute();
    expect(categories.length).toBeGreaterThanOrEqual(6);
    const children = categories.filter((c) => c.parent_id !== null);
    expect(children.length).toBeGreaterThan(0);
    const parentIds = new Set(children.map((c) => c.parent_id));
    for (const parent of categories.filter((c) => parentIds.has(c.id))) expect(parent.parent_id).toBeNull();

    // products: 40+, every platform, local and external, canonical links
    const products = await db.selectFrom("products").selectAll().execute();
    expect(products.length).toBe(DEMO_PRODUCTS.length);
    expect(products.length).toBeGreaterThanOrEqual(40);
    expect(new Set(products.map((p) => p.platform))).toEqual(new Set(["weidian", "taobao", "tmall", "1688"]));
    const external = products.filter((p) => p.is_external === 1);
    const local = products.filter((p) => p.is_external === 0);
    expect(external.length).toBeGreaterThan(0);
    expect(local.length).toBeGreaterThan(0);
    for (const p of products) {
      expect(p.original_url).toMatch(CANONICAL[p.platform!]);
      expect(p.original_url).toContain(p.platform_item_id);
      expect(p.price_fen).toBeGreaterThan(0);
      expect(p.description).toBeTruthy();
      expect(p.category_id).not.toBeNull();
    }
    for (const p of external) expect(p.shop_name).toBeTruthy();
    expect(products.some((p) => p.view_count > 0)).toBe(true);

    // SKUs: 1–4 per product, unique names
    const skus = await db.selectFrom("product_skus").selectAll().execute();
    for (const p of products) {
      const own = skus.filter((s) => s.product_id === p.id);
      expect(own.length).toBeGreaterThanOrEqual(1);
      expect(own.length).toBeLessThanOrEqual(4);
      expect(new Set(own.map((s) => s.sku_name)).size).toBe(own.length);
      for (const s of own) expect(s.price_fen).toBeGreaterThan(0);
    }

    // images: 1–3 per product, recorded uploads, WebP files on disk
    const uploads = await db.selectFrom("uploads").selectAll().where("kind", "=", "products").execute();
    const uploadPaths = new Set(uploads.map((u) => u.path));
    let imageCount = 0;
    for (const p of products) {
      const images = JSON.parse(p.images) as string[];
      expect(images.length).toBeGreaterThanOrEqual(1);
      expect(images.length).toBeLessThanOrEqual(3);
      for (const url of images) {
        expect(url).toMatch(/^\/uploads\/products\//);
        const relative = url.slice("/uploads/".length);
        expect(uploadPaths.has(relative)).toBe(true);
        expect(fs.existsSync(path.join(getEnv().UPLOADS_DIR, relative))).toBe(true);
        imageCount++;
      }
    }
    expect(uploads.length).toBe(imageCount);
    const first = JSON.parse(products[0].images)[0] as string;
    const meta = await sharp(path.join(getEnv().UPLOADS_DIR, first.slice("/uploads/".length))).metadata();
    expect(meta.format).toBe("webp");
    expect(meta.width).toBe(480);

    // QC photos: approved sets on some products (counted on the product), one upload pending review
    const qc = await db.selectFrom("qc_images").selectAll().execute();
    const approved = qc.filter((q) => q.status === "approved");
    const pending = qc.filter((q) => q.status === "pending");
    expect(approved.length).toBeGreaterThanOrEqual(10);
    expect(new Set(pending.map((q) => q.set_key)).size).toBe(1);
    expect(pending.length).toBeGreaterThanOrEqual(1);
    const shopper = await db.selectFrom("users").selectAll().where("id", "=", pending[0].uploaded_by!).executeTakeFirstOrThrow();
    expect(shopper.password_hash).toBeNull();
    for (const p of products) expect(p.qc_count).toBe(approved.filter((q) => q.product_id === p.id).length);
    const qcUploads = new Set(
      (await db.selectFrom("uploads").select("path").where("kind", "=", "qc").execute()).map((u) => `/uploads/${u.path}`),
    );
    for (const q of qc) {
      expect(qcUploads.has(q.image_url!)).toBe(true);
      expect(qcUploads.has(q.thumb_url!)).toBe(true);
      expect(fs.existsSync(path.join(getEnv().UPLOADS_DIR, q.thumb_url!.slice("/uploads/".length)))).toBe(true);
    }

    // search: the trigram index finds an English word in a name, or in the category's name
    // ("Hoodies & sweatshirts" holds the crewneck too), the grams index a 2-char term
    const search = (q: string) => searchProducts(db, splitTerms(q), { page: 1, limit: 100, sort: "newest" });
    const hoodie = await search("hoodie");
    expect(hoodie.items.length).toBeGreaterThan(0);
    const categoryNames = new Map(categories.map((c) => [c.id, c.name]));
    const texts = new Map(products.map((p) => [p.id, `${p.name} ${categoryNames.get(p.category_id ?? 0) ?? ""}`]));
    for (const found of hoodie.items) expect(texts.get(found.id)!.toLowerCase()).toContain("hoodie");
    expect((await search("耐克")).items.length).toBeGreaterThanOrEqual(2);

    // a second seed (the second `npm start`) writes nothing
    const before = await counts();
    expect(await seedDatabase(db)).toBe(false);
    expect(await counts()).toEqual(before);
  });
});

async function counts() {
  const db = getDb();
  const one = async (table: "categories" | "products" | "product_skus" | "uploads" | "qc_images" | "users") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    categories: await one("categories"),
    products: await one("products"),
    skus: await one("product_skus"),
    uploads: await one("uploads"),
    qc: await one("qc_images"),
    users: await one("users"),
  };
}
