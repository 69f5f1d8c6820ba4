/**
 * Search by photo and "the same item elsewhere" (issue 38) through the real server: real
 * photographs (tests/fixtures/photos) uploaded as product images and QC photos, the
 * fingerprints made by the background sync, and shoppers' photos made from them the way
 * they arrive (tests/setup/photo-queries.ts). On SQLite, and on PostgreSQL behind two
 * instances when the suite runs there (each instance's index follows the other's writes).
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, createProduct, TEST_ADMIN } from "../setup/api-client";
import { formLogin } from "../setup/page-client";
import { fixturePhotos, QUERY_TRANSFORMS } from "../setup/photo-queries";
import { startTestServer, type TestServer } from "../setup/server";
import { waitFor } from "../setup/wait";

let server: TestServer;
let token: string;
const catalogue = fixturePhotos("catalogue");
const strangers = fixturePhotos("elsewhere");
const transform = (name: string) => QUERY_TRANSFORMS.find(([label]) => label === name)![1];

type Made = { id: number; path: string; image: string; photo: Buffer };
const products: Made[] = [];
let reseller: { id: number; path: string };
let qcProduct: { id: number; qcUrl: string; photo: Buffer };

function imageForm(field: string, bytes: Buffer, name = "photo.jpg", type = "image/jpeg"): FormData {
  const body = new FormData();
  body.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  return body;
}

async function uploadProductImage(bytes: Buffer): Promise<string> {
  const uploaded = await api(server.url, "/api/products/upload-image", { token, body: imageForm("image", bytes) });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  return uploaded.body.data.imageUrl as string;
}

const searchPhoto = (bytes: Buffer, name = "query.jpg", type = "image/jpeg") =>
  api(server.url, "/api/search/photo", { body: imageForm("image", bytes, name, type) });

const productJson = async (id: number) => (await api(server.url, `/api/products/${id}?incrementView=false`)).body.data;

function uploadsOnDisk(): number {
  const root = path.join(server.dataDir, "uploads");
  let count = 0;
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else count += 1;
    }
  };
  if (fs.existsSync(root)) walk(root);
  return count;
}

beforeAll(async () => {
  server = await startTestServer();
  token = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  for (const [at, photo] of catalogue.slice(0, 6).entries()) {
    const bytes = fs.readFileSync(photo.file);
    const image = await uploadProductImage(bytes);
    const made = await createProduct(server.url, token, {
      name: `Photo product ${photo.name}`,
      price_cny: 100 + at * 10,
      platform: "weidian",
      platform_item_id: String(7100000 + at),
      main_images: [image],
    });
    products.push({ ...made, image, photo: bytes });
  }
  // another seller re-uses the first product's picture (re-encoded smaller, as resellers do), cheaper
  const resold = await uploadProductImage(await transform("downscaled to 40 %")(products[0].photo));
  reseller = await createProduct(server.url, token, {
    name: "Reseller listing of the same item",
    price_cny: 59,
    platform: "taobao",
    platform_item_id: "6200000001",
    main_images: [resold],
  });
  // a product whose only picture of this photograph is an approved QC photo
  const qcPhoto = fs.readFileSync(catalogue[10].file);
  const qcMade = await createProduct(server.url, token, { name: "Product known by its QC photo", price_cny: 300 });
  const qcUpload = await api(server.url, `/api/qc/products/${qcMade.id}/qc-images/admin`, { token, body: imageForm("qcImages", qcPhoto) });
  expect(qcUpload.status, JSON.stringify(qcUpload.body)).toBe(201);
  qcProduct = { id: qcMade.id, qcUrl: qcUpload.body.uploadedImages[0].imageUrl, photo: qcPhoto };

  await waitFor(
    async () => {
      const progress = (await api(server.url, "/api/admin/photo-index", { token })).body.data;
      return progress.done === 8 && progress.pictures === 8 ? progress : null;
    },
    { what: "the fingerprints of the 8 products", timeoutMs: 60_000, intervalMs: 200 },
  );
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

describe("POST /api/search/photo", () => {
  it("finds the product a shopper's photo shows, first, with a score and the picture that matched", async () => {
    for (const [way, at] of [
      ["cropped and watermarked", 1],
      ["phone screenshot with a status bar", 2],
      ["mirrored", 3],
      ["20 % off the top", 4],
    ] as const) {
      const query = await transform(way)(products[at].photo);
      const found = await searchPhoto(query);
      expect(found.status, way).toBe(200);
      expect(found.body.success).toBe(true);
      expect(found.body.nothingClose, way).toBe(false);
      const first = found.body.items[0];
      expect(first.product.id, way).toBe(products[at].id);
      expect(first.product.name).toBe(`Photo product ${catalogue[at].name}`);
      expect(first.image).toBe(products[at].image);
      expect(first.score).toBeGreaterThan(0.8);
      expect(first.score).toBeLessThanOrEqual(1);
      // best first
      const scores = found.body.items.map((item: { score: number }) => item.score);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    }
  });

  it("finds a product by its approved QC photo, and answers that photo", async () => {
    const found = await searchPhoto(await transform("JPEG quality 35")(qcProduct.photo));
    expect(found.status).toBe(200);
    expect(found.body.items[0].product.id).toBe(qcProduct.id);
    expect(found.body.items[0].image).toBe(qcProduct.qcUrl);
  });

  it("says nothing is close enough for photos of other things, with no list", async () => {
    for (const stranger of strangers.slice(0, 4)) {
      const found = await searchPhoto(fs.readFileSync(stranger.file));
      expect(found.status, stranger.name).toBe(200);
      expect(found.body, stranger.name).toMatchObject({ success: true, nothingClose: true, items: [] });
    }
  });

  it("refuses a file that is no picture, an empty form and an oversized photo with a 400 naming the field, storing nothing", async () => {
    const before = uploadsOnDisk();
    const text = await searchPhoto(Buffer.from("just text, not a picture"), "notes.jpg");
    expect(text.status).toBe(400);
    expect(text.body).toMatchObject({ success: false, message: "The file is not a JPG, PNG, WEBP or GIF image" });
    expect(text.body.errors).toEqual([{ field: "image", message: "The file is not a JPG, PNG, WEBP or GIF image" }]);

    const empty = await api(server.url, "/api/search/photo", { body: new FormData() });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ success: false, message: "Choose a photo to search with" });

    const large = Buffer.concat([products[0].photo, Buffer.alloc(11 * 1024 * 1024)]);
    const oversized = await searchPhoto(large);
    expect(oversized.status).toBe(400);
    expect(oversized.body).toMatchObject({ success: false, message: "The photo is larger than 10 MB" });

    const found = await searchPhoto(products[1].photo);
    expect(found.status).toBe(200);
    expect(uploadsOnDisk()).toBe(before);
  });

  it("refuses hostile pictures within 2 s: a decompression bomb (refused by its header, before decoding), a cut-off JPEG", async () => {
    // 9000 × 9000 of one colour: 81 million pixels in a few hundred KB
    const bomb = await sharp({ create: { width: 9000, height: 9000, channels: 3, background: "#777" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    let started = Date.now();
    const refused = await searchPhoto(bomb, "bomb.png", "image/png");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, message: "The photo has more than 40 million pixels" });
    // its header promises a picture, its data stops a third of the way
    const cut = products[2].photo.subarray(0, Math.floor(products[2].photo.length / 3));
    started = Date.now();
    const broken = await searchPhoto(cut, "cut.jpg");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(broken.status).toBe(400);
    expect(broken.body.errors[0].field).toBe("image");
  });

  it("answers GET with 405", async () => {
    const response = await api(server.url, "/api/search/photo");
    expect(response.status).toBe(405);
  });
});

describe("the same item elsewhere", () => {
  it("lists the other listings whose photos match in GET /api/products/:id, cheapest first, both ways", async () => {
    const first = await productJson(products[0].id);
    expect(first.sameItem.map((item: { product: { id: number } }) => item.product.id)).toEqual([reseller.id]);
    expect(first.sameItem[0].product.price_cny).toBe(59);
    expect(first.sameItem[0].score).toBeGreaterThan(0.8);
    const resold = await productJson(reseller.id);
    expect(resold.sameItem.map((item: { product: { id: number } }) => item.product.id)).toEqual([products[0].id]);
    // a product whose photos match nothing else has none
    expect((await productJson(products[2].id)).sameItem).toEqual([]);
  });

  it("shows them on the product page, with their prices, in a section of their own", async () => {
    const page = await (await fetch(`${server.url}${products[0].path}`)).text();
    expect(page).toContain("The same item elsewhere");
    expect(page).toContain("Reseller listing of the same item");
    const other = await (await fetch(`${server.url}${products[2].path}`)).text();
    expect(other).not.toContain("The same item elsewhere");
  });
});

describe("/search/photo without JavaScript", () => {
  it("is a plain multipart form with a file input named image", async () => {
    const response = await fetch(`${server.url}/search/photo`);
    expect(response.status).toBe(200);
    const page = await response.text();
    // React writes the attribute encType: HTML's attribute names are not case-sensitive
    expect(page).toMatch(/<form method="post" action="\/search\/photo" enctype="multipart\/form-data"/i);
    expect(page).toMatch(/<input[^>]*type="file"[^>]*name="image"|<input[^>]*name="image"[^>]*type="file"/);
  });

  it("answers a posted photo with its products, and a stranger with 'Nothing close enough' and the other ways to search", async () => {
    const found = await fetch(`${server.url}/search/photo`, {
      method: "POST",
      body: imageForm("image", await transform("rotated 3°")(products[5].photo)),
      headers: { Origin: server.url },
    });
    expect(found.status).toBe(200);
    const page = await found.text();
    expect(page).toContain(`Photo product ${catalogue[5].name}`);
    expect(page).not.toContain("Nothing close enough");

    const none = await fetch(`${server.url}/search/photo`, {
      method: "POST",
      body: imageForm("image", fs.readFileSync(strangers[5].file)),
      headers: { Origin: server.url },
    });
    const nonePage = await none.text();
    expect(nonePage).toContain("Nothing close enough");
    expect(nonePage).toContain('action="/search"');
    expect(nonePage).toContain('href="/import"');

    const bad = await fetch(`${server.url}/search/photo`, {
      method: "POST",
      body: imageForm("image", Buffer.from("%PDF-1.4 not a picture"), "a.pdf", "application/pdf"),
      headers: { Origin: server.url },
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("The file is not a JPG, PNG, WEBP or GIF image");
  });

  it("finds similar products from a catalogue picture by a plain link (?image=), the picture's own product first", async () => {
    const page = await (await fetch(`${server.url}${products[0].path}`)).text();
    const href = `/search/photo?image=${encodeURIComponent(products[0].image)}`;
    expect(page).toContain(href.replace(/&/g, "&amp;"));
    const similar = await (await fetch(`${server.url}${href}`)).text();
    const own = similar.indexOf(`Photo product ${catalogue[0].name}`);
    const resold = similar.indexOf("Reseller listing of the same item");
    expect(own).toBeGreaterThan(-1);
    expect(resold).toBeGreaterThan(own);
  });
});

describe("the back office: probably the same item", () => {
  const sameItemOf = async (id: number) => (await api(server.url, `/api/admin/products/${id}/same-item`, { token })).body.data;
  const decide = (id: number, other: number, decision: unknown) =>
    api(server.url, `/api/admin/products/${id}/same-item/${other}`, { method: "PUT", token, body: { decision } });
  const ids = (items: Array<{ product: { id: number } }>) => items.map((item) => item.product.id);

  it("lists the matching listings with staff's word, and a dismissal takes one off the product's same item", async () => {
    expect(await sameItemOf(reseller.id)).toMatchObject([{ product: { id: products[0].id }, decision: null }]);
    expect((await decide(reseller.id, products[0].id, "dismissed")).status).toBe(200);
    // seen from either side
    expect(await sameItemOf(products[0].id)).toMatchObject([{ product: { id: reseller.id }, decision: "dismissed" }]);
    expect((await productJson(products[0].id)).sameItem).toEqual([]);
    expect((await decide(products[0].id, reseller.id, null)).status).toBe(200);
    expect(ids((await productJson(products[0].id)).sameItem)).toEqual([reseller.id]);
  });

  it("links listings whose photos do not match, and refuses a bad decision, an unknown product or no permission", async () => {
    expect((await decide(products[2].id, products[3].id, "linked")).status).toBe(200);
    expect(ids((await productJson(products[3].id)).sameItem)).toEqual([products[2].id]);
    expect((await productJson(products[3].id)).sameItem[0].score).toBe(1);
    expect((await decide(products[2].id, products[3].id, null)).status).toBe(200);
    expect((await productJson(products[3].id)).sameItem).toEqual([]);

    const bad = await decide(products[2].id, products[3].id, "maybe");
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("decision");
    expect((await decide(products[2].id, 999_999, "linked")).status).toBe(404);
    const visitor = await api(server.url, `/api/admin/products/${products[2].id}/same-item/${products[3].id}`, {
      method: "PUT",
      body: { decision: "linked" },
    });
    expect(visitor.status).toBe(401);
  });

  it("says it on the edit page, where plain forms link and dismiss (no JavaScript)", async () => {
    // the back office speaks Chinese unless told otherwise
    const cookie = `${await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)}; lang=en`;
    const edit = async () => (await fetch(`${server.url}/admin/products/${reseller.id}/edit`, { headers: { Cookie: cookie } })).text();
    const page = await edit();
    expect(page).toContain(`Probably the same item as #${products[0].id}`);
    const chinese = await (
      await fetch(`${server.url}/admin/products/${reseller.id}/edit`, { headers: { Cookie: cookie.replace("lang=en", "lang=zh-CN") } })
    ).text();
    expect(chinese).toContain(`可能与 #${products[0].id} 是同一商品`);
    const post = (decision: string) =>
      fetch(`${server.url}/admin/products/${reseller.id}/same-item`, {
        method: "POST",
        redirect: "manual",
        headers: { Cookie: cookie, Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ other: String(products[0].id), decision }),
      });
    const linked = await post("linked");
    expect(linked.status).toBe(302);
    expect(linked.headers.get("Location")).toBe(`/admin/products/${reseller.id}/edit#same-item`);
    expect(await sameItemOf(reseller.id)).toMatchObject([{ product: { id: products[0].id }, decision: "linked" }]);
    expect(await edit()).toContain(`Undo the decision on #${products[0].id}`);
    expect((await post("forget")).status).toBe(302);
    expect(await sameItemOf(reseller.id)).toMatchObject([{ decision: null }]);
  });
});

describe("keeping the fingerprints", () => {
  it("searches a product stored a moment before, without waiting for the next period", async () => {
    const photo = fs.readFileSync(catalogue[12].file);
    const image = await uploadProductImage(photo);
    const made = await createProduct(server.url, token, { name: "Stored a moment ago", price_cny: 77, main_images: [image] });
    const found = await searchPhoto(await transform("JPEG quality 35")(photo));
    expect(found.body.items[0]?.product.id).toBe(made.id);
  });

  it("drops a deleted product's pictures from the searches and from the others' same item", async () => {
    const removed = await api(server.url, `/api/admin/products/${reseller.id}`, { method: "DELETE", token });
    expect(removed.status).toBe(200);
    await waitFor(async () => ((await productJson(products[0].id)).sameItem.length === 0 ? true : null), {
      what: "the reseller's listing gone from the same item",
      timeoutMs: 15_000,
      intervalMs: 100,
    });
    const found = await searchPhoto(products[0].photo);
    expect(found.body.items.map((item: { product: { id: number } }) => item.product.id)).not.toContain(reseller.id);
  });
});
