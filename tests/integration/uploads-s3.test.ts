/**
 * Uploads in an S3-compatible bucket, over real HTTP: the built server against a real S3
 * API (s3rver, tests/fakes/s3.ts). Uploads land in the bucket and never in the folder;
 * /uploads/... streams them with the folder's headers, HEAD, 304 and ranges; paths that
 * escape and keys the bucket lacks answer 404; deleting an upload deletes its object;
 * UPLOADS_PUBLIC_URL turns /uploads/... into a redirect; `npm run uploads:copy` moves a
 * folder made without the bucket into it, after which every upload is served (0 broken).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BucketStorage } from "~/lib/upload-storage.server";
import { startFakeS3, type FakeS3 } from "../fakes/s3";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { jpeg, png } from "../setup/images";
import { makeDataDir, runScript, startTestServer, type TestServer } from "../setup/server";
import { rawGet } from "./http";

let s3: FakeS3;

beforeAll(async () => {
  s3 = await startFakeS3({ buckets: ["uploads", "public", "copied", "empty"] });
});

afterAll(async () => {
  await s3?.close();
});

const keyOf = (url: string) => url.replace(/^\/uploads\//, "");
const bucketNamed = (name: string) => new BucketStorage(s3.config(name));
const bytesIn = async (bucket: BucketStorage, key: string) => buffer((await bucket.get(key))!.body);
const newKey = () => `qc/2026-11/${crypto.randomUUID()}.webp`;

let productCounter = 0;

/** The calls the tests make as the super admin: a product, QC photos for it, an avatar. */
async function adminSession(server: TestServer) {
  const token = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  const makeProduct = async () => {
    const made = await api(server.url, "/api/admin/products", {
      token,
      body: { name: `S3 product ${Date.now()}-${(productCounter += 1)}` },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body.data.id as number;
  };
  const uploadQc = async (productId: number, count = 1) => {
    const form = new FormData();
    for (let i = 0; i < count; i++)
      form.append("qcImages", new Blob([new Uint8Array(await jpeg())], { type: "image/jpeg" }), `qc-${i}.jpg`);
    const response = await api(server.url, `/api/qc/products/${productId}/qc-images/admin`, { token, body: form });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.uploadedImages as Array<{ id: number; image_url: string; thumbnail_url: string }>;
  };
  const setAvatar = async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(await png())], { type: "image/png" }), "avatar.png");
    const uploaded = await api(server.url, "/api/upload/avatar", { token, body: form });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const set = await api(server.url, "/api/users/me", { method: "PUT", token, body: { avatarUrl: uploaded.body.url } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    return uploaded.body.url as string;
  };
  const deleteQc = (id: number) => api(server.url, `/api/qc/qc-images/${id}`, { method: "DELETE", token });
  return { makeProduct, uploadQc, setAvatar, deleteQc };
}

describe("a server whose uploads go to the bucket", () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof adminSession>>;
  let photo: { id: number; image_url: string; thumbnail_url: string };
  const bucket = () => bucketNamed("uploads");

  beforeAll(async () => {
    server = await startTestServer({ env: s3.env("uploads") });
    admin = await adminSession(server);
    [photo] = await admin.uploadQc(await admin.makeProduct());
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("stores an uploaded QC photo and its thumbnail in the bucket, never in the uploads folder", async () => {
    for (const url of [photo.image_url, photo.thumbnail_url]) {
      expect(url).toMatch(/^\/uploads\/qc\/\d{4}-\d{2}\/[0-9a-f-]{36}\.webp$/);
      expect(await bucket().exists(keyOf(url)), url).toBe(true);
      expect(fs.existsSync(path.join(server.dataDir, "uploads", keyOf(url))), url).toBe(false);
    }
    expect(server.output()).toContain("uploads in the bucket uploads at");
  });

  it("serves the object's bytes with its type, length, validators, an immutable Cache-Control and the folder's safety headers", async () => {
    const response = await fetch(`${server.url}${photo.image_url}`);
    expect(response.status).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(await bytesIn(bucket(), keyOf(photo.image_url)))).toBe(true);
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(response.headers.get("content-length")).toBe(String(body.length));
    expect(response.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
    expect(response.headers.get("last-modified")).toMatch(/GMT$/);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
  });

  it("answers HEAD with the headers and no body", async () => {
    const whole = await fetch(`${server.url}${photo.image_url}`);
    const size = (await whole.arrayBuffer()).byteLength;
    const head = await fetch(`${server.url}${photo.image_url}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(size));
    expect(head.headers.get("content-type")).toBe("image/webp");
    expect(head.headers.get("etag")).toBe(whole.headers.get("etag"));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("answers 304 to If-None-Match with the object's ETag, and 200 to another", async () => {
    const etag = (await fetch(`${server.url}${photo.image_url}`)).headers.get("etag")!;
    const unchanged = await fetch(`${server.url}${photo.image_url}`, { headers: { "If-None-Match": etag } });
    expect(unchanged.status).toBe(304);
    // (the ETag of a 304 is the bucket's to send: S3 sends it, s3rver does not)
    expect(unchanged.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await unchanged.arrayBuffer()).byteLength).toBe(0);
    const changed = await fetch(`${server.url}${photo.image_url}`, { headers: { "If-None-Match": '"0000"' } });
    expect(changed.status).toBe(200);
  });

  it("answers a range with 206 and the part, and a range past the end with 416", async () => {
    const whole = await bytesIn(bucket(), keyOf(photo.image_url));
    const part = await fetch(`${server.url}${photo.image_url}`, { headers: { Range: "bytes=0-9" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-9/${whole.length}`);
    expect(part.headers.get("content-length")).toBe("10");
    expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(0, 10))).toBe(true);
    const past = await fetch(`${server.url}${photo.image_url}`, { headers: { Range: `bytes=${whole.length + 10}-${whole.length + 20}` } });
    expect(past.status).toBe(416);
  });

  it("answers 404 for a key the bucket does not hold, and never lets a path escape", async () => {
    expect((await fetch(`${server.url}/uploads/${newKey()}`)).status).toBe(404);
    for (const requestPath of [
      "/uploads/../secrets.json",
      "/uploads/qc/../../secrets.json",
      "/uploads/%2e%2e/secrets.json",
      "/uploads/%252e%252e/secrets.json",
      "/uploads/..%5csecrets.json",
      "/uploads//etc/passwd",
      "/uploads/.hidden",
      "/uploads/",
    ]) {
      const response = await rawGet(server.port, requestPath);
      expect(response.status, requestPath).toBeGreaterThanOrEqual(400);
      expect(response.status, requestPath).toBeLessThan(500);
    }
  });

  it("deletes the old avatar's object when the avatar is replaced", async () => {
    const first = await admin.setAvatar();
    expect(await bucket().exists(keyOf(first))).toBe(true);
    const second = await admin.setAvatar();
    expect(await bucket().exists(keyOf(first))).toBe(false);
    expect((await fetch(`${server.url}${first}`)).status).toBe(404);
    expect(await bucket().exists(keyOf(second))).toBe(true);
    expect((await fetch(`${server.url}${second}`)).status).toBe(200);
  });

  it("deletes a QC photo's objects with the photo", async () => {
    const [doomed] = await admin.uploadQc(await admin.makeProduct());
    expect((await admin.deleteQc(doomed.id)).status).toBe(200);
    for (const url of [doomed.image_url, doomed.thumbnail_url]) {
      expect(await bucket().exists(keyOf(url)), url).toBe(false);
      expect((await fetch(`${server.url}${url}`)).status, url).toBe(404);
    }
  });
});

describe("with UPLOADS_PUBLIC_URL", () => {
  let server: TestServer;
  // the bucket's own address serves as the public one: s3rver answers anonymous reads
  const publicUrl = () => `${s3.endpoint}/public`;

  beforeAll(async () => {
    server = await startTestServer({ env: { ...s3.env("public"), UPLOADS_PUBLIC_URL: publicUrl() } });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("redirects /uploads/<key> with 302 to the public address of the key, which holds the bytes", async () => {
    const key = newKey();
    await bucketNamed("public").put(key, Buffer.from("served by the CDN"), "image/webp");
    const response = await fetch(`${server.url}/uploads/${key}`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${publicUrl()}/${key}`);
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    const followed = await fetch(`${server.url}/uploads/${key}`);
    expect(await followed.text()).toBe("served by the CDN");
  });

  it("lets pages show images from there (img-src), and redirects no path that escapes", async () => {
    const page = await fetch(`${server.url}/`);
    const imgSrc = (page.headers.get("content-security-policy") ?? "").split("; ").find((directive) => directive.startsWith("img-src"));
    expect(imgSrc).toContain(s3.endpoint);
    for (const requestPath of ["/uploads/%2e%2e/secrets.json", "/uploads/.hidden"]) {
      const response = await rawGet(server.port, requestPath);
      expect(response.status, requestPath).toBe(404);
      expect(response.headers.location, requestPath).toBeUndefined();
    }
  });
});

/** Every file below a folder, as keys. */
function filesBelow(root: string): string[] {
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
}

describe("npm run uploads:copy", () => {
  it("copies a folder made without the bucket into it; a server on the bucket then serves every upload (0 broken)", async () => {
    // a server without the bucket writes to its folder
    const dataDir = makeDataDir();
    const local = await startTestServer({ dataDir });
    const admin = await adminSession(local);
    const photos = await admin.uploadQc(await admin.makeProduct(), 2);
    const avatar = await admin.setAvatar();
    await local.stop();
    const uploads = path.join(dataDir, "uploads");
    const keys = filesBelow(uploads);
    expect(keys.sort()).toEqual([avatar, ...photos.flatMap((p) => [p.image_url, p.thumbnail_url])].map(keyOf).sort());
    // half-written and hidden files are not uploads
    fs.writeFileSync(path.join(uploads, `${keys[0]}.part`), "half");
    fs.writeFileSync(path.join(uploads, ".DS_Store"), "hidden");

    const copy = () => runScript("uploads-copy", [], { DATA_DIR: dataDir, ...s3.env("copied") });
    const first = await copy();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`copied ${keys.length}, already there 0, missing 0`);
    const inBucket: string[] = [];
    for await (const { key } of bucketNamed("copied").list()) inBucket.push(key);
    expect(inBucket.sort()).toEqual(keys.sort());
    // again: nothing to copy
    const again = await copy();
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`copied 0, already there ${keys.length}, missing 0`);

    // the folder goes: what the server shows now comes from the bucket
    const moved = `${uploads}-before-the-bucket`;
    fs.renameSync(uploads, moved);
    const onBucket = await startTestServer({ dataDir, env: s3.env("copied") });
    try {
      for (const key of keys) {
        const response = await fetch(`${onBucket.url}/uploads/${key}`);
        expect(response.status, key).toBe(200);
        expect(Buffer.from(await response.arrayBuffer()).equals(fs.readFileSync(path.join(moved, key))), key).toBe(true);
      }
      expect(fs.existsSync(uploads)).toBe(false);
    } finally {
      await onBucket.stop();
    }
  });

  it("fails listing every recorded upload the bucket lacks", async () => {
    const dataDir = makeDataDir();
    const local = await startTestServer({ dataDir });
    const admin = await adminSession(local);
    const [photo] = await admin.uploadQc(await admin.makeProduct());
    await local.stop();
    const empty = path.join(dataDir, "empty-folder");
    fs.mkdirSync(empty);
    const result = await runScript("uploads-copy", ["--from", empty], { DATA_DIR: dataDir, ...s3.env("empty") });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("copied 0, already there 0, missing 2");
    expect(result.stderr).toContain(keyOf(photo.image_url));
    expect(result.stderr).toContain(keyOf(photo.thumbnail_url));
  });

  it("says in one line what it needs without the bucket's variables, or without the folder", async () => {
    const dataDir = makeDataDir();
    const noBucket = await runScript("uploads-copy", [], { DATA_DIR: dataDir });
    expect(noBucket.code).toBe(1);
    expect(noBucket.stderr.trim()).toBe(
      "uploads:copy needs the bucket: set UPLOADS_S3_ENDPOINT, UPLOADS_S3_BUCKET, UPLOADS_S3_ACCESS_KEY_ID and UPLOADS_S3_SECRET_ACCESS_KEY",
    );
    const noFolder = await runScript("uploads-copy", ["--from", path.join(dataDir, "nowhere")], { DATA_DIR: dataDir, ...s3.env("empty") });
    expect(noFolder.code).toBe(1);
    expect(noFolder.stderr.trim()).toBe(`no uploads folder at ${path.join(dataDir, "nowhere")}`);
  });
});
