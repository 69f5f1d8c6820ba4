/**
 * QC photos through the pages over plain HTTP (what a browser without JavaScript gets):
 * the product page's gallery and upload box, the page-size budget with 20 photos, the
 * cached visitor page after an approval, and the back office's QC screens with their
 * permission checks and the spec's messages.
 */
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { jpeg, notAnImage } from "../setup/images";
import { formLogin, getPage, postForm, toastAfter } from "../setup/page-client";
import { startTestServer, type TestServer } from "../setup/server";

let server: TestServer;
let superToken: string;
let permissionIds: Record<string, number>;
let adminRoleId: number;
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter += 1)}`;

type Account = { cookie: string; token: string; id: number };
const cookies = {} as { super: string };

async function account(options: { admin?: boolean; permissions?: string[] } = {}): Promise<Account> {
  const username = unique("qcpage");
  const email = `${username}@example.com`;
  const made = await api(server.url, "/api/admin/users", {
    token: superToken,
    body: { username, email, password: "page-pass-1", ...(options.admin ? { roleIds: [adminRoleId] } : {}) },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  for (const name of options.permissions ?? []) {
    await api(server.url, `/api/admin/users/${made.body.data.id}/permissions/${permissionIds[name]}`, {
      method: "POST",
      token: superToken,
    });
  }
  return {
    cookie: await formLogin(server.url, email, "page-pass-1"),
    token: (await apiLogin(server.url, email, "page-pass-1")).accessToken,
    id: made.body.data.id,
  };
}

async function product(body: Record<string, unknown> = {}): Promise<{ id: number; url: string; name: string }> {
  const made = await api(server.url, "/api/admin/products", { token: superToken, body: { name: unique("QC page product "), ...body } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { id: made.body.data.id, url: made.body.data.url, name: made.body.data.name };
}

async function photoForm(field: string, files: Array<{ name: string; bytes: Buffer; type?: string }>) {
  const body = new FormData();
  for (const file of files) body.append(field, new Blob([new Uint8Array(file.bytes)], { type: file.type ?? "image/jpeg" }), file.name);
  return body;
}

function postMultipart(path: string, cookie: string | null, body: FormData) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { ...(cookie ? { Cookie: cookie } : {}), Origin: server.url, "Accept-Language": "en" },
    body,
    redirect: "manual",
  });
}

async function adminUpload(productId: number, count: number) {
  const files = await Promise.all(Array.from({ length: count }, async (_, i) => ({ name: `p${i}.jpg`, bytes: await jpeg(320, 240) })));
  const response = await api(server.url, `/api/qc/products/${productId}/qc-images/admin`, {
    token: superToken,
    body: await photoForm("qcImages", files),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.uploadedImages as Array<{ id: number; imageUrl: string; thumbnail_url: string }>;
}

const page = (path: string, cookie?: string) => getPage(server.url, path, cookie);
const post = (path: string, cookie: string, fields: Record<string, string> | Array<[string, string]>) =>
  postForm(server.url, path, cookie, fields);
/** What the page shows: its text without React's separators and without the scripts (the route data holds the raw messages). */
const html = async (response: Response) =>
  (await response.text()).replace(/<!-- -->/g, "").replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");
/** The page a redirect leads to, with its toast (React's text separators removed). */
const after = async (response: Response, cookie: string) => (await toastAfter(server.url, response, cookie)).replace(/<!-- -->/g, "");

beforeAll(async () => {
  server = await startTestServer();
  superToken = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  cookies.super = await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
  const permissions = await api(server.url, "/api/admin/permissions", { token: superToken });
  permissionIds = Object.fromEntries(permissions.body.data.map((p: { name: string; id: number }) => [p.name, p.id]));
  const roles = await api(server.url, "/api/admin/roles", { token: superToken });
  adminRoleId = roles.body.data.find((r: { name: string }) => r.name === "admin").id;
});

afterAll(async () => {
  await server?.stop();
});

describe("the product page", () => {
  it("shows 'No QC photos available.' and asks visitors to register or log in to upload", async () => {
    const item = await product();
    const body = await html(await page(item.url));
    expect(body).toContain("No QC photos available.");
    expect(body).toContain(`/login?redirectTo=${encodeURIComponent(`${item.url}#qc-upload`)}`);
    expect(body).toContain("to upload QC photos");
    expect(body).not.toContain('name="photos"');
  });

  it("shows approved photos as sized, lazy thumbnails linking to the photo; 20 photos keep the page under 30 KB gzipped", async () => {
    const item = await product({ description: "A product with a full gallery." });
    const images = await adminUpload(item.id, 10);
    images.push(...(await adminUpload(item.id, 10)));
    const body = await html(await page(item.url));
    for (const image of images) {
      expect(body).toContain(`href="${image.imageUrl}"`);
      expect(body).toMatch(
        new RegExp(`<img src="${image.thumbnail_url}" width="\\d+" height="\\d+" alt="QC photo \\d+ of 20" loading="lazy"`),
      );
    }
    expect(body).toContain("QC set · 10 photos");
    const gzipped = zlib.gzipSync(body).length;
    expect(gzipped).toBeLessThan(30 * 1024);
  });

  it("takes a shopper's upload without JavaScript: pending, shown to them as waiting, not in the gallery; a bad file gets the spec's message", async () => {
    const item = await product();
    const shopper = await account();
    const body = await html(await page(item.url, shopper.cookie));
    expect(body).toContain('name="photos"');
    expect(body).toContain("You can only upload 10 more photos (0/10 already uploaded)");

    const sent = await postMultipart(
      item.url,
      shopper.cookie,
      await photoForm("photos", [
        { name: "a.jpg", bytes: await jpeg() },
        { name: "b.jpg", bytes: await jpeg() },
      ]),
    );
    const landed = await after(sent, shopper.cookie);
    expect(landed).toContain("2 photos uploaded. They appear in the gallery once a moderator approves them.");
    expect(landed).toContain("Waiting for review (2)");
    expect(landed).toContain("You can only upload 8 more photos (2/10 already uploaded)");
    expect(await html(await page(item.url))).toContain("No QC photos available.");

    const refused = await postMultipart(item.url, shopper.cookie, await photoForm("photos", [{ name: "notes.jpg", bytes: notAnImage }]));
    expect(refused.status).toBe(400);
    const refusedBody = await html(refused);
    expect(refusedBody).toContain("notes.jpg: Invalid file type. Only JPG, PNG, WEBP allowed");
    expect(refusedBody).toContain("No valid files selected");
  });

  it("shows the allowance in the spec's words, and 'Upload limit reached (10/10)' without an upload form once 10 photos count", async () => {
    const item = await product();
    const shopper = await account();
    const files = await Promise.all(Array.from({ length: 10 }, async (_, i) => ({ name: `f${i}.jpg`, bytes: await jpeg(64, 48) })));
    const sent = await api(server.url, `/api/qc/products/${item.id}/qc-images/user`, {
      token: shopper.token,
      body: await photoForm("photos", files),
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const body = await html(await page(item.url, shopper.cookie));
    expect(body).toContain("Upload limit reached (10/10)");
    expect(body).not.toContain('name="photos"');
    expect(body).not.toContain("already uploaded)");
    const refused = await postMultipart(
      item.url,
      shopper.cookie,
      await photoForm("photos", [{ name: "one-more.jpg", bytes: await jpeg() }]),
    );
    expect(refused.status).toBe(400);
    expect(await html(refused)).toContain("Upload limit reached (10/10)");
  });

  it("sends a visitor who posts an upload to log in, and stores nothing", async () => {
    const item = await product();
    const sent = await postMultipart(item.url, null, await photoForm("photos", [{ name: "a.jpg", bytes: await jpeg() }]));
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
    expect((await api(server.url, `/api/qc/products/${item.id}/qc-images/user/status`, { token: superToken })).body.data.totalUploads).toBe(
      0,
    );
  });

  it("an approval reaches visitors at once, also through the page kept for them", async () => {
    const item = await product();
    const shopper = await account();
    await page(item.url);
    await page(item.url); // now served from the page cache
    const sent = await api(server.url, `/api/qc/products/${item.id}/qc-images/user`, {
      token: shopper.token,
      body: await photoForm("photos", [{ name: "a.jpg", bytes: await jpeg() }]),
    });
    expect(sent.status).toBe(201);
    expect(await html(await page(item.url))).toContain("No QC photos available.");
    const approved = await api(server.url, `/api/qc/qc-images/${sent.body.uploaded[0].id}/review`, {
      method: "PUT",
      token: superToken,
      body: { status: "approved" },
    });
    expect(approved.status).toBe(200);
    const body = await html(await page(item.url));
    expect(body).not.toContain("No QC photos available.");
    expect(body).toContain(sent.body.uploaded[0].thumbnail_url);
  });
});

describe("the QC screens of the back office", () => {
  it("refuses users without QC access, and each action without its permission", async () => {
    const item = await product();
    const regular = await account();
    const plainAdmin = await account({ admin: true });
    for (const path of ["/admin/qc-manager", "/admin/qc-review", `/admin/products/${item.id}/qc`]) {
      expect((await page(path, regular.cookie)).status, path).toBe(403);
    }
    // the admin role sees the QC screens, both sidebar items included (docs/product/admin.md 2, 6), but
    // reviews and deletes nothing without permissions: no buttons, and the actions answer 403
    expect((await page("/admin/qc-manager", plainAdmin.cookie)).status).toBe(200);
    expect((await page(`/admin/products/${item.id}/qc`, plainAdmin.cookie)).status).toBe(200);
    const shopper = await account();
    const pendingSent = await api(server.url, `/api/qc/products/${item.id}/qc-images/user`, {
      token: shopper.token,
      body: await photoForm("photos", [{ name: "mine.jpg", bytes: await jpeg() }]),
    });
    expect(pendingSent.status).toBe(201);
    const queue = await page("/admin/qc-review", plainAdmin.cookie);
    expect(queue.status).toBe(200);
    const queueHtml = await html(queue);
    expect(queueHtml).toContain('href="/admin/qc-review"');
    expect(queueHtml).toContain(`Photo ${pendingSent.body.uploaded[0].id} of`);
    expect(queueHtml).not.toContain(`approve:${pendingSent.body.uploaded[0].id}`);
    expect(queueHtml).not.toContain("approve-selected");
    expect((await post("/admin/qc-review", plainAdmin.cookie, { intent: `approve:${pendingSent.body.uploaded[0].id}` })).status).toBe(403);
    expect(
      (
        await post("/admin/qc-review", plainAdmin.cookie, [
          ["intent", "reject-selected"],
          ["ids", String(pendingSent.body.uploaded[0].id)],
        ])
      ).status,
    ).toBe(403);
    const reviewer = await account({ admin: true, permissions: ["qc.approve"] });
    const reviewerHtml = await html(await page("/admin/qc-review", reviewer.cookie));
    expect(reviewerHtml).toContain(`approve:${pendingSent.body.uploaded[0].id}`);
    expect(reviewerHtml).not.toContain(`reject:${pendingSent.body.uploaded[0].id}`);
    const [image] = await adminUpload(item.id, 1);
    expect(
      (await post(`/admin/products/${item.id}/qc`, plainAdmin.cookie, { intent: "delete-one", imageId: String(image.id) })).status,
    ).toBe(403);
    expect(
      (
        await postMultipart(
          `/admin/products/${item.id}/qc`,
          plainAdmin.cookie,
          await photoForm("qcImages", [{ name: "a.jpg", bytes: await jpeg() }]),
        )
      ).status,
    ).toBe(403);
    expect((await post("/admin/qc-review", plainAdmin.cookie, { intent: `approve:${image.id}` })).status).toBe(403);
    expect((await api(server.url, `/api/qc/products/${item.id}/qc-images`)).body.totalCount).toBe(1);
  });

  it("uploads, then deletes one and a selection after a confirmation step, with the spec's message for an empty selection", async () => {
    const item = await product();
    const path = `/admin/products/${item.id}/qc`;
    const sent = await postMultipart(
      path,
      cookies.super,
      await photoForm(
        "qcImages",
        [1, 2, 3].map((n) => ({ name: `${n}.jpg`, bytes: Buffer.alloc(0) })),
      ),
    );
    expect(sent.status).toBe(400);
    const files = await Promise.all([1, 2, 3].map(async (n) => ({ name: `${n}.jpg`, bytes: await jpeg() })));
    expect(await after(await postMultipart(path, cookies.super, await photoForm("qcImages", files)), cookies.super)).toContain(
      "3 photos published.",
    );
    const ids = (await api(server.url, `/api/qc/products/${item.id}/qc-images`)).body.qc_images.map((image: { id: number }) =>
      String(image.id),
    ) as string[];
    expect(ids).toHaveLength(3);

    const none = await post(path, cookies.super, { intent: "delete-confirm" });
    expect(none.status).toBe(200);
    expect(await html(none)).toContain("Select the photos to delete.");

    const confirm = await post(path, cookies.super, [
      ["intent", "delete-confirm"],
      ["ids", ids[0]],
      ["ids", ids[1]],
    ]);
    const confirmBody = await html(confirm);
    expect(confirmBody).toContain("Delete 2 photos?");
    expect((await api(server.url, `/api/qc/products/${item.id}/qc-images`)).body.totalCount).toBe(3);
    expect(
      await after(
        await post(path, cookies.super, [
          ["intent", "delete"],
          ["ids", ids[0]],
          ["ids", ids[1]],
        ]),
        cookies.super,
      ),
    ).toContain("2 photos deleted.");

    const dialog = await html(await page(`${path}?modal=delete&imageId=${ids[2]}`, cookies.super));
    expect(dialog).toContain("Delete this photo?");
    expect(await after(await post(path, cookies.super, { intent: "delete-one", imageId: ids[2] }), cookies.super)).toContain(
      "1 photo deleted.",
    );
    expect((await api(server.url, `/api/qc/products/${item.id}/qc-images`)).body.totalCount).toBe(0);
  });

  it("reviews one photo and a selection, with the spec's messages for an empty selection, a photo already processed and a partial failure", async () => {
    const item = await product();
    const shopper = await account();
    const sent = await api(server.url, `/api/qc/products/${item.id}/qc-images/user`, {
      token: shopper.token,
      body: await photoForm("photos", await Promise.all([1, 2, 3].map(async (n) => ({ name: `${n}.jpg`, bytes: await jpeg() })))),
    });
    const [a, b, c] = (sent.body.uploaded as Array<{ id: number }>).map((image) => image.id);
    const reviewer = await account({ admin: true, permissions: ["qc.review"] });

    const queue = await html(await page("/admin/qc-review", reviewer.cookie));
    for (const id of [a, b, c]) expect(queue).toContain(`value="approve:${id}"`);

    expect(await after(await post("/admin/qc-review", reviewer.cookie, { intent: `approve:${a}` }), reviewer.cookie)).toContain(
      "1 photo approved.",
    );
    expect(await after(await post("/admin/qc-review", reviewer.cookie, { intent: `reject:${a}` }), reviewer.cookie)).toContain(
      "The photo has already been processed, perhaps by another admin.",
    );
    expect(await after(await post("/admin/qc-review", reviewer.cookie, { intent: "approve:99999999" }), reviewer.cookie)).toContain(
      "The photo does not exist or has been deleted.",
    );

    const none = await post("/admin/qc-review", reviewer.cookie, { intent: "approve-selected" });
    expect(await html(none)).toContain("Select the photos to act on.");

    // a reason over 500 characters is refused with the API's own message, never cut short;
    // nothing is reviewed
    const long = "x".repeat(501);
    expect(
      await after(await post("/admin/qc-review", reviewer.cookie, { intent: `reject:${b}`, [`reason-${b}`]: long }), reviewer.cookie),
    ).toContain("Keep the reason under 500 characters");
    const longBatch = await post("/admin/qc-review", reviewer.cookie, [
      ["intent", "reject-selected"],
      ["ids", String(b)],
      ["ids", String(c)],
      ["batchReason", long],
    ]);
    expect(await after(longBatch, reviewer.cookie)).toContain("Keep the reason under 500 characters");
    const viaApi = await api(server.url, `/api/qc/qc-images/${b}/review`, {
      method: "PUT",
      token: reviewer.token,
      body: { status: "rejected", reason: long },
    });
    expect(viaApi.status).toBe(400);
    expect(viaApi.body.message).toBe("Keep the reason under 500 characters");
    const stillPending = await api(server.url, `/api/qc/products/${item.id}/qc-images/user/status`, { token: shopper.token });
    expect(stillPending.body.data).toMatchObject({ approvedUploads: 1, pendingUploads: 2 });

    const batch = await post("/admin/qc-review", reviewer.cookie, [
      ["intent", "reject-selected"],
      ["ids", String(a)],
      ["ids", String(b)],
      ["ids", String(c)],
      ["batchReason", "Blurry"],
    ]);
    const message = await after(batch, reviewer.cookie);
    expect(message).toContain("2 photos rejected and deleted.");
    expect(message).toContain("1 photo could not be processed.");
    const status = await api(server.url, `/api/qc/products/${item.id}/qc-images/user/status`, { token: shopper.token });
    expect(status.body.data).toMatchObject({ approvedUploads: 1, rejectedUploads: 2, pendingUploads: 0 });
    expect(await html(await page(item.url, shopper.cookie))).toContain("2 of your photos were not approved: Blurry; Blurry");
  });

  it("opens a 'New QC folder' by database id or marketplace item id, with the spec's messages", async () => {
    const itemId = String(7_000_000_000 + Math.floor(Math.random() * 999_999_999));
    const item = await product({ platform: "weidian", platform_item_id: itemId });
    const invalid = await post("/admin/qc-manager", cookies.super, { intent: "new-folder", productId: "12ab" });
    expect(invalid.status).toBe(200);
    expect(await html(invalid)).toContain("Enter a valid numeric ID.");
    // the spec's words for a Chinese reader
    const chinese = await post("/admin/qc-manager", `${cookies.super}; lang=zh-CN`, { intent: "new-folder", productId: "12ab" });
    expect(await html(chinese)).toContain("请输入有效的数字ID");
    for (const value of ["", "   ", "-5", "1.5"]) {
      expect(await html(await post("/admin/qc-manager", cookies.super, { intent: "new-folder", productId: value })), value).toContain(
        "Enter a valid numeric ID.",
      );
    }
    // digits are an id whatever their number: one that matches nothing is not found, not invalid
    for (const value of ["987654321", "1234567890123456789012345"]) {
      const missing = await post("/admin/qc-manager", cookies.super, { intent: "new-folder", productId: value });
      expect(await html(missing), value).toContain("The product could not be found.");
    }
    for (const value of [` ${item.id} `, itemId]) {
      const opened = await post("/admin/qc-manager?view=folders", cookies.super, { intent: "new-folder", productId: value });
      expect(opened.status).toBe(302);
      expect(opened.headers.get("location")).toBe(`/admin/qc-manager?view=folders&product=${item.id}`);
    }
    const folder = await html(await page(`/admin/qc-manager?product=${item.id}`, cookies.super));
    expect(folder).toContain(item.name);
    expect(folder).toContain('name="qcImages"');
  });

  it("lists folders with filters, and grid cards show up to 20 thumbnails then '+N more'", async () => {
    const item = await product();
    await adminUpload(item.id, 10);
    await adminUpload(item.id, 10);
    await adminUpload(item.id, 3);
    const grid = await html(
      await page(`/admin/qc-manager?view=grid&filterType=withQC&searchTerm=${encodeURIComponent(item.name)}`, cookies.super),
    );
    expect(grid).toContain(item.name);
    expect(grid).toContain("+3 more");
    expect(grid.match(/<ul class="admin-qc-strip">([\s\S]*?)<\/ul>/)?.[1].match(/<img /g)).toHaveLength(20);
    const without = await html(
      await page(`/admin/qc-manager?filterType=withoutQC&searchTerm=${encodeURIComponent(item.name)}`, cookies.super),
    );
    expect(without).not.toContain(`admin-qc-folders__name">${item.name}`);
    expect(without).toContain(`No products match “${item.name}”.`);
    const products = await html(await page(`/admin/products?q=${encodeURIComponent(item.name)}`, cookies.super));
    expect(products).toContain(`href="/admin/products/${item.id}/qc"`);
    expect(products).toMatch(/<td data-label="QC">23<\/td>/);
  });
});

describe("QC photos of one option (issue 39)", () => {
  it("records the option a set shows, lists the chosen option's sets first, and says when it has none", async () => {
    const made = await product({
      skus: [
        { sku_name: "黑色 Black / M", sku_price: 100, sku_stock: 3 },
        { sku_name: "白色 White / M", sku_price: 120, sku_stock: 3 },
      ],
    });
    const skus = (await api(server.url, `/api/products/${made.id}`)).body.data.skus as Array<{ id: number; sku_name: string }>;
    const [black, white] = skus;
    // the upload box asks which option the photos show (the chosen one by default)
    const box = await html(await page(`${made.url}?sku=${white.id}`, cookies.super));
    expect(box).toMatch(/<select name="skuName">[\s\S]*<option value="白色 White \/ M" selected="">/);

    // a set of the black one, sent from the page with the option named (any case), and one of the product
    const form = await photoForm("photos", [{ name: "black.jpg", bytes: await jpeg(320, 240) }]);
    form.append("skuName", "黑色 black / m");
    const sent = await postMultipart(`${made.url}?sku=${black.id}`, cookies.super, form);
    expect(sent.status).toBe(302);
    // back to the page as it was: the option stays chosen
    expect(sent.headers.get("location")).toBe(`${made.url}?sku=${black.id}#qc-upload`);
    await adminUpload(made.id, 2);
    // an option the product does not have is refused by name, and nothing of the upload is kept
    const stray = await photoForm("photos", [{ name: "stray.jpg", bytes: await jpeg(330, 240) }]);
    stray.append("skuName", "Purple / XXL");
    const refused = await postMultipart(made.url, cookies.super, stray);
    expect(refused.status).toBe(400);
    expect(await html(refused)).toContain("This product has no option of that name: choose one of its options, or none");

    const listed = await api(server.url, `/api/qc/products/${made.id}/qc-images`);
    const options = listed.body.qc_images as Array<{ sku_name: string | null }>;
    expect(options.map((image) => image.sku_name).sort()).toEqual([null, null, "黑色 Black / M"].sort());

    // the black one chosen: its set first, named; the white one: none of its own, said so
    const blackPage = await html(await page(`${made.url}?sku=${black.id}`));
    const titles = [...blackPage.matchAll(/<h3 class="qc-set__title">([\s\S]*?)<\/h3>/g)].map((m) => m[1].replace(/<[^>]+>/g, ""));
    expect(titles[0]).toContain("黑色 Black / M");
    expect(titles).toHaveLength(2);
    const whitePage = await html(await page(`${made.url}?sku=${white.id}`));
    expect(whitePage).toContain("No QC photos of 白色 White / M yet: the other options’ photos follow.");
  });
});
