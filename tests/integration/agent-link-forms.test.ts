/**
 * Agents' link forms are stored data read back against every pasted link
 * (docs/marketplace-links.md, "Adding an agent's link form"): a form that cannot be read
 * back (two placeholders in one piece of the link) is refused on save with what is wrong,
 * and one already stored fails alone: the other forms of its agent, the other agents on
 * its host, the search box, the paste box, the bulk import and the test-a-link box all go
 * on answering.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { formLogin, getPage, postForm } from "../setup/page-client";
import { makeDataDir, outputCaughtUp, startTestServer, type TestServer } from "../setup/server";
import { withServerDb } from "../setup/server-db";

let server: TestServer;
let admin: string;
let cookie: string;
let counter = 0;
const itemId = () => String(6_100_000_000 + Math.floor(Math.random() * 800_000_000) + (counter += 1));
const text = async (response: Response) =>
  (await response.text())
    .replace(/<!-- -->/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;/g, "'");

const HOST = "https://www.twoforms.example";
const BROKEN = `${HOST}/p/{url}{url2}`;
const ONE_PER_PART =
  "Put at most one of {id}, {url} or {url2} in each part of the link (between two slashes, or one parameter's value): two side by side cannot be told apart.";

async function product(source: "taobao" | "weidian") {
  const id = itemId();
  const made = await api(server.url, "/api/products/sync-external", {
    token: admin,
    body: { itemId: id, title: `Two forms item ${id}`, price: 12, source },
  });
  expect(made.status).toBe(201);
  return { itemId: id, path: `/${source}/${id}` };
}

beforeAll(async () => {
  const dataDir = makeDataDir();
  // what the agent form no longer saves, stored as a script or the database shell would:
  // first in order, a broken Taobao form beside a good Weidian one; then another agent on
  // the same host whose Taobao form reads the same paths
  await withServerDb(dataDir, async (db) => {
    await sql`INSERT INTO agents (name, template_weidian, template_taobao, read_patterns, enabled, sort_order)
      VALUES ('Broken Forms', ${`${HOST}/wd/{id}`}, ${BROKEN}, ${`1688 ${HOST}/p/{id}{id}`}, 1, 1)`.execute(db);
    await sql`INSERT INTO agents (name, template_taobao, read_patterns, enabled, sort_order)
      VALUES ('Good Neighbour', ${`${HOST}/p/{id}`}, '', 1, 2)`.execute(db);
  });
  server = await startTestServer({ dataDir });
  admin = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  cookie = await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
});

afterAll(async () => {
  await server?.stop();
});

describe("a link form stored broken", () => {
  it("fails alone: the search box, the paste box, the bulk import and the test-a-link box answer, through the other forms", async () => {
    const taobao = await product("taobao");
    const weidian = await product("weidian");
    const onHost = `${HOST}/p/${taobao.itemId}`;

    // the search box: the neighbour's form reads the link, the broken one is left out
    const searched = await getPage(server.url, `/search?q=${encodeURIComponent(onHost)}`);
    expect(searched.status).toBe(302);
    expect(searched.headers.get("location")).toBe(taobao.path);
    // the broken agent's good form still reads its links
    const ownForm = await getPage(server.url, `/search?q=${encodeURIComponent(`${HOST}/wd/${weidian.itemId}`)}`);
    expect(ownForm.headers.get("location")).toBe(weidian.path);
    // a link of that host that names no item is a plain search
    const nothing = await getPage(server.url, `/search?q=${encodeURIComponent(`${HOST}/p/not-an-item`)}`);
    expect(nothing.status).toBe(200);

    // the paste box, as a page and as a form
    const pasted = await getPage(server.url, `/import?link=${encodeURIComponent(onHost)}`);
    expect(pasted.status).toBe(302);
    expect(pasted.headers.get("location")).toBe(taobao.path);
    const posted = await postForm(server.url, "/import", cookie, { link: onHost });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe(taobao.path);

    // the back office's test-a-link box
    const tested = await getPage(server.url, `/admin/agents?test=${encodeURIComponent(onHost)}`, cookie);
    expect(tested.status).toBe(200);
    expect(await text(tested)).toContain(`<strong>Taobao item ${taobao.itemId}</strong>: read with Good Neighbour's link forms.`);

    // the bulk import reads the row, and finds the product
    const started = await postForm(server.url, "/admin/imports", cookie, { links: onHost });
    expect(started.status, await started.clone().text()).toBe(302);
    const job = started.headers.get("location")!;
    expect(job).toMatch(/^\/admin\/imports\/\d+$/);
    const until = Date.now() + 30_000;
    let page = "";
    while (Date.now() < until) {
      page = await text(await getPage(server.url, job, cookie));
      if (page.includes(">Done</h2>")) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(page).toContain("1 of 1 rows done. Imported: 0. Already there: 1.");

    // the product's "buy through an agent" links: the neighbour's, none made of the broken form
    const productId = Number((await api(server.url, `/api/products/platform/${taobao.itemId}?platform=taobao`)).body.data.id);
    const links = (await api(server.url, `/api/products/${productId}/agent-links`)).body.data as Array<{ name: string; url: string }>;
    expect(links.find((link) => link.name === "Good Neighbour")?.url).toBe(`${HOST}/p/${taobao.itemId}`);
    expect(links.find((link) => link.name === "Broken Forms")).toBeUndefined();

    // said once in the log for each broken form, however many links were read
    await outputCaughtUp(server);
    const warnings = server
      .output()
      .split("\n")
      .filter((line) => line.includes("cannot be read back"));
    expect(warnings).toHaveLength(2);
    expect(warnings.find((line) => line.includes("its taobao link form"))).toContain(`"Broken Forms"`);
    expect(warnings.find((line) => line.includes("its 1688 link form"))).toContain(`${HOST}/p/{id}{id}`);
  });
});

describe("saving a link form", () => {
  const fields = (extra: Record<string, string>) => ({ name: `Agent ${itemId()}`, enabled: "on", ...extra });

  it("refuses a form that cannot be read back with a 400 that names the field, with and without the agent", async () => {
    for (const template of [BROKEN, `${HOST}/p/{id}{id}`, `${HOST}/item?id=x{id}{url}`]) {
      const refused = await postForm(server.url, "/admin/agents/new", cookie, fields({ template_taobao: template }));
      expect(refused.status, template).toBe(400);
      const page = await text(refused);
      expect(page, template).toContain(ONE_PER_PART);
      // the error sits on its field
      expect(page, template).toMatch(/id="new-agent-template_taobao"[^>]*aria-invalid="true"/);
    }
    const misplaced = await postForm(
      server.url,
      "/admin/agents/new",
      cookie,
      fields({ template_weidian: "https://{id}.example.com/item" }),
    );
    expect(misplaced.status).toBe(400);
    expect(await text(misplaced)).toContain(
      "Put {id}, {url} or {url2} in the link's path or in a parameter's value, not in its host or a parameter's name.",
    );
    // an older form to read back is checked the same way
    const readBack = await postForm(
      server.url,
      "/admin/agents/new",
      cookie,
      fields({ template_weidian: `${HOST}/w/{id}`, read_patterns: `taobao ${BROKEN}` }),
    );
    expect(readBack.status).toBe(400);
    expect(await text(readBack)).toContain(ONE_PER_PART);

    // the edit form refuses it too, and the agent keeps its forms
    const list = await text(await getPage(server.url, "/admin/agents", cookie));
    const id = /aria-label="Edit Good Neighbour"[^>]*href="\/admin\/agents\/(\d+)"/.exec(list)?.[1];
    expect(id).toBeDefined();
    const edited = await postForm(server.url, `/admin/agents/${id}`, cookie, {
      name: "Good Neighbour",
      template_taobao: BROKEN,
      enabled: "on",
    });
    expect(edited.status).toBe(400);
    expect(await text(edited)).toContain(ONE_PER_PART);
    expect(await text(await getPage(server.url, `/admin/agents/${id}`, cookie))).toContain(`value="${HOST}/p/{id}"`);

    // a form whose placeholders each have their piece is saved
    const saved = await postForm(server.url, "/admin/agents/new", cookie, fields({ template_taobao: `${HOST}/x/{id}/{url}` }));
    expect(saved.status).toBe(302);
  });
});
