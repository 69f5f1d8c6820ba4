import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { getEnv } from "~/lib/env.server";
import { keyedHash } from "./crypto.server";

describe("keyedHash", () => {
  it("uses a key derived from JWT_SECRET, never the token-signing key itself", () => {
    const secret = getEnv().JWT_SECRET;
    const withSigningKey = crypto.createHmac("sha256", secret).update("code:123456").digest("hex");
    const derived = Buffer.from(crypto.hkdfSync("sha256", secret, "", "keyed-hash: codes and captchas", 32));
    expect(keyedHash("code:123456")).not.toBe(withSigningKey);
    expect(keyedHash("code:123456")).toBe(crypto.createHmac("sha256", derived).update("code:123456").digest("hex"));
  });

  it("is stable and tells values apart", () => {
    expect(keyedHash("a")).toBe(keyedHash("a"));
    expect(keyedHash("a")).not.toBe(keyedHash("b"));
  });
});
