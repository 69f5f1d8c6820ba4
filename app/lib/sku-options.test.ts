import { describe, expect, it } from "vitest";
import { skuOptionGroups } from "./sku-options";

const skus = [
  { id: 1, name: "黑色 Black / M", stock: 5 },
  { id: 2, name: "黑色 Black / L", stock: 0 },
  { id: 3, name: "白色 White / M", stock: 2 },
  { id: 4, name: "白色 White / L", stock: 7 },
];

describe("the SKU picker's groups", () => {
  it("splits names joined with ' / ' into a style and a size group", () => {
    const groups = skuOptionGroups(skus, 1);
    expect(groups.map((group) => group.kind)).toEqual(["style", "size"]);
    expect(groups[0].values.map((value) => value.value)).toEqual(["黑色 Black", "白色 White"]);
    expect(groups[1].values.map((value) => [value.value, value.chosen])).toEqual([
      ["M", true],
      ["L", false],
    ]);
  });

  it("leads each value to the SKU that keeps the other choice", () => {
    const [style, size] = skuOptionGroups(skus, 1);
    // from Black / M: White keeps M, L keeps Black
    expect(style.values.find((value) => value.value === "白色 White")?.skuId).toBe(3);
    expect(size.values.find((value) => value.value === "L")).toMatchObject({ skuId: 2, inStock: false });
    // from White / L: Black keeps L
    expect(skuOptionGroups(skus, 4)[0].values[0].skuId).toBe(2);
  });

  it("makes one group of names that do not split alike, and none of a single SKU", () => {
    const mixed = skuOptionGroups(
      [
        { id: 1, name: "S", stock: 1 },
        { id: 2, name: "黑色 Black / M", stock: 1 },
      ],
      null,
    );
    expect(mixed).toHaveLength(1);
    expect(mixed[0].values.map((value) => value.chosen)).toEqual([false, false]);
    expect(skuOptionGroups([{ id: 1, name: "Default", stock: 1 }], 1)).toEqual([]);
    expect(
      skuOptionGroups(
        [
          { id: 1, name: "EU 40", stock: 1 },
          { id: 2, name: "EU 41", stock: 1 },
        ],
        2,
      )[0].kind,
    ).toBe("size");
  });
});
