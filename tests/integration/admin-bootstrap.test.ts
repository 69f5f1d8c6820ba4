/** The first super admin on start, and `npm run admin:create`. */
import { describe, expect, it } from "vitest";
import { api, apiLogin } from "../setup/api-client";
import { makeDataDir, runScript, startTestServer } from "../setup/server";

describe("first super admin", () => {
  it("is created from ADMIN_EMAIL / ADMIN_PASSWORD once, and kept on the next start", async () => {
    const dataDir = makeDataDir();
    const env = { ADMIN_EMAIL: "boss@example.com", ADMIN_PASSWORD: "boss-password" };
    const first = await startTestServer({ dataDir, env });
    try {
      expect(first.output()).toContain("first super admin created: boss@example.com");
      const { accessToken } = await apiLogin(first.url, "boss@example.com", "boss-password");
      const permissions = await api(first.url, "/api/auth/permissions", { token: accessToken });
      expect(permissions.body.data.userType).toBe("super_admin");
      expect(permissions.body.data.allPermissions).toHaveLength(17);
    } finally {
      await first.stop();
    }
    const second = await startTestServer({ dataDir, env: { ...env, ADMIN_PASSWORD: "another-password" } });
    try {
      expect(second.output()).not.toContain("first super admin created");
      // an existing super admin is never overwritten by the environment
      await apiLogin(second.url, "boss@example.com", "boss-password");
    } finally {
      await second.stop();
    }
  });

  it("gets a random password printed once when ADMIN_EMAIL/ADMIN_PASSWORD are unset", async () => {
    const server = await startTestServer({ env: { ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined } });
    try {
      const match = /Super admin password \(shown only now\): (\S+)/.exec(server.output());
      expect(match).not.toBeNull();
      const login = await apiLogin(server.url, "admin@localhost", match![1]);
      expect(login.user).toMatchObject({ username: "admin", is_admin: true });
    } finally {
      await server.stop();
    }
  });
});

describe("npm run admin:create", () => {
  it("creates a super admin, or promotes an existing user and sets the password (ending the old password's sessions)", async () => {
    const dataDir = makeDataDir();
    let before: { accessToken: string; refreshToken: string } | undefined;
    const created = await runScript(
      "admin-create",
      ["--email", "Second@Example.com", "--password", "second-pass", "--username", "second"],
      { DATA_DIR: dataDir },
    );
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("super admin created: second@example.com (username second)");

    const server = await startTestServer({ dataDir });
    try {
      const admin = await apiLogin(server.url, "second", "second-pass");
      expect(admin.user).toMatchObject({ email: "second@example.com", is_admin: true });
      // a super admin already exists, so the start made no other one from ADMIN_EMAIL
      expect(server.output()).not.toContain("first super admin created");
      // a regular user, promoted by the script below
      const made = await api(server.url, "/api/admin/users", {
        token: admin.accessToken,
        body: { username: "promoteme", email: "promote@example.com", password: "plain-pass" },
      });
      expect(made.status).toBe(201);
      before = await apiLogin(server.url, "promoteme", "plain-pass");
    } finally {
      await server.stop();
    }
    const promoted = await runScript("admin-create", ["--email", "promote@example.com", "--password", "promoted-pass"], {
      DATA_DIR: dataDir,
    });
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toContain("promote@example.com is now a super admin");
    const again = await startTestServer({ dataDir });
    try {
      const login = await apiLogin(again.url, "promoteme", "promoted-pass");
      const permissions = await api(again.url, "/api/auth/permissions", { token: login.accessToken });
      expect(permissions.body.data.userType).toBe("super_admin");
      // what the old password opened is closed, as with every password change
      const oldAccess = await api(again.url, "/api/users/me", { token: before!.accessToken });
      expect(oldAccess.status).toBe(401);
      expect(oldAccess.body.code).toBe("TOKEN_REVOKED");
      expect((await api(again.url, "/api/auth/refresh-token", { body: { refreshToken: before!.refreshToken } })).status).toBe(401);
      expect((await api(again.url, "/api/auth/login", { body: { email: "promoteme", password: "plain-pass" } })).status).toBe(401);
    } finally {
      await again.stop();
    }
  });

  it("refuses bad arguments with a usage line", async () => {
    const missing = await runScript("admin-create", ["--email", "x@example.com"], { DATA_DIR: makeDataDir() });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("usage: npm run admin:create");
    const short = await runScript("admin-create", ["--email", "x@example.com", "--password", "123"], { DATA_DIR: makeDataDir() });
    expect(short.code).not.toBe(0);
    expect(short.stderr).toContain("password");
  });
});
