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

  it("loopback is an address for the captcha (CONTRACT.md), never for the hard throttle", async () => {
    for (const ip of ["127.0.0.1", "::1", "::ffff:127.0.0.1", ""]) expect(countsPerAddress(ip)).toBe(false);
    for (const ip of ["203.0.113.7", "2001:db8::1", "10.0.0.2"]) expect(countsPerAddress(ip)).toBe(true);
    for (let i = 1; i < LIMITS.captchaAfterFailures; i++) await recordLoginFailure(`local${i}@example.com`, "127.0.0.2");
    expect((await loginPressure("another@example.com", "127.0.0.2")).captchaRequired).toBe(false);
    await recordLoginFailure("local-last@example.com", "127.0.0.2");
    expect((await loginPressure("another@example.com", "127.0.0.2")).captchaRequired).toBe(true);
    // far past the per-address throttle: loopback clients are never locked out together
    for (let i = 0; i < LIMITS.failuresPerIp; i++) await recordLoginFailure(`many${i}@example.com`, "127.0.0.2");
    expect((await loginPressure("another@example.com", "127.0.0.2")).blockedUntil).toBeNull();
    // an unknown address is no address at all
    for (let i = 1; i <= LIMITS.captchaAfterFailures + 2; i++) await recordLoginFailure(`unknown${i}@example.com`, "");
    expect((await loginPressure("another@example.com", "")).captchaRequired).toBe(false);
  });
});
