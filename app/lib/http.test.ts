import { describe, expect, it } from "vitest";
import { cookieValues, safeRedirect, signInHref } from "./http";

describe("safeRedirect", () => {
  it("keeps same-site paths", () => {
    expect(safeRedirect("/profile?tab=1")).toBe("/profile?tab=1");
  });

  it.each([null, undefined, "", "https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)", "profile"])(
    "falls back for %s",
    (value) => {
      expect(safeRedirect(value, "/home")).toBe("/home");
    },
  );
});

describe("signInHref", () => {
  it("comes back to the whole address, its query and anchor encoded", () => {
    expect(signInHref("/weidian/1?sku=Red & Blue#qc-upload")).toBe("/login?redirectTo=%2Fweidian%2F1%3Fsku%3DRed%20%26%20Blue%23qc-upload");
    expect(signInHref("/blog/a-post#comment-form", "register")).toBe("/register?redirectTo=%2Fblog%2Fa-post%23comment-form");
    expect(safeRedirect(new URLSearchParams(signInHref("/tmall/2?sku=M").split("?")[1]).get("redirectTo"))).toBe("/tmall/2?sku=M");
  });
});

describe("cookieValues", () => {
  it("gives every value of the name, in order, trimmed; other names, empty names and pieces without '=' are passed over", () => {
    expect(cookieValues(" currency = EUR ; xcurrency=GBP; =JPY; currency; currency=usd", "currency")).toEqual(["EUR", "usd"]);
    expect(cookieValues("tz=Asia%2FShanghai", "tz")).toEqual(["Asia%2FShanghai"]);
    expect(cookieValues(null, "tz")).toEqual([]);
    expect(cookieValues("", "tz")).toEqual([]);
  });

  it("reads a hostile header (4,000 pieces, or one piece of 5 MB) in bounded time", () => {
    const many = Array.from({ length: 4_000 }, (_, n) => `c${n}=v`).join(";") + "; tz=UTC";
    const long = `tz=${"x".repeat(5 * 1024 * 1024)}`;
    const started = performance.now();
    expect(cookieValues(many, "tz")).toEqual(["UTC"]);
    expect(cookieValues(long, "tz")[0]).toHaveLength(5 * 1024 * 1024);
    expect(cookieValues(long, "currency")).toEqual([]);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
