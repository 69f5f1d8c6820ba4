/**
 * What a page hydrates with (decision 044): a page the same for every visitor leaves it out
 * and its browser asks for it at the page's address with `?_hydration=1`; a page made for
 * one visitor carries it as before. Through the real server and its front (the answers are
 * kept like pages); the browser side is in the e2e tests, which hydrate every page this way.
 */
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiLogin, createProduct, TEST_ADMIN } from "../setup/api-client";
import { formLogin } from "../setup/page-client";
import { startTestServer, type TestServer } from "../setup/server";

let server: TestServer;
let token: string;
let productPath: string;
let cookie: string;
const NAME = "Stüssy 斯图西 8 Ball fleece hoodie";

beforeAll(async () => {
  server = await startTestServer();
  const { accessToken } = await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
  token = accessToken;
  cookie = await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
  ({ path: productPath } = await createProduct(server.url, accessToken, {
    name: NAME,
    description: "加绒 fleece-lined, 黑色 black",
    price_cny: 239,
    platform: "taobao",
    platform_item_id: "8123400099",
    skus: [
      { sku_name: "M 黑色", sku_price: 239, sku_stock: 5 },
      { sku_name: "L 黑色", sku_price: 249, sku_stock: 3 },
    ],
  }));
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const INLINE_DATA = "window.__remixContext.streamController.enqueue(";
const EMPTY_TEXTS = '<script type="application/json" id="page-texts"></script>';

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, { headers, redirect: "manual" });
  return { response, text: await response.text() };
}

describe("the data a page hydrates with", () => {
  it("is left out of a visitor's page and given, kept like the page, at its address with ?_hydration=1", async () => {
    for (const path of [productPath, "/search?q=fleece+hoodie&sort=price_asc", "/"]) {
      const page = await get(path);
      expect(page.response.status, path).toBe(200);
      expect(page.text, path).not.toContain(INLINE_DATA);
      expect(page.text, path).toContain(EMPTY_TEXTS);
      // the loader asks for it at the page's own address
      expect(page.text, path).toContain('"_hydration=1"');

      const address = `${path}${path.includes("?") ? "&" : "?"}_hydration=1`;
      const first = await get(address);
      expect(first.response.status, address).toBe(200);
      expect(first.response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(first.response.headers.get("cache-control")).toBe(page.response.headers.get("cache-control"));
      expect(first.response.headers.get("vary")).toBe(page.response.headers.get("vary"));
      const data = JSON.parse(first.text) as { texts: string; stream: string };
      // the texts the render used, and single fetch's stream of the root's and the route's data
      const texts = JSON.parse(data.texts) as { texts: Record<string, string> };
      expect(texts.texts["shop.footer.home"]).toBe("Home");
      expect(data.stream).toMatch(/^\[\{.*"loaderData"/);
      expect(data.stream).toContain('"currentUser"');
      if (path === productPath) expect(data.stream).toContain(NAME);
      // (nothing in it can end a script or open a tag)
      expect(first.text).not.toContain("<");

      // kept by the server's front, and given again as it was made
      const again = await get(address);
      expect(again.response.headers.get("x-page-cache"), address).toBe("hit");
      expect(again.text).toBe(first.text);
    }
  });

  it("is read from the address without the parameter: the search the page shows is the search its data holds", async () => {
    const path = `/search?q=${encodeURIComponent("斯图西 hoodie")}`;
    const data = JSON.parse((await get(`${path}&_hydration=1`)).text) as { stream: string };
    expect(data.stream).toContain("斯图西 hoodie");
    expect(data.stream).not.toContain("_hydration");
  });

  it("counts no view: the page was counted when it was asked for", async () => {
    const { id, path } = await createProduct(server.url, token, {
      name: "Counted once 计数 tee",
      price_cny: 59,
      platform: "weidian",
      platform_item_id: "8123400777",
    });
    const views = async () =>
      (
        (await (await fetch(`${server.url}/api/products/${id}?incrementView=false`)).json()) as {
          data: { view_count: number };
        }
      ).data.view_count;
    expect((await get(path)).response.status).toBe(200);
    // the data made by the app, then given again by the front
    for (let n = 0; n < 2; n++) expect((await get(`${path}?_hydration=1`)).response.status).toBe(200);
    await expect.poll(views).toBe(1);
    // views are written within a second: none came later
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await views()).toBe(1);
  });

  it("stays in a page made for one visitor: signed in, or the answer to a form", async () => {
    const signedIn = await get(productPath, { Cookie: cookie });
    expect(signedIn.response.status).toBe(200);
    expect(signedIn.text).toContain(INLINE_DATA);
    expect(signedIn.text).not.toContain(EMPTY_TEXTS);
    expect(signedIn.text).not.toContain("_hydration");

    const missing = await get("/no-such-page");
    expect(missing.response.status).toBe(404);
    expect(missing.text).toContain(INLINE_DATA);
  });

  it("brings a visitor's product page to 6 KB gzipped or less", async () => {
    const page = await get(productPath);
    const gzipped = zlib.gzipSync(Buffer.from(page.text)).length;
    console.log(`product page: ${page.text.length} B, ${gzipped} B gzipped`);
    expect(gzipped).toBeLessThanOrEqual(6 * 1024);
  });
});
