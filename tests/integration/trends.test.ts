/**
 * The week's trends (issue 39): the most QC-photographed and most collected products of the
 * last 7 days, and the new ones, in GET /api/products/trends and on the home page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { startTestServer, type TestServer } from "../setup/server";

let server: TestServer;
let admin: string;
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter += 1)}`;

async function product(name: string, qcPhotos = 0) {
  const body: Record<string, unknown> = { name, price_cny: 50 };
  if (qcPhotos) body.qc_images = Array.from({ length: qcPhotos }, (_, i) => `https://img.example/${unique("qc")}-${i}.jpg`).join(", ");
  const created = await api(server.url, "/api/admin/products", { token: admin, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data as { id: number; name: string };
}

async function shopper() {
  const name = unique("trender");
  const made = await api(server.url, "/api/admin/users", {
    token: admin,
    body: { username: name, email: `${name}@example.com`, password: "trend-pass-1" },
  });
  expect(made.status).toBe(201);
  return (await apiLogin(server.url, `${name}@example.com`, "trend-pass-1")).accessToken;
}

beforeAll(async () => {
  server = await startTestServer();
  admin = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
});

afterAll(async () => {
  await server?.stop();
});

describe("this week's trends", () => {
  it("rank products by the week's QC photos and collections, list the new ones, and show on the home page", async () => {
    const many = await product(unique("Many photos "), 5);
    const few = await product(unique("Few photos "), 2);
    const none = await product(unique("No photos "));
    const shoppers = [await shopper(), await shopper(), await shopper()];
    for (const token of shoppers) await api(server.url, "/api/users/collections/add", { token, body: { productId: none.id } });
    await api(server.url, "/api/users/collections/add", { token: shoppers[0], body: { productId: few.id } });

    const answer = await api(server.url, "/api/products/trends");
    expect(answer.status).toBe(200);
    const data = answer.body.data;
    expect(Date.parse(data.since)).toBeLessThan(Date.now() - 6 * 86_400_000);
    expect(
      data.qcPhotographed.slice(0, 2).map((item: { product: { id: number }; count: number }) => [item.product.id, item.count]),
    ).toEqual([
      [many.id, 5],
      [few.id, 2],
    ]);
    expect(data.collected.slice(0, 2).map((item: { product: { id: number }; count: number }) => [item.product.id, item.count])).toEqual([
      [none.id, 3],
      [few.id, 1],
    ]);
    expect(data.newThisWeek.map((item: { id: number }) => item.id).slice(0, 3)).toEqual([none.id, few.id, many.id]);
    expect(data.newThisWeekCount).toBeGreaterThanOrEqual(3);

    const home = await (await fetch(`${server.url}/`, { headers: { "Accept-Language": "en" } })).text();
    const section = /<section[^>]*home-trends[\s\S]*?<\/section>/.exec(home)?.[0] ?? "";
    expect(section).toContain(">This week</h2>");
    expect(section).toContain("Most QC photos");
    expect(section).toContain(many.name);
    expect(section).toContain("5 QC photos this week");
    expect(section).toContain("Collected 3 times this week");
    expect(section).toMatch(/\d+ new products this week/);
  });

  it("leave out a product removed from the storefront", async () => {
    const hidden = await product(unique("Hidden trend "), 9);
    const toggled = await api(server.url, `/api/admin/products/${hidden.id}`, {
      method: "PUT",
      token: admin,
      body: { show_in_listing: false },
    });
    if (toggled.status !== 200) throw new Error(JSON.stringify(toggled.body));
    const data = (await api(server.url, "/api/products/trends")).body.data;
    expect(data.qcPhotographed.map((item: { product: { id: number } }) => item.product.id)).not.toContain(hidden.id);
  });
});
