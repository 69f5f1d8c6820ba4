/**
 * QC photos in the browser, with JavaScript on and off: a shopper uploads from the product
 * page, an admin approves in the review queue, the photos appear in the gallery; the
 * gallery's lightbox (JS) or plain links (no JS); a bad file gets the spec's message.
 */
import type { APIRequestContext, Page, TestInfo } from "@playwright/test";
import { jpeg, notAnImage } from "../setup/images";
import { adminToken, createUserViaApi, uniqueName } from "./admin-helpers";
import { E2E_ADMIN, loginViaForm, logoutViaMenu } from "./auth-helpers";
import { expect, test } from "./fixtures";

const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });

async function createProduct(request: APIRequestContext, testInfo: TestInfo): Promise<{ id: number; name: string; path: string }> {
  const name = `QC tote ${uniqueName(testInfo, "p")}`;
  const response = await request.post("/api/admin/products", {
    headers: { Authorization: `Bearer ${await adminToken(request)}` },
    data: { name, price_cny: 88 },
  });
  expect(response.status(), await response.text()).toBe(201);
  const data = (await response.json()).data;
  return { id: data.id, name, path: data.url };
}

async function publishPhotos(request: APIRequestContext, productId: number, count: number) {
  const form = new FormData();
  for (let i = 0; i < count; i++)
    form.append("qcImages", new Blob([new Uint8Array(await jpeg(640, 480))], { type: "image/jpeg" }), `photo-${i}.jpg`);
  const response = await request.post(`/api/qc/products/${productId}/qc-images/admin`, {
    headers: { Authorization: `Bearer ${await adminToken(request)}` },
    multipart: form,
  });
  expect(response.status(), await response.text()).toBe(201);
}

test.describe("QC photos", () => {
  test("a shopper uploads photos, an admin approves them in the review queue, and they appear in the gallery", async ({
    page,
    request,
  }, testInfo) => {
    const product = await createProduct(request, testInfo);
    const shopper = await createUserViaApi(request, uniqueName(testInfo, "qcshopper"));
    await loginViaForm(page, shopper.email, shopper.password);
    await page.goto(product.path);
    const gallery = page.locator("#qc-gallery");
    await expect(gallery.getByText("No QC photos available.")).toBeVisible();
    await expect(gallery.getByText("You can only upload 10 more photos (0/10 already uploaded)")).toBeVisible();

    await gallery.locator('input[name="photos"]').setInputFiles([
      { name: "front.jpg", mimeType: "image/jpeg", buffer: await jpeg(800, 600) },
      { name: "label.jpg", mimeType: "image/jpeg", buffer: await jpeg(800, 600) },
    ]);
    await gallery.getByRole("button", { name: "Upload photos" }).click();
    await expect(toast(page, "2 photos uploaded. They appear in the gallery once a moderator approves them.")).toBeVisible();
    await expect(gallery.getByText("Waiting for review (2)")).toBeVisible();
    await expect(gallery.getByText("No QC photos available.")).toBeVisible();
    await logoutViaMenu(page);

    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await page.goto("/admin/qc-review");
    const tiles = page.locator(".admin-qc-tile", { hasText: product.name });
    await expect(tiles).toHaveCount(2);
    // one on its own, the other as a selection
    await tiles
      .first()
      .getByRole("button", { name: /^Approve photo/ })
      .click();
    await expect(toast(page, "1 photo approved.")).toBeVisible();
    await expect(tiles).toHaveCount(1);
    await tiles.first().getByRole("checkbox").check();
    await page.getByRole("button", { name: "Approve selected" }).click();
    await expect(toast(page, "1 photo approved.")).toBeVisible();
    await expect(tiles).toHaveCount(0);

    await page.goto(product.path);
    await expect(gallery.getByText("No QC photos available.")).toHaveCount(0);
    await expect(gallery.locator(".qc-set .qc-thumb")).toHaveCount(2);
    await expect(gallery.getByRole("heading", { name: /QC set · 2 photos/ })).toBeVisible();
  });

  test("the gallery opens a lightbox with arrow keys and Escape (JavaScript), or links to each photo (without)", async ({
    page,
    request,
  }, testInfo) => {
    const product = await createProduct(request, testInfo);
    await publishPhotos(request, product.id, 3);
    await page.goto(product.path);
    const thumbs = page.locator("#qc-gallery .qc-set .qc-thumb");
    await expect(thumbs).toHaveCount(3);
    const second = await thumbs.nth(1).getAttribute("href");
    // thumbnails show the whole photo (the agent's watermark in a corner), never a square crop
    expect(
      await thumbs
        .nth(0)
        .locator("img")
        .evaluate((img) => getComputedStyle(img).objectFit),
    ).toBe("contain");
    // and a 4:3 warehouse photo (these are 640 × 480) fills its card: no bars above and below
    const card = (await thumbs.nth(0).boundingBox())!;
    const natural = await thumbs
      .nth(0)
      .locator("img")
      .evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth / img.naturalHeight : 0));
    expect(card.width / card.height).toBeCloseTo(4 / 3, 1);
    if (natural) expect(natural).toBeCloseTo(card.width / card.height, 1);

    if (testInfo.project.name === "no-js") {
      await thumbs.nth(1).click();
      await expect(page).toHaveURL(new RegExp(`${second!.replace(/[.?]/g, "\\$&")}$`));
      return;
    }
    await thumbs.nth(1).click();
    const dialog = page.getByRole("dialog", { name: /QC photos of/ });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("2 / 3")).toBeVisible();
    await expect(dialog.locator(".lightbox__stage img")).toHaveAttribute("src", second!);
    await page.keyboard.press("ArrowRight");
    await expect(dialog.getByText("3 / 3")).toBeVisible();
    await page.keyboard.press("ArrowRight");
    await expect(dialog.getByText("1 / 3")).toBeVisible();
    await page.keyboard.press("ArrowLeft");
    await expect(dialog.getByText("3 / 3")).toBeVisible();
    await dialog.getByRole("button", { name: "Photo 2" }).click();
    await expect(dialog.getByText("2 / 3")).toBeVisible();
    // zoom to judge stitching and tags: the buttons and keys, the photo at full size
    const level = dialog.locator(".lightbox__zoom-level");
    await expect(level).toHaveText("100%");
    await dialog.getByRole("button", { name: "Zoom in (+)" }).click();
    await page.keyboard.press("+");
    await expect(level).toHaveText("225%");
    expect(await dialog.locator(".lightbox__stage img").evaluate((img) => img.style.transform)).toContain("scale(2.25)");
    await expect(dialog.getByRole("link", { name: "Open full size" })).toHaveAttribute("href", second!);
    // zoomed, the arrows pan instead of changing the photo
    await page.keyboard.press("ArrowRight");
    await expect(dialog.getByText("2 / 3")).toBeVisible();
    await page.keyboard.press("-");
    await expect(level).toHaveText("150%");
    await dialog.getByRole("button", { name: "Fit" }).click();
    await expect(level).toHaveText("100%");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(thumbs.nth(1)).toBeFocused();
  });

  test("a file that is not a photo gets the spec's message and nothing is stored", async ({
    page,
    request,
    allowedConsoleErrors,
  }, testInfo) => {
    // without JavaScript the browser notes the page's 400 answer
    allowedConsoleErrors.push(/status of 400/);
    const product = await createProduct(request, testInfo);
    const shopper = await createUserViaApi(request, uniqueName(testInfo, "qcbad"));
    await loginViaForm(page, shopper.email, shopper.password);
    await page.goto(product.path);
    const gallery = page.locator("#qc-gallery");
    await gallery.locator('input[name="photos"]').setInputFiles([{ name: "notes.txt", mimeType: "text/plain", buffer: notAnImage }]);
    // whether a file is a photo is the server's to say (it reads the content), with JavaScript too
    await gallery.getByRole("button", { name: "Upload photos" }).click();
    await expect(gallery.getByText("notes.txt: Invalid file type. Only JPG, PNG, WEBP allowed")).toBeVisible();
    await expect(gallery.getByText("No valid files selected")).toBeVisible();
    const login = await request.post("/api/auth/login", { data: { email: shopper.email, password: shopper.password } });
    const status = await request.get(`/api/qc/products/${product.id}/qc-images/user/status`, {
      headers: { Authorization: `Bearer ${(await login.json()).accessToken}` },
    });
    expect((await status.json()).data.totalUploads).toBe(0);
    await expect(gallery.getByText("Waiting for review")).toHaveCount(0);
  });

  test("staff open a QC folder by id, upload photos, and delete a selection after confirming", async ({ page, request }, testInfo) => {
    const product = await createProduct(request, testInfo);
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await page.goto("/admin/qc-manager");
    await page.getByRole("link", { name: "New QC folder" }).click();
    const dialog = page.getByRole("dialog", { name: "New QC folder" });
    await dialog.getByLabel("Product id").fill("12ab");
    await dialog.getByRole("button", { name: "Open folder" }).click();
    await expect(dialog.getByText("Enter a valid numeric ID.")).toBeVisible();
    await dialog.getByLabel("Product id").fill(String(product.id));
    await dialog.getByRole("button", { name: "Open folder" }).click();
    await expect(toast(page, `QC folder: ${product.name}`)).toBeVisible();
    const folder = page.getByRole("region", { name: "Folder" });
    await expect(folder.getByRole("heading", { name: product.name })).toBeVisible();

    await folder.locator('input[name="qcImages"]').setInputFiles([
      { name: "a.jpg", mimeType: "image/jpeg", buffer: await jpeg(400, 300) },
      { name: "b.jpg", mimeType: "image/jpeg", buffer: await jpeg(400, 300) },
    ]);
    await folder.getByRole("button", { name: "Upload photos" }).click();
    await expect(toast(page, "2 photos published.")).toBeVisible();
    await expect(folder.locator(".admin-qc-tile")).toHaveCount(2);

    await folder.getByRole("button", { name: "Delete selected" }).click();
    await expect(folder.getByText("Select the photos to delete.")).toBeVisible();
    await folder.locator(".admin-qc-tile").first().getByRole("checkbox").check();
    await folder.getByRole("button", { name: "Delete selected" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete 1 photo?" });
    await confirm.getByRole("button", { name: "Delete 1 photo" }).click();
    await expect(toast(page, "1 photo deleted.")).toBeVisible();
    await expect(folder.locator(".admin-qc-tile")).toHaveCount(1);
    await page.goto(product.path);
    await expect(page.locator("#qc-gallery .qc-set .qc-thumb")).toHaveCount(1);
  });
});
