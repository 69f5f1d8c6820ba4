/**
 * The admin users/roles/permissions API (docs/product/admin.md 7) over real HTTP against the
 * built server: success shapes, validation, 401/403/404/409 in the JSON envelope.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { formLogin, postForm } from "../setup/page-client";
import { startTestServer, type TestServer } from "../setup/server";
import { openServerDb, run, sql } from "../setup/server-db";
import { clockPast } from "../setup/wait";

let server: TestServer;
let superToken: string;
let superId: number;
let roleIds: { super_admin: number; admin: number };
let permissionIds: Record<string, number>;

/** Tokens of the three kinds of caller every guarded endpoint must tell apart. */
let regularToken: string;
let plainAdminToken: string;
let editorToken: string;
let plainAdminId: number;
let editorId: number;
let regularId: number;

let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

async function createUser(input: { roleIds?: number[]; password?: string } = {}) {
  const username = unique("u");
  const password = input.password ?? "password-123";
  const response = await api(server.url, "/api/admin/users", {
    token: superToken,
    body: { username, email: `${username}@example.com`, password, roleIds: input.roleIds ?? [] },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { id: response.body.data.id as number, username, email: `${username}@example.com`, password };
}

beforeAll(async () => {
  server = await startTestServer();
  const login = await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
  superToken = login.accessToken;
  superId = login.user.id;

  const roles = await api(server.url, "/api/admin/roles", { token: superToken });
  roleIds = Object.fromEntries(roles.body.data.map((r: { name: string; id: number }) => [r.name, r.id])) as typeof roleIds;
  const permissions = await api(server.url, "/api/admin/permissions", { token: superToken });
  permissionIds = Object.fromEntries(permissions.body.data.map((p: { name: string; id: number }) => [p.name, p.id]));

  const regular = await createUser();
  const plainAdmin = await createUser({ roleIds: [roleIds.admin] });
  const editor = await createUser({ roleIds: [roleIds.admin] });
  plainAdminId = plainAdmin.id;
  editorId = editor.id;
  regularId = regular.id;
  const granted = await api(server.url, `/api/admin/users/${editor.id}/permissions/${permissionIds["user.edit"]}`, {
    method: "POST",
    token: superToken,
  });
  expect(granted.status).toBe(200);
  [regularToken, plainAdminToken, editorToken] = (
    await Promise.all([
      apiLogin(server.url, regular.email, regular.password),
      apiLogin(server.url, plainAdmin.email, plainAdmin.password),
      apiLogin(server.url, editor.email, editor.password),
    ])
  ).map((result) => result.accessToken);
});

afterAll(async () => {
  await server?.stop();
});

describe("guards on every endpoint", () => {
  const endpoints: Array<[method: string, path: () => string, body?: unknown]> = [
    ["GET", () => "/api/admin/users"],
    ["POST", () => "/api/admin/users", { username: "nobody", email: "nobody@example.com", password: "secret1" }],
    ["POST", () => "/api/admin/users/batch", { users: ["nobody,nobody@example.com,secret1"] }],
    ["GET", () => `/api/admin/users/${superId}`],
    ["PUT", () => `/api/admin/users/${plainAdminId}`, { phone: "123" }],
    ["DELETE", () => `/api/admin/users/${plainAdminId}`],
    ["PUT", () => `/api/admin/users/${plainAdminId}/reset-password`, { newPassword: "new-secret" }],
    ["GET", () => "/api/admin/permissions"],
    ["GET", () => "/api/admin/roles"],
    ["GET", () => `/api/admin/users/${plainAdminId}/permissions`],
    ["GET", () => `/api/admin/users/${plainAdminId}/roles`],
    ["POST", () => `/api/admin/users/${plainAdminId}/roles/${roleIds.super_admin}`],
    ["DELETE", () => `/api/admin/users/${plainAdminId}/roles/${roleIds.admin}`],
    ["POST", () => `/api/admin/users/${plainAdminId}/permissions/${permissionIds["qc.review"]}`],
    ["DELETE", () => `/api/admin/users/${editorId}/permissions/${permissionIds["user.edit"]}`],
  ];

  it("answers 401 in the envelope without a token", async () => {
    for (const [method, pathOf, body] of endpoints) {
      const response = await api(server.url, pathOf(), { method, body });
      expect(response.status, `${method} ${pathOf()}`).toBe(401);
      expect(response.body).toMatchObject({ success: false, code: "AUTH_REQUIRED" });
    }
  });

  it("answers 403 '权限不足，需要管理员权限' for a regular user and for an admin without user permissions", async () => {
    for (const token of [regularToken, plainAdminToken]) {
      for (const [method, pathOf, body] of endpoints) {
        const response = await api(server.url, pathOf(), { method, body, token });
        expect(response.status, `${method} ${pathOf()}`).toBe(403);
        expect(response.body).toEqual({ success: false, message: "权限不足，需要管理员权限", code: "FORBIDDEN" });
      }
    }
  });

  it("lets an admin holding only user.edit read and edit, but not create, delete or change access", async () => {
    const list = await api(server.url, "/api/admin/users", { token: editorToken });
    expect(list.status).toBe(200);
    const edit = await api(server.url, `/api/admin/users/${regularId}`, {
      method: "PUT",
      token: editorToken,
      body: { phone: "+86 138 0000 0000" },
    });
    expect(edit.status).toBe(200);
    expect(edit.body.data.phone).toBe("+86 138 0000 0000");
    const refused = endpoints.filter(([method, pathOf]) => {
      const p = pathOf();
      return (method === "POST" && p.startsWith("/api/admin/users")) || method === "DELETE";
    });
    expect(refused).toHaveLength(7);
    for (const [method, pathOf, body] of refused) {
      const response = await api(server.url, pathOf(), { method, body, token: editorToken });
      expect(response.status, `${method} ${pathOf()}`).toBe(403);
    }
    for (const [method, pathOf] of endpoints.filter(([method]) => method === "GET")) {
      const response = await api(server.url, pathOf(), { method, token: editorToken });
      expect(response.status, `${method} ${pathOf()}`).toBe(200);
    }
  });

  it("refuses to let a non-super admin edit a super admin", async () => {
    const response = await api(server.url, `/api/admin/users/${superId}`, { method: "PUT", token: editorToken, body: { phone: "1" } });
    expect(response.status).toBe(403);
    expect(response.body.message).toBe("Only a super admin can change a super admin");
  });

  it("a user.edit holder manages only users without admin access: no takeover of another admin", async () => {
    const target = await createUser({ roleIds: [roleIds.admin] });
    const attempts: Array<[string, string, unknown]> = [
      ["PUT", `/api/admin/users/${target.id}`, { email: "taken-over@example.com" }],
      ["PUT", `/api/admin/users/${target.id}`, { username: "takenover" }],
      ["PUT", `/api/admin/users/${target.id}/reset-password`, { newPassword: "attacker-password" }],
    ];
    for (const [method, pathname, body] of attempts) {
      const response = await api(server.url, pathname, { method, body, token: editorToken });
      expect(response.status, `${method} ${pathname} ${JSON.stringify(body)}`).toBe(403);
      expect(response.body).toMatchObject({
        success: false,
        code: "FORBIDDEN",
        message: "Only a super admin can change another administrator",
      });
    }
    // nothing changed: the admin still logs in with their own password and address
    const login = await apiLogin(server.url, target.email, target.password);
    expect(login.user).toMatchObject({ email: target.email, username: target.username });
  });

  it("only a super admin grants or removes admin access (is_admin)", async () => {
    const target = await createUser();
    const refused = await api(server.url, `/api/admin/users/${target.id}`, { method: "PUT", token: editorToken, body: { is_admin: true } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Only a super admin can grant or remove administrator access");
    const access = await api(server.url, "/api/auth/permissions", {
      token: (await apiLogin(server.url, target.email, target.password)).accessToken,
    });
    expect(access.body.data.hasAdminAccess).toBe(false);
    // the super admin may
    const granted = await api(server.url, `/api/admin/users/${target.id}`, { method: "PUT", token: superToken, body: { is_admin: true } });
    expect(granted.status).toBe(200);
    expect(granted.body.data.is_admin).toBe(true);
  });
});

describe("GET /api/admin/users", () => {
  it("answers a page with items, totalItems, totalPages and currentPage", async () => {
    const response = await api(server.url, "/api/admin/users?page=1&limit=2", { token: superToken });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, currentPage: 1, limit: 2, hasPrevPage: false });
    expect(response.body.items).toHaveLength(2);
    expect(response.body.totalItems).toBeGreaterThanOrEqual(4);
    expect(response.body.totalPages).toBe(Math.ceil(response.body.totalItems / 2));
    expect(response.body.items[0]).toMatchObject({
      id: expect.any(Number),
      username: expect.any(String),
      email: expect.any(String),
      is_admin: expect.any(Boolean),
      roles: expect.any(Array),
      userType: expect.stringMatching(/^(super_admin|admin|user)$/),
      created_at: expect.any(String),
    });
    expect(response.body.items[0]).not.toHaveProperty("password_hash");
  });

  it("searches username or email and filters by type", async () => {
    const target = await createUser();
    const byName = await api(server.url, `/api/admin/users?q=${target.username}`, { token: superToken });
    expect(byName.body.items.map((u: { id: number }) => u.id)).toEqual([target.id]);
    const byEmail = await api(server.url, `/api/admin/users?q=${encodeURIComponent(target.email)}`, { token: superToken });
    expect(byEmail.body.totalItems).toBe(1);

    const admins = await api(server.url, "/api/admin/users?userType=admin&limit=100", { token: superToken });
    expect(admins.body.items.every((u: { userType: string }) => u.userType !== "user")).toBe(true);
    expect(admins.body.items.map((u: { id: number }) => u.id)).toContain(superId);
    const regular = await api(server.url, "/api/admin/users?userType=regular&limit=100", { token: superToken });
    expect(regular.body.items.every((u: { userType: string }) => u.userType === "user")).toBe(true);
    expect(regular.body.items.map((u: { id: number }) => u.id)).toContain(target.id);
  });

  it("clamps a page past the end and refuses bad query values", async () => {
    const far = await api(server.url, "/api/admin/users?page=999", { token: superToken });
    expect(far.status).toBe(200);
    expect(far.body.currentPage).toBe(far.body.totalPages);
    for (const query of ["userType=bogus", "page=0", "limit=500", "page=abc"]) {
      const response = await api(server.url, `/api/admin/users?${query}`, { token: superToken });
      expect(response.status, query).toBe(400);
      expect(response.body).toMatchObject({ success: false, code: "VALIDATION_ERROR" });
    }
  });
});

describe("POST /api/admin/users", () => {
  it("creates an ordinary user without roles and an admin with the admin role", async () => {
    const username = unique("new");
    const response = await api(server.url, "/api/admin/users", {
      token: superToken,
      body: {
        username,
        email: `${username}@Example.com`,
        password: "secret1",
        firstName: "Li",
        lastName: "Wei",
        phone: "13800000000",
        roleIds: [],
      },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      success: true,
      data: {
        username,
        email: `${username}@example.com`,
        firstName: "Li",
        lastName: "Wei",
        phone: "13800000000",
        is_admin: false,
        roles: [],
      },
    });
    // the administrator vouches for the address: the new user can log in at once
    const login = await apiLogin(server.url, `${username}@example.com`, "secret1");
    expect(login.user.id).toBe(response.body.data.id);

    const adminName = unique("adm");
    const admin = await api(server.url, "/api/admin/users", {
      token: superToken,
      body: { username: adminName, email: `${adminName}@example.com`, password: "secret1", roleIds: [roleIds.admin] },
    });
    expect(admin.status).toBe(201);
    expect(admin.body.data.is_admin).toBe(true);
    expect(admin.body.data.roles.map((r: { name: string }) => r.name)).toEqual(["admin"]);
  });

  it("validates the fields", async () => {
    const short = await api(server.url, "/api/admin/users", {
      token: superToken,
      body: { username: unique("v"), email: "v@example.com", password: "12345" },
    });
    expect(short.status).toBe(400);
    expect(short.body.errors).toContainEqual({ field: "password", message: "密码长度至少6位字符" });

    const missing = await api(server.url, "/api/admin/users", { token: superToken, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(["username", "email", "password"]));

    const email = await api(server.url, "/api/admin/users", {
      token: superToken,
      body: { username: unique("v"), email: "not-an-email", password: "secret1" },
    });
    expect(email.status).toBe(400);
    expect(email.body.errors).toContainEqual({ field: "email", message: "Please enter a valid email address" });

    const role = await api(server.url, "/api/admin/users", {
      token: superToken,
      body: { username: unique("v"), email: `${unique("v")}@example.com`, password: "secret1", roleIds: [9999] },
    });
    expect(role.status).toBe(400);
    expect(role.body.message).toBe("Roles can only be super_admin or admin");
  });

  it("lets only a super admin hand out roles at creation", async () => {
    const creator = await createUser({ roleIds: [roleIds.admin] });
    await api(server.url, `/api/admin/users/${creator.id}/permissions/${permissionIds["user.create"]}`, {
      method: "POST",
      token: superToken,
    });
    const token = (await apiLogin(server.url, creator.email, creator.password)).accessToken;
    for (const [role, message] of [
      [roleIds.admin, "Only a super admin can assign roles"],
      [roleIds.super_admin, "Only a super admin can grant the super_admin role"],
    ] as const) {
      const name = unique("r");
      const refused = await api(server.url, "/api/admin/users", {
        token,
        body: { username: name, email: `${name}@example.com`, password: "secret1", roleIds: [role] },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(message);
    }
    const name = unique("r");
    const ordinary = await api(server.url, "/api/admin/users", {
      token,
      body: { username: name, email: `${name}@example.com`, password: "secret1" },
    });
    expect(ordinary.status).toBe(201);
    expect(ordinary.body.data.roles).toEqual([]);
  });

  it("answers 409 for a taken username or email (case-insensitive)", async () => {
    const existing = await createUser();
    const sameName = await api(server.url, "/api/admin/users", {
      token: superToken,
      body: { username: existing.username.toUpperCase(), email: `${unique("x")}@example.com`, password: "secret1" },
    });
    expect(sameName.status).toBe(409);
    expect(sameName.body).toMatchObject({ success: false, code: "CONFLICT", message: "This username is already taken" });
    const sameEmail = await api(server.url, "/api/admin/users", {
      token: superToken,
      body: { username: unique("x"), email: existing.email.toUpperCase(), password: "secret1" },
    });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.message).toBe("This email is already registered");
  });
});

describe("POST /api/admin/users/batch", () => {
  it("creates what it can and reports each failure by index", async () => {
    const existing = await createUser();
    const [a, b, c] = [unique("ba"), unique("bb"), unique("bc")];
    const response = await api(server.url, "/api/admin/users/batch", {
      token: superToken,
      body: {
        users: [
          `${a},${a}@example.com,secret1,Ann,Lee,13900000000`,
          { username: b, email: `${b}@example.com`, password: "secret1" },
          "onlyname,missing-fields",
          `${existing.username},${unique("d")}@example.com,secret1`,
          { username: c, email: "broken", password: "secret1" },
          `${c},${c}@example.com,123`,
        ],
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, message: "success 2, failed 4", failed: 4 });
    expect(response.body.data).toMatchObject({ success: 2, failed: 4 });
    expect(response.body.errors).toEqual([
      { index: 2, error: "invalid user data format" },
      { index: 3, error: "This username is already taken" },
      { index: 4, error: "Please enter a valid email address" },
      { index: 5, error: "密码长度至少6位字符" },
    ]);
    expect(response.body.data.created.map((u: { username: string }) => u.username)).toEqual([a, b]);
    const created = await api(server.url, `/api/admin/users?q=${a}`, { token: superToken });
    expect(created.body.items[0]).toMatchObject({ firstName: "Ann", lastName: "Lee", phone: "13900000000" });
  });

  it("refuses an empty or missing list with 'please enter user data'", async () => {
    for (const body of [{ users: [] }, {}]) {
      const response = await api(server.url, "/api/admin/users/batch", { token: superToken, body });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe("please enter user data");
    }
  });

  it("refuses more than 200 at once, on /api and on the page alike, and creates none of them", async () => {
    const prefix = unique("many");
    const lines = Array.from({ length: 201 }, (_, i) => `${prefix}${i},${prefix}${i}@example.com,secret1`);
    const viaApi = await api(server.url, "/api/admin/users/batch", { token: superToken, body: { users: lines } });
    expect(viaApi.status).toBe(400);
    expect(viaApi.body.message).toBe("At most 200 users per batch");
    const cookie = await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const viaPage = await postForm(server.url, "/admin/users?index", cookie, { intent: "batch", lines: lines.join("\n") });
    expect(viaPage.status).toBe(200);
    const html = await viaPage.text();
    expect(html).toContain("At most 200 users per batch");
    // what was typed is kept for the fix
    expect(html).toContain(`${prefix}200@example.com`);
    const created = await api(server.url, `/api/admin/users?q=${prefix}`, { token: superToken });
    expect(created.body.items).toEqual([]);
    // 200 is the limit, not past it
    const exactly = await api(server.url, "/api/admin/users/batch", { token: superToken, body: { users: lines.slice(0, 200) } });
    expect(exactly.body).toMatchObject({ success: true, data: { success: 200, failed: 0 } });
  });
});

describe("GET, PUT, DELETE /api/admin/users/:id", () => {
  it("answers one user with roles and permissions, 404 for a missing one and 400 for a bad id", async () => {
    const one = await api(server.url, `/api/admin/users/${editorId}`, { token: superToken });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: editorId, userType: "admin", is_admin: true });
    expect(one.body.data.permissions.map((p: { name: string }) => p.name)).toEqual(["user.edit"]);
    const missing = await api(server.url, "/api/admin/users/999999", { token: superToken });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, code: "NOT_FOUND", message: "User not found or already deleted" });
    const bad = await api(server.url, "/api/admin/users/abc", { token: superToken });
    expect(bad.status).toBe(400);
  });

  it("applies only the changed fields and says 'no changes made' when nothing differs", async () => {
    const user = await createUser();
    const before = (await api(server.url, `/api/admin/users/${user.id}`, { token: superToken })).body.data;
    // the change comes in a later millisecond than the user's last one
    await clockPast(Date.parse(before.updated_at), "the millisecond after the user's updated_at");
    const changed = await api(server.url, `/api/admin/users/${user.id}`, {
      method: "PUT",
      token: superToken,
      body: { username: user.username, email: user.email, phone: "021-5555", avatar_url: "", password: "ignored" },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ success: true, changed: true, message: "User updated successfully" });
    expect(changed.body.data).toMatchObject({ username: user.username, email: user.email, phone: "021-5555", avatar_url: null });
    expect(changed.body.data.updated_at > before.updated_at).toBe(true);
    // the unknown field did not change the password
    await apiLogin(server.url, user.email, user.password);

    const same = await api(server.url, `/api/admin/users/${user.id}`, {
      method: "PUT",
      token: superToken,
      body: { username: user.username, phone: "021-5555" },
    });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ success: true, changed: false, message: "no changes made" });
    expect(same.body.data.updated_at).toBe(changed.body.data.updated_at);

    const promoted = await api(server.url, `/api/admin/users/${user.id}`, {
      method: "PUT",
      token: superToken,
      body: { is_admin: true, phone: "" },
    });
    expect(promoted.body.data).toMatchObject({ is_admin: true, userType: "admin", phone: null });
  });

  it("validates and reports conflicts", async () => {
    const [first, second] = [await createUser(), await createUser()];
    const conflict = await api(server.url, `/api/admin/users/${first.id}`, {
      method: "PUT",
      token: superToken,
      body: { username: second.username },
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body.errors).toEqual([{ field: "username", message: "This username is already taken" }]);
    const email = await api(server.url, `/api/admin/users/${first.id}`, { method: "PUT", token: superToken, body: { email: "nope" } });
    expect(email.status).toBe(400);
    const avatar = await api(server.url, `/api/admin/users/${first.id}`, {
      method: "PUT",
      token: superToken,
      body: { avatar_url: "javascript:alert(1)" },
    });
    expect(avatar.status).toBe(400);
    const missing = await api(server.url, "/api/admin/users/999999", { method: "PUT", token: superToken, body: { phone: "1" } });
    expect(missing.status).toBe(404);
  });

  it("deletes a user; refuses self, missing users and users with linked data", async () => {
    const user = await createUser();
    const deleted = await api(server.url, `/api/admin/users/${user.id}`, { method: "DELETE", token: superToken });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, message: "User deleted successfully" });
    expect((await api(server.url, `/api/admin/users/${user.id}`, { token: superToken })).status).toBe(404);
    const again = await api(server.url, `/api/admin/users/${user.id}`, { method: "DELETE", token: superToken });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe("User not found or already deleted");

    const self = await api(server.url, `/api/admin/users/${superId}`, { method: "DELETE", token: superToken });
    expect(self.status).toBe(400);
    expect(self.body.message).toBe("You cannot delete your own account");

    // rows elsewhere that point at the user (as later features' tables will) block the delete
    const linked = await createUser();
    const db = openServerDb(server.dataDir);
    try {
      await run(db, sql`CREATE TABLE test_links (user_id bigint NOT NULL REFERENCES users(id))`);
      await run(db, sql`INSERT INTO test_links (user_id) VALUES (${linked.id})`);
      const refused = await api(server.url, `/api/admin/users/${linked.id}`, { method: "DELETE", token: superToken });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe("The user still has linked data and cannot be deleted");
      expect((await api(server.url, `/api/admin/users/${linked.id}`, { token: superToken })).status).toBe(200);
    } finally {
      await run(db, sql`DROP TABLE IF EXISTS test_links`);
      await db.close();
    }
  });

  it("never lets a non-super admin delete a super admin", async () => {
    const deleter = await createUser({ roleIds: [roleIds.admin] });
    await api(server.url, `/api/admin/users/${deleter.id}/permissions/${permissionIds["user.delete"]}`, {
      method: "POST",
      token: superToken,
    });
    const token = (await apiLogin(server.url, deleter.email, deleter.password)).accessToken;
    const response = await api(server.url, `/api/admin/users/${superId}`, { method: "DELETE", token });
    expect(response.status).toBe(403);
    const ordinary = await createUser();
    const allowed = await api(server.url, `/api/admin/users/${ordinary.id}`, { method: "DELETE", token });
    expect(allowed.status).toBe(200);
  });
});

describe("PUT /api/admin/users/:id/reset-password", () => {
  it("needs at least 6 characters ('密码长度至少6位字符')", async () => {
    for (const body of [{ newPassword: "12345" }, {}]) {
      const response = await api(server.url, `/api/admin/users/${plainAdminId}/reset-password`, { method: "PUT", token: superToken, body });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe("密码长度至少6位字符");
    }
  });

  it("sets the new password at once and ends the old tokens", async () => {
    const user = await createUser();
    const oldToken = (await apiLogin(server.url, user.email, user.password)).accessToken;
    const response = await api(server.url, `/api/admin/users/${user.id}/reset-password`, {
      method: "PUT",
      token: superToken,
      body: { newPassword: "brand-new-pass" },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: "Password reset successfully" });
    const oldLogin = await api(server.url, "/api/auth/login", { body: { email: user.email, password: user.password } });
    expect(oldLogin.status).toBe(401);
    await apiLogin(server.url, user.email, "brand-new-pass");
    expect((await api(server.url, "/api/users/me", { token: oldToken })).status).toBe(401);
    const missing = await api(server.url, "/api/admin/users/999999/reset-password", {
      method: "PUT",
      token: superToken,
      body: { newPassword: "secret12" },
    });
    expect(missing.status).toBe(404);
  });
});

describe("roles", () => {
  it("lists roles and permissions", async () => {
    const roles = await api(server.url, "/api/admin/roles", { token: superToken });
    expect(roles.body.data.map((r: { name: string }) => r.name)).toEqual(["super_admin", "admin"]);
    const permissions = await api(server.url, "/api/admin/permissions", { token: superToken });
    expect(permissions.body.data).toHaveLength(17);
    expect(permissions.body.data[0]).toEqual({ id: expect.any(Number), name: "product.create", description: expect.any(String) });
  });

  it("assigns a role with an expiry, lists it, and revokes it", async () => {
    const user = await createUser();
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const assigned = await api(server.url, `/api/admin/users/${user.id}/roles/${roleIds.admin}`, {
      method: "POST",
      token: superToken,
      body: { expiresAt },
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body.message).toBe("Role assigned successfully");
    const roles = await api(server.url, `/api/admin/users/${user.id}/roles`, { token: superToken });
    expect(roles.body.data).toEqual([expect.objectContaining({ id: roleIds.admin, name: "admin", expiresAt })]);
    // the role gives back-office access right away
    const userToken = (await apiLogin(server.url, user.email, user.password)).accessToken;
    const permissions = await api(server.url, "/api/auth/permissions", { token: userToken });
    expect(permissions.body.data).toMatchObject({ userType: "admin", hasAdminAccess: true });

    const revoked = await api(server.url, `/api/admin/users/${user.id}/roles/${roleIds.admin}`, { method: "DELETE", token: superToken });
    expect(revoked.status).toBe(200);
    expect((await api(server.url, `/api/admin/users/${user.id}/roles`, { token: superToken })).body.data).toEqual([]);
    const twice = await api(server.url, `/api/admin/users/${user.id}/roles/${roleIds.admin}`, { method: "DELETE", token: superToken });
    expect(twice.status).toBe(404);
    expect(twice.body.message).toBe("The user does not hold this role");
  });

  it("assigns without a body, refuses a past expiry, unknown roles and users", async () => {
    const user = await createUser();
    const plain = await fetch(`${server.url}/api/admin/users/${user.id}/roles/${roleIds.admin}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${superToken}` },
    });
    expect(plain.status).toBe(200);
    const past = await api(server.url, `/api/admin/users/${user.id}/roles/${roleIds.admin}`, {
      method: "POST",
      token: superToken,
      body: { expiresAt: "2020-01-01T00:00:00Z" },
    });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe("The expiry time must be in the future");
    const bad = await api(server.url, `/api/admin/users/${user.id}/roles/${roleIds.admin}`, {
      method: "POST",
      token: superToken,
      body: { expiresAt: "soon" },
    });
    expect(bad.status).toBe(400);
    expect((await api(server.url, `/api/admin/users/${user.id}/roles/9999`, { method: "POST", token: superToken })).status).toBe(404);
    expect((await api(server.url, `/api/admin/users/999999/roles/${roleIds.admin}`, { method: "POST", token: superToken })).status).toBe(
      404,
    );
  });

  it("never removes the last super admin", async () => {
    const response = await api(server.url, `/api/admin/users/${superId}/roles/${roleIds.super_admin}`, {
      method: "DELETE",
      token: superToken,
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe("The last super admin cannot be removed");
    const roles = await api(server.url, `/api/admin/users/${superId}/roles`, { token: superToken });
    expect(roles.body.data.map((r: { name: string }) => r.name)).toContain("super_admin");
  });
});

describe("direct permissions", () => {
  it("grants and revokes a permission of an admin, which takes effect at once", async () => {
    const admin = await createUser({ roleIds: [roleIds.admin] });
    const token = (await apiLogin(server.url, admin.email, admin.password)).accessToken;
    expect((await api(server.url, "/api/admin/users", { token })).status).toBe(403);

    const granted = await api(server.url, `/api/admin/users/${admin.id}/permissions/${permissionIds["user.create"]}`, {
      method: "POST",
      token: superToken,
    });
    expect(granted.status).toBe(200);
    expect(granted.body.message).toBe("Permission granted successfully");
    const list = await api(server.url, `/api/admin/users/${admin.id}/permissions`, { token: superToken });
    expect(list.body.directPermissions).toEqual([
      { id: permissionIds["user.create"], name: "user.create", description: expect.any(String) },
    ]);
    expect((await api(server.url, "/api/admin/users", { token })).status).toBe(200);

    const revoked = await api(server.url, `/api/admin/users/${admin.id}/permissions/${permissionIds["user.create"]}`, {
      method: "DELETE",
      token: superToken,
    });
    expect(revoked.status).toBe(200);
    expect((await api(server.url, `/api/admin/users/${admin.id}/permissions`, { token: superToken })).body.directPermissions).toEqual([]);
    expect((await api(server.url, "/api/admin/users", { token })).status).toBe(403);
    const twice = await api(server.url, `/api/admin/users/${admin.id}/permissions/${permissionIds["user.create"]}`, {
      method: "DELETE",
      token: superToken,
    });
    expect(twice.status).toBe(404);
  });

  it("tells that ordinary users need no management permissions, and 404s unknown ids", async () => {
    const user = await createUser();
    const response = await api(server.url, `/api/admin/users/${user.id}/permissions/${permissionIds["qc.review"]}`, {
      method: "POST",
      token: superToken,
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe("Ordinary users do not need management permissions.");
    expect((await api(server.url, `/api/admin/users/${user.id}/permissions/9999`, { method: "POST", token: superToken })).status).toBe(404);
    expect((await api(server.url, `/api/admin/users/999999/permissions`, { token: superToken })).status).toBe(404);
  });
});
