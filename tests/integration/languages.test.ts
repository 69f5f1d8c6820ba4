/**
 * The reader's language over real HTTP (decision 031): the `lang` cookie, else
 * Accept-Language, else English for the storefront and Chinese for the back office;
 * `<html lang>` follows; the header's language form works without JavaScript; the /api
 * keeps the contract's words; and no page, in either language, shows a raw catalogue key.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { formLogin } from "../setup/page-client";
import { startTestServer, type TestServer } from "../setup/server";
import enShop from "~/i18n/catalogues/en/shop";
import zhShop from "~/i18n/catalogues/zh-CN/shop";
import type { Catalogue } from "~/i18n/catalogues/types";
import { ALL_CATALOGUES } from "~/i18n/catalogues/all.server";
import { CATALOGUE_MESSAGES } from "~/schemas/catalogue-messages";

let server: TestServer;
let adminCookie: string;
let productUrl: string;
let productId: number;

beforeAll(async () => {
  server = await startTestServer();
  adminCookie = await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
  const { accessToken } = await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
  const created = await api(server.url, "/api/admin/products", {
    token: accessToken,
    body: { name: "Language test hoodie", price_cny: 120, platform: "weidian", platform_item_id: "7400000123" },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  productId = created.body.data.id;
  productUrl = created.body.data.url;
});

afterAll(async () => {
  await server?.stop();
});

async function page(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, { headers, redirect: "manual" });
  const html = await response.text();
  return { status: response.status, html, lang: /<html lang="([^"]*)"/.exec(html)?.[1], response };
}

/**
 * The texts a storefront page hydrates with, as JSON: in the page, or (a page the same for
 * every visitor, decision 044) in the answer to its page-data request; undefined when it has none.
 */
async function carriedTexts(path: string, headers: Record<string, string> = {}): Promise<string | undefined> {
  const { html } = await page(path, headers);
  const inPage = /<script type="application\/json" id="page-texts">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (inPage === undefined || inPage !== "") return inPage;
  const response = await fetch(`${server.url}${path}${path.includes("?") ? "&" : "?"}_hydration=1`, { headers });
  expect(response.status, path).toBe(200);
  return ((await response.json()) as { texts: string }).texts;
}

function flatten(catalogue: Catalogue, prefix = ""): Record<string, string> {
  return Object.fromEntries(
    Object.entries(catalogue).flatMap(([name, value]) =>
      typeof value === "string" ? [[prefix + name, value]] : Object.entries(flatten(value, `${prefix}${name}.`)),
    ),
  );
}

/** The page's text and attributes, without its scripts (route data may hold keys by design). */
const visible = (html: string) => html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");
const RAW_KEY = /(?<![\w/.-])(?:common|shop|admin|email)\.[a-z]\w*\.[\w.]*\w/g;

describe("the reader's language", () => {
  it("is English on the storefront by default, and says so in <html lang>", async () => {
    const home = await page("/");
    expect(home.status).toBe(200);
    expect(home.lang).toBe("en");
    expect(home.html).toContain("Skip to content");
    expect(home.response.headers.get("vary") ?? "").toMatch(/accept-language/i);
  });

  it("follows Accept-Language when no cookie says otherwise", async () => {
    const chinese = await page("/", { "Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8" });
    expect(chinese.lang).toBe("zh-CN");
    expect(chinese.html).toContain("跳到正文");
    expect(chinese.html).not.toContain("Skip to content");
    expect((await page("/", { "Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5" })).lang).toBe("fr");
    expect((await page("/", { "Accept-Language": "ko-KR,ko;q=0.9,en;q=0.5" })).lang).toBe("en");
    expect((await page("/", { "Accept-Language": "ja" })).lang).toBe("en");
  });

  it("follows the lang cookie before Accept-Language", async () => {
    expect((await page("/", { Cookie: "lang=zh-CN", "Accept-Language": "en-US,en" })).lang).toBe("zh-CN");
    expect((await page("/", { Cookie: "lang=en", "Accept-Language": "zh-CN" })).lang).toBe("en");
    expect((await page(productUrl, { Cookie: "currency=EUR; lang=zh-CN" })).lang).toBe("zh-CN");
    // an unknown value is no choice: Accept-Language decides
    expect((await page("/", { Cookie: "lang=xx", "Accept-Language": "zh" })).lang).toBe("zh-CN");
  });

  it("is switched by the header's plain form (no JavaScript): a cookie for a year, then the same page in the new language", async () => {
    const before = await page(`/search?q=hoodie`);
    const form = /<form[^>]*action="(\/lang)"[^>]*>([\s\S]*?)<\/form>/.exec(before.html);
    expect(form, "the language form in the header").not.toBeNull();
    expect(form![0]).toMatch(/method="post"/i);
    expect(form![2]).toContain('name="lang"');
    expect(form![2]).toContain('value="zh-CN"');
    const returnTo = /name="returnTo" value="([^"]*)"/.exec(form![2])![1].replace(/&amp;/g, "&");
    expect(returnTo).toBe("/search?q=hoodie");
    const switched = await fetch(`${server.url}${form![1]}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: new URLSearchParams({ returnTo, lang: "zh-CN" }),
      redirect: "manual",
    });
    expect(switched.status).toBe(302);
    expect(switched.headers.get("location")).toBe("/search?q=hoodie");
    const cookie = switched.headers.getSetCookie().find((c) => c.startsWith("lang="));
    expect(cookie).toMatch(/^lang=zh-CN;/);
    expect(cookie).toMatch(/Max-Age=31536000/);
    expect(cookie).toMatch(/Path=\//);
    const after = await page(switched.headers.get("location")!, { Cookie: cookie!.split(";")[0] });
    expect(after.lang).toBe("zh-CN");

    // back to English; an unknown language or an outside return address changes nothing
    const back = await fetch(`${server.url}/lang`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: new URLSearchParams({ returnTo: "https://evil.example/", lang: "en" }),
      redirect: "manual",
    });
    expect(back.headers.get("location")).toBe("/");
    expect(back.headers.getSetCookie().find((c) => c.startsWith("lang="))).toMatch(/^lang=en;/);
    const unknown = await fetch(`${server.url}/lang`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: new URLSearchParams({ returnTo: "/blog", lang: "klingon" }),
      redirect: "manual",
    });
    expect(unknown.status).toBe(302);
    expect(unknown.headers.get("location")).toBe("/blog");
    expect(unknown.headers.getSetCookie().filter((c) => c.startsWith("lang="))).toEqual([]);
  });

  it("is Chinese in the back office by default, English when the reader asks", async () => {
    const chinese = await page("/admin", { Cookie: adminCookie });
    expect(chinese.status).toBe(200);
    expect(chinese.lang).toBe("zh-CN");
    expect(chinese.html).toContain("仪表盘");
    const english = await page("/admin", { Cookie: adminCookie, "Accept-Language": "en-GB,en;q=0.9" });
    expect(english.lang).toBe("en");
    expect(english.html).toContain("Dashboard");
    const chosen = await page("/admin", { Cookie: `${adminCookie}; lang=en`, "Accept-Language": "zh-CN" });
    expect(chosen.lang).toBe("en");
  });

  it("titles the blog's feed links, names the built-in e-mail designs and says the system status in the reader's language", async () => {
    const feeds = (html: string) =>
      [...html.matchAll(/<link rel="alternate" type="application\/(?:rss|atom)\+xml" href="[^"]+" title="([^"]+)"/g)].map((m) => m[1]);
    expect(feeds((await page("/blog", { Cookie: "lang=en" })).html)).toEqual(["Blog (RSS)", "Blog (Atom)"]);
    expect(feeds((await page("/blog", { Cookie: "lang=zh-CN" })).html)).toEqual(["博客 (RSS)", "博客 (Atom)"]);
    expect(feeds((await page("/", { Cookie: "lang=en" })).html)).toEqual([]);

    const designs = "/admin/email-management/html-templates";
    const chinese = await page(designs, { Cookie: `${adminCookie}; lang=zh-CN` });
    expect(chinese.html).toContain("<h3>欢迎</h3>");
    expect(chinese.html).toContain("每月汇总：一篇主打文章和三条简讯。");
    const english = await page(designs, { Cookie: `${adminCookie}; lang=en` });
    expect(english.html).toContain("<h3>Welcome</h3>");
    const copied = await page("/admin/email-management?modal=create&from=promotion", { Cookie: `${adminCookie}; lang=zh-CN` });
    expect(copied.html).toMatch(/name="name"[^>]*value="促销"|value="促销"[^>]*name="name"/);
    // the settings' hints are the product's words in the reader's language (not the stored English descriptions)
    const settingsZh = visible((await page("/admin/site-settings", { Cookie: `${adminCookie}; lang=zh-CN` })).html);
    expect(settingsZh).toContain("显示在页头、页面标题和邮件中");
    expect(settingsZh).not.toContain("Site name shown in the header and e-mails");
    const settingsEn = visible((await page("/admin/site-settings", { Cookie: `${adminCookie}; lang=en` })).html);
    expect(settingsEn).toContain("Shown in the header, the page titles and the e-mails");
    // the back office's system status, said by the service in English, read in Chinese
    const status = await page("/admin/settings", { Cookie: `${adminCookie}; lang=zh-CN` });
    expect(status.html).toContain("运行正常");
    expect(status.html).toMatch(/正常：[\d.]+ 毫秒内响应（\d+ 个用户）/);
    // the /api keeps the English words
    const listed = await fetch(`${server.url}/api/email/html-templates`, { headers: { Cookie: `${adminCookie}; lang=zh-CN` } });
    expect(JSON.stringify(await listed.json())).toContain('"displayName":"Welcome"');
  });

  it("says the site's default title and description in the reader's language, the shop's own words as written", async () => {
    const chinese = await page("/", { Cookie: "lang=zh-CN" });
    expect(chinese.html).toContain("<title>QC Finder – 查找并检验微店、淘宝、天猫和 1688 的商品</title>");
    expect(visible(chinese.html)).toContain("用您的货币比较价格");
    const english = await page("/", { Cookie: "lang=en" });
    expect(english.html).toContain("<title>QC Finder – find and check products from Weidian, Taobao, Tmall and 1688</title>");

    const { accessToken } = await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const own = "Our own words about the shop";
    const saved = await api(server.url, "/api/site-settings/admin/settings", {
      token: accessToken,
      method: "PUT",
      body: { settings: { site_description: own } },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    try {
      await expect.poll(async () => visible((await page("/", { Cookie: "lang=zh-CN" })).html).includes(own)).toBe(true);
      // the /api gives the stored words, whatever the reader's language
      const info = await fetch(`${server.url}/api/site-settings/site-info`, { headers: { Cookie: "lang=zh-CN" } });
      expect(JSON.stringify(await info.json())).toContain(own);
    } finally {
      await api(server.url, "/api/site-settings/admin/settings", {
        token: accessToken,
        method: "PUT",
        body: { settings: { site_description: "" } },
      });
    }
  });

  it("has a storefront page carry the texts its render used in its language, and a back-office page ask for its catalogues from the head", async () => {
    const pageTexts = async (path: string, headers: Record<string, string>) => {
      const json = await carriedTexts(path, headers);
      return json === undefined ? undefined : (JSON.parse(json) as { texts: Record<string, string>; messages: Record<string, string> });
    };
    const preloaded = (html: string) =>
      [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"[^>]*data-catalogue=""/g)].map((m) => m[1]);
    for (const language of ["en", "zh-CN"] as const) {
      const catalogue = flatten(language === "en" ? enShop : zhShop);
      for (const path of ["/", productUrl, "/search?q=hoodie", "/blog", "/login"]) {
        const { html } = await page(path, { Cookie: `lang=${language}` });
        const carried = await pageTexts(path, { Cookie: `lang=${language}` });
        expect(carried, path).toBeDefined();
        const keys = Object.keys(carried!.texts);
        // the texts the page shows, word for word from its language's catalogue
        expect(keys, path).toContain("shop.footer.notice");
        for (const key of keys) expect([key, carried!.texts[key]], path).toEqual([key, catalogue[key]]);
        // and only those: a page shows a small part of the storefront's texts, none of the back office's
        expect(keys.length, path).toBeLessThan(Object.keys(catalogue).length / 3);
        expect(
          keys.filter((key) => !key.startsWith("shop.") && !key.startsWith("common.")),
          path,
        ).toEqual([]);
        // the catalogue itself is not asked for before the page hydrates
        expect(preloaded(html), path).toEqual([]);
      }
    }
    const home = (await pageTexts("/", { Cookie: "lang=en" }))!;
    const product = (await pageTexts(productUrl, { Cookie: "lang=en" }))!;
    expect(Object.keys(product.texts).filter((key) => key.startsWith("shop.product.")).length).toBeGreaterThan(0);
    expect(Object.keys(home.texts).filter((key) => key.startsWith("shop.product.") && !(key in product.texts))).toEqual([]);

    // the back office: its language's chunks from the head, no page texts
    const chunks = JSON.parse(fs.readFileSync(path.join(process.cwd(), "build", "catalogue-chunks.json"), "utf8"));
    const admin = (await page("/admin", { Cookie: adminCookie })).html;
    expect(preloaded(admin)).toEqual(chunks.backOffice["zh-CN"]);
    expect(await pageTexts("/admin", { Cookie: adminCookie })).toBeUndefined();
    for (const href of chunks.backOffice.en) expect((await fetch(`${server.url}${href}`)).status, href).toBe(200);
  });

  it("has a page carry the messages it translated, and nothing for a message shown as given", async () => {
    const messagesOf = async (path: string, headers: Record<string, string>) =>
      JSON.parse((await carriedTexts(path, headers))!).messages as Record<string, string>;
    expect(await messagesOf("/search?q=hoodie", { Cookie: "lang=zh-CN" })).toEqual({});
    const long = `/search?q=${"x".repeat(500)}`;
    const zh = await messagesOf(long, { Cookie: "lang=zh-CN" });
    expect(Object.keys(zh)).toEqual([CATALOGUE_MESSAGES.searchTermTooLong]);
    expect(zh[CATALOGUE_MESSAGES.searchTermTooLong]).toMatch(/[\u4e00-\u9fff]/);
    // in English the same message is shown as the service says it: nothing to translate
    expect(await messagesOf(long, { Cookie: "lang=en" })).toEqual({});
  });

  it("escapes the texts a page carries so that none can end its script", async () => {
    // a search term is shown in the page; the texts around it come from the catalogue, and the
    // script holding them never contains "<" (every "<" is \u003c in the JSON)
    const json = (await carriedTexts(`/search?q=${encodeURIComponent("</script><b>x")}`, { Cookie: "lang=zh-CN" }))!;
    expect(json).not.toContain("<");
    expect(() => JSON.parse(json)).not.toThrow();
  });

  it("leaves the /api's messages as the contract words them, whatever the reader's language", async () => {
    const variants: Array<Record<string, string>> = [{}, { Cookie: "lang=zh-CN", "Accept-Language": "zh-CN" }, { Cookie: "lang=en" }];
    for (const headers of variants) {
      const response = await fetch(`${server.url}/api/auth/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: server.url, ...headers },
        body: JSON.stringify({ username: "shortpass", email: "shortpass@example.com", password: "123" }),
      });
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain("Password must be at least 6 characters");
    }
  });
});

describe("no raw keys", () => {
  const STOREFRONT = [
    "/",
    "/search?q=hoodie",
    "/search?q=zzzznothing",
    "/blog",
    "/login",
    "/register",
    "/forgot-password",
    "/import",
    "/no-such-page",
  ];
  const SIGNED_IN = ["/profile", "/collections"];
  const BACK_OFFICE = [
    "/admin",
    "/admin/products",
    "/admin/products/new",
    "/admin/external-products",
    "/admin/categories",
    "/admin/categories/new",
    "/admin/users",
    "/admin/qc-manager",
    "/admin/qc-review",
    "/admin/blog",
    "/admin/blog/posts",
    "/admin/blog/posts/new",
    "/admin/blog/comments",
    "/admin/blog/settings",
    "/admin/email-management",
    "/admin/email-management/campaigns",
    "/admin/email-management/html-templates",
    "/admin/email-management/stats",
    "/admin/currency-settings",
    "/admin/product-display-settings",
    "/admin/agents",
    "/admin/agents/new",
    "/admin/site-settings",
    "/admin/settings",
    "/admin/imports",
    "/admin/search-words",
  ];

  for (const language of ["es", "fr", "de", "pt-BR"] as const) {
    it(`shows the storefront in ${language}, with no raw key, and the back office in English or Chinese`, async () => {
      const catalogue = flatten(ALL_CATALOGUES[language].shop);
      for (const path of [...STOREFRONT, productUrl, `/product/${productId}`]) {
        const answer = await page(path, { Cookie: `lang=${language}` });
        expect(answer.status, path).toBeLessThan(500);
        if (answer.status >= 300 && answer.status < 400) continue;
        expect(answer.lang, path).toBe(language);
        expect(visible(answer.html).match(RAW_KEY) ?? [], path).toEqual([]);
      }
      // the header's words are the language's own
      const home = await page("/", { Cookie: `lang=${language}` });
      expect(home.html).toContain(catalogue["common.skipToContent"]);
      expect(home.html).toContain(`value="${language}"`);
      // the back office does not speak it: Chinese by default, English when the reader also reads it
      expect((await page("/admin", { Cookie: `${adminCookie}; lang=${language}` })).lang).toBe("zh-CN");
      expect((await page("/admin", { Cookie: `${adminCookie}; lang=${language}`, "Accept-Language": `${language}, en;q=0.5` })).lang).toBe(
        "en",
      );
    });
  }

  for (const language of ["en", "zh-CN"] as const) {
    it(`shows none on any page in ${language}`, async () => {
      const pages = [
        ...STOREFRONT.map((path) => [path, `lang=${language}`]),
        [productUrl, `lang=${language}`],
        [`/product/${productId}`, `lang=${language}`],
        ...[...SIGNED_IN, ...BACK_OFFICE, `/admin/products/${productId}/edit`, `/admin/products/${productId}/qc`].map((path) => [
          path,
          `${adminCookie}; lang=${language}`,
        ]),
      ];
      for (const [path, cookie] of pages) {
        const answer = await page(path, { Cookie: cookie });
        expect(answer.status, path).toBeLessThan(500);
        if (answer.status >= 300 && answer.status < 400) continue;
        expect(answer.lang, path).toBe(language);
        expect(visible(answer.html).match(RAW_KEY) ?? [], path).toEqual([]);
      }
    });
  }
});
