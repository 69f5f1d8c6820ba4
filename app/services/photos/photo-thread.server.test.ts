/**
 * The photo worker thread (decision 050) against the compiled worker, build/server/photo-worker.js
 * (`npm test` builds before vitest runs): what it answers is what this thread works out,
 * a plain picture is refused the same way, and work survives the worker going away.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { fixturePhotos, QUERY_TRANSFORMS } from "../../../tests/setup/photo-queries";
import { CHECK_WORDS, fingerprintPicture, photoQuery, PhotoTooPlain } from "./fingerprint.server";
import { closePhotoWorker, fingerprintPictureOffThread, photoQueryOffThread } from "./photo-thread.server";

const catalogue = fixturePhotos("catalogue");

afterAll(() => closePhotoWorker());

describe("the photo worker thread", () => {
  it("is the compiled one", () => {
    expect(fs.existsSync(path.join(process.cwd(), "build", "server", "photo-worker.js")), "run npm run build first").toBe(true);
  });

  it("fingerprints a stored picture as this thread does", async () => {
    const input = fs.readFileSync(catalogue[2].file);
    const off = await fingerprintPictureOffThread(input);
    expect(globalThis.__photoWorker, "the worker answered").toBeDefined();
    const here = await fingerprintPicture(input);
    expect(off.hashes).toEqual(here.hashes);
    expect(Array.from(off.checks)).toEqual(Array.from(here.checks));
    expect(off.detail).toBe(here.detail);
  });

  it("makes a shopper's photo into the same query: its hashes and every window's checks", async () => {
    const stored = await fingerprintPicture(fs.readFileSync(catalogue[5].file));
    const photo = await QUERY_TRANSFORMS[4][1](fs.readFileSync(catalogue[5].file));
    const off = await photoQueryOffThread(photo);
    const here = await photoQuery(photo);
    expect(off.hashes).toEqual(here.hashes);
    expect(off.hashes.length).toBeGreaterThan(0);
    for (let index = 0; index < here.hashes.length; index++)
      for (let window = 0; window < stored.hashes.length; window++)
        expect(off.checkDistance(index, stored.checks, window * CHECK_WORDS)).toBe(
          here.checkDistance(index, stored.checks, window * CHECK_WORDS),
        );
  });

  it("refuses a plain picture as this thread does", async () => {
    const plain = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#ffffff" } })
      .jpeg()
      .toBuffer();
    await expect(fingerprintPictureOffThread(plain)).rejects.toThrow(PhotoTooPlain);
  });

  it("finishes the work in this thread when the worker goes away in the middle, and starts a new one after", async () => {
    const input = fs.readFileSync(catalogue[8].file);
    const expected = await fingerprintPicture(input);
    await fingerprintPictureOffThread(input);
    const first = globalThis.__photoWorker;
    const working = fingerprintPictureOffThread(input);
    // the worker is asked once the picture is decoded: close it while that answer is pending
    while (!first?.pending.size) await new Promise((resolve) => setTimeout(resolve, 1));
    await closePhotoWorker();
    expect((await working).hashes).toEqual(expected.hashes);
    await fingerprintPictureOffThread(input);
    expect(globalThis.__photoWorker).toBeDefined();
    expect(globalThis.__photoWorker).not.toBe(first);
  });
});
