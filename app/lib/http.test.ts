import { describe, expect, it } from "vitest";
import { safeRedirect } from "./http";

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
