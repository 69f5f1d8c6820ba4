import { describe, expect, it } from "vitest";
import { pageLinks, pageWindow } from "./pagination";

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

describe("pageLinks (the blog: first, last and two either side, with ellipses)", () => {
  it.each([
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [1, 10, [1, 2, 3, "gap", 10]],
    [3, 10, [1, 2, 3, 4, 5, "gap", 10]],
    [4, 10, [1, 2, 3, 4, 5, 6, "gap", 10]],
    [5, 10, [1, "gap", 3, 4, 5, 6, 7, "gap", 10]],
    [8, 10, [1, "gap", 6, 7, 8, 9, 10]],
    [10, 10, [1, "gap", 8, 9, 10]],
  ])("page %i of %i shows %j", (current, total, expected) => {
    expect(pageLinks(current, total)).toEqual(expected);
  });

  it("always holds the first, the last and the current page, in order, never two gaps in a row", () => {
    for (let total = 1; total <= 15; total++) {
      for (let current = 1; current <= total; current++) {
        const links = pageLinks(current, total);
        const numbers = links.filter((link): link is number => link !== "gap");
        expect(numbers).toContain(1);
        expect(numbers).toContain(total);
        expect(numbers).toContain(current);
        expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
        links.forEach((link, i) => {
          if (link === "gap") expect(links[i + 1]).not.toBe("gap");
        });
      }
    }
  });
});
