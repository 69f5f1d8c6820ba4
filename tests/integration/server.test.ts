/**
 * The public surface of the running server over real HTTP: health, the JSON envelope,
 * robots/sitemap, the uploads folder, headers, assets and server-rendered pages.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outputCaughtUp, startTestServer, type TestServer } from "../setup/server";
import { waitFor } from "../setup/wait";
import { rawGet } from "./http";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  const uploads = path.join(server.dataDir, "uploads");
  fs.mkdirSync(path.join(uploads, "qc"), { recursive: true });
  fs.writeFileSync(path.join(uploads, "qc", "photo.txt"), "inside uploads");
  fs.writeFileSync(path.join(uploads, ".secret"), "dot file");
});

afterAll(async () => {
  await server?.stop();
});

describe("health and JSON API", () => {
  it("GET /healthz answers {ok:true} when the database answers", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it("unknown /api paths answer the JSON error envelope, never HTML", async () => {
    for (const [method, pathname] of [
      ["GET", "/api/does-not-exist"],
      ["POST", "/api/does/not/exist"],
      ["DELETE", "/api/x"],
      ["GET", "/api"],
    ] as const) {
      const response = await fetch(`${server.url}${pathname}`, {
        method,
        headers: { "Content-Type": "application/json", Origin: server.url },
        body: method === "GET" ? undefined : "{}",
      });
      expect(response.status, `${method} ${pathname}`).toBe(404);
      expect(response.headers.get("content-type")).toContain("application/json");
      const body = await response.json();
      expect(body).toMatchObject({ success: false, code: "NOT_FOUND" });
      expect(typeof body.message).toBe("string");
    }
  });

  it("GET /api/site-settings/site-info answers the site information in data", async () => {
    const response = await fetch(`${server.url}/api/site-settings/site-info`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.success).toBe(true);
    expect(body.data).toEqual({
      site_name: expect.any(String),
      site_title: expect.any(String),
      site_description: expect.any(String),
      site_keywords: expect.any(String),
      site_url: `http://localhost:${server.port}`,
      show_external_products: true,
    });
  });

  it("GET /api/site-settings/ad-banner-config answers the banner configuration", async () => {
    const body = await (await fetch(`${server.url}/api/site-settings/ad-banner-config`)).json();
    expect(body).toEqual({
      success: true,
      data: {
        enabled: false,
        title: "",
        description: "",
        buttonText: "",
        link: "",
        buttonSubtext: "",
        buttonSubtextMobile: "",
        logo: "",
        ad_banner_enabled: "false",
        ad_banner_title: "",
        ad_banner_description: "",
        ad_banner_button_text: "",
        ad_banner_link: "",
        ad_banner_button_subtext: "",
        ad_banner_button_subtext_mobile: "",
        ad_banner_logo: "",
      },
    });
  });

  it("a wrong method on a known endpoint answers 405 in the envelope", async () => {
    const response = await fetch(`${server.url}/api/site-settings/site-info`, {
      method: "POST",
      headers: { Origin: server.url },
    });
    expect(response.status).toBe(405);
    expect(await response.json()).toMatchObject({ success: false, code: "METHOD_NOT_ALLOWED" });
  });
});

describe("cross-site requests", () => {
  it("are refused when they carry cookies and come from another site", async () => {
    const crossSite = await fetch(`${server.url}/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: "sid=whatever", "Sec-Fetch-Site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    const foreignOrigin = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { Cookie: "sid=whatever", Origin: "https://evil.example", "Content-Type": "application/json" },
      body: "{}",
    });
    expect(foreignOrigin.status).toBe(403);
    expect(await foreignOrigin.json()).toMatchObject({ success: false, code: "CSRF" });
  });

  // login CSRF: a foreign page posting a fresh visitor (no cookie yet) into an account
  it.each([
    ["/login", { Origin: "https://evil.example" }],
    ["/login", { "Sec-Fetch-Site": "cross-site" }],
    ["/register", { "Sec-Fetch-Site": "same-site" }],
    ["/auth/google", { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }],
    ["/forgot-password", { Origin: "null" }],
  ])("refuses a cross-site POST %s without cookies too (%o): 403, no session, no stack trace", async (pathname, headers) => {
    const response = await fetch(`${server.url}${pathname}`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams({ email: "admin@example.com", password: "admin-password-test", intent: "send-code" }).toString(),
    });
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith("sid="))).toBe(false);
    const html = await response.text();
    expect(html).toContain("Request refused");
    expect(html).not.toMatch(/\n\s+at |node_modules|Error:/);
  });

  it("refuses a cross-site /api call without cookies with the JSON envelope", async () => {
    const response = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/json" },
      body: JSON.stringify({ email: "nobody@example.com", password: "x" }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ success: false, code: "CSRF", message: expect.any(String) });
  });

  it("passes requests from the site itself, and API clients that send neither Origin nor Sec-Fetch-Site", async () => {
    const sameSite = await fetch(`${server.url}/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: "sid=whatever", "Sec-Fetch-Site": "same-origin", Origin: server.url },
    });
    expect(sameSite.status).toBe(302);
    const typedAddress = await fetch(`${server.url}/logout`, { method: "POST", redirect: "manual", headers: { "Sec-Fetch-Site": "none" } });
    expect(typedAddress.status).toBe(302);
    const bearerClient = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "nobody@example.com", password: "x" }),
    });
    expect(bearerClient.status).toBe(401);
  });
});

describe("request body limits", () => {
  const MB = 1024 * 1024;
  const apiPost = (body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body,
      // a ReadableStream body goes out chunked, without a Content-Length
      duplex: "half",
    } as RequestInit);

  /** A body of `bytes` bytes sent as a stream: no Content-Length, the server must count. */
  function streamOf(bytes: number): ReadableStream<Uint8Array> {
    let sent = 0;
    return new ReadableStream({
      pull(controller) {
        if (sent >= bytes) return controller.close();
        const chunk = new Uint8Array(Math.min(64 * 1024, bytes - sent)).fill(0x61);
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
  }

  it("refuses a JSON body over 1 MB by its Content-Length: 413 in the envelope", async () => {
    const response = await apiPost(JSON.stringify({ email: "a".repeat(MB + 10), password: "x" }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ success: false, code: "PAYLOAD_TOO_LARGE", message: expect.stringContaining("1 MB") });
  });

  it("counts a body sent without a length and refuses it past 1 MB", async () => {
    const response = await apiPost(streamOf(3 * MB));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ success: false, code: "PAYLOAD_TOO_LARGE" });
  });

  it("reads a streamed body under the limit as usual", async () => {
    const text = JSON.stringify({ email: "nobody@example.com", password: "x" });
    const encoded = new TextEncoder().encode(text);
    const response = await apiPost(new ReadableStream({ start: (c) => (c.enqueue(encoded), c.close()) }));
    expect(response.status).toBe(401);
  });

  it("answers a page's oversized form with a plain 413 page, never a stack trace", async () => {
    for (const body of [new URLSearchParams({ email: "a".repeat(2 * MB), password: "x" }).toString(), streamOf(2 * MB)]) {
      const response = await fetch(`${server.url}/login`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
        body,
        duplex: "half",
      } as RequestInit);
      expect(response.status).toBe(413);
      expect(response.headers.get("content-type")).toContain("text/html");
      const html = await response.text();
      expect(html).toContain("Request too large");
      expect(html).not.toMatch(/\n\s+at |node_modules|Error:/);
    }
  });

  it("allows multipart bodies up to 12 MB, not more", async () => {
    const form = (bytes: number) => {
      const data = new FormData();
      data.append("file", new Blob([new Uint8Array(bytes)], { type: "image/png" }), "big.png");
      return data;
    };
    // under 12 MB the route itself answers (here: 401, nobody is logged in)
    const allowed = await fetch(`${server.url}/api/upload/avatar`, { method: "POST", body: form(6 * MB) });
    expect(allowed.status).toBe(401);
    const refused = await fetch(`${server.url}/api/upload/avatar`, { method: "POST", body: form(13 * MB) });
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({ success: false, code: "PAYLOAD_TOO_LARGE", message: expect.stringContaining("12 MB") });
  });

  it("gives a page's form sent with JavaScript (the page's address + .data) the page's own limit", async () => {
    const form = new FormData();
    form.append("photos", new Blob([new Uint8Array(16 * MB)], { type: "image/png" }), "huge.png");
    // the QC upload box takes 10 files of 10 MB: 16 MB reaches the page (which answers: no
    // product 999999 here), at either address
    for (const address of ["/product/999999", "/product/999999.data"]) {
      const response = await fetch(`${server.url}${address}`, { method: "POST", body: form, headers: { Origin: server.url } });
      expect(response.status, address).not.toBe(413);
    }
    // and a page without a larger limit keeps the 12 MB one with .data too
    const refused = await fetch(`${server.url}/login.data`, { method: "POST", body: form, headers: { Origin: server.url } });
    expect(refused.status).toBe(413);
  });
});

describe("malformed addresses", () => {
  it.each(["/%E0%A4%A", "/api/%E0%A4%A", "/product/%E0%A4%A", "/uploads/%E0%A4%A", "/%"])(
    "%s answers the site's own 404 (or the envelope on /api), never a stack trace",
    async (requestPath) => {
      const response = await rawGet(server.port, requestPath);
      expect(response.status).toBe(404);
      expect(response.body).not.toMatch(/URIError|\n\s+at |node_modules|\/server\/|\/scripts\/|\/app\//);
      if (requestPath.startsWith("/api/")) {
        expect(JSON.parse(response.body)).toMatchObject({ success: false, code: "NOT_FOUND" });
      } else {
        expect(response.body).toContain("Page not found");
        expect(response.body).toContain("site-header");
      }
    },
  );

  it("logs no router warnings for them", async () => {
    await rawGet(server.port, "/%E0%A4%A?probe=warn");
    // a warning for it would be in the output by now
    await outputCaughtUp(server);
    expect(server.output()).not.toContain("could not be decoded");
  });
});

describe("robots.txt and sitemap.xml", () => {
  it("serves a default robots.txt that points at the sitemap", async () => {
    const response = await fetch(`${server.url}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    expect(text).toContain("User-agent: *");
    expect(text).toContain(`Sitemap: http://localhost:${server.port}/sitemap.xml`);
  });

  it("serves a sitemap in the standard protocol", async () => {
    const response = await fetch(`${server.url}/sitemap.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/xml");
    const xml = await response.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    expect(xml).toContain('xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"');
    expect(xml).toContain(`<loc>http://localhost:${server.port}/</loc>`);
  });
});

describe("/uploads", () => {
  it("serves files inside the folder with nosniff", async () => {
    const response = await rawGet(server.port, "/uploads/qc/photo.txt");
    expect(response.status).toBe(200);
    expect(response.body).toBe("inside uploads");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });

  it.each([
    "/uploads/../secrets.json",
    "/uploads/qc/../../secrets.json",
    "/uploads/%2e%2e/secrets.json",
    "/uploads/%2e%2e%2fsecrets.json",
    "/uploads/qc/%2E%2E/%2E%2E/secrets.json",
    "/uploads/%252e%252e/secrets.json",
    "/uploads/..%5csecrets.json",
    "/uploads//etc/passwd",
    "/uploads/%2fetc%2fpasswd",
    `/uploads/${encodeURIComponent(path.resolve("/etc/passwd"))}`,
    "/uploads/.secret",
  ])("refuses %s", async (requestPath) => {
    const response = await rawGet(server.port, requestPath);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.body).not.toContain("SESSION_SECRET");
    expect(response.body).not.toContain("root:");
    expect(response.body).not.toContain("dot file");
  });

  it("never lists a directory and answers 404 for missing files", async () => {
    for (const requestPath of ["/uploads/", "/uploads/qc", "/uploads/qc/", "/uploads/missing.jpg"]) {
      const response = await rawGet(server.port, requestPath);
      expect(response.status, requestPath).toBeGreaterThanOrEqual(400);
      expect(response.body).not.toContain("photo.txt");
    }
  });
});

describe("headers, assets and pages", () => {
  it("sends security headers on pages", async () => {
    const response = await fetch(`${server.url}/`);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'nonce-[^']+'/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("x-powered-by")).toBeNull();
    // pages talk only to the site, and load outside images over https only
    const directive = (name: string) =>
      csp
        .split(";")
        .map((part) => part.trim().split(/\s+/))
        .find(([first]) => first === name) ?? [];
    expect(directive("connect-src")).toEqual(["connect-src", "'self'"]);
    expect(directive("img-src")).toContain("https:");
    expect(directive("img-src")).not.toContain("http:");
  });

  it("compresses responses when the client accepts it", async () => {
    const response = await rawGet(server.port, "/", { "Accept-Encoding": "gzip" });
    expect(response.headers["content-encoding"]).toBe("gzip");
  });

  it("serves fingerprinted /build assets as immutable", async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const asset = html.match(/href="(\/build\/[^"]+\.css)"/)?.[1];
    expect(asset).toBeDefined();
    const response = await fetch(`${server.url}${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("immutable");
  });

  it("renders the home page on the server with the site chrome and meta tags", async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<title>QC Finder");
    expect(html).toContain('name="description"');
    expect(html).toContain('name="keywords"');
    expect(html).toMatch(/<form[^>]*method="get"[^>]*action="\/search"/);
    expect(html).toContain("site-footer");
  });

  it("answers unknown pages with a 404 page inside the site chrome", async () => {
    const response = await fetch(`${server.url}/no/such/page`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Page not found");
    expect(html).toContain("site-header");
    expect(html).toContain("site-footer");
  });

  it("logs one line per request, with its database queries", async () => {
    await fetch(`${server.url}/robots.txt?probe=log-line`);
    const logged = () =>
      server
        .output()
        .split("\n")
        .filter((line) => line.includes("/robots.txt?probe=log-line"));
    await waitFor(() => logged().length > 0, { what: "the log line of GET /robots.txt?probe=log-line" });
    // a second line for it would come before the line of a later request
    await outputCaughtUp(server);
    const lines = logged();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/GET \/robots\.txt\?probe=log-line 200 .* \d+q$/);
  });
});
