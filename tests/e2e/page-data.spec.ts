/**
 * A visitor's page fetches what it hydrates with after its first paint (decision 044), and
 * a search's first page of results may be indexed (decision 045). With JavaScript the page
 * hydrates from that answer (client-side navigation works, the head the browser renders
 * says what the server's did); without it nothing is fetched and the page works as served.
 */
import type { APIRequestContext, TestInfo } from "@playwright/test";
import { adminToken, uniqueName } from "./admin-helpers";
import { expect, test } from "./fixtures";

async function visitorProduct(request: APIRequestContext, testInfo: TestInfo): Promise<{ path: string; name: string; word: string }> {
  const word = uniqueName(testInfo, "hyd")
    .replace(/[^a-z0-9]/gi, "")
    .toLowerCase();
  const name = `Hydration parka ${word}`;
  const created = await request.post("/api/admin/products", {
    headers: { Authorization: `Bearer ${await adminToken(request)}` },
    data: { name, price_cny: 129, skus: [{ sku_name: "M", sku_price: 129, sku_stock: 4 }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { path: new URL((await created.json()).data.url, "http://site.invalid").pathname, name, word };
}

test.describe("what a page hydrates with", () => {
  test("a visitor's product page fetches its data after the first paint and hydrates with it; without JavaScript nothing is fetched", async ({
    page,
    request,
  }, testInfo) => {
    const product = await visitorProduct(request, testInfo);
    const dataAnswers: number[] = [];
    const documents: string[] = [];
    page.on("response", (response) => {
      if (response.url().endsWith("_hydration=1")) dataAnswers.push(response.status());
    });
    page.on("request", (request) => {
      if (request.resourceType() === "document") documents.push(new URL(request.url()).pathname);
    });
    await page.goto(product.path);
    await expect(page.getByRole("heading", { level: 1, name: product.name })).toBeVisible();

    if (testInfo.project.name === "no-js") {
      expect(dataAnswers).toEqual([]);
      await page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Blog" }).click();
      await expect(page).toHaveURL(/\/blog$/);
      expect(documents).toEqual([product.path, "/blog"]);
      return;
    }

    // one data answer, and the page hydrated from it: the next page comes without a new document
    expect(dataAnswers).toEqual([200]);
    await expect(page.locator("html[data-hydrated]")).toBeAttached();
    await page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Blog" }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(documents).toEqual([product.path]);
  });

  test("hydration takes the page's preload links where the loader put them: none made again, moved or taken away before the page is hydrated", async ({
    page,
  }, testInfo) => {
    // every link element added to or removed from the document, until the page is hydrated
    await page.addInitScript(() => {
      const log: string[] = [];
      (window as unknown as { linkMoves: string[] }).linkMoves = log;
      new MutationObserver((records) => {
        if (document.documentElement.hasAttribute("data-hydrated")) return;
        for (const record of records) {
          for (const node of record.addedNodes)
            if (node.nodeName === "LINK") log.push(`+${(node as HTMLLinkElement).getAttribute("href")}`);
          for (const node of record.removedNodes)
            if (node.nodeName === "LINK") log.push(`-${(node as HTMLLinkElement).getAttribute("href")}`);
        }
      }).observe(document, { subtree: true, childList: true });
    });
    await page.goto("/");
    if (testInfo.project.name === "no-js") {
      // without JavaScript the page asks for none of its scripts
      await expect(page.locator("footer")).toBeVisible();
      expect(await page.locator("link[rel=modulepreload]").count()).toBe(0);
      return;
    }
    await expect(page.locator("html[data-hydrated]")).toBeAttached();
    const moves = await page.evaluate(() => (window as unknown as { linkMoves: string[] }).linkMoves);
    const added = moves.filter((move) => move.startsWith("+"));
    // the loader's links, each once (the route's chunks and the entry), and nothing else
    expect(added.length).toBeGreaterThan(3);
    expect(new Set(added).size).toBe(added.length);
    expect(moves).toEqual(added);
  });

  test("a search's first page of results may be indexed under its address, a search that finds nothing may not, with or without JavaScript", async ({
    page,
    request,
  }, testInfo) => {
    const product = await visitorProduct(request, testInfo);
    await page.goto(`/search?q=${product.word}`);
    await expect(page.locator(".product-card").filter({ hasText: product.name })).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`/search\\?q=${product.word}$`));

    await page.goto(`/search?q=${product.word}zzqx`);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    await expect(page.locator('link[rel="canonical"]')).toHaveCount(0);
  });
});
