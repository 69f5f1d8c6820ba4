/**
 * Photo fingerprints on real photographs (tests/fixtures/photos): the right picture first
 * for the photos shoppers bring, and "nothing close enough" for photos of other things. A
 * share of the bench's evaluation (`npm run bench`), small enough for every run.
 */
import fs from "node:fs";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { fixturePhotos, QUERY_TRANSFORMS } from "../../../tests/setup/photo-queries";
import {
  contentBox,
  dctHash,
  fingerprintPhoto,
  grayOf,
  hashDistance,
  PHOTO_MATCH_MAX_DISTANCE,
  PhotoTooPlain,
  SAME_PICTURE_MAX_DETAIL,
  detailDistance,
  fingerprintPicture,
  matchingPictures,
  photoQuery,
  queryHashes,
  storedQuery,
  type PhotoFingerprint,
} from "./fingerprint.server";

const catalogue = fixturePhotos("catalogue");
let stored: Array<{ name: string; fingerprint: PhotoFingerprint; checks: Uint32Array }>;

beforeAll(async () => {
  stored = [];
  for (const photo of catalogue) {
    const { hashes, checks } = await fingerprintPicture(fs.readFileSync(photo.file));
    stored.push({ name: photo.name, fingerprint: hashes, checks });
  }
}, 60_000);

/** The catalogue's pictures that match a query, best first. */
async function ranked(query: Buffer) {
  return matchingPictures(await photoQuery(query), stored);
}

describe("photo fingerprints", () => {
  it("hash a picture the same every time, and count differing bits", () => {
    const square = new Uint8Array(32 * 32).map((_, i) => (i * 37) % 251);
    expect(dctHash(square)).toEqual(dctHash(square));
    expect(hashDistance([0, 0], [0xffffffff, 0xffffffff])).toBe(64);
    expect(hashDistance([0b1011, 0], [0b0001, 1])).toBe(3);
  });

  it("find a screenshot's picture inside its black screen and status bar", async () => {
    const transform = QUERY_TRANSFORMS.find(([name]) => name.startsWith("phone screenshot"))![1];
    const shot = await transform(fs.readFileSync(catalogue[0].file));
    const gray = await grayOf(shot);
    const box = contentBox(gray);
    // the picture fills the width; the screen above and below it is cut
    expect(box.left).toBe(0);
    expect(box.right).toBe(0);
    expect(box.top).toBeGreaterThan(0.15);
    expect(box.bottom).toBeGreaterThan(0.15);
  });

  it("put the right picture first for the shoppers' photos of it, each way they arrive, and checked", async () => {
    // every way, on every third picture (the bench runs them all)
    const outcomes: Array<{ way: string; name: string; rank: number }> = [];
    for (const [way, transform] of QUERY_TRANSFORMS) {
      for (const photo of catalogue.filter((_, n) => n % 3 === 0)) {
        const order = await ranked(await transform(fs.readFileSync(photo.file)));
        // 0: not matched at all
        const rank = order.findIndex((entry) => entry.name === photo.name) + 1;
        outcomes.push({ way, name: photo.name, rank });
      }
    }
    const first = outcomes.filter((outcome) => outcome.rank === 1).length / outcomes.length;
    const inFive = outcomes.filter((outcome) => outcome.rank >= 1 && outcome.rank <= 5).length / outcomes.length;
    expect(first, JSON.stringify(outcomes.filter((outcome) => outcome.rank !== 1))).toBeGreaterThanOrEqual(0.9);
    expect(inFive, JSON.stringify(outcomes.filter((outcome) => outcome.rank === 0))).toBeGreaterThanOrEqual(0.97);
  }, 120_000);

  it("find nothing close enough for photos of things not in the catalogue", async () => {
    const found: string[][] = [];
    for (const photo of fixturePhotos("elsewhere")) {
      const input = fs.readFileSync(photo.file);
      for (const query of [input, await QUERY_TRANSFORMS[0][1](input), await QUERY_TRANSFORMS[5][1](input)])
        found.push((await ranked(query)).map((entry) => entry.name));
    }
    const rejected = found.filter((names) => names.length === 0).length / found.length;
    expect(rejected, JSON.stringify(found)).toBeGreaterThanOrEqual(0.95);
  }, 60_000);

  it("search from a stored picture by its own checks, or by its hashes alone when it was fingerprinted before checks", () => {
    const own = stored[7];
    const checked = matchingPictures(storedQuery(own.fingerprint, own.checks), stored);
    expect(checked[0]).toMatchObject({ name: own.name, distance: 0, check: 0 });
    const unchecked = matchingPictures(storedQuery(own.fingerprint, null), stored);
    expect(unchecked[0]).toMatchObject({ name: own.name, distance: 0 });
    expect(unchecked.every((entry) => entry.distance <= PHOTO_MATCH_MAX_DISTANCE)).toBe(true);
  });

  it("refuse to compare plain pictures: one colour has no shape, and a plain query finds nothing", async () => {
    const plain = (colour: string) =>
      sharp({ create: { width: 400, height: 300, channels: 3, background: colour } })
        .jpeg()
        .toBuffer();
    await expect(fingerprintPhoto(await plain("#ffffff"))).rejects.toThrow(PhotoTooPlain);
    await expect(fingerprintPhoto(await plain("#3366cc"))).rejects.toThrow(PhotoTooPlain);
    expect(await queryHashes(await plain("#f0f0f0"))).toEqual([]);
    expect((await photoQuery(await plain("#f0f0f0"))).hashes).toEqual([]);
    expect(matchingPictures(await photoQuery(await plain("#f0f0f0")), stored)).toEqual([]);
    // a photograph on a wide white margin keeps its shape: its plain windows take its content's hash
    const photo = fs.readFileSync(catalogue[1].file);
    const framed = await sharp(photo).extend({ top: 300, bottom: 300, left: 300, right: 300, background: "#ffffff" }).jpeg().toBuffer();
    const { hashes: fingerprint, checks } = await fingerprintPicture(framed);
    expect(fingerprint).toHaveLength(19);
    expect(checks).toHaveLength(19 * 8);
    expect(matchingPictures(await photoQuery(photo), [{ fingerprint, checks }])[0].distance).toBeLessThanOrEqual(PHOTO_MATCH_MAX_DISTANCE);
  });

  it("tell the same photograph from pictures alike only in layout by their detail hashes", async () => {
    const photo = fs.readFileSync(catalogue[3].file);
    const original = await fingerprintPicture(photo);
    const copy = await fingerprintPicture(await QUERY_TRANSFORMS[0][1](photo));
    const recompressed = await fingerprintPicture(await QUERY_TRANSFORMS[1][1](photo));
    expect(original.detail).toMatch(/^[0-9a-f]{64}$/);
    expect(detailDistance(original.detail, copy.detail)).toBeLessThanOrEqual(SAME_PICTURE_MAX_DETAIL);
    expect(detailDistance(original.detail, recompressed.detail)).toBeLessThanOrEqual(SAME_PICTURE_MAX_DETAIL);
    const other = await fingerprintPicture(fs.readFileSync(catalogue[4].file));
    expect(detailDistance(original.detail, other.detail)).toBeGreaterThan(SAME_PICTURE_MAX_DETAIL);
    // pictures alike only in layout: tests/integration/photo-demo.test.ts (the demo catalogue)
  });

  it("refuse a picture over the pixel limit before decoding it", async () => {
    // a 9000 × 9000 PNG of one colour: small on disk, 81 million pixels
    const huge = await sharp({ create: { width: 9000, height: 9000, channels: 3, background: "#888" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    await expect(fingerprintPhoto(huge)).rejects.toThrow(/pixel limit/i);
  });
});
