/**
 * Keeping the fingerprints (decision 047) against the real database (SQLite, or PostgreSQL
 * with TEST_DATABASE_URL) and the real uploads folder: the sync walks what changed since
 * its place (new products, changed images, QC photos approved on upload or on review),
 * drops what a product no longer has, records an unreadable picture and tries it again
 * after UNREADABLE_RETRY_MS, and a product deleted while its pictures are read leaves
 * nothing behind. Real photographs (tests/fixtures/photos).
 */
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/lib/db.server";
import { fingerprintsOfProduct, insertFingerprints } from "~/models/photo.server";
import { insertQcImages } from "~/models/qc.server";
import { storeImage } from "~/services/uploads.server";
import { fixturePhotos } from "../../../tests/setup/photo-queries";
import { fingerprintPicture, hexOfChecks, photoQuery, storedQuery, type PhotoHash } from "./fingerprint.server";
import { hexOfHashes, photoIndex } from "./photo-index.server";
import { fingerprintProgress, searchByPhoto, syncPhotosOnce, syncProductPhotos, UNREADABLE_RETRY_MS } from "./photo-search.server";

const catalogue = fixturePhotos("catalogue");
const messages = { notImage: "not an image", tooLarge: "too large" };
let pictures: string[];

beforeAll(async () => {
  pictures = [];
  for (const photo of catalogue.slice(6, 10)) {
    const bytes = fs.readFileSync(photo.file);
    pictures.push((await storeImage(new Blob([new Uint8Array(bytes)]), "products", null, messages, 10 * 1024 * 1024)).url);
  }
}, 60_000);

async function product(name: string, images: string[]): Promise<number> {
  const row = await getDb()
    .insertInto("products")
    .values({ name, images: JSON.stringify(images) })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Runs the sync from the start until nothing is left (as the job does, batch after batch). */
async function syncAll(): Promise<void> {
  let place = { productAt: "", productId: 0, qcId: 0, reviewedAt: "", reviewedId: 0 };
  for (let run = 0; run < 100; run++) {
    const step = await syncPhotosOnce(place);
    place = step.place;
    if (!step.more) return;
  }
  throw new Error("the sync never ended");
}

const urlsOf = async (productId: number) =>
  (await fingerprintsOfProduct(getDb(), productId)).map((row) => ({ url: row.imageUrl, readable: row.hashes !== null, qc: row.qcImageId }));

describe("keeping the fingerprints", () => {
  it("fingerprints a new product's pictures, follows a change of its images, and the search finds what is there", async () => {
    const id = await product("Synced product", [pictures[0], "/uploads/products/2026-12/missing.webp"]);
    await syncAll();
    expect(await urlsOf(id)).toEqual([
      { url: pictures[0], readable: true, qc: null },
      { url: "/uploads/products/2026-12/missing.webp", readable: false, qc: null },
    ]);
    const query = await photoQuery(fs.readFileSync(catalogue[6].file));
    expect((await searchByPhoto(query)).map((item) => item.productId)).toContain(id);

    await getDb()
      .updateTable("products")
      .set({ images: JSON.stringify([pictures[1]]), updated_at: new Date(Date.now() + 1000).toISOString() })
      .where("id", "=", id)
      .execute();
    await syncAll();
    expect(await urlsOf(id)).toEqual([{ url: pictures[1], readable: true, qc: null }]);
    await photoIndex().follow();
    expect((await searchByPhoto(query)).map((item) => item.productId)).not.toContain(id);
  });

  it("takes a QC photo once it is approved on review (approved on upload: tests/integration/photo-search.test.ts), and drops it when deleted", async () => {
    const id = await product("QC product", []);
    const [pending] = await insertQcImages(getDb(), [
      {
        productId: id,
        status: "pending",
        imageUrl: pictures[2],
        thumbUrl: pictures[2],
        width: 1,
        height: 1,
        thumbWidth: 1,
        thumbHeight: 1,
        bytes: 1,
        setKey: "s1",
        uploadedBy: null,
      },
    ]);
    await syncAll();
    expect(await urlsOf(id)).toEqual([]);
    // approved on review (as approvePending writes it; no reviewer account in this database)
    await getDb()
      .updateTable("qc_images")
      .set({ status: "approved", reviewed_at: new Date().toISOString() })
      .where("id", "=", pending)
      .execute();
    await syncAll();
    expect(await urlsOf(id)).toEqual([{ url: pictures[2], readable: true, qc: pending }]);
    // a QC photo deleted takes its fingerprint along
    await getDb().deleteFrom("qc_images").where("id", "=", pending).execute();
    expect(await urlsOf(id)).toEqual([]);
  });

  it("tries an unreadable picture again once it is old enough, and keeps it meanwhile", async () => {
    const id = await product("Unreadable for now", ["/uploads/products/2026-12/later.webp"]);
    await syncAll();
    expect(await urlsOf(id)).toEqual([{ url: "/uploads/products/2026-12/later.webp", readable: false, qc: null }]);
    expect((await syncProductPhotos(id, { retryUnreadableBefore: new Date(Date.now() - UNREADABLE_RETRY_MS).toISOString() })).changed).toBe(
      false,
    );
    // a week later the picture is there: the sync reads it
    fs.copyFileSync(
      `${process.env.DATA_DIR}/uploads/${pictures[3].replace(/^\/uploads\//, "")}`,
      `${process.env.DATA_DIR}/uploads/products/2026-12/later.webp`,
    );
    await getDb()
      .updateTable("photo_fingerprints")
      .set({ created_at: new Date(Date.now() - UNREADABLE_RETRY_MS - 60_000).toISOString() })
      .where("product_id", "=", id)
      .execute();
    await syncAll();
    expect(await urlsOf(id)).toEqual([{ url: "/uploads/products/2026-12/later.webp", readable: true, qc: null }]);
  });

  it("answers only what is about as good as the best: a picture that merely passes is not shown beside the right one", async () => {
    const photo = fs.readFileSync(catalogue[11].file);
    const { hashes, checks } = await fingerprintPicture(photo);
    // another product's picture 10 bits from each of these windows, its checks 40 bits from
    // theirs: it passes (PHOTO_CHECK_MAX), far behind the right one
    const flip = (hash: PhotoHash): PhotoHash => [(hash[0] ^ 0x3ff) >>> 0, hash[1]];
    const blurred = (from: Uint32Array, words: number) => from.map((word, i) => (i % 8 < words ? word ^ 0x1f : word) >>> 0);
    const right = await product("Right one", []);
    const near = await product("Merely near", []);
    await insertFingerprints(getDb(), [
      {
        productId: right,
        qcImageId: null,
        imageUrl: "/uploads/right.webp",
        hashes: hexOfHashes(hashes),
        checks: hexOfChecks(checks),
        detail: null,
        error: null,
      },
      {
        productId: near,
        qcImageId: null,
        imageUrl: "/uploads/near.webp",
        hashes: hexOfHashes(hashes.map(flip)),
        checks: hexOfChecks(blurred(checks, 8)),
        detail: null,
        error: null,
      },
    ]);
    const found = await searchByPhoto(await photoQuery(photo));
    expect(found.map((item) => item.productId)).toContain(right);
    expect(found.map((item) => item.productId)).not.toContain(near);
    // asked from a point between them, both are about as good as the best
    const between = storedQuery(
      hashes.map((hash) => [(hash[0] ^ 0x1f) >>> 0, hash[1]] as const),
      blurred(checks, 4),
    );
    expect((await searchByPhoto(between)).map((item) => item.productId)).toEqual(expect.arrayContaining([right, near]));
  });

  it("checks a candidate in detail: a picture whose hashes lie near by luck is not answered", async () => {
    const photo = fs.readFileSync(catalogue[13].file);
    const { hashes, checks } = await fingerprintPicture(photo);
    const other = await fingerprintPicture(fs.readFileSync(catalogue[14].file));
    const lucky = await product("Near by luck", []);
    await insertFingerprints(getDb(), [
      {
        productId: lucky,
        qcImageId: null,
        imageUrl: "/uploads/lucky.webp",
        // the photo's own layout, another photograph's detail
        hashes: hexOfHashes(hashes),
        checks: hexOfChecks(other.checks),
        detail: null,
        error: null,
      },
    ]);
    expect((await searchByPhoto(await photoQuery(photo))).map((item) => item.productId)).not.toContain(lucky);
    expect(checks).not.toEqual(other.checks);
  });

  it("reads again a picture fingerprinted before checks, and matches it on its hashes alone meanwhile", async () => {
    // a picture no other product of these tests has
    const bytes = fs.readFileSync(catalogue[16].file);
    const url = (await storeImage(new Blob([new Uint8Array(bytes)]), "products", null, messages, 10 * 1024 * 1024)).url;
    const id = await product("Fingerprinted before checks", [url]);
    const { hashes } = await fingerprintPicture(bytes);
    await insertFingerprints(getDb(), [
      { productId: id, qcImageId: null, imageUrl: url, hashes: hexOfHashes(hashes), checks: null, detail: null, error: null },
    ]);
    await photoIndex().follow();
    const query = await photoQuery(bytes);
    expect((await searchByPhoto(query)).map((item) => item.productId)).toContain(id);
    await syncAll();
    const [row] = await fingerprintsOfProduct(getDb(), id);
    expect(row.imageUrl).toBe(url);
    expect(row.hashes).toMatch(/^[0-9a-f]{304}$/);
    expect(row.checks).toMatch(/^[0-9a-f]{1216}$/);
    await photoIndex().follow();
    expect((await searchByPhoto(query)).map((item) => item.productId)).toContain(id);
  });

  it("leaves nothing behind for a product deleted while its pictures are read", async () => {
    const id = await product("Deleted meanwhile", [pictures[0]]);
    const syncing = syncProductPhotos(id);
    await getDb().deleteFrom("products").where("id", "=", id).execute();
    expect(await syncing).toEqual({ changed: false, searchable: false });
    expect(await urlsOf(id)).toEqual([]);
  });
});

describe("the backfill's progress", () => {
  it("counted a few product ids at a time is what one count of the whole catalogue says", async () => {
    const withPictures = await product("Progress: two pictures", [pictures[1], pictures[2]]);
    await product("Progress: an unreadable picture", ["/uploads/products/2026-12/progress-missing.webp"]);
    await product("Progress: no picture", []);
    await syncAll();
    const whole = await fingerprintProgress(Number.MAX_SAFE_INTEGER);
    expect(whole.products).toBeGreaterThanOrEqual(2);
    expect(whole.done).toBeGreaterThanOrEqual(2);
    expect(whole.pictures).toBeGreaterThanOrEqual(2);
    expect(whole.unreadable).toBeGreaterThanOrEqual(1);
    // slices of 2 and 3 ids: the products above fall on both sides of their edges
    expect(await fingerprintProgress(2)).toEqual(whole);
    expect(await fingerprintProgress(3)).toEqual(whole);
    expect((await fingerprintsOfProduct(getDb(), withPictures)).length).toBe(2);
  });
});
