/**
 * Photos of imported products (issue 38): pictures on a marketplace's image host are
 * fetched (through MARKETPLACE_BASE_URL, as every marketplace request), fingerprinted by the
 * background sync, and an import whose rows match listings already in the catalogue says
 * "probably the same item as #n" on each such row. Real photographs (tests/fixtures/photos).
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeMarketplace, type FakeMarketplace } from "../fakes/marketplace";
import { api, apiLogin, createProduct, TEST_ADMIN } from "../setup/api-client";
import { formLogin, getPage, postForm } from "../setup/page-client";
import { fixturePhotos, QUERY_TRANSFORMS } from "../setup/photo-queries";
import { startTestServer, type TestServer } from "../setup/server";
import { waitFor } from "../setup/wait";

let server: TestServer;
let fake: FakeMarketplace;
let token: string;
let cookie: string;
const catalogue = fixturePhotos("catalogue");
const transform = (name: string) => QUERY_TRANSFORMS.find(([label]) => label === name)![1];

beforeAll(async () => {
  fake = await startFakeMarketplace();
  server = await startTestServer({ env: { MARKETPLACE_BASE_URL: fake.url, MARKETPLACE_TIMEOUT_MS: "2000" } });
  token = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  cookie = `${await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)}; lang=en`;
});

afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

const progress = async () => (await api(server.url, "/api/admin/photo-index", { token })).body.data;

describe("pictures of imported products", () => {
  it("are fetched from the marketplace's image host, and an import's rows that match a listing say so", async () => {
    // a listing already here, its picture uploaded
    const original = fs.readFileSync(catalogue[20].file);
    const form = new FormData();
    form.append("image", new Blob([new Uint8Array(original)], { type: "image/jpeg" }), "a.jpg");
    const uploaded = await api(server.url, "/api/products/upload-image", { token, body: form });
    const here = await createProduct(server.url, token, {
      name: "Listing already here",
      price_cny: 199,
      main_images: [uploaded.body.data.imageUrl],
    });

    // two items on the marketplace: one with a reseller's copy of that picture, one with another photograph
    const same = "https://img.example-cdn.test/reseller-copy.jpg";
    const other = "https://img.example-cdn.test/other.jpg";
    fake.picture(same, await transform("JPEG quality 35")(original));
    fake.picture(other, fs.readFileSync(catalogue[21].file));
    fake.set("weidian", "7300000001", { title: "Reseller's listing", price: 88, images: [same] });
    fake.set("weidian", "7300000002", { title: "Something else", price: 120, images: [other] });
    const started = await postForm(server.url, "/admin/imports", cookie, {
      links: ["https://weidian.com/item.html?itemID=7300000001", "https://weidian.com/item.html?itemID=7300000002"].join("\n"),
    });
    expect(started.status).toBe(302);
    const path = started.headers.get("location")!;
    await waitFor(async () => (await (await getPage(server.url, path, cookie)).text()).includes(">Done</h2>"), {
      what: "the import done",
      timeoutMs: 30_000,
      intervalMs: 200,
    });
    // a picture its host does not have
    await createProduct(server.url, token, { name: "Picture gone", main_images: ["https://img.example-cdn.test/gone.jpg"] });
    await waitFor(
      async () => ((await progress()) as { pictures: number; unreadable: number }).pictures === 3 && (await progress()).unreadable === 1,
      {
        what: "three pictures fingerprinted and one recorded as unreadable",
        timeoutMs: 30_000,
        intervalMs: 200,
        detail: async () => JSON.stringify(await progress()),
      },
    );

    const page = (await (await getPage(server.url, path, cookie)).text()).replace(/<!-- -->/g, "");
    expect(page).toContain(`Probably the same item as #${here.id}`);
    expect(page.match(/Probably the same item as #/g)).toHaveLength(1);

    // the product API says it both ways
    const imported = await api(server.url, `/api/products/platform/7300000001?platform=weidian`);
    const importedId = imported.body.data.id as number;
    expect(
      (await api(server.url, `/api/products/${here.id}?incrementView=false`)).body.data.sameItem.map(
        (item: { product: { id: number } }) => item.product.id,
      ),
    ).toEqual([importedId]);
    expect(await progress()).toMatchObject({ products: 4, done: 4, pictures: 3, unreadable: 1 });
  });
});
