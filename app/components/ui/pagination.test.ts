import { describe, expect, it } from "vitest";
import { pageWindow } from "./pagination";

describe("pageWindow (5 page numbers around the current page)", () => {
  it.each([
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [3, 3, [1, 2, 3]],
    [1, 5, [1, 2, 3, 4, 5]],
    [1, 10, [1, 2, 3, 4, 5]],
    [2, 10, [1, 2, 3, 4, 5]],
    [3, 10, [1, 2, 3, 4, 5]],
    [4, 10, [2, 3, 4, 5, 6]],
    [5, 10, [3, 4, 5, 6, 7]],
    [8, 10, [6, 7, 8, 9, 10]],
    [9, 10, [6, 7, 8, 9, 10]],
    [10, 10, [6, 7, 8, 9, 10]],
  ])("page %i of %i shows %j", (current, total, expected) => {
    expect(pageWindow(current, total)).toEqual(expected);
  });

  it("takes another window size", () => {
    expect(pageWindow(6, 20, 3)).toEqual([5, 6, 7]);
    expect(pageWindow(1, 20, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("always holds the current page and never leaves 1..total", () => {
    for (let total = 1; total <= 12; total++) {
      for (let current = 1; current <= total; current++) {
        const window = pageWindow(current, total);
        expect(window).toContain(current);
        expect(window[0]).toBeGreaterThanOrEqual(1);
        expect(window.at(-1)).toBeLessThanOrEqual(total);
        expect(window).toHaveLength(Math.min(5, total));
      }
    }
  });
});
