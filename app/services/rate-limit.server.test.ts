import { describe, expect, it } from "vitest";
import { countsPerAddress, LIMITS, loginPressure, recordLoginFailure } from "./rate-limit.server";

describe("login pressure", () => {
  it("demands a captcha after 5 failures for one account, from any address", async () => {
    for (let i = 1; i < LIMITS.captchaAfterFailures; i++) {
      expect((await recordLoginFailure("victim@example.com", `198.51.100.${i}`)).captchaRequired).toBe(false);
    }
    expect((await recordLoginFailure("victim@example.com", "198.51.100.99")).captchaRequired).toBe(true);
    expect((await loginPressure("someone-else@example.com", "198.51.100.200")).captchaRequired).toBe(false);
  });

  it("demands a captcha after 5 failures from one address, for any account", async () => {
    for (let i = 1; i <= LIMITS.captchaAfterFailures; i++) await recordLoginFailure(`guess${i}@example.com`, "203.0.113.7");
    expect((await loginPressure("fresh@example.com", "203.0.113.7")).captchaRequired).toBe(true);
  });

  it("does not lump together clients it cannot tell apart (loopback, unknown)", async () => {
    for (const ip of ["127.0.0.1", "::1", "::ffff:127.0.0.1", ""]) expect(countsPerAddress(ip)).toBe(false);
    for (const ip of ["203.0.113.7", "2001:db8::1", "10.0.0.2"]) expect(countsPerAddress(ip)).toBe(true);
    for (let i = 1; i <= LIMITS.captchaAfterFailures + 2; i++) await recordLoginFailure(`local${i}@example.com`, "127.0.0.1");
    expect((await loginPressure("another@example.com", "127.0.0.1")).captchaRequired).toBe(false);
    // an account still collects its own failures, whatever the address
    for (let i = 1; i <= LIMITS.captchaAfterFailures; i++) await recordLoginFailure("local-target@example.com", "127.0.0.1");
    expect((await loginPressure("local-target@example.com", "127.0.0.1")).captchaRequired).toBe(true);
  });
});
