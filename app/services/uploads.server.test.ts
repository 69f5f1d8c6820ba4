import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { getDb } from "~/lib/db.server";
import { getEnv } from "~/lib/env.server";
import { insertProduct } from "~/models/product.server";
import { deleteUserRow, insertUser } from "~/models/user.server";
import { findIssuedUpload, issuedPathOf, removeUpload, resolveUploadPath, storeImage, sweepUploads } from "./uploads.server";

const root = "/srv/uploads";

describe("resolveUploadPath", () => {
  it("maps ordinary paths inside the folder", () => {
    expect(resolveUploadPath(root, "/avatars/a.webp")).toBe(path.join(root, "avatars", "a.webp"));
    expect(resolveUploadPath(root, "/qc/%E4%B8%AD.jpg")).toBe(path.join(root, "qc", "中.jpg"));
  });

  it.each([
    "/../secrets.json",
    "/avatars/../../secrets.json",
    "/%2e%2e/secrets.json",
    "/%2E%2E%2Fsecrets.json",
    "/%252e%252e/secrets.json",
    "/..%5csecrets.json",
    "//etc/passwd",
    "/%2Fetc%2Fpasswd",
    "/C:/windows/win.ini",
    "/a/%00.jpg",
    "/.hidden",
    "/",
    "",
    "/%E0%A4%A",
  ])("refuses %s", (raw) => {
    expect(resolveUploadPath(root, raw)).toBeNull();
  });
});

describe("server-issued upload names", () => {
  it("recognises only the names this server makes", () => {
    const name = "/uploads/avatars/2026-11/0f8fad5b-d9cb-469f-a165-70867728950e.webp";
    expect(issuedPathOf(name)).toBe("avatars/2026-11/0f8fad5b-d9cb-469f-a165-70867728950e.webp");
    for (const url of [
      "/uploads/avatars/2026-11/../2026-11/0f8fad5b-d9cb-469f-a165-70867728950e.webp",
      "/uploads/avatars/2026-11",
      "/uploads/avatars/2026-11/me.webp",
      "/uploads/other/2026-11/0f8fad5b-d9cb-469f-a165-70867728950e.webp",
      "https://evil.example/uploads/avatars/2026-11/0f8fad5b-d9cb-469f-a165-70867728950e.webp",
      "",
      null,
    ]) {
      expect(issuedPathOf(url), String(url)).toBeNull();
    }
  });
});

describe("storing and sweeping uploads", () => {
  const png = () =>
    sharp({ create: { width: 300, height: 200, channels: 3, background: "#08f" } })
      .png()
      .toBuffer();

  it("stores a re-encoded image under a server-made name, recorded with its owner", async () => {
    const stored = await storeImage(
      new Blob([new Uint8Array(await png())]),
      "products",
      null,
      { notImage: "no", tooLarge: "big" },
      1024 * 1024,
    );
    expect(stored.url).toMatch(/^\/uploads\/products\/\d{4}-\d{2}\/[0-9a-f-]{36}\.webp$/);
    expect(stored).toMatchObject({ kind: "products", ownerId: null, width: 300, height: 200 });
    const file = path.join(getEnv().UPLOADS_DIR, stored.path);
    expect((await sharp(file).metadata()).format).toBe("webp");
    expect(await findIssuedUpload(stored.url)).toEqual(stored);
    await removeUpload(stored);
    expect(fs.existsSync(file)).toBe(false);
    expect(await findIssuedUpload(stored.url)).toBeNull();
  });

  it("refuses what is not an image of the kind's formats, whatever it is called", async () => {
    const svg = new Blob(['<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>']);
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } })
      .gif()
      .toBuffer();
    await expect(storeImage(svg, "avatars", null, { notImage: "not an image", tooLarge: "big" }, 1024 * 1024)).rejects.toThrow(
      "not an image",
    );
    // QC photos are JPEG, PNG or WEBP only
    await expect(
      storeImage(new Blob([new Uint8Array(gif)]), "qc", null, { notImage: "not an image", tooLarge: "big" }, 1024 * 1024),
    ).rejects.toThrow("not an image");
  });

  it("housekeeping removes avatar uploads nobody shows after a day, and stale temporary folders", async () => {
    const db = getDb();
    const stored = await storeImage(
      new Blob([new Uint8Array(await png())]),
      "avatars",
      null,
      { notImage: "no", tooLarge: "big" },
      1024 * 1024,
    );
    const shown = await storeImage(
      new Blob([new Uint8Array(await png())]),
      "avatars",
      null,
      { notImage: "no", tooLarge: "big" },
      1024 * 1024,
    );
    const user = await insertUser(db, {
      username: `sweep${Date.now()}`,
      email: `sweep${Date.now()}@example.test`,
      passwordHash: null,
      avatarUrl: shown.url,
    });
    const tmp = path.join(getEnv().DATA_DIR, "tmp", "upload-stale");
    fs.mkdirSync(tmp, { recursive: true });
    const old = new Date(Date.now() - 2 * 60 * 60_000);
    fs.utimesSync(tmp, old, old);

    // a young upload stays; a temporary folder over an hour old goes
    const now = await sweepUploads();
    expect(now.avatars).toBe(0);
    expect(now.tmp).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(tmp)).toBe(false);
    const swept = await sweepUploads(Date.now() + 25 * 60 * 60_000);
    expect(swept.avatars).toBeGreaterThanOrEqual(1);
    expect(await findIssuedUpload(stored.url)).toBeNull();
    expect(fs.existsSync(path.join(getEnv().UPLOADS_DIR, stored.path))).toBe(false);
    // the one a user shows stays
    expect(await findIssuedUpload(shown.url)).not.toBeNull();
    await deleteUserRow(db, user.id);
  });

  it("housekeeping removes product images nothing shows after a day, and keeps every one a product, SKU or text shows", async () => {
    const db = getDb();
    const image = () =>
      storeImage(new Blob([new Uint8Array(sharpPng)]), "products", null, { notImage: "no", tooLarge: "big" }, 1024 * 1024);
    const sharpPng = await png();
    const [orphan, gallery, written, sku, described] = [await image(), await image(), await image(), await image(), await image()];
    // the gallery names one by its path, another by the site's full address; a SKU shows one; a description links one
    await insertProduct(
      db,
      {
        name: `Sweep ${Date.now()}`,
        images: [gallery.url, `https://shop.example${written.url}`],
        description: `<p>See <img src="${described.url}"></p>`,
      },
      [{ name: "Red", priceCny: 1, stock: 1, thumbnailUrl: sku.url }],
      null,
    );

    expect((await sweepUploads()).products).toBe(0);
    expect(await findIssuedUpload(orphan.url)).not.toBeNull();

    const swept = await sweepUploads(Date.now() + 25 * 60 * 60_000);
    expect(swept.products).toBeGreaterThanOrEqual(1);
    expect(await findIssuedUpload(orphan.url)).toBeNull();
    expect(fs.existsSync(path.join(getEnv().UPLOADS_DIR, orphan.path))).toBe(false);
    for (const kept of [gallery, written, sku, described]) {
      expect(await findIssuedUpload(kept.url), kept.url).not.toBeNull();
      expect(fs.existsSync(path.join(getEnv().UPLOADS_DIR, kept.path))).toBe(true);
    }
  });
});
