import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { getEnv } from "~/lib/env.server";
import { maskEmail, readUnsubscribeToken, unsubscribeToken, unsubscribeUrl } from "./unsubscribe.server";

describe("unsubscribe tokens", () => {
  it("are the user id and an HMAC under a key derived from JWT_SECRET, never the signing key itself", () => {
    const key = Buffer.from(crypto.hkdfSync("sha256", getEnv().JWT_SECRET, "", "unsubscribe links", 32));
    const expected = crypto.createHmac("sha256", key).update("unsubscribe:42").digest("base64url").slice(0, 22);
    expect(unsubscribeToken(42)).toBe(`42.${expected}`);
    const withSigningKey = crypto.createHmac("sha256", getEnv().JWT_SECRET).update("unsubscribe:42").digest("base64url").slice(0, 22);
    expect(unsubscribeToken(42)).not.toContain(withSigningKey);
    expect(unsubscribeUrl(42)).toBe(`${getEnv().PUBLIC_URL}/unsubscribe?token=42.${expected}`);
  });

  it("read back only when untouched", () => {
    const token = unsubscribeToken(7);
    expect(readUnsubscribeToken(token)).toBe(7);
    expect(readUnsubscribeToken(` ${token} `)).toBe(7);
    const [, mac] = token.split(".");
    expect(readUnsubscribeToken(`8.${mac}`)).toBeNull();
    expect(readUnsubscribeToken(`7.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`)).toBeNull();
    for (const bad of [null, undefined, "", "7", "7.", "x.y", `0.${mac}`, `-7.${mac}`, `7.${mac}.extra`])
      expect(readUnsubscribeToken(bad)).toBeNull();
  });

  it("pages show a masked address", () => {
    expect(maskEmail("janet@example.com")).toBe("ja***@example.com");
    expect(maskEmail("jo@example.com")).toBe("j***@example.com");
    expect(maskEmail("j@example.com")).toBe("j***@example.com");
  });
});
