/**
 * A product's pictures. With JavaScript: a thumbnail swaps the main picture in place, the
 * main picture opens a viewer that zooms (buttons, keys, double click, wheel) and pans
 * (drag, arrow keys) and moves between pictures; the page never leaves for the bare file.
 * Without JavaScript: the main picture and each thumbnail link to the full picture.
 */
import type { APIRequestContext, TestInfo } from "@playwright/test";
import { jpeg } from "../setup/images";
import { adminToken, uniqueName } from "./admin-helpers";
import { expect, test } from "./fixtures";

async function productWithPictures(
  request: APIRequestContext,
  testInfo: TestInfo,
  count: number,
): Promise<{ path: string; name: string; images: string[] }> {
  const headers = { Authorization: `Bearer ${await adminToken(request)}` };
  const images: string[] = [];
  for (let i = 0; i < count; i++) {
    const form = new FormData();
    form.append("image", new Blob([new Uint8Array(await jpeg(1200, 900))], { type: "image/jpeg" }), `picture-${i}.jpg`);
    const uploaded = await request.post("/api/products/upload-image", { headers, multipart: form });
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    images.push((await uploaded.json()).data.imageUrl);
  }
  const name = `Gallery jacket ${uniqueName(testInfo, "g")}`;
  const created = await request.post("/api/admin/products", { headers, data: { name, price_cny: 199, main_images: images } });
  expect(created.status(), await created.text()).toBe(201);
  return { path: new URL((await created.json()).data.url, "http://site.invalid").pathname, name, images };
}

/** The scale in the viewer's transform (1 when fitted). */
const scaleOf = (transform: string | null) => Number(/scale\(([\d.]+)\)/.exec(transform ?? "")?.[1] ?? 1);
const offsetOf = (transform: string | null) =>
  /translate\(([-\d.]+)px, ([-\d.]+)px\)/
    .exec(transform ?? "")
    ?.slice(1)
    .map(Number) ?? [0, 0];

test.describe("product pictures", () => {
  test("without JavaScript the pictures link to the full files; with it they stay in the page", async ({ page, request }, testInfo) => {
    const product = await productWithPictures(request, testInfo, 3);
    await page.goto(product.path);
    const main = page.locator(".product-page__main-image");
    const thumbs = page.getByRole("list", { name: "All pictures" }).getByRole("link");
    await expect(thumbs).toHaveCount(3);
    await expect(main).toHaveAttribute("href", product.images[0]);
    await expect(thumbs.nth(2)).toHaveAttribute("href", product.images[2]);

    if (testInfo.project.name === "no-js") {
      await thumbs.nth(2).click();
      await expect(page).toHaveURL(new RegExp(`${product.images[2].replace(/[.?]/g, "\\$&")}$`));
      return;
    }

    // a thumbnail swaps the main picture; the address stays the product's
    await thumbs.nth(2).click();
    await expect(page).toHaveURL(new RegExp(`${product.path}$`));
    await expect(main.locator("img")).toHaveAttribute("src", product.images[2]);
    await expect(thumbs.nth(2)).toHaveAttribute("aria-current", "true");

    // the main picture opens the viewer at that picture
    await main.click();
    const viewer = page.getByRole("dialog", { name: `Pictures of ${product.name}` });
    await expect(viewer).toBeVisible();
    await expect(viewer.getByText("3 / 3")).toBeVisible();
    const picture = viewer.locator(".lightbox__stage img");
    await expect(picture).toHaveAttribute("src", product.images[2]);

    // zoom: the button, the key, back to fit
    const level = viewer.locator(".lightbox__zoom-level");
    await viewer.getByRole("button", { name: "Zoom in (+)" }).click();
    await expect(level).toHaveText("150%");
    await page.keyboard.press("+");
    await expect(level).toHaveText("225%");
    expect(scaleOf(await picture.evaluate((img) => img.style.transform))).toBeCloseTo(2.25);
    // zoomed, a drag pans the picture
    const stage = viewer.locator(".lightbox__stage");
    const box = (await stage.boundingBox())!;
    const before = offsetOf(await picture.evaluate((img) => img.style.transform));
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 120, box.y + box.height / 2 - 60, { steps: 6 });
    await page.mouse.up();
    const after = offsetOf(await picture.evaluate((img) => img.style.transform));
    expect(after[0]).toBeLessThan(before[0] - 100);
    expect(after[1]).toBeLessThan(before[1] - 40);
    // arrow keys look around while zoomed, they do not change the picture
    await page.keyboard.press("ArrowRight");
    await expect(viewer.getByText("3 / 3")).toBeVisible();
    await viewer.getByRole("button", { name: "Fit" }).click();
    await expect(level).toHaveText("100%");
    // a double click zooms in where it is, another goes back
    await stage.dblclick({ position: { x: box.width / 3, y: box.height / 3 } });
    await expect(level).toHaveText("250%");
    await stage.dblclick({ position: { x: box.width / 3, y: box.height / 3 } });
    await expect(level).toHaveText("100%");
    // one click on the photo zooms in there, another goes back
    await picture.click();
    await expect(level).toHaveText("250%");
    await page.waitForTimeout(350);
    await picture.click();
    await expect(level).toHaveText("100%");
    // the backdrop is opaque: nothing of the page shows through
    expect(await viewer.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe("rgb(0, 0, 0)");
    // the wheel zooms too
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -200);
    await expect(level).not.toHaveText("100%");
    await page.keyboard.press("0");
    await expect(level).toHaveText("100%");

    // fitted, the arrows move between pictures; Escape closes and focus comes back
    await page.keyboard.press("ArrowRight");
    await expect(viewer.getByText("1 / 3")).toBeVisible();
    await expect(picture).toHaveAttribute("src", product.images[0]);
    await page.keyboard.press("Escape");
    await expect(viewer).toBeHidden();
    await expect(main).toBeFocused();
    // the page shows the picture the viewer ended on
    await expect(main.locator("img")).toHaveAttribute("src", product.images[0]);
  });
});
