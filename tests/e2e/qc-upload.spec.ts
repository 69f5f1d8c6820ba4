/**
 * The QC upload box does with JavaScript what it does without: the server says which
 * files it took and which it refused (by their content, each named on its own line), a
 * successful upload comes back with an empty file input (a second press sends nothing),
 * and the same photo twice is refused. Both projects run it: js is the normal case.
 */
import type { APIRequestContext, Page, TestInfo } from "@playwright/test";
import { jpeg, notAnImage, png } from "../setup/images";
import { adminToken, createUserViaApi, uniqueName } from "./admin-helpers";
import { E2E_ADMIN, loginViaForm } from "./auth-helpers";
import { expect, test, withDatabase } from "./fixtures";

const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });

async function createProduct(request: APIRequestContext, testInfo: TestInfo): Promise<{ id: number; path: string }> {
  const response = await request.post("/api/admin/products", {
    headers: { Authorization: `Bearer ${await adminToken(request)}` },
    data: { name: `QC upload ${uniqueName(testInfo, "p")}`, price_cny: 20 },
  });
  expect(response.status(), await response.text()).toBe(201);
  const data = (await response.json()).data;
  return { id: data.id, path: data.url };
}

const pendingOf = (productId: number) =>
  withDatabase(
    (db) =>
      (db.prepare("SELECT count(*) AS n FROM qc_images WHERE product_id = ? AND status = 'pending'").get(productId) as { n: number }).n,
  );

test.describe("the QC upload box", () => {
  test("a successful upload empties the box; pressing again sends nothing; the same photo again is refused by name", async ({
    page,
    request,
    allowedConsoleErrors,
  }, testInfo) => {
    // the refused second upload is answered 400, which the browser notes
    allowedConsoleErrors.push(/status of 400/);
    const product = await createProduct(request, testInfo);
    const shopper = await createUserViaApi(request, uniqueName(testInfo, "qcbox"));
    await loginViaForm(page, shopper.email, shopper.password, product.path);
    const box = page.locator("#qc-upload");
    const photo = { name: "front.jpg", mimeType: "image/jpeg", buffer: await jpeg(640, 480) };

    await box.locator('input[name="photos"]').setInputFiles(photo);
    await box.getByRole("button", { name: "Upload photos" }).click();
    await expect(toast(page, "1 photo uploaded.")).toBeVisible();
    await expect(box.getByText("Waiting for review (1)")).toBeVisible();
    await expect(box.locator('input[name="photos"]')).toHaveValue("");
    // a second press: the browser asks for files (the input is required), nothing is sent
    await box.getByRole("button", { name: "Upload photos" }).click();
    await expect(box.getByText("Waiting for review (1)")).toBeVisible();
    expect(pendingOf(product.id)).toBe(1);

    // the same photo again (another name): refused, named, nothing stored
    await box.locator('input[name="photos"]').setInputFiles({ ...photo, name: "front-again.jpg" });
    await box.getByRole("button", { name: "Upload photos" }).click();
    await expect(
      page.getByRole("alert").filter({ hasText: "front-again.jpg: You have already uploaded this photo for this product" }),
    ).toBeVisible();
    expect(pendingOf(product.id)).toBe(1);
  });

  test("files are judged by their content, as the server reads them; each refusal on a line of its own", async ({
    page,
    request,
  }, testInfo) => {
    const product = await createProduct(request, testInfo);
    const shopper = await createUserViaApi(request, uniqueName(testInfo, "qcmixed"));
    await loginViaForm(page, shopper.email, shopper.password, product.path);
    const box = page.locator("#qc-upload");
    const big = Buffer.alloc(16 * 1024 * 1024);
    (await png(8, 8)).copy(big);
    await box.locator('input[name="photos"]').setInputFiles([
      // a text file named like a photo, a PNG named .gif, a 16 MB file
      { name: "notes.png", mimeType: "image/png", buffer: notAnImage },
      { name: "label.gif", mimeType: "image/gif", buffer: await png(320, 240) },
      { name: "huge.png", mimeType: "image/png", buffer: big },
    ]);
    // before sending, only what the browser knows for sure: the size
    if (testInfo.project.name === "js") await expect(box.getByRole("alert")).toHaveText("huge.png: File too large. Maximum 10MB");
    await box.getByRole("button", { name: "Upload photos" }).click();
    const notice = toast(page, "1 photo uploaded.");
    await expect(notice).toBeVisible();
    await expect(notice.getByRole("listitem")).toHaveText([
      "notes.png: Invalid file type. Only JPG, PNG, WEBP allowed",
      "huge.png: File too large. Maximum 10MB",
    ]);
    await expect(box.getByText("Waiting for review (1)")).toBeVisible();
    await expect(box.getByRole("alert")).toHaveCount(0);
  });

  test("the QC manager's upload comes back empty after publishing", async ({ page, request }, testInfo) => {
    const product = await createProduct(request, testInfo);
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, `/admin/products/${product.id}/qc`);
    const input = page.locator('input[name="qcImages"]');
    await input.setInputFiles([
      { name: "a.jpg", mimeType: "image/jpeg", buffer: await jpeg(300, 200) },
      { name: "b.jpg", mimeType: "image/jpeg", buffer: await jpeg(300, 200) },
    ]);
    await page.getByRole("button", { name: "Upload photos" }).click();
    await expect(toast(page, /2 photos/)).toBeVisible();
    await expect(page.locator('input[name="qcImages"]')).toHaveValue("");
  });
});
