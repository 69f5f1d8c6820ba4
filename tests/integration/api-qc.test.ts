/**
 * QC photos over real HTTP: the spec's upload rules and messages, the content check, a
 * decompression bomb, EXIF removal, the 10-per-product allowance (also under parallel
 * uploads), the review state machine, permissions per action, the rate limit, and file
 * deletion with rejections, deletions and products.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { gif, jpeg, jpegWithExif, notAnImage, png, pngBomb } from "../setup/images";
import { startTestServer, type TestServer } from "../setup/server";

let server: TestServer;
let admin: string;
let permissionIds: Record<string, number>;
let adminRoleId: number;
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter += 1)}`;

type Person = { token: string; id: number };

async function makeUser(options: { admin?: boolean; permissions?: string[] } = {}): Promise<Person> {
  const email = `${unique("qc")}@example.com`;
  const made = await api(server.url, "/api/admin/users", {
    token: admin,
    body: { username: unique("qcuser"), email, password: "qc-password", ...(options.admin ? { roleIds: [adminRoleId] } : {}) },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  for (const name of options.permissions ?? []) {
    const granted = await api(server.url, `/api/admin/users/${made.body.data.id}/permissions/${permissionIds[name]}`, {
      method: "POST",
      token: admin,
    });
    expect(granted.status, JSON.stringify(granted.body)).toBeLessThan(300);
  }
  const login = await apiLogin(server.url, email, "qc-password");
  return { token: login.accessToken, id: login.user.id };
}

async function makeProduct(): Promise<number> {
  const made = await api(server.url, "/api/admin/products", { token: admin, body: { name: unique("QC product ") } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.data.id;
}

type FileSpec = { name: string; bytes: Buffer; type?: string };

function form(field: string, files: FileSpec[]): FormData {
  const body = new FormData();
  for (const file of files) body.append(field, new Blob([new Uint8Array(file.bytes)], { type: file.type ?? "image/jpeg" }), file.name);
  return body;
}

async function photos(count: number): Promise<FileSpec[]> {
  return Promise.all(Array.from({ length: count }, async (_, i) => ({ name: `photo-${i + 1}.jpg`, bytes: await jpeg() })));
}

const userUpload = (productId: number | string, token: string | null, files: FileSpec[]) =>
  api(server.url, `/api/qc/products/${productId}/qc-images/user`, { token: token ?? undefined, body: form("photos", files) });
const adminUpload = (productId: number, token: string, files: FileSpec[]) =>
  api(server.url, `/api/qc/products/${productId}/qc-images/admin`, { token, body: form("qcImages", files) });
const review = (id: number, token: string, status: string, reason?: string) =>
  api(server.url, `/api/qc/qc-images/${id}/review`, { method: "PUT", token, body: { status, reason } });
const gallery = async (productId: number) => (await api(server.url, `/api/qc/products/${productId}/qc-images`)).body;
const statusOf = async (productId: number, token: string) =>
  (await api(server.url, `/api/qc/products/${productId}/qc-images/user/status`, { token })).body;
const fileOf = (url: string) => path.join(server.dataDir, "uploads", url.replace(/^\/uploads\//, ""));

let shopper: Person;
let reviewer: Person;
let approver: Person;
let deleter: Person;
let staffWithoutQc: Person;

beforeAll(async () => {
  server = await startTestServer();
  admin = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  const permissions = await api(server.url, "/api/admin/permissions", { token: admin });
  permissionIds = Object.fromEntries(permissions.body.data.map((p: { name: string; id: number }) => [p.name, p.id]));
  const roles = await api(server.url, "/api/admin/roles", { token: admin });
  adminRoleId = roles.body.data.find((r: { name: string }) => r.name === "admin").id;
  [shopper, reviewer, approver, deleter, staffWithoutQc] = await Promise.all([
    makeUser(),
    makeUser({ admin: true, permissions: ["qc.review"] }),
    makeUser({ admin: true, permissions: ["qc.approve"] }),
    makeUser({ admin: true, permissions: ["qc.delete"] }),
    makeUser({ admin: true }),
  ]);
});

afterAll(async () => {
  await server?.stop();
});

describe("a shopper's upload", () => {
  it("stores photos as pending, with a display size and a thumbnail, and answers the contract's shape", async () => {
    const productId = await makeProduct();
    const response = await userUpload(productId, shopper.token, await photos(2));
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.success).toBe(true);
    expect(response.body.uploaded).toHaveLength(2);
    for (const item of response.body.uploaded) {
      expect(item).toMatchObject({ id: expect.any(Number), image_url: expect.stringMatching(/^\/uploads\/qc\//), status: "pending" });
      expect(fs.existsSync(fileOf(item.image_url))).toBe(true);
      expect(fs.existsSync(fileOf(item.thumbnail_url))).toBe(true);
      const served = await fetch(`${server.url}${item.image_url}`);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/webp");
    }
    expect(response.body.stats).toMatchObject({
      totalUploads: 2,
      pendingUploads: 2,
      approvedUploads: 0,
      rejectedUploads: 0,
      limit: 10,
      remaining: 8,
    });
    // pending photos are not in the public gallery
    expect(await gallery(productId)).toMatchObject({ success: true, qc_images: [], totalCount: 0 });
    expect(await statusOf(productId, shopper.token)).toMatchObject({ data: { totalUploads: 2, pendingUploads: 2 } });
  });

  it("keeps thumbnails small: a 1600×1200 photo gets a thumbnail of at most 400 px and under 40 KB", async () => {
    const productId = await makeProduct();
    const response = await adminUpload(productId, admin, [{ name: "big.jpg", bytes: await jpeg(1600, 1200) }]);
    expect(response.status).toBe(201);
    const [image] = (await gallery(productId)).qc_images;
    expect(Math.max(image.thumbnail_width, image.thumbnail_height)).toBeLessThanOrEqual(400);
    expect(fs.statSync(fileOf(image.thumbnail_url)).size).toBeLessThan(40 * 1024);
    expect(image).toMatchObject({ width: 1600, height: 1200 });
  });

  it("refuses more than 10 files with 'Maximum 10 files allowed'", async () => {
    const productId = await makeProduct();
    const response = await userUpload(productId, shopper.token, await photos(11));
    expect(response.status).toBe(400);
    expect(response.body.message).toBe("Maximum 10 files allowed");
    expect((await statusOf(productId, shopper.token)).data.totalUploads).toBe(0);
  });

  it("checks the bytes, not the name: a text file named .jpg and a GIF are refused by name; none valid is 'No valid files selected'", async () => {
    const productId = await makeProduct();
    const response = await userUpload(productId, shopper.token, [
      { name: "notes.jpg", bytes: notAnImage, type: "image/jpeg" },
      { name: "anim.gif", bytes: await gif(), type: "image/jpeg" },
    ]);
    expect(response.status).toBe(400);
    expect(response.body.message).toBe("No valid files selected");
    const messages = response.body.errors.map((e: { message: string }) => e.message);
    expect(messages).toContain("notes.jpg: Invalid file type. Only JPG, PNG, WEBP allowed");
    expect(messages).toContain("anim.gif: Invalid file type. Only JPG, PNG, WEBP allowed");
  });

  it("stores the valid files of a mixed selection and names each one refused (a PNG named .jpg is fine: its bytes are an image)", async () => {
    const productId = await makeProduct();
    const response = await userUpload(productId, shopper.token, [
      { name: "real.jpg", bytes: await jpeg() },
      { name: "actually-png.jpg", bytes: await png(), type: "image/jpeg" },
      { name: "big.jpg", bytes: Buffer.alloc(10 * 1024 * 1024 + 1, 1) },
      { name: "notes.txt", bytes: notAnImage, type: "text/plain" },
    ]);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.uploaded).toHaveLength(2);
    expect(response.body.errors.map((e: { message: string }) => e.message)).toEqual([
      "big.jpg: File too large. Maximum 10MB",
      "notes.txt: Invalid file type. Only JPG, PNG, WEBP allowed",
    ]);
  });

  it("answers 'No valid files selected' for an upload without files, and the spec's product messages", async () => {
    const productId = await makeProduct();
    const empty = await api(server.url, `/api/qc/products/${productId}/qc-images/user`, { token: shopper.token, body: new FormData() });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe("No valid files selected");
    for (const bad of ["abc", "0", "-1"]) {
      const response = await userUpload(bad, shopper.token, await photos(1));
      expect(response.status, bad).toBe(400);
      expect(response.body.message).toBe("Product ID missing, cannot upload QC images");
    }
    const unknown = await userUpload(999_999_999, shopper.token, await photos(1));
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("Product not found");
    const visitor = await userUpload(productId, null, await photos(1));
    expect(visitor.status).toBe(401);
  });

  it("refuses a decompression bomb (144 megapixels in 140 KB) without decoding it", async () => {
    const productId = await makeProduct();
    const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.process.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
    const before = rss();
    const response = await userUpload(productId, shopper.token, [{ name: "bomb.png", bytes: await pngBomb(), type: "image/png" }]);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { message: string }) => e.message)).toEqual([
      "bomb.png: Image too large. Maximum 40 megapixels",
      "No valid files selected",
    ]);
    // decoding it would take 144 MB at least
    expect(rss() - before).toBeLessThan(100);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("removes EXIF (camera, owner, GPS) from a stored JPEG", async () => {
    const productId = await makeProduct();
    const original = await jpegWithExif();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const response = await userUpload(productId, shopper.token, [{ name: "gps.jpg", bytes: original }]);
    expect(response.status).toBe(201);
    for (const url of [response.body.uploaded[0].image_url, response.body.uploaded[0].thumbnail_url]) {
      const stored = fs.readFileSync(fileOf(url));
      const metadata = await sharp(stored).metadata();
      expect(metadata.exif).toBeUndefined();
      expect(stored.includes(Buffer.from("PRIVATE-EXIF-MARKER"))).toBe(false);
      expect(stored.includes(Buffer.from("LeakyCam"))).toBe(false);
    }
  });
});

describe("the allowance of 10 photos per product", () => {
  it("counts pending and approved photos, with the spec's messages", async () => {
    const productId = await makeProduct();
    const person = await makeUser();
    expect((await userUpload(productId, person.token, await photos(8))).status).toBe(201);
    const tooMany = await userUpload(productId, person.token, await photos(3));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe("You can only upload 2 more photos (8/10 already uploaded)");
    expect((await userUpload(productId, person.token, await photos(2))).status).toBe(201);
    const full = await userUpload(productId, person.token, await photos(1));
    expect(full.status).toBe(400);
    expect(full.body.message).toBe("Upload limit reached (10/10)");
    expect(await statusOf(productId, person.token)).toMatchObject({ data: { totalUploads: 10, remaining: 0 } });
    // another product has its own allowance
    expect((await userUpload(await makeProduct(), person.token, await photos(1))).status).toBe(201);
  });

  it("holds under parallel uploads: six uploads of 2 photos sent at once store exactly 10", async () => {
    const productId = await makeProduct();
    const person = await makeUser();
    const batches = await Promise.all(Array.from({ length: 6 }, () => photos(2)));
    const responses = await Promise.all(batches.map((files) => userUpload(productId, person.token, files)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 400]);
    expect(await statusOf(productId, person.token)).toMatchObject({ data: { totalUploads: 10, pendingUploads: 10 } });
    // the refused batch left no files behind
    const files = fs
      .readdirSync(path.join(server.dataDir, "uploads", "qc"), { recursive: true })
      .filter((name) => String(name).endsWith(".webp"));
    const rows = responses
      .filter((r) => r.status === 201)
      .flatMap((r) => r.body.uploaded.flatMap((u: { image_url: string; thumbnail_url: string }) => [u.image_url, u.thumbnail_url]));
    for (const url of rows) expect(files.some((name) => url.endsWith(String(name).replace(/\\/g, "/")))).toBe(true);
  });

  it("records one photo sent twice at the same moment (a double press) once: the other upload is refused by its name, its files removed", async () => {
    const productId = await makeProduct();
    const person = await makeUser();
    const same = [{ name: "pressed-twice.jpg", bytes: await jpeg() }];
    const webpFiles = () =>
      fs
        .readdirSync(path.join(server.dataDir, "uploads", "qc"), { recursive: true })
        .map((name) => String(name).replace(/\\/g, "/"))
        .filter((name) => name.endsWith(".webp"));
    const before = webpFiles().length;
    const responses = await Promise.all([userUpload(productId, person.token, same), userUpload(productId, person.token, same)]);
    expect(responses.map((response) => response.status).sort()).toEqual([201, 400]);
    const refused = responses.find((response) => response.status === 400)!;
    expect(refused.body.errors).toContainEqual({
      field: "pressed-twice.jpg",
      message: "pressed-twice.jpg: You have already uploaded this photo for this product",
    });
    expect(await statusOf(productId, person.token)).toMatchObject({ data: { totalUploads: 1, pendingUploads: 1 } });
    // the kept photo's image and thumbnail, and no file of the refused upload
    const after = webpFiles();
    expect(after.length - before).toBe(2);
    const kept = responses.find((response) => response.status === 201)!.body.uploaded[0];
    for (const url of [kept.image_url, kept.thumbnail_url]) expect(after.some((name) => url.endsWith(name))).toBe(true);
  });

  it("does not limit staff with qc.upload: their photos are published at once", async () => {
    const productId = await makeProduct();
    expect((await adminUpload(productId, admin, await photos(10))).status).toBe(201);
    const more = await userUpload(productId, admin, await photos(3));
    expect(more.status).toBe(201);
    expect(more.body.uploaded.every((item: { status: string }) => item.status === "approved")).toBe(true);
    expect((await gallery(productId)).totalCount).toBe(13);
  });
});

describe("review", () => {
  it("approves into the gallery; a second review of the same photo is 'already processed'; rejection deletes the files and keeps the reason", async () => {
    const productId = await makeProduct();
    const person = await makeUser();
    const sent = await userUpload(productId, person.token, await photos(2));
    const [first, second] = sent.body.uploaded as Array<{ id: number; image_url: string; thumbnail_url: string }>;

    const pending = await api(server.url, "/api/qc/qc-images/pending?limit=100", { token: reviewer.token });
    expect(pending.status).toBe(200);
    expect(pending.body.images.map((image: { id: number }) => image.id)).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(pending.body.pagination).toMatchObject({ currentPage: 1, limit: 100 });
    const entry = pending.body.images.find((image: { id: number }) => image.id === first.id);
    expect(entry).toMatchObject({
      product_id: productId,
      product_name: expect.stringContaining("QC product"),
      status: "pending",
      uploaded_by_username: expect.any(String),
    });

    const approved = await review(first.id, reviewer.token, "approved");
    expect(approved.status).toBe(200);
    expect(approved.body.data.status).toBe("approved");
    expect((await gallery(productId)).qc_images.map((image: { id: number }) => image.id)).toEqual([first.id]);
    const product = await api(server.url, `/api/products/${productId}?incrementView=false`);
    expect(product.body.data.qc_image_count).toBe(1);

    const again = await review(first.id, reviewer.token, "rejected");
    expect(again.status).toBe(409);
    expect(again.body.message).toContain("already processed");

    const rejected = await review(second.id, reviewer.token, "rejected", "Not this item");
    expect(rejected.status).toBe(200);
    expect(fs.existsSync(fileOf(second.image_url))).toBe(false);
    expect(fs.existsSync(fileOf(second.thumbnail_url))).toBe(false);
    expect((await fetch(`${server.url}${second.image_url}`)).status).toBe(404);
    expect(await statusOf(productId, person.token)).toMatchObject({
      data: { totalUploads: 2, approvedUploads: 1, rejectedUploads: 1, pendingUploads: 0, remaining: 9 },
    });
    expect((await review(second.id, reviewer.token, "approved")).body.message).toContain("already processed");
  });

  it("answers 404 for an unknown photo and 400 for a status that is not approved or rejected", async () => {
    expect((await review(999_999, reviewer.token, "approved")).status).toBe(404);
    expect((await review(999_999, reviewer.token, "approved")).body.message).toBe("QC image not found");
    const productId = await makeProduct();
    const sent = await userUpload(productId, shopper.token, await photos(1));
    const bad = await review(sent.body.uploaded[0].id, reviewer.token, "maybe");
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("status");
  });
});

describe("permissions per action", () => {
  it("review needs qc.review / qc.approve / qc.reject; approving and rejecting each their own", async () => {
    const productId = await makeProduct();
    const sent = await userUpload(productId, shopper.token, await photos(2));
    const [one, two] = sent.body.uploaded as Array<{ id: number }>;
    for (const token of [shopper.token, staffWithoutQc.token, deleter.token]) {
      expect((await api(server.url, "/api/qc/qc-images/pending", { token })).status).toBe(403);
      const refused = await review(one.id, token, "approved");
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe("权限不足，需要管理员权限");
    }
    // qc.approve may approve, not reject
    expect((await review(one.id, approver.token, "rejected")).status).toBe(403);
    expect((await review(one.id, approver.token, "approved")).status).toBe(200);
    expect((await review(two.id, reviewer.token, "rejected")).status).toBe(200);
    expect((await api(server.url, "/api/qc/qc-images/pending")).status).toBe(401);
  });

  it("delete needs qc.delete, and removes the photo's files", async () => {
    const productId = await makeProduct();
    const sent = await adminUpload(productId, admin, await photos(1));
    const image = sent.body.uploadedImages[0];
    expect(image.imageUrl).toMatch(/^\/uploads\/qc\//);
    for (const token of [shopper.token, reviewer.token, staffWithoutQc.token]) {
      expect((await api(server.url, `/api/qc/qc-images/${image.id}`, { method: "DELETE", token })).status).toBe(403);
    }
    const deleted = await api(server.url, `/api/qc/qc-images/${image.id}`, { method: "DELETE", token: deleter.token });
    expect(deleted.status).toBe(200);
    expect(fs.existsSync(fileOf(image.imageUrl))).toBe(false);
    expect(fs.existsSync(fileOf(image.thumbnail_url))).toBe(false);
    expect((await gallery(productId)).totalCount).toBe(0);
    expect((await api(server.url, `/api/qc/qc-images/${image.id}`, { method: "DELETE", token: deleter.token })).status).toBe(404);
  });

  it("the admin upload needs qc.upload; the folder list needs QC access", async () => {
    const productId = await makeProduct();
    for (const token of [shopper.token, staffWithoutQc.token, reviewer.token]) {
      expect((await adminUpload(productId, token, await photos(1))).status).toBe(403);
    }
    expect((await api(server.url, "/api/products/with-qc", { token: shopper.token })).status).toBe(403);
    expect((await adminUpload(productId, admin, await photos(2))).status).toBe(201);
    const withQc = await api(server.url, `/api/products/with-qc?filterType=withQC&searchTerm=${productId}`, { token: reviewer.token });
    expect(withQc.status).toBe(200);
    // a number matches the product id (and names holding it)
    const folder = withQc.body.data.find((item: { id: number }) => item.id === productId);
    expect(folder).toMatchObject({ id: productId, qc_image_count: 2, pending_qc_count: 0 });
    expect(folder.qc_images).toHaveLength(2);
    expect(withQc.body.data.every((item: { qc_image_count: number }) => item.qc_image_count > 0)).toBe(true);
    expect(withQc.body.pagination).toMatchObject({ currentPage: 1, limit: 20 });
    const without = await api(server.url, `/api/products/with-qc?filterType=withoutQC&searchTerm=${productId}`, { token: admin });
    expect(without.body.data.some((item: { id: number }) => item.id === productId)).toBe(false);
    expect(without.body.data.every((item: { qc_image_count: number }) => item.qc_image_count === 0)).toBe(true);
  });
});

describe("limits and clean-up", () => {
  it("limits a shopper's uploads per hour: 429 'Too many requests, please try again later'", async () => {
    const productId = await makeProduct();
    const person = await makeUser();
    const tiny = [{ name: "notes.txt", bytes: notAnImage, type: "text/plain" }];
    for (let i = 0; i < 20; i++) expect((await userUpload(productId, person.token, tiny)).status).toBe(400);
    const limited = await userUpload(productId, person.token, await photos(1));
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe("Too many requests, please try again later");
  });

  it("deleting a product deletes its QC photos' files", async () => {
    const productId = await makeProduct();
    const sent = await adminUpload(productId, admin, await photos(1));
    const pending = await userUpload(productId, shopper.token, await photos(1));
    const urls = [sent.body.uploadedImages[0].imageUrl, sent.body.uploadedImages[0].thumbnail_url, pending.body.uploaded[0].image_url];
    for (const url of urls) expect(fs.existsSync(fileOf(url))).toBe(true);
    expect((await api(server.url, `/api/admin/products/${productId}`, { method: "DELETE", token: admin })).status).toBe(200);
    for (const url of urls) expect(fs.existsSync(fileOf(url))).toBe(false);
    expect((await api(server.url, `/api/qc/products/${productId}/qc-images`)).status).toBe(404);
  });
});
