/**
 * The photo index (photo-index.server.ts): what it finds is what a scan of every picture
 * finds within the distance (on real photographs and on many random neighbours of them),
 * removals and compaction lose nothing else, and an index following the table sees what
 * another writer added and deleted (the trigger's removals), on SQLite and PostgreSQL.
 */
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/lib/db.server";
import { deleteFingerprints, insertFingerprints } from "~/models/photo.server";
import { fixturePhotos, QUERY_TRANSFORMS } from "../../../tests/setup/photo-queries";
import { fingerprintPhoto, hashDistance, photoDistance, queryHashes, type PhotoHash } from "./fingerprint.server";
import { FollowedPhotoIndex, hexOfHashes, hashesOfHex, PhotoIndex } from "./photo-index.server";

const catalogue = fixturePhotos("catalogue").slice(0, 12);
let stored: PhotoHash[][];

beforeAll(async () => {
  stored = await Promise.all(catalogue.map(async (photo) => fingerprintPhoto(fs.readFileSync(photo.file))));
}, 60_000);

/** A picture near a real one: each of its hashes with `bits` random bits flipped (a seeded generator). */
function neighbour(of: PhotoHash[], bits: number, seed: number): PhotoHash[] {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
  return of.map(([high, low]) => {
    let h = high;
    let l = low;
    for (let i = 0; i < bits; i++) {
      const bit = Math.floor(random() * 64);
      if (bit < 32) h = (h ^ (1 << bit)) >>> 0;
      else l = (l ^ (1 << (bit - 32))) >>> 0;
    }
    return [h, l] as const;
  });
}

const row = (id: number, productId: number, hashes: PhotoHash[]) => ({
  id,
  productId,
  qcImageId: null,
  imageUrl: `/p/${id}.webp`,
  hashes: hexOfHashes(hashes),
});

describe("the photo index", () => {
  it("keeps hashes as hex and back", () => {
    expect(hashesOfHex(hexOfHashes(stored[0]))).toEqual(stored[0]);
  });

  it("finds what a scan finds within the distance, closest first, for shoppers' photos among thousands of near pictures", async () => {
    const index = new PhotoIndex();
    const all: Array<{ id: number; hashes: PhotoHash[] }> = [];
    let id = 0;
    for (const [at, hashes] of stored.entries()) {
      all.push({ id: ++id, hashes });
      index.add(row(id, at + 1, hashes));
      // near strangers: 250 pictures around each real one, 8 to 20 bits away
      for (let n = 0; n < 250; n++) {
        const near = neighbour(hashes, 8 + (n % 13), id * 1000 + n);
        all.push({ id: ++id, hashes: near });
        index.add(row(id, 1000 + id, near));
      }
    }
    expect(index.size).toBe(all.length);
    for (const [at, photo] of catalogue.slice(0, 6).entries()) {
      const [, make] = QUERY_TRANSFORMS[at * 2];
      const query = await queryHashes(await make(fs.readFileSync(photo.file)));
      const found = index.nearest(query, 12, 10_000);
      const scanned = all.filter((picture) => photoDistance(query, picture.hashes) <= 12);
      // every picture within 11 bits is guaranteed; at 12 a few may be missed (4 chunks of 3 bits)
      const sure = scanned.filter((picture) => photoDistance(query, picture.hashes) <= 11).map((picture) => picture.id);
      expect(found.map((match) => match.fingerprintId)).toEqual(expect.arrayContaining(sure));
      expect(found.length).toBeLessThanOrEqual(scanned.length);
      for (const match of found) expect(match.distance).toBe(photoDistance(query, all[match.fingerprintId - 1].hashes));
      expect(found.map((match) => match.distance)).toEqual([...found.map((match) => match.distance)].sort((a, b) => a - b));
    }
  });

  it("probes 1 bit of each chunk in a large index: everything within 7 bits, fewer candidates", async () => {
    const narrow = new PhotoIndex(0);
    const all: Array<{ id: number; hashes: PhotoHash[] }> = [];
    let id = 0;
    for (const hashes of stored) {
      for (let n = 0; n < 100; n++) {
        const near = neighbour(hashes, 2 + (n % 13), ++id);
        all.push({ id, hashes: near });
        narrow.add(row(id, id, near));
      }
    }
    const query = await queryHashes(fs.readFileSync(catalogue[4].file));
    const found = new Set(narrow.nearest(query, 12, 10_000).map((match) => match.fingerprintId));
    const sure = all.filter((picture) => photoDistance(query, picture.hashes) <= 7);
    expect(sure.length).toBeGreaterThan(10);
    for (const picture of sure) expect(found.has(picture.id), `picture ${picture.id}`).toBe(true);
  });

  it("forgets removed pictures, and finds the rest after compacting", () => {
    const index = new PhotoIndex();
    let id = 0;
    const made = new Map<number, PhotoHash[]>();
    for (const hashes of stored) {
      for (let n = 0; n < 200; n++) {
        const near = neighbour(hashes, n % 5, ++id);
        made.set(id, near);
        index.add(row(id, id, near));
      }
    }
    const query = stored[3].slice(0, 3);
    const before = index.nearest(query, 6, 10_000).map((match) => match.fingerprintId);
    expect(before.length).toBeGreaterThan(50);
    // more than a quarter removed: the tables are built again without them
    const removed = new Set<number>();
    for (let n = 1; n <= id; n += 2) {
      index.remove(n);
      removed.add(n);
    }
    expect(index.size).toBe(id - removed.size);
    const after = index.nearest(query, 6, 10_000).map((match) => match.fingerprintId);
    expect(after.sort((a, b) => a - b)).toEqual(before.filter((n) => !removed.has(n)).sort((a, b) => a - b));
    expect(index.hashesOf(1)).toBeNull();
    expect(index.hashesOf(2)).toEqual(made.get(2));
    expect(hashDistance(index.hashesOf(2)![0], stored[0][0])).toBe(1);
  });
});

describe("an index following the table", () => {
  it("sees pictures another writer added, and those it deleted (the trigger's removals)", async () => {
    const db = getDb();
    const product = await db
      .insertInto("products")
      .values({ name: "Followed product", images: "[]" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const productId = Number(product.id);
    const followed = new FollowedPhotoIndex();
    await followed.follow();
    const before = followed.index.size;
    await insertFingerprints(db, [
      { productId, qcImageId: null, imageUrl: "/uploads/a.webp", hashes: hexOfHashes(stored[0]), checks: null, detail: null, error: null },
      { productId, qcImageId: null, imageUrl: "/uploads/b.webp", hashes: hexOfHashes(stored[1]), checks: null, detail: null, error: null },
      { productId, qcImageId: null, imageUrl: "https://gone.example/c.jpg", hashes: null, checks: null, detail: null, error: "404" },
    ]);
    expect(await followed.follow()).toBe(true);
    expect(followed.index.size).toBe(before + 2);
    const found = followed.index.nearest(stored[1].slice(0, 3), 0, 5);
    expect(found[0]).toMatchObject({ productId, imageUrl: "/uploads/b.webp", distance: 0 });

    const ids = (await db.selectFrom("photo_fingerprints").select("id").where("image_url", "=", "/uploads/b.webp").execute()).map((r) =>
      Number(r.id),
    );
    await deleteFingerprints(db, ids);
    expect(await followed.follow()).toBe(true);
    expect(followed.index.nearest(stored[1].slice(0, 3), 0, 5).filter((match) => match.productId === productId)).toEqual([]);
    // a product's deletion takes its pictures along (a cascade, seen by the trigger too)
    await db.deleteFrom("products").where("id", "=", productId).execute();
    expect(await followed.follow()).toBe(true);
    expect(followed.index.size).toBe(before);
    expect(await followed.follow()).toBe(false);
  });
});
