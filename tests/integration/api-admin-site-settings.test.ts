/**
 * GET/PUT /api/site-settings/admin/settings over real HTTP: super admins only, every
 * key with its description, validation of keys, booleans and URLs, all-or-nothing saves.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { startTestServer, type TestServer } from "../setup/server";

const PATH = "/api/site-settings/admin/settings";

let server: TestServer;
let superToken: string;
let adminToken: string;
let regularToken: string;

async function makeUser(roleIds: number[]) {
  const username = `s${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const created = await api(server.url, "/api/admin/users", {
    token: superToken,
    body: { username, email: `${username}@example.com`, password: "secret-pass", roleIds },
  });
  expect(created.status).toBe(201);
  return (await apiLogin(server.url, `${username}@example.com`, "secret-pass")).accessToken;
}

beforeAll(async () => {
  server = await startTestServer();
  superToken = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  const roles = await api(server.url, "/api/admin/roles", { token: superToken });
  const adminRole = roles.body.data.find((r: { name: string }) => r.name === "admin").id;
  [adminToken, regularToken] = await Promise.all([makeUser([adminRole]), makeUser([])]);
});

afterAll(async () => {
  await server?.stop();
});

describe("guards", () => {
  it("answers 401 without a token and 403 for admins and regular users", async () => {
    for (const method of ["GET", "PUT"]) {
      const body = method === "PUT" ? { settings: { site_name: "X" } } : undefined;
      expect((await api(server.url, PATH, { method, body })).status).toBe(401);
      for (const token of [adminToken, regularToken]) {
        const response = await api(server.url, PATH, { method, body, token });
        expect(response.status).toBe(403);
        expect(response.body).toMatchObject({ success: false, message: "权限不足，需要管理员权限" });
      }
    }
  });
});

describe("GET", () => {
  it("answers every setting as key → {value, description}", async () => {
    const response = await api(server.url, PATH, { token: superToken });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data.site_name).toEqual({ value: "QC Finder", description: expect.any(String) });
    expect(response.body.data.ad_banner_enabled.value).toBe("false");
    expect(Object.keys(response.body.data)).toEqual(
      expect.arrayContaining([
        "site_url",
        "robots_txt",
        "google_analytics_code",
        "ad_banner_link",
        "ad_banner_logo",
        "show_external_products",
      ]),
    );
  });
});

describe("PUT", () => {
  it("saves the given keys, keeps the others, and the public site info follows", async () => {
    const response = await api(server.url, PATH, {
      method: "PUT",
      token: superToken,
      body: {
        settings: {
          site_name: "  Agent Finds  ",
          site_url: "https://shop.example",
          ad_banner_enabled: true,
          ad_banner_link: "https://agent.example/join?ref=1",
          show_external_products: "FALSE",
          robots_txt: "User-agent: *\r\nDisallow: /admin\r\n",
        },
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.message).toContain("成功");
    expect(response.body.data.site_name.value).toBe("Agent Finds");
    expect(response.body.data.ad_banner_enabled.value).toBe("true");
    expect(response.body.data.show_external_products.value).toBe("false");
    expect(response.body.data.robots_txt.value).toBe("User-agent: *\nDisallow: /admin\n");
    expect(response.body.data.site_title.value).toMatch(/^QC Finder/);

    const info = await api(server.url, "/api/site-settings/site-info");
    expect(info.body.data).toMatchObject({ site_name: "Agent Finds", site_url: "https://shop.example", show_external_products: false });
    const robots = await (await fetch(`${server.url}/robots.txt`)).text();
    expect(robots).toBe("User-agent: *\nDisallow: /admin\n");

    const restore = await api(server.url, PATH, {
      method: "PUT",
      token: superToken,
      body: {
        settings: {
          site_name: "QC Finder",
          site_url: "",
          ad_banner_enabled: "false",
          ad_banner_link: "",
          show_external_products: "true",
          robots_txt: "",
        },
      },
    });
    expect(restore.status).toBe(200);
  });

  it("the public banner configuration follows the saved banner settings", async () => {
    const saved = await api(server.url, PATH, {
      method: "PUT",
      token: superToken,
      body: {
        settings: {
          ad_banner_enabled: "true",
          ad_banner_title: "Spring sale",
          ad_banner_description: "Cheaper shipping",
          ad_banner_button_text: "Join",
          ad_banner_link: "https://agent.example/join",
          ad_banner_button_subtext: "desktop words",
          ad_banner_button_subtext_mobile: "mobile words",
          ad_banner_logo: "/favicon.ico",
        },
      },
    });
    expect(saved.status).toBe(200);
    const banner = await api(server.url, "/api/site-settings/ad-banner-config");
    expect(banner.status).toBe(200);
    expect(banner.body).toMatchObject({
      success: true,
      data: {
        enabled: true,
        title: "Spring sale",
        description: "Cheaper shipping",
        buttonText: "Join",
        link: "https://agent.example/join",
        buttonSubtext: "desktop words",
        buttonSubtextMobile: "mobile words",
        logo: "/favicon.ico",
        ad_banner_enabled: "true",
        ad_banner_title: "Spring sale",
        ad_banner_link: "https://agent.example/join",
        ad_banner_button_subtext_mobile: "mobile words",
      },
    });
    // the storefront shows it, with the mobile subtext
    const home = await (await fetch(`${server.url}/`)).text();
    expect(home).toContain("Spring sale");
    expect(home).toContain("mobile words");

    const off = await api(server.url, PATH, {
      method: "PUT",
      token: superToken,
      body: { settings: { ad_banner_enabled: "false", ad_banner_title: "" } },
    });
    expect(off.status).toBe(200);
    expect((await api(server.url, "/api/site-settings/ad-banner-config")).body.data).toMatchObject({
      enabled: false,
      ad_banner_enabled: "false",
    });
    expect(await (await fetch(`${server.url}/`)).text()).not.toContain("Cheaper shipping");
  });

  it("names an unknown key", async () => {
    const response = await api(server.url, PATH, {
      method: "PUT",
      token: superToken,
      body: { settings: { site_name: "X", favourite_colour: "teal" } },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: "VALIDATION_ERROR", message: "Unknown setting: favourite_colour" });
    expect(response.body.errors).toEqual([{ field: "favourite_colour", message: "Unknown setting: favourite_colour" }]);
  });

  it("accepts only 'true'/'false' for the two switches", async () => {
    for (const value of ["yes", "1", 1, null]) {
      const response = await api(server.url, PATH, { method: "PUT", token: superToken, body: { settings: { ad_banner_enabled: value } } });
      expect(response.status, String(value)).toBe(400);
      expect(response.body.errors[0].field).toBe("ad_banner_enabled");
    }
  });

  it("accepts full http(s) URLs or nothing for site_url and ad_banner_link", async () => {
    for (const value of ["example.com", "ftp://example.com/file", "https://", "/relative", "javascript:alert(1)"]) {
      for (const key of ["site_url", "ad_banner_link"]) {
        const response = await api(server.url, PATH, { method: "PUT", token: superToken, body: { settings: { [key]: value } } });
        expect(response.status, `${key}=${value}`).toBe(400);
        expect(response.body.errors[0]).toMatchObject({ field: key });
      }
    }
    const ok = await api(server.url, PATH, {
      method: "PUT",
      token: superToken,
      body: { settings: { site_url: "http://127.0.0.1:8080/shop", ad_banner_link: "" } },
    });
    expect(ok.status).toBe(200);
    await api(server.url, PATH, { method: "PUT", token: superToken, body: { settings: { site_url: "" } } });
  });

  it("saves nothing when any value is wrong", async () => {
    const response = await api(server.url, PATH, {
      method: "PUT",
      token: superToken,
      body: { settings: { site_name: "Half Saved", site_url: "not a url" } },
    });
    expect(response.status).toBe(400);
    const after = await api(server.url, PATH, { token: superToken });
    expect(after.body.data.site_name.value).toBe("QC Finder");
  });

  it("refuses a missing, empty or non-object settings map and non-text values", async () => {
    for (const body of [{}, { settings: {} }, { settings: ["site_name"] }, { settings: "site_name=x" }, { settings: { site_name: 42 } }]) {
      const response = await api(server.url, PATH, { method: "PUT", token: superToken, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.success).toBe(false);
    }
    const notJson = await fetch(`${server.url}${PATH}`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${superToken}`, "Content-Type": "application/json" },
      body: "{oops",
    });
    expect(notJson.status).toBe(400);
  });

  it("answers 405 for other methods", async () => {
    const response = await api(server.url, PATH, { method: "POST", token: superToken, body: { settings: {} } });
    expect(response.status).toBe(405);
  });
});
