/**
 * The demo catalogue (SEED_DEMO=1, what `npm start` opens with) draws every product's
 * pictures alike: two big initials on a coloured gradient. Their 64-bit hashes see one
 * layout ("a bright shape in the middle") and come within the match distance of each
 * other; only the detail hashes tell them apart (decision 047). So no demo product may say
 * that another one is the same item, and a real photograph finds none of them.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { fixturePhotos } from "../setup/photo-queries";
import { startTestServer, type TestServer } from "../setup/server";
import { waitFor } from "../setup/wait";

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ env: { SEED_DEMO: "1" } });
  token = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe("the demo catalogue's pictures", () => {
  it("are fingerprinted, and no demo product is 'the same item' as another", async () => {
    const progress = await waitFor(
      async () => {
        const data = (await api(server.url, "/api/admin/photo-index", { token })).body.data;
        return data.products > 0 && data.done === data.products ? data : null;
      },
      { what: "every demo product fingerprinted", timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(progress.pictures).toBeGreaterThan(progress.products);
    const list = await api(server.url, "/api/products?limit=100");
    const ids = (list.body.items as Array<{ id: number }>).map((item) => item.id);
    expect(ids.length).toBe(progress.products);
    const claimed: string[] = [];
    for (const id of ids) {
      const same = (await api(server.url, `/api/products/${id}?incrementView=false`)).body.data.sameItem as Array<{
        product: { id: number };
      }>;
      if (same.length) claimed.push(`${id} → ${same.map((item) => item.product.id).join(", ")}`);
    }
    expect(claimed).toEqual([]);
  });

  it("are not what a real photograph finds", async () => {
    for (const photo of fixturePhotos("elsewhere").slice(0, 5)) {
      const form = new FormData();
      form.append("image", new Blob([new Uint8Array(fs.readFileSync(photo.file))], { type: "image/jpeg" }), "photo.jpg");
      const found = await api(server.url, "/api/search/photo", { body: form });
      expect(found.body, photo.name).toMatchObject({ nothingClose: true, items: [] });
    }
  });
});
