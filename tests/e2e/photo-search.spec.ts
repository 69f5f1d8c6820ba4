/**
 * Search by photo and "the same item elsewhere" (issue 38) in the browser, with JavaScript
 * and without: the file input and its results, "nothing close enough" with the other ways
 * to search, "find similar" on a product's picture, the same item on the product page, and
 * staff linking and dismissing in the back office. With JavaScript, a photo can also be
 * pasted or dropped, and is shown before it is sent. Real photographs (tests/fixtures/photos);
 * each project uses its own, so their products never match each other's.
 */
import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page, TestInfo } from "@playwright/test";
import { fixturePhotos, QUERY_TRANSFORMS } from "../setup/photo-queries";
import { adminToken, uniqueName } from "./admin-helpers";
import { E2E_ADMIN, loginViaForm } from "./auth-helpers";
import { expect, test } from "./fixtures";

const catalogue = fixturePhotos("catalogue");
const strangers = fixturePhotos("elsewhere");
const transform = (name: string) => QUERY_TRANSFORMS.find(([label]) => label === name)![1];
/** The photo form's own button (the header has a "Search" of its own). */
const submit = (page: Page) =>
  page.getByRole("region", { name: "Search by photo" }).getByRole("button", { name: "Search", exact: true }).click();
const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });

type Listing = { id: number; path: string; name: string; image: string };

/** Two listings of one photograph (the second a reseller's smaller copy, cheaper), made through the API. */
async function listings(request: APIRequestContext, testInfo: TestInfo, photo: Buffer): Promise<[Listing, Listing]> {
  const headers = { Authorization: `Bearer ${await adminToken(request)}` };
  const made: Listing[] = [];
  for (const [label, bytes, price] of [
    ["Original", photo, 260],
    ["Reseller copy", await transform("downscaled to 40 %")(photo), 95],
  ] as const) {
    const form = new FormData();
    form.append("image", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), "picture.jpg");
    const uploaded = await request.post("/api/products/upload-image", { headers, multipart: form });
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    const image = (await uploaded.json()).data.imageUrl as string;
    const name = `${label} ${uniqueName(testInfo, "photo")}`;
    const created = await request.post("/api/admin/products", { headers, data: { name, price_cny: price, main_images: [image] } });
    expect(created.status(), await created.text()).toBe(201);
    const data = (await created.json()).data;
    made.push({ id: data.id, path: new URL(data.url, "http://site.invalid").pathname, name, image });
  }
  // the fingerprints are made in the background: the two find each other
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`/api/products/${made[0].id}?incrementView=false`)).json()).data.sameItem as Array<{
            product: { id: number };
          }>
        ).map((item) => item.product.id),
      { timeout: 30_000 },
    )
    .toContain(made[1].id);
  return [made[0], made[1]];
}

/** A photo of each project's own (js and no-js share one database). */
const photoOf = (testInfo: TestInfo, at: number) =>
  fs.readFileSync(catalogue[(testInfo.project.name === "js" ? [14, 15, 16, 17] : [20, 22, 23, 24])[at]].file);

async function queryFile(testInfo: TestInfo, bytes: Buffer, name: string): Promise<string> {
  const file = path.join(testInfo.outputDir, name);
  fs.mkdirSync(testInfo.outputDir, { recursive: true });
  fs.writeFileSync(file, bytes);
  return file;
}

test.describe("search by photo", () => {
  test("a shopper's photo finds its product and the same item at another seller; a stranger finds nothing close", async ({
    page,
    request,
  }, testInfo) => {
    const [original, resold] = await listings(request, testInfo, photoOf(testInfo, 0));
    const query = await queryFile(testInfo, await transform("10 % off the left and the bottom")(photoOf(testInfo, 0)), "query.jpg");

    await page.goto("/search/photo");
    await expect(page.getByRole("heading", { level: 1, name: "Search by photo" })).toBeVisible();
    await page.getByLabel("Photo", { exact: true }).setInputFiles(query);
    if (testInfo.project.name === "js") await expect(page.getByRole("img", { name: "The photo you chose" })).toBeVisible();
    await submit(page);

    const results = page.locator(".photo-matches");
    await expect(results.getByRole("link", { name: original.name })).toBeVisible();
    await expect(results.getByRole("link", { name: resold.name })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: /products? with this photo/ })).toBeVisible();
    await expect(results.locator("li").first()).toContainText(/\d+% match/);

    // a photo of something not here: said so, with the other ways to search
    await page.goto("/search/photo");
    await page
      .getByLabel("Photo", { exact: true })
      .setInputFiles(await queryFile(testInfo, fs.readFileSync(strangers[6].file), "stranger.jpg"));
    await submit(page);
    await expect(page.getByRole("heading", { name: "Nothing close enough" })).toBeVisible();
    await expect(page.locator(".photo-matches")).toHaveCount(0);
    await page.getByRole("link", { name: "Paste a link instead" }).click();
    await expect(page).toHaveURL(/\/import$/);
  });

  test("the page fits a 360 px wide phone without sideways scrolling, a chosen photo included", async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto("/search/photo");
    await page.getByLabel("Photo", { exact: true }).setInputFiles(await queryFile(testInfo, photoOf(testInfo, 0), "phone.jpg"));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test("a file that is no picture is refused by name, and the form stays", async ({ page, allowedConsoleErrors }, testInfo) => {
    allowedConsoleErrors.push(/status of 400/);
    await page.goto("/search/photo");
    await page
      .getByLabel("Photo", { exact: true })
      .setInputFiles(await queryFile(testInfo, Buffer.from("not a picture at all"), "notes.jpg"));
    await submit(page);
    await expect(page.getByRole("alert")).toHaveText("The file is not a JPG, PNG, WEBP or GIF image");
    await expect(page.getByLabel("Photo", { exact: true })).toHaveAttribute("aria-invalid", "true");
  });

  test("with JavaScript, a pasted or dropped photo is searched at once; without it, the page offers only the file input", async ({
    page,
    request,
  }, testInfo) => {
    const hint = page.locator(".photo-picker__hint");
    if (testInfo.project.name === "no-js") {
      await page.goto("/search/photo");
      await expect(hint).toHaveText("JPG, PNG, WEBP or GIF, up to 10 MB.");
      await expect(page.getByLabel("Photo", { exact: true })).toHaveAttribute("type", "file");
      return;
    }
    const [original] = await listings(request, testInfo, photoOf(testInfo, 1));
    const base64 = (await transform("JPEG quality 35")(photoOf(testInfo, 1))).toString("base64");
    await page.goto("/search/photo");
    await expect(hint).toHaveText("JPG, PNG, WEBP or GIF, up to 10 MB. You can also paste a photo or drop it here.");
    await page.evaluate((data) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], "screenshot.jpg", { type: "image/jpeg" }));
      document.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true }));
    }, base64);
    await expect(page.locator(".photo-matches").getByRole("link", { name: original.name })).toBeVisible();
    await expect(page.getByRole("img", { name: "The photo you chose" })).toBeVisible();

    await page.goto("/search/photo");
    const dropped = (await transform("mirrored")(photoOf(testInfo, 1))).toString("base64");
    await page.locator(".photo-picker").evaluate((zone, data) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], "dropped.jpg", { type: "image/jpeg" }));
      zone.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, dropped);
    await expect(page.locator(".photo-matches").getByRole("link", { name: original.name })).toBeVisible();
  });

  test("the product page shows the same item elsewhere, and 'find similar' searches from its picture", async ({
    page,
    request,
  }, testInfo) => {
    const [original, resold] = await listings(request, testInfo, photoOf(testInfo, 2));
    await page.goto(original.path);
    const section = page.getByRole("region", { name: "The same item elsewhere" });
    await expect(section.getByRole("link", { name: resold.name })).toBeVisible();
    // in the visitor's currency
    await expect(section).toContainText(/\$\d+\.\d\d/);

    await page.locator(".product-page__gallery").getByRole("link", { name: "Find similar" }).click();
    await expect(page).toHaveURL(/\/search\/photo\?image=/);
    const cards = page.locator(".photo-matches > li");
    await expect(cards.first()).toContainText(original.name);
    await expect(page.locator(".photo-matches").getByRole("link", { name: resold.name })).toBeVisible();
  });

  test("staff see 'probably the same item', dismiss it (gone from the product page) and undo", async ({ page, request }, testInfo) => {
    const [original, resold] = await listings(request, testInfo, photoOf(testInfo, 3));
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, `/admin/products/${resold.id}/edit`);
    const section = page.getByRole("region", { name: "Probably the same item" });
    await expect(section.getByText(`Probably the same item as #${original.id}`)).toBeVisible();
    await section.getByRole("button", { name: `Dismiss #${original.id}: not the same item` }).click();
    await expect(toast(page, `#${original.id} is dismissed: not the same item.`)).toBeVisible();
    await expect(section.getByText("Dismissed", { exact: true })).toBeVisible();

    await page.goto(original.path);
    await expect(page.getByRole("region", { name: "The same item elsewhere" })).toHaveCount(0);

    await page.goto(`/admin/products/${resold.id}/edit`);
    await section.getByRole("button", { name: `Undo the decision on #${original.id}` }).click();
    await expect(toast(page, `The decision on #${original.id} is undone: its photos decide again.`)).toBeVisible();
    await page.goto(original.path);
    await expect(page.getByRole("region", { name: "The same item elsewhere" }).getByRole("link", { name: resold.name })).toBeVisible();
  });
});
