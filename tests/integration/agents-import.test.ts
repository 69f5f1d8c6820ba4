/**
 * Shopping agents and the admin import box over plain HTTP: "Buy via" links on product
 * pages and in the API, the shopper's preferred agent, the agents screen (super admin
 * only, validation, hiding an agent, a new agent's links read back), and the product
 * form's import box with the spec's messages.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeMarketplace, type FakeMarketplace } from "../fakes/marketplace";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { formLogin, getPage, postForm, toastAfter } from "../setup/page-client";
import { startTestServer, type TestServer } from "../setup/server";

let server: TestServer;
let fake: FakeMarketplace;
let admin: string;
let cookies: { super: string; admin: string };
let counter = 0;
const itemId = () => String(7_200_000_000 + Math.floor(Math.random() * 700_000_000) + (counter += 1));
const text = async (response: Response) => (await response.text()).replace(/<!-- -->/g, "").replace(/&amp;/g, "&");

async function weidianProduct(id = itemId()) {
  const made = await api(server.url, "/api/products/sync-external", {
    token: admin,
    body: { itemId: id, title: `Agent item ${id}`, price: 30, source: "weidian" },
  });
  expect([200, 201]).toContain(made.status);
  return { id: made.body.data.id as number, itemId: id, path: `/weidian/${id}` };
}

beforeAll(async () => {
  fake = await startFakeMarketplace();
  server = await startTestServer({ env: { MARKETPLACE_BASE_URL: fake.url, MARKETPLACE_TIMEOUT_MS: "800" } });
  admin = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  const roles = await api(server.url, "/api/admin/roles", { token: admin });
  const adminRole = roles.body.data.find((r: { name: string }) => r.name === "admin").id;
  const made = await api(server.url, "/api/admin/users", {
    token: admin,
    body: { username: "agentsadmin", email: "agentsadmin@example.com", password: "agents-pass-1", roleIds: [adminRole] },
  });
  expect(made.status).toBe(201);
  const granted = await api(server.url, "/api/admin/permissions", { token: admin });
  const create = granted.body.data.find((p: { name: string }) => p.name === "product.create").id;
  await api(server.url, `/api/admin/users/${made.body.data.id}/permissions/${create}`, { method: "POST", token: admin });
  cookies = {
    super: await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password),
    admin: await formLogin(server.url, "agentsadmin@example.com", "agents-pass-1"),
  };
});

afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

describe("buy via an agent", () => {
  it("lists every shown agent's link on the product page and in the API, in order", async () => {
    const product = await weidianProduct();
    const page = await text(await getPage(server.url, product.path));
    expect(page).toContain(`Buy via CNFans`);
    expect(page).toContain(`href="https://cnfans.com/product?id=${product.itemId}&platform=WEIDIAN"`);
    expect(page).toContain(`href="https://www.hoobuy.com/product/2/${product.itemId}"`);
    expect(page).toContain(`href="https://www.cssbuy.com/item-micro-${product.itemId}.html"`);
    const links = await api(server.url, `/api/products/${product.id}/agent-links`);
    expect(links.status).toBe(200);
    expect(links.body.data).toHaveLength(15);
    expect(links.body.data[0]).toEqual({ name: "CNFans", url: `https://cnfans.com/product?id=${product.itemId}&platform=WEIDIAN` });
    expect(links.body.data.map((link: { name: string }) => link.name)).toContain("Kakobuy");
    // a local product without a marketplace item has none
    const local = await api(server.url, "/api/admin/products", { token: admin, body: { name: "Local only item" } });
    expect((await api(server.url, `/api/products/${local.body.data.id}/agent-links`)).body.data).toEqual([]);
  });

  it("puts the shopper's preferred agent first, remembered in a cookie without JavaScript", async () => {
    const product = await weidianProduct();
    const agents = await (await getPage(server.url, product.path)).text();
    const hoobuyId = /<option value="(\d+)">Hoobuy<\/option>/.exec(agents)?.[1];
    expect(hoobuyId).toBeDefined();
    const chosen = await postForm(server.url, "/agent-preference", "", { agent: hoobuyId!, returnTo: product.path });
    expect(chosen.status).toBe(302);
    expect(chosen.headers.get("location")).toBe(product.path);
    const cookie = chosen.headers
      .getSetCookie()
      .find((c) => c.startsWith("agent="))!
      .split(";")[0];
    expect(cookie).toBe(`agent=${hoobuyId}`);
    const page = await text(await getPage(server.url, product.path, cookie));
    expect(page).toContain("Buy via Hoobuy");
    expect(page).toContain(`<option value="${hoobuyId}" selected="">Hoobuy</option>`);
    const links = await api(server.url, `/api/products/${product.id}/agent-links`, { headers: { Cookie: cookie } });
    expect(links.body.data[0].name).toBe("Hoobuy");
    // visitors without the cookie still get the admin's order (the kept page is per choice)
    expect(await text(await getPage(server.url, product.path))).toContain("Buy via CNFans");
    const cleared = await postForm(server.url, "/agent-preference", cookie, { agent: "", returnTo: product.path });
    expect(cleared.headers.getSetCookie().find((c) => c.startsWith("agent="))).toMatch(/Max-Age=0/);
  });
});

describe("the agents screen", () => {
  it("is for super admins only", async () => {
    for (const path of ["/admin/agents", "/admin/agents/new", "/admin/agents/1"]) {
      expect((await getPage(server.url, path, cookies.admin)).status, path).toBe(403);
      expect((await getPage(server.url, path, cookies.super)).status, path).toBe(200);
    }
    expect((await postForm(server.url, "/admin/agents", cookies.admin, { intent: "disable", agentId: "1" })).status).toBe(403);
  });

  it("adds an agent (with the spec of its templates checked), whose links are shown and read back; hides and deletes it", async () => {
    const bad = await postForm(server.url, "/admin/agents/new", cookies.super, { name: "", template_taobao: "not a link", enabled: "on" });
    const badPage = await text(bad);
    expect(badPage).toContain("Agent name is required.");
    expect(badPage).toContain("Enter an https link template that holds {id}, {url} or {url2}.");
    const none = await text(await postForm(server.url, "/admin/agents/new", cookies.super, { name: "Empty agent", enabled: "on" }));
    expect(none).toContain("Give at least one link template.");
    const taken = await text(
      await postForm(server.url, "/admin/agents/new", cookies.super, {
        name: "CNFans",
        template_weidian: "https://x.example/{id}",
        enabled: "on",
      }),
    );
    expect(taken).toContain("An agent with this name already exists.");

    const created = await postForm(server.url, "/admin/agents/new", cookies.super, {
      name: "NewAgent",
      template_weidian: "https://newagent.example/wd/{id}",
      template_taobao: "https://newagent.example/tb/{id}",
      template_1688: "https://newagent.example/go?link={url}",
      referral_param: "aff",
      referral_code: "SITE 7",
      enabled: "on",
    });
    expect(await toastAfter(server.url, created, cookies.super)).toContain("Agent added: NewAgent");
    const product = await weidianProduct();
    const page = await text(await getPage(server.url, product.path));
    expect(page).toContain(`href="https://newagent.example/wd/${product.itemId}?aff=SITE%207"`);
    // its links are read back to the item
    const found = await getPage(server.url, `/search?q=${encodeURIComponent(`https://newagent.example/wd/${product.itemId}?aff=x`)}`);
    expect(found.headers.get("location")).toBe(product.path);

    const list = await (await getPage(server.url, "/admin/agents", cookies.super)).text();
    const id =
      /<input type="hidden" name="agentId" value="(\d+)"\/>(?:(?!<\/tr>)[\s\S])*?Edit NewAgent/.exec(list)?.[1] ??
      /href="\/admin\/agents\/(\d+)" aria-label="Edit NewAgent"/.exec(list)?.[1];
    expect(id).toBeDefined();
    expect(
      await toastAfter(
        server.url,
        await postForm(server.url, "/admin/agents", cookies.super, { intent: "disable", agentId: id! }),
        cookies.super,
      ),
    ).toContain("NewAgent is hidden");
    expect(await text(await getPage(server.url, product.path))).not.toContain("newagent.example");
    const confirm = await text(await getPage(server.url, `/admin/agents?modal=delete&agentId=${id}`, cookies.super));
    expect(confirm).toContain("Delete <strong>NewAgent</strong>?");
    expect(
      await toastAfter(
        server.url,
        await postForm(server.url, "/admin/agents", cookies.super, { intent: "delete", agentId: id! }),
        cookies.super,
      ),
    ).toContain("Agent deleted: NewAgent");
  });
});

describe("the agents' test-a-link box", () => {
  it("says how a link is read and by which agent's forms, or that it is not read and what to do", async () => {
    const ask = async (link: string) => text(await getPage(server.url, `/admin/agents?test=${encodeURIComponent(link)}`, cookies.super));
    const byAgent = await ask("https://www.lovegobuy.com/product?platform=weidian&goodsId=7231234567");
    expect(byAgent).toContain("<strong>Weidian item 7231234567</strong>: read with LoveGoBuy&#x27;s link forms.");
    const own = await ask("https://item.taobao.com/item.htm?id=623456789012");
    expect(own).toContain("<strong>Taobao item 623456789012</strong>: a marketplace&#x27;s own link.");
    const unknown = await ask("https://unknown-agent.example/p/623456789012");
    expect(unknown).toContain("<strong>Not read as an item</strong>");
    expect(unknown).toContain('value="https://unknown-agent.example/p/623456789012"');
    // the box is the super administrator's, like the page
    const plain = await getPage(server.url, "/admin/agents?test=x", cookies.admin);
    expect(plain.status).toBe(403);
  });
});

describe("the product form's import box", () => {
  const importFrom = (link: string, cookie = cookies.super) =>
    postForm(server.url, "/admin/products/new", cookie, { intent: "import", import_link: link, name: "" });

  it("fills the form from a marketplace link, nothing saved, and the form then saves as a local product with its marketplace item", async () => {
    const id = itemId();
    fake.set("weidian", id, {
      title: "Imported denim jacket",
      price: 259,
      images: ["https://img.example-cdn.test/j1.jpg"],
      skus: [{ name: "Blue M", price: 259, stock: 8 }],
      description: ["Heavy denim"],
    });
    const before = (await api(server.url, "/api/admin/products?limit=1", { token: admin })).body.totalItems;
    const filled = await text(await importFrom(`https://weidian.com/item.html?itemID=${id}`, cookies.admin));
    expect(filled).toContain(`Imported the Weidian item ${id}: check it, then save.`);
    expect(filled).toContain('value="Imported denim jacket"');
    expect(filled).toContain('value="259"');
    expect(filled).toContain("Blue M");
    expect(filled).toContain("https://img.example-cdn.test/j1.jpg");
    expect(filled).toContain(`value="https://weidian.com/item.html?itemID=${id}"`);
    expect((await api(server.url, "/api/admin/products?limit=1", { token: admin })).body.totalItems).toBe(before);
  });

  it("fills the form from a short link and tells the shop's name; a short link leading nowhere is an empty result, not an unsupported format", async () => {
    const id = itemId();
    fake.set("weidian", id, {
      title: "Short-linked hoodie",
      price: 120,
      images: ["https://img.example-cdn.test/h1.jpg"],
      skus: [],
      description: [],
      shopName: "Hoodie Shop",
    });
    fake.shortLink("weidian.info", `s${id}`, `https://weidian.com/item.html?itemID=${id}`);
    const filled = await text(await importFrom(`【微店】https://weidian.info/s${id} 快来看看`));
    expect(filled).toContain(`Imported the Weidian item ${id} (shop: Hoodie Shop): check it, then save.`);
    expect(filled).toContain('value="Short-linked hoodie"');
    for (const link of [`https://weidian.info/nothing-${id}`, `https://tinyurl.com/p${id}`]) {
      if (link.includes("tinyurl")) fake.shortLink("tinyurl.com", `p${id}`, "http://127.0.0.1:9/admin");
      const page = await text(await importFrom(link));
      expect(page, link).toContain("没有获取到商品信息，请检查链接是否正确。");
      expect(page, link).not.toContain("不支持的链接或ID格式");
    }
  });

  it("names what is wrong: '请输入商品链接或ID。', an unsupported format, an empty result, a failed fetch", async () => {
    expect(await text(await importFrom(""))).toContain("请输入商品链接或ID。");
    expect(await text(await importFrom("https://www.amazon.com/dp/B01"))).toContain("不支持的链接或ID格式");
    expect(await text(await importFrom(`https://item.taobao.com/item.htm?id=${itemId()}99`))).toContain(
      "没有获取到商品信息，请检查链接是否正确。",
    );
    const broken = itemId();
    fake.set("1688", broken, "malformed");
    expect(await text(await importFrom(`https://detail.1688.com/offer/${broken}.html`))).toContain("获取商品信息失败，请稍后重试。");
  });
});
