import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env.server";

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "env-test-"));

describe("parseEnv", () => {
  it("applies the defaults of docs/runtime.md", () => {
    const dir = tempDir();
    const env = parseEnv({ DATA_DIR: dir });
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe("0.0.0.0");
    expect(env.DATABASE_PATH).toBe(path.join(dir, "app.db"));
    expect(env.UPLOADS_DIR).toBe(path.join(dir, "uploads"));
    expect(env.SEED_DEMO).toBe(true);
    expect(env.MAIL_FROM).toBe("Site <no-reply@localhost>");
    expect(env.PUBLIC_URL).toBe("http://localhost:3000");
    expect(env.ACCESS_TOKEN_TTL).toBe(3600);
    expect(env.REFRESH_MAX_AGE_ADMIN).toBe(18000);
    expect(env.REFRESH_MAX_AGE_USER).toBe(86400);
    expect(env.TRUST_PROXY).toBe(0);
    expect(env.LOG_LEVEL).toBe("info");
    expect(env.RATES_URL).toMatch(/^https:\/\//);
    expect(env.RATES_BACKUP_URL).toMatch(/^https:\/\//);
    expect(env.EMAIL_SEND_RATE).toBe(50);
    expect(env.EMAIL_CONNECTIONS).toBe(5);
    expect(env.EMAIL_RETRY_DELAY_MS).toBe(30_000);
  });

  it("follows PORT in the default PUBLIC_URL and trims a trailing slash from a given one", () => {
    const dir = tempDir();
    expect(parseEnv({ DATA_DIR: dir, PORT: "8080" }).PUBLIC_URL).toBe("http://localhost:8080");
    expect(parseEnv({ DATA_DIR: dir, PUBLIC_URL: "https://shop.example/" }).PUBLIC_URL).toBe("https://shop.example");
  });

  it("generates the secrets once into secrets.json with mode 600 and reuses them", () => {
    const dir = tempDir();
    const first = parseEnv({ DATA_DIR: dir });
    const file = path.join(dir, "secrets.json");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(first.SESSION_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(first.JWT_SECRET).not.toBe(first.SESSION_SECRET);
    const second = parseEnv({ DATA_DIR: dir });
    expect(second.SESSION_SECRET).toBe(first.SESSION_SECRET);
    expect(second.JWT_SECRET).toBe(first.JWT_SECRET);
  });

  it("uses given secrets and does not write a file", () => {
    const dir = tempDir();
    const env = parseEnv({ DATA_DIR: dir, SESSION_SECRET: "s".repeat(32), JWT_SECRET: "j".repeat(32) });
    expect(env.SESSION_SECRET).toBe("s".repeat(32));
    expect(fs.existsSync(path.join(dir, "secrets.json"))).toBe(false);
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["PUBLIC_URL", "not a url"],
    ["PUBLIC_URL", "ftp://example.com"],
    ["ACCESS_TOKEN_TTL", "-5"],
    ["REFRESH_MAX_AGE_ADMIN", "0"],
    ["SMTP_URL", "http://mail.example"],
    ["SEED_DEMO", "maybe"],
    ["TRUST_PROXY", "everyone"],
    ["LOG_LEVEL", "loud"],
    ["ADMIN_EMAIL", "nobody"],
    ["GOOGLE_OAUTH_BASE_URL", "::"],
    ["MARKETPLACE_BASE_URL", "localhost:9"],
    ["EMAIL_SEND_RATE", "0"],
    ["EMAIL_CONNECTIONS", "51"],
    ["EMAIL_RETRY_DELAY_MS", "fast"],
  ])("rejects %s=%s with an error naming the variable", (variable, value) => {
    const dir = tempDir();
    let error: unknown;
    try {
      parseEnv({ DATA_DIR: dir, [variable]: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as Error).message).toContain(variable);
    expect((error as Error).message).not.toContain("\n");
  });

  it("treats empty values as unset", () => {
    const env = parseEnv({ DATA_DIR: tempDir(), PORT: "", SMTP_URL: " ", TRUST_PROXY: "" });
    expect(env.PORT).toBe(3000);
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.TRUST_PROXY).toBe(0);
  });

  it("reads TRUST_PROXY as a hop count", () => {
    expect(parseEnv({ DATA_DIR: tempDir(), TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(parseEnv({ DATA_DIR: tempDir(), TRUST_PROXY: "true" }).TRUST_PROXY).toBe(1);
  });
});
