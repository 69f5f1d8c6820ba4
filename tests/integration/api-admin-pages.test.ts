/**
 * The /admin pages over plain HTTP (what a browser without JavaScript gets): every loader
 * and every action checks the caller on the server, not only the layout.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { formLogin as loginThroughForm, getPage, postForm } from "../setup/page-client";
import { databaseUrlOf } from "../setup/postgres";
import { startTestServer, type TestServer } from "../setup/server";
import { openServerDb } from "../setup/server-db";

let server: TestServer;
let superToken: string;
let cookies: { super: string; admin: string; regular: string };
let regularId: number;

const formLogin = (email: string, password: string) => loginThroughForm(server.url, email, password);
const page = (path: string, cookie?: string) => getPage(server.url, path, cookie);
const post = (path: string, cookie: string, fields: Record<string, string>) => postForm(server.url, path, cookie, fields);

async function createUser(roleIds: number[]) {
  const username = `p${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const response = await api(server.url, "/api/admin/users", {
    token: superToken,
    body: { username, email: `${username}@example.com`, password: "page-pass-1", roleIds },
  });
  expect(response.status).toBe(201);
  return { id: response.body.data.id as number, username, email: `${username}@example.com` };
}

beforeAll(async () => {
  server = await startTestServer();
  superToken = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  const roles = await api(server.url, "/api/admin/roles", { token: superToken });
  const adminRole = roles.body.data.find((r: { name: string }) => r.name === "admin").id;
  const admin = await createUser([adminRole]);
  const regular = await createUser([]);
  regularId = regular.id;
  cookies = {
    super: await formLogin(TEST_ADMIN.email, TEST_ADMIN.password),
    admin: await formLogin(admin.email, "page-pass-1"),
    regular: await formLogin(regular.email, "page-pass-1"),
  };
});

afterAll(async () => {
  await server?.stop();
});

const ADMIN_PAGES = ["/admin", "/admin/users", "/admin/users/1", "/admin/site-settings", "/admin/settings"];

describe("who sees the admin pages", () => {
  it("sends visitors to the login page with the way back", async () => {
    for (const path of [...ADMIN_PAGES, "/admin/users?modal=create"]) {
      const response = await page(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    }
  });

  it("answers 403 inside the site chrome for users without back-office access", async () => {
    for (const path of ADMIN_PAGES) {
      const response = await page(path, cookies.regular);
      expect(response.status, path).toBe(403);
      const html = await response.text();
      expect(html).toContain("Access denied");
      expect(html).toContain("site-header");
      expect(html).not.toContain("admin-sidebar");
    }
  });

  it("shows an admin only the dashboard, without the super admin's sidebar items", async () => {
    const dashboard = await page("/admin", cookies.admin);
    expect(dashboard.status).toBe(200);
    const html = await dashboard.text();
    expect(html).toContain("Dashboard");
    expect(html).toContain("v1.0.0");
    expect(html).not.toContain('href="/admin/users"');
    expect(html).not.toContain('href="/admin/site-settings"');
    for (const path of ["/admin/users", "/admin/users/1", "/admin/site-settings", "/admin/settings"]) {
      expect((await page(path, cookies.admin)).status, path).toBe(403);
    }
  });

  it("renders every page for the super admin on the server", async () => {
    for (const path of ADMIN_PAGES) {
      const response = await page(path, cookies.super);
      expect(response.status, path).toBe(200);
      const html = await response.text();
      expect(html, path).toContain("admin-sidebar");
      expect(html, path).toContain('href="/admin/site-settings"');
      expect(html, path).toContain("Super admin");
    }
    const edit = await page("/admin/users/1/edit", cookies.super);
    expect(edit.status).toBe(302);
    expect(edit.headers.get("location")).toBe("/admin/users/1");
    expect((await page("/admin/users/999999", cookies.super)).status).toBe(404);
    expect((await page("/admin/users/abc", cookies.super)).status).toBe(404);
  });

  it("shows the hub's live status and links to the settings pages", async () => {
    const html = await (await page("/admin/settings", cookies.super)).text();
    expect(html).toContain("v1.0.0");
    expect(html).toMatch(/normal: answered in [\d.]+ ms/);
    expect(html).toContain("running normally");
    expect(html).toContain(new Date().toISOString().slice(0, 10));
    expect(html).toContain('href="/admin/currency-settings"');
    expect(html).toContain('href="/admin/product-display-settings"');
    // nothing announced that does not work (docs/decisions/025-no-coming-soon.md)
    expect(html).not.toMatch(/coming soon|Advanced system settings/i);
  });
});

describe("every action checks the caller", () => {
  it("refuses form posts from users without the permission", async () => {
    const attempts: Array<[string, Record<string, string>]> = [
      ["/admin/users?index", { intent: "create", username: "sneaky", email: "sneaky@example.com", password: "secret1" }],
      ["/admin/users?index", { intent: "batch", lines: "sneaky,sneaky@example.com,secret1" }],
      ["/admin/users?index", { intent: "delete", userId: String(regularId) }],
      [`/admin/users/${regularId}`, { intent: "update", username: "sneaky", email: "sneaky@example.com", confirm: "on" }],
      [`/admin/users/${regularId}`, { intent: "resetPassword", newPassword: "secret12", confirmPassword: "secret12", confirm: "on" }],
      [`/admin/users/${regularId}`, { intent: "assignRole", roleId: "1" }],
      ["/admin/site-settings", { intent: "save", site_name: "Hacked" }],
      ["/admin/site-settings", { intent: "sitemap" }],
    ];
    for (const cookie of [cookies.admin, cookies.regular]) {
      for (const [path, fields] of attempts) {
        const response = await post(path, cookie, fields);
        expect(response.status, `${fields.intent} ${path}`).toBe(403);
      }
    }
    const user = await api(server.url, `/api/admin/users/${regularId}`, { token: superToken });
    expect(user.body.data.username).not.toBe("sneaky");
    const settings = await api(server.url, "/api/site-settings/site-info");
    expect(settings.body.data.site_name).toBe("QC Finder");
  });

  it("lets the super admin create, edit and delete through the forms (no JavaScript)", async () => {
    const username = `form${Date.now().toString(36)}`;
    const created = await post("/admin/users?index&modal=create", cookies.super, {
      intent: "create",
      username,
      email: `${username}@example.com`,
      password: "secret1",
      roleIds: "",
    });
    expect(created.status).toBe(302);
    expect(created.headers.get("location")).toBe("/admin/users");
    const found = await api(server.url, `/api/admin/users?q=${username}`, { token: superToken });
    const id = found.body.items[0].id as number;

    const invalid = await post("/admin/users?index&modal=create", cookies.super, {
      intent: "create",
      username,
      email: "bad",
      password: "1",
    });
    expect(invalid.status).toBe(200);
    const invalidHtml = await invalid.text();
    expect(invalidHtml).toContain("Please enter a valid email address");
    expect(invalidHtml).toContain("密码长度至少6位字符");

    const unconfirmed = await post(`/admin/users/${id}`, cookies.super, { intent: "update", username, email: `${username}@example.com` });
    expect(unconfirmed.status).toBe(200);
    expect(await unconfirmed.text()).toContain("Please confirm before saving");

    const unchanged = await post(`/admin/users/${id}`, cookies.super, {
      intent: "update",
      username,
      email: `${username}@example.com`,
      confirm: "on",
    });
    expect(unchanged.status).toBe(302);
    const toastPage = await page(`/admin/users/${id}`, `${cookies.super}; ${unchanged.headers.getSetCookie()[0].split(";")[0]}`);
    expect(await toastPage.text()).toContain("no changes made");

    const changed = await post(`/admin/users/${id}`, cookies.super, {
      intent: "update",
      username,
      email: `${username}@example.com`,
      phone: "555-0100",
      confirm: "on",
    });
    expect(changed.status).toBe(302);
    expect((await api(server.url, `/api/admin/users/${id}`, { token: superToken })).body.data.phone).toBe("555-0100");

    const shortPassword = await post(`/admin/users/${id}`, cookies.super, {
      intent: "resetPassword",
      newPassword: "123",
      confirmPassword: "123",
      confirm: "on",
    });
    expect(await shortPassword.text()).toContain("密码长度至少6位字符");

    const deleted = await post("/admin/users?index&modal=delete&userId=" + id, cookies.super, { intent: "delete", userId: String(id) });
    expect(deleted.status).toBe(302);
    expect((await api(server.url, `/api/admin/users/${id}`, { token: superToken })).status).toBe(404);

    const self = await post("/admin/users?index&modal=delete&userId=1", cookies.super, { intent: "delete", userId: "1" });
    expect(self.status).toBe(200);
    expect(await self.text()).toContain("You cannot delete your own account");
  });
});

describe("work per request", () => {
  /** The queries the server logged for one request (its log line ends in "<n>q"). */
  async function queriesFor(path: string, cookie?: string): Promise<number> {
    const probe = `${path}${path.includes("?") ? "&" : "?"}probe=${Math.random().toString(36).slice(2)}`;
    expect((await page(probe, cookie)).status).toBe(200);
    // the line is written when the response has finished: wait for it (busy machines)
    let line: string | undefined;
    for (let i = 0; i < 100 && !line; i++) {
      line = server
        .output()
        .split("\n")
        .find((l) => l.includes(`GET ${probe} `));
      if (!line) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const count = /(\d+)q$/.exec(line ?? "")?.[1];
    expect(count, `no log line for ${probe}`).toBeDefined();
    return Number(count);
  }

  it("reads the site settings from memory and who the visitor is once per page view", async () => {
    await page("/search");
    await page("/search", cookies.super);
    // on PostgreSQL an empty list also reads the popular searches, which every instance
    // writes (decision 030)
    const popular = databaseUrlOf(server.dataDir) ? 1 : 0;
    // site settings, rates and categories are cached: a visitor's list of every product
    // asks the database only for the list (its count and its page)
    expect(await queriesFor("/search")).toBe(2 + popular);
    // logged in: the session, the user, their roles and direct permissions, once each,
    // although the root loader, the admin layout and the page all check them
    expect(await queriesFor("/search", cookies.super)).toBe(6 + popular);
    // the dashboard adds its counts: users, the catalogue in one query, the blog in one
    expect(await queriesFor("/admin", cookies.super)).toBeLessThanOrEqual(8);
    expect(await queriesFor("/admin/site-settings", cookies.super)).toBeLessThanOrEqual(5);
  });

  it("a settings change is seen at once (the copy in memory is dropped on save)", async () => {
    const save = (site_name: string) =>
      api(server.url, "/api/site-settings/admin/settings", { method: "PUT", token: superToken, body: { settings: { site_name } } });
    await page("/");
    expect((await save("Cache Check Shop")).status).toBe(200);
    expect(await (await page("/")).text()).toContain("Cache Check Shop");
    expect((await save("QC Finder")).status).toBe(200);
  });

  it("an edit of the database by another process is seen too", async () => {
    await page("/");
    const db = openServerDb(server.dataDir);
    const setSiteName = (value: string) => db.updateTable("site_settings").set({ value }).where("key", "=", "site_name").execute();
    // SQLite: at once (the file's data_version); PostgreSQL: when the change notification
    // sent at the commit reaches the server, a moment later
    const patience = db.engine === "postgres" ? 2_000 : 0;
    const home = async (shows: (html: string) => boolean) => {
      const deadline = Date.now() + patience;
      let html = await (await page("/")).text();
      while (!shows(html) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        html = await (await page("/")).text();
      }
      return html;
    };
    try {
      await setSiteName("Edited Outside");
      expect(await home((html) => html.includes("Edited Outside"))).toContain("Edited Outside");
      await setSiteName("QC Finder");
      expect(await home((html) => !html.includes("Edited Outside"))).not.toContain("Edited Outside");
    } finally {
      await setSiteName("QC Finder");
      await db.close();
    }
  });
});
