/**
 * Bulk import (docs/marketplace-links.md, "Bulk import") over real HTTP against a fake
 * marketplace on 127.0.0.1: 1,000 pasted links all accounted for; CSV and XLSX exports
 * (a header row, a hyperlinked cell); bad files refused whole; failed rows tried again;
 * an import stopped by a restart goes on; only staff who may create products import.
 */
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeMarketplace, type FakeMarketplace } from "../fakes/marketplace";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { formLogin, getPage, postForm } from "../setup/page-client";
import { startTestServer, type TestServer } from "../setup/server";
import { withServerDb } from "../setup/server-db";
import { waitFor } from "../setup/wait";

let server: TestServer;
let fake: FakeMarketplace;
let superToken: string;
let cookie: string;
let counter = 0;
/** A fresh item id of `digits` digits. */
const itemId = (digits = 10) => `7${String(Date.now() * 1000 + (counter += 1)).slice(-(digits - 1))}`.padEnd(digits, "1");
const text = async (response: Response) => (await response.text()).replace(/<!-- -->/g, "").replace(/&amp;/g, "&");

beforeAll(async () => {
  fake = await startFakeMarketplace();
  server = await startTestServer({ env: { MARKETPLACE_BASE_URL: fake.url, MARKETPLACE_TIMEOUT_MS: "2000" } });
  superToken = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  cookie = await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
});

afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

const multipart = (path: string, form: FormData, who = cookie) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { Cookie: who, Origin: server.url, "Accept-Language": "en" },
    body: form,
    redirect: "manual",
  });

/** Starts an import; answers its page's path. */
async function start(form: FormData | Record<string, string>): Promise<string> {
  const response =
    form instanceof FormData ? await multipart("/admin/imports", form) : await postForm(server.url, "/admin/imports", cookie, form);
  expect(response.status, await response.clone().text()).toBe(302);
  const location = response.headers.get("location")!;
  expect(location).toMatch(/^\/admin\/imports\/\d+$/);
  return location;
}

/** Waits until the import's page says it is done; answers that page. */
async function finished(path: string, timeoutMs = 60_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const page = await text(await getPage(server.url, path, cookie));
    if (page.includes(">Done</h2>")) return page;
    if (Date.now() > until) throw new Error(`import ${path} not done:\n${page.slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const summary = (page: string) =>
  /(\d+) of (\d+) rows done\. Imported: (\d+)\. Already there: (\d+)\. Duplicates: (\d+)\. Not items: (\d+)\. Failed: (\d+)\./.exec(page);

/** A minimal XLSX workbook: one sheet, shared strings, and cells that hold hyperlinks. */
function xlsx(rows: Array<Array<string | { text: string; href: string }>>): Uint8Array {
  const strings: string[] = [];
  const links: Array<{ ref: string; href: string }> = [];
  const escape = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
  const sheetRows = rows
    .map((cells, r) => {
      const xmlCells = cells.map((cell, c) => {
        const ref = `${String.fromCharCode(65 + c)}${r + 1}`;
        const value = typeof cell === "string" ? cell : cell.text;
        if (typeof cell !== "string") links.push({ ref, href: cell.href });
        strings.push(value);
        return `<c r="${ref}" t="s"><v>${strings.length - 1}</v></c>`;
      });
      return `<row r="${r + 1}">${xmlCells.join("")}</row>`;
    })
    .join("");
  const hyperlinks = links.length
    ? `<hyperlinks>${links.map((link, i) => `<hyperlink ref="${link.ref}" r:id="rId${i + 1}"/>`).join("")}</hyperlinks>`
    : "";
  const ns =
    'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  return zipSync({
    "[Content_Types].xml": strToU8('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    "xl/workbook.xml": strToU8(
      `<?xml version="1.0"?><workbook ${ns}><sheets><sheet name="Finds" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    "xl/_rels/workbook.xml.rels": strToU8(
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
    "xl/sharedStrings.xml": strToU8(`<?xml version="1.0"?><sst ${ns}>${strings.map((s) => `<si><t>${escape(s)}</t></si>`).join("")}</sst>`),
    "xl/worksheets/sheet1.xml": strToU8(
      `<?xml version="1.0"?><worksheet ${ns}><sheetData>${sheetRows}</sheetData>${hyperlinks}</worksheet>`,
    ),
    "xl/worksheets/_rels/sheet1.xml.rels": strToU8(
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${links
        .map(
          (link, i) =>
            `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${escape(link.href)}" TargetMode="External"/>`,
        )
        .join("")}</Relationships>`,
    ),
  });
}

describe("bulk import", () => {
  it("imports 1,000 pasted links in the background, every row accounted for: new, already there, duplicates, not items, failures", async () => {
    const existing = itemId();
    expect(
      (
        await api(server.url, "/api/products/sync-external", {
          token: superToken,
          body: { itemId: existing, title: "Here already", price: 3, source: "weidian" },
        })
      ).status,
    ).toBe(201);
    const lines: string[] = [];
    const fresh: string[] = [];
    for (let i = 0; i < 960; i++) {
      const id = itemId(12);
      fresh.push(id);
      fake.set("taobao", id, { title: `Bulk item ${i}`, price: 10 + i });
      lines.push(i % 2 ? `https://item.taobao.com/item.htm?id=${id}` : `https://www.hoobuy.com/product/1/${id}`);
    }
    const missing = itemId(12);
    lines.push(`https://item.taobao.com/item.htm?id=${missing}`); // the marketplace does not have it
    lines.push(`https://weidian.com/item.html?itemID=${existing}`); // already there
    for (let i = 0; i < 20; i++) lines.push(`https://item.taobao.com/item.htm?id=${fresh[i]}`); // duplicates of earlier rows
    for (let i = 0; i < 18; i++) lines.push(`https://example.com/not-an-item/${i}`); // not items
    expect(lines).toHaveLength(1000);
    fake.set("taobao", missing, "missing");

    const path = await start({ links: lines.join("\n") });
    const page = await finished(path, 120_000);
    const [, done, total, imported, exists, duplicates, notItems, failed] = summary(page)!.map(Number);
    expect({ done, total, imported, exists, duplicates, notItems, failed }).toEqual({
      done: 1000,
      total: 1000,
      imported: 960,
      exists: 1,
      duplicates: 20,
      notItems: 18,
      failed: 1,
    });
    const failures = await text(await getPage(server.url, `${path}?status=failed`, cookie));
    expect(failures).toContain("We could not find this item on Taobao. Check the link and try again.");
    const dupes = await text(await getPage(server.url, `${path}?status=duplicate`, cookie));
    expect(dupes).toContain("The same item as row 1.");
    const list = await api(server.url, `/api/products?q=${encodeURIComponent("Bulk item 959")}`, { token: superToken });
    expect(list.body.items.map((p: { name: string }) => p.name)).toContain("Bulk item 959");
  }, 180_000);

  it("reads a CSV export (its header skipped, a link in any column) and an XLSX export (a hyperlinked cell), each row once", async () => {
    const [a, b, c] = [itemId(), itemId(), itemId(12)];
    fake.set("weidian", a, { title: "CSV jacket", price: 100 });
    fake.set("weidian", b, { title: "XLSX sneakers", price: 200 });
    fake.set("1688", c, { title: "XLSX socks", price: 2 });
    const csv = [
      "Name;Price;Link;QC",
      `"Jacket; blue";100;https://weidian.com/item.html?itemID=${a};https://x.yupoo.com/albums/1`,
      "Empty row;;;",
    ].join("\r\n");
    const form = new FormData();
    form.append("file", new Blob([csv], { type: "text/csv" }), "finds.csv");
    const csvPage = await finished(await start(form));
    expect(summary(csvPage)!.slice(1, 4).map(Number)).toEqual([2, 2, 1]);
    expect(csvPage).toContain("finds.csv");
    expect(csvPage).toContain("No link or item id in this row.");

    const book = xlsx([
      ["Item", "Link"],
      ["Sneakers", { text: "LINK", href: `https://weidian.com/item.html?itemID=${b}` }],
      ["Socks", `https://detail.1688.com/offer/${c}.html`],
    ]);
    const xform = new FormData();
    xform.append(
      "file",
      new Blob([new Uint8Array(book)], { type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" }),
      "finds.xlsx",
    );
    const xlsxPage = await finished(await start(xform));
    expect(summary(xlsxPage)!.slice(1, 4).map(Number)).toEqual([2, 2, 2]);
    expect(xlsxPage).toContain(`Weidian ${b}`);
    expect(xlsxPage).toContain(`1688 ${c}`);
  });

  it("refuses a file that is not a sheet, one over 5 MB and one of 1,001 rows with one message each, and imports nothing", async () => {
    const before = (await text(await getPage(server.url, "/admin/imports", cookie))).match(
      /Bulk import <span class="admin-badge admin-badge--count">(\d+)/,
    )?.[1];
    const cases: Array<[Blob, string, number, string]> = [
      [
        new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1])], { type: "image/png" }),
        "photo.png",
        400,
        "Choose a CSV or XLSX file",
      ],
      [
        new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1])], { type: "text/csv" }),
        "sneaky.csv",
        400,
        "Choose a CSV or XLSX file",
      ],
      [
        new Blob([new Uint8Array([0x4e, 0x61, 0x6d, 0x65, 0xe9, 0x0a])], { type: "text/csv" }),
        "latin1.csv",
        400,
        "The CSV file is not UTF-8 text",
      ],
      [new Blob(["x".repeat(5 * 1024 * 1024 + 1)], { type: "text/csv" }), "huge.csv", 413, "The file is over 5 MB"],
      [
        new Blob([Array.from({ length: 1001 }, (_, i) => `https://weidian.com/item.html?itemID=${7000000000 + i}`).join("\n")], {
          type: "text/csv",
        }),
        "long.csv",
        400,
        "At most 1,000 rows at once",
      ],
      [
        new Blob(
          [new Uint8Array(xlsx(Array.from({ length: 1002 }, (_, i) => [`https://weidian.com/item.html?itemID=${7200000000 + i}`])))],
          {
            type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
          },
        ),
        "long.xlsx",
        400,
        "At most 1,000 rows at once",
      ],
    ];
    for (const [blob, name, status, message] of cases) {
      const form = new FormData();
      form.append("file", blob, name);
      const response = await multipart("/admin/imports", form);
      expect(response.status, name).toBe(status);
      expect(await text(response), name).toContain(message);
    }
    const tooMany = await postForm(server.url, "/admin/imports", cookie, {
      links: Array.from({ length: 1001 }, (_, i) => `https://weidian.com/item.html?itemID=${7100000000 + i}`).join("\n"),
    });
    expect(tooMany.status).toBe(400);
    const tooManyPage = await text(tooMany);
    expect(tooManyPage).toContain("At most 1,000 links at once");
    // what was pasted is kept for the fix
    expect(tooManyPage).toContain("itemID=7100001000");
    const after = (await text(await getPage(server.url, "/admin/imports", cookie))).match(
      /Bulk import <span class="admin-badge admin-badge--count">(\d+)/,
    )?.[1];
    expect(after).toBe(before);
  });

  it("tries failed rows again on demand", async () => {
    const id = itemId();
    fake.set("weidian", id, "malformed");
    const path = await start({ links: `https://weidian.com/item.html?itemID=${id}` });
    const failedPage = await finished(path);
    expect(summary(failedPage)![7]).toBe("1");
    expect(failedPage).toContain("Try the 1 failed row again");
    fake.set("weidian", id, { title: "Works now", price: 9 });
    const retry = await postForm(server.url, path, cookie, { intent: "retry" });
    expect(retry.status).toBe(302);
    const page = await finished(path);
    expect(summary(page)!.slice(3, 4)).toEqual(["1"]);
    expect(summary(page)![7]).toBe("0");
  });

  it("runs a retry made while the import's last run is still ending", async () => {
    const id = itemId();
    fake.set("weidian", id, "malformed");
    const path = await start({ links: `https://weidian.com/item.html?itemID=${id}` });
    await finished(path);
    fake.set("weidian", id, { title: "Works on the retry", price: 9 });
    // the import's run as it is between settling its last row and being marked done
    const importId = Number(path.split("/").pop());
    await withServerDb(server.dataDir, (db) =>
      db
        .insertInto("jobs")
        .values({
          name: "imports.run",
          key: `import-${importId}`,
          payload: JSON.stringify({ jobId: importId }),
          run_at: Date.now(),
          status: "running",
          lease_until: Date.now() + 3_600_000,
        })
        .execute(),
    );
    try {
      expect((await postForm(server.url, path, cookie, { intent: "retry" })).status).toBe(302);
      const page = await finished(path, 15_000);
      expect(summary(page)![3]).toBe("1");
      expect(summary(page)![7]).toBe("0");
    } finally {
      await withServerDb(server.dataDir, (db) => db.deleteFrom("jobs").where("key", "=", `import-${importId}`).execute());
    }
  });

  it("goes on after a restart from the rows still waiting", async () => {
    const ids = Array.from({ length: 40 }, () => itemId(12));
    // each answer takes a while: the server stops in the middle
    for (const id of ids) fake.set("taobao", id, { title: `Slow ${id}`, price: 1, delayMs: 100 });
    const path = await start({ links: ids.map((id) => `https://item.taobao.com/item.htm?id=${id}`).join("\n") });
    await waitFor(() => ids.filter((id) => fake.hits("taobao", id) > 0).length >= 3, {
      what: "the import's first rows asked of the marketplace",
    });
    const dataDir = server.dataDir;
    expect(await server.stop()).toBe(0);
    server = await startTestServer({ dataDir, env: { MARKETPLACE_BASE_URL: fake.url, MARKETPLACE_TIMEOUT_MS: "2000" } });
    cookie = await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const page = await finished(path);
    expect(summary(page)!.slice(1, 4).map(Number)).toEqual([40, 40, 40]);
  }, 60_000);

  it("is for staff who may create products: others get 403 and nothing starts", async () => {
    const username = `plain${Date.now().toString(36)}`;
    const made = await api(server.url, "/api/admin/users", {
      token: (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken,
      body: { username, email: `${username}@example.com`, password: "plain-pass-1" },
    });
    expect(made.status).toBe(201);
    const shopper = await formLogin(server.url, `${username}@example.com`, "plain-pass-1");
    expect((await getPage(server.url, "/admin/imports", shopper)).status).toBe(403);
    expect(
      (await postForm(server.url, "/admin/imports", shopper, { links: "https://weidian.com/item.html?itemID=7231234567" })).status,
    ).toBe(403);
    const visitor = await getPage(server.url, "/admin/imports");
    expect(visitor.status).toBe(302);
  });
});
