import { describe, expect, it } from "vitest";
import { ApiError } from "~/lib/api.server";
import { countsPerAddress, LIMITS, limitPhotoSearches, limitQcUploads, loginPressure, takeLoginTry } from "./rate-limit.server";

/** A login try whose password was wrong: the pressure after it. */
async function recordLoginFailure(account: string, ip: string) {
  const loginTry = await takeLoginTry(account, ip);
  await loginTry.settle("failed");
  return loginTry.after;
}

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

describe("searches by photo", () => {
  it("lets an address make its limit's worth, then answers 429 with when to come back; another address is not held back", async () => {
    for (let i = 0; i < LIMITS.photoSearchesPerIp.max; i++) await limitPhotoSearches("198.51.100.38");
    const refused = await limitPhotoSearches("198.51.100.38").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(429);
    await expect(limitPhotoSearches("198.51.100.39")).resolves.toBeUndefined();
  });

  it("counts the addresses it cannot tell apart together, in a larger bucket", async () => {
    for (let i = 0; i < LIMITS.photoSearchesShared.max; i++) await limitPhotoSearches(i % 2 ? "127.0.0.1" : "::1");
    await expect(limitPhotoSearches("127.0.0.1")).rejects.toMatchObject({ status: 429 });
  });
});

describe("limits under requests sent at the same moment", () => {
  it("lets exactly the limit through from a burst, and a refused request counts nothing", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: LIMITS.qcUploadsPerUser.max + 5 }, () =>
        limitQcUploads(424_242, "198.51.100.42").then(
          () => "counted",
          (error: unknown) => (error instanceof ApiError && error.status === 429 ? "refused" : String(error)),
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === "counted")).toHaveLength(LIMITS.qcUploadsPerUser.max);
    expect(outcomes.filter((outcome) => outcome === "refused")).toHaveLength(5);
  });

  it("checks at most 5 passwords of a burst of guesses before the captcha is demanded", async () => {
    // one account, from an address not told apart (its own count only): exactly 5
    const tries = await Promise.all(Array.from({ length: 12 }, () => takeLoginTry("burst-target@example.com", "127.0.0.1")));
    const checked = tries.filter((loginTry) => !loginTry.before.captchaRequired);
    expect(checked).toHaveLength(LIMITS.captchaAfterFailures);
    // the refused ones take their count back, the checked (wrong) ones keep it
    await Promise.all(tries.map((loginTry) => loginTry.settle(loginTry.before.captchaRequired ? "uncounted" : "failed")));
    const now = await loginPressure("burst-target@example.com", "203.0.113.250");
    expect(now.captchaRequired).toBe(true);
    expect(now.blockedUntil).toBeNull();

    // from one address too: the account's and the address's counts each let 5 through,
    // not always the same 5, so at most 5 are checked
    const fromAddress = await Promise.all(Array.from({ length: 12 }, () => takeLoginTry("burst-other@example.com", "198.51.100.77")));
    const checkedThere = fromAddress.filter((loginTry) => !loginTry.before.captchaRequired).length;
    expect(checkedThere).toBeLessThanOrEqual(LIMITS.captchaAfterFailures);
  });
});
