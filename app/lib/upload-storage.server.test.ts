/**
 * Both storages against the real thing: a folder on disk and an S3 API (s3rver over
 * HTTP, signed by aws4fetch as in production). The same contract for each: put, get,
 * exists, remove (a missing key is fine), list; then what only one of them has.
 */
import fs from "node:fs";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeS3, type FakeS3 } from "../../tests/fakes/s3";
import { TMP_ROOT } from "../../tests/setup/paths";
import { freePort } from "../../tests/setup/server";
import {
  BucketStorage,
  FolderStorage,
  parseListPage,
  resolveUploadPath,
  uploadKeyOf,
  uploadStorageFor,
  urlOfKey,
  type UploadStorage,
} from "./upload-storage.server";

let s3: FakeS3;
let folder: string;

beforeAll(async () => {
  s3 = await startFakeS3({ buckets: ["bucket", "paged"] });
  fs.mkdirSync(TMP_ROOT, { recursive: true });
  folder = fs.mkdtempSync(path.join(TMP_ROOT, "uploads-"));
});

afterAll(async () => {
  await s3?.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

let counter = 0;
const newKey = (kind = "qc") => `${kind}/2026-11/${Date.now().toString(16)}-${(counter += 1)}.webp`;
const bytes = (text: string) => Buffer.from(text, "utf8");

const storages: Array<[string, () => UploadStorage]> = [
  ["the folder", () => new FolderStorage(folder)],
  ["the bucket", () => new BucketStorage(s3.config())],
];

describe.each(storages)("%s", (_name, make) => {
  it("puts a file and gets the same bytes back, with its size and type", async () => {
    const storage = make();
    const key = newKey();
    await storage.put(key, bytes("a QC photo"), "image/webp");
    const stored = await storage.get(key);
    expect(stored).not.toBeNull();
    expect(stored!.size).toBe(10);
    expect(stored!.contentType).toBe("image/webp");
    expect((await buffer(stored!.body)).toString("utf8")).toBe("a QC photo");
    expect(await storage.exists(key)).toBe(true);
  });

  it("answers null and false for a key with no file", async () => {
    const storage = make();
    expect(await storage.get(newKey())).toBeNull();
    expect(await storage.exists(newKey())).toBe(false);
  });

  it("removes a file, and removing one that is not there is fine", async () => {
    const storage = make();
    const key = newKey("avatars");
    await storage.put(key, bytes("an avatar"), "image/webp");
    await storage.remove(key);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();
    await expect(storage.remove(key)).resolves.toBeUndefined();
  });

  it("lists every file with its size", async () => {
    const storage = make();
    const keys = [newKey("products"), newKey("blog"), newKey("products")];
    for (const [i, key] of keys.entries()) await storage.put(key, bytes("x".repeat(i + 1)), "image/webp");
    const listed = new Map<string, number>();
    for await (const { key, size } of storage.list()) listed.set(key, size);
    expect(keys.map((key) => listed.get(key))).toEqual([1, 2, 3]);
  });

  it.each(["../outside.webp", "qc/../../outside.webp", "/etc/passwd", "qc/.hidden", "qc//a.webp", "qc\\a.webp", "C:/a.webp", ""])(
    "refuses the key %j",
    async (key) => {
      const storage = make();
      await expect(storage.put(key, bytes("no"), "image/webp")).rejects.toThrow("not an upload key");
      await expect(storage.get(key)).rejects.toThrow("not an upload key");
      await expect(storage.remove(key)).rejects.toThrow("not an upload key");
    },
  );
});

describe("the folder", () => {
  it("writes through a .part file that never stays, and leaves dot-files and .part files out of its list", async () => {
    const storage = new FolderStorage(folder);
    const key = newKey();
    await storage.put(key, bytes("whole"), "image/webp");
    const file = path.join(folder, ...key.split("/"));
    expect(fs.existsSync(`${file}.part`)).toBe(false);
    fs.writeFileSync(`${file}.part`, "half");
    fs.writeFileSync(path.join(folder, ".secret"), "dot file");
    const listed: string[] = [];
    for await (const { key: listedKey } of storage.list()) listed.push(listedKey);
    expect(listed).toContain(key);
    expect(listed.some((name) => name.endsWith(".part") || name.includes(".secret"))).toBe(false);
  });

  it("does not follow a symlink out of the folder", async () => {
    const outside = path.join(TMP_ROOT, `outside-${Date.now()}.webp`);
    fs.writeFileSync(outside, "outside");
    fs.mkdirSync(path.join(folder, "qc"), { recursive: true });
    fs.symlinkSync(outside, path.join(folder, "qc", "link.webp"));
    const storage = new FolderStorage(folder);
    expect(await storage.get("qc/link.webp")).toBeNull();
    expect(await storage.exists("qc/link.webp")).toBe(false);
    fs.rmSync(outside);
  });

  it("lists nothing for a folder that does not exist", async () => {
    const listed = [];
    for await (const entry of new FolderStorage(path.join(folder, "none")).list()) listed.push(entry);
    expect(listed).toEqual([]);
  });
});

describe("the bucket", () => {
  it("stores the type and an immutable Cache-Control on the object", async () => {
    const storage = new BucketStorage(s3.config());
    const key = newKey();
    await storage.put(key, bytes("cached for good"), "image/webp");
    const response = await storage.fetchObject(key, "HEAD", {});
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("hands ranges and conditional answers to its caller: 206, 304, 416, 404", async () => {
    const storage = new BucketStorage(s3.config());
    const key = newKey();
    await storage.put(key, bytes("0123456789"), "image/webp");
    const whole = await storage.fetchObject(key, "GET", {});
    const etag = whole.headers.get("etag")!;
    expect(await whole.text()).toBe("0123456789");
    const part = await storage.fetchObject(key, "GET", { range: "bytes=2-5" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 2-5/10");
    expect(await part.text()).toBe("2345");
    expect((await storage.fetchObject(key, "GET", { "if-none-match": etag })).status).toBe(304);
    expect((await storage.fetchObject(key, "GET", { range: "bytes=50-60" })).status).toBe(416);
    expect((await storage.fetchObject(newKey(), "GET", {})).status).toBe(404);
  });

  it("lists a bucket of more than one page (continuation tokens)", async () => {
    const storage = new BucketStorage(s3.config("paged"));
    const keys = Array.from({ length: 1005 }, (_, i) => `qc/2026-11/${String(i).padStart(5, "0")}.webp`);
    for (let i = 0; i < keys.length; i += 50)
      await Promise.all(keys.slice(i, i + 50).map((key) => storage.put(key, bytes("p"), "image/webp")));
    const listed: string[] = [];
    for await (const { key } of storage.list()) listed.push(key);
    expect(listed.sort()).toEqual(keys);
  });

  it("fails with the bucket's name and the status: a bucket that does not exist, a store that is down", async () => {
    const missing = new BucketStorage(s3.config("no-such-bucket"));
    await expect(missing.put(newKey(), bytes("x"), "image/webp")).rejects.toThrow(/bucket no-such-bucket failed: 404 \(NoSuchBucket/);
    const list = async () => {
      for await (const entry of missing.list()) return entry;
    };
    await expect(list()).rejects.toThrow(/ListObjectsV2 in the bucket no-such-bucket failed: 404/);
    const down = new BucketStorage({ ...s3.config(), endpoint: `http://127.0.0.1:${await freePort()}` });
    await expect(down.exists(newKey())).rejects.toThrow(/HeadObject .* in the bucket bucket failed: .*ECONNREFUSED/);
  });

  it("reads keys and tokens with XML entities", () => {
    const page = parseListPage(
      "<ListBucketResult><IsTruncated>true</IsTruncated><NextContinuationToken>a&amp;b</NextContinuationToken>" +
        "<Contents><Key>qc/a&amp;b&#60;c.webp</Key><Size>12</Size></Contents></ListBucketResult>",
    );
    expect(page).toEqual({ objects: [{ key: "qc/a&b<c.webp", size: 12 }], nextToken: "a&b" });
  });
});

describe("keys from addresses", () => {
  it("decodes the part after /uploads/ and refuses what escapes", () => {
    expect(uploadKeyOf("/qc/2026-11/a.webp")).toBe("qc/2026-11/a.webp");
    expect(uploadKeyOf("/qc/%E4%B8%AD.jpg")).toBe("qc/中.jpg");
    for (const raw of ["/../a", "/%2e%2e/a", "/%252e%252e/a", "//etc/passwd", "/.hidden", "/qc/", "/%E0%A4%A"]) {
      expect(uploadKeyOf(raw), raw).toBeNull();
    }
    expect(resolveUploadPath("/srv/uploads", "/qc/a.webp")).toBe(path.join("/srv/uploads", "qc", "a.webp"));
  });

  it("makes public addresses with each name encoded", () => {
    expect(urlOfKey("https://cdn.example/media/", "qc/2026-11/a b.webp")).toBe("https://cdn.example/media/qc/2026-11/a%20b.webp");
  });

  it("chooses the bucket when UPLOADS_S3 is set, else the folder", () => {
    expect(uploadStorageFor({ UPLOADS_DIR: folder, UPLOADS_S3: undefined }).kind).toBe("folder");
    expect(uploadStorageFor({ UPLOADS_DIR: folder, UPLOADS_S3: s3.config() }).kind).toBe("bucket");
  });
});
