/**
 * The SKU picker's groups (docs/decisions/048-shoppers-comparisons.md): a marketplace
 * names a SKU by its option values joined with " / " ("Black / M": the crawlers write them
 * so), so the names split into one group a position ("Style", "Size"), each value leading
 * to the SKU that keeps the other choices. Names that do not split alike make one group.
 * Client-safe (the product page renders it).
 */

export type SkuChoice = { id: number; name: string; stock: number };

export type SkuOptionValue = {
  value: string;
  /** the SKU this value leads to: the one with this value that keeps most of the current choice */
  skuId: number;
  chosen: boolean;
  /** the SKU it leads to has stock */
  inStock: boolean;
};

export type SkuOptionGroup = { kind: "size" | "style" | "option"; values: SkuOptionValue[] };

const SEPARATOR = /\s+\/\s+|\s*[;；]\s*/;
/** values that are sizes: letters (XS…XXXL), shoe sizes (EU 42, US 9.5, 42码), one size */
const SIZE =
  /^(?:(?:X{0,3}S|M|X{0,4}L|\d?XL)|(?:EU|US|UK|CN|JP)\s?\d{1,2}(?:\.5)?|\d{2,3}(?:\.5)?(?:码|cm)?|均码|one size|free size|\d{2,3}\/\d{2,3}[A-Z]?)$/i;

function partsOf(name: string): string[] {
  return name
    .split(SEPARATOR)
    .map((part) => part.trim())
    .filter(Boolean);
}

export function skuOptionGroups(skus: readonly SkuChoice[], chosenId: number | null): SkuOptionGroup[] {
  if (skus.length < 2) return [];
  let parts = skus.map((sku) => partsOf(sku.name));
  const width = parts[0].length;
  if (width < 1 || parts.some((p) => p.length !== width)) parts = skus.map((sku) => [sku.name.trim()]);
  const positions = parts[0].length;
  const chosenAt = skus.findIndex((sku) => sku.id === chosenId);
  const chosenParts = chosenAt >= 0 ? parts[chosenAt] : null;
  const groups: SkuOptionGroup[] = [];
  for (let position = 0; position < positions; position++) {
    const values: SkuOptionValue[] = [];
    const seen = new Set<string>();
    for (const own of parts) {
      const value = own[position];
      if (seen.has(value)) continue;
      seen.add(value);
      // the SKU with this value sharing most other values with the current choice
      let best = -1;
      let bestScore = -1;
      parts.forEach((candidate, index) => {
        if (candidate[position] !== value) return;
        let score = 0;
        if (chosenParts) for (let p = 0; p < positions; p++) if (p !== position && candidate[p] === chosenParts[p]) score += 2;
        if (skus[index].stock > 0) score += 1;
        if (score > bestScore) {
          best = index;
          bestScore = score;
        }
      });
      values.push({
        value,
        skuId: skus[best].id,
        chosen: chosenParts !== null && chosenParts[position] === value,
        inStock: skus[best].stock > 0,
      });
    }
    const kind =
      positions === 1 && !values.every((v) => SIZE.test(v.value)) ? "option" : values.every((v) => SIZE.test(v.value)) ? "size" : "style";
    groups.push({ kind, values });
  }
  return groups;
}
