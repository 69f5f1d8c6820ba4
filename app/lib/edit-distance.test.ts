import { describe, expect, it } from "vitest";
import { editDistance } from "./edit-distance";

describe("editDistance", () => {
  it("counts insertions, deletions, substitutions and swaps as one edit each", () => {
    expect(editDistance("nike", "nike", 2)).toBe(0);
    expect(editDistance("nikee", "nike", 2)).toBe(1);
    expect(editDistance("nke", "nike", 2)).toBe(1);
    expect(editDistance("nuke", "nike", 2)).toBe(1);
    expect(editDistance("nkie", "nike", 2)).toBe(1);
    expect(editDistance("adidsa", "adidas", 2)).toBe(1);
    expect(editDistance("jordn", "jordan", 2)).toBe(1);
    expect(editDistance("addiddas", "adidas", 2)).toBe(2);
  });

  it("stops at the bound", () => {
    expect(editDistance("kitten", "sitting", 2)).toBe(3);
    expect(editDistance("kitten", "sitting", 3)).toBe(3);
    expect(editDistance("a", "abcdef", 2)).toBe(3);
    expect(editDistance("hoodie", "sneaker", 1)).toBe(2);
  });
});
