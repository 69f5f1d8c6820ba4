/**
 * The SKU picker (contract: `?sku=<id>`; docs/decisions/048): a group of choices per
 * option (style, size), each a link to the page with the SKU it leads to, so it works
 * without JavaScript and the choice is in the address to share; with JavaScript the link
 * is a client navigation that keeps the scroll. The chosen SKU's photo and price are the
 * page's (the loader reads the parameter).
 */
import { PageLink } from "~/components/ui/page-link";
import { useT } from "~/i18n/i18n";
import { skuOptionGroups, type SkuChoice } from "~/lib/sku-options";

export function SkuPicker({ skus, chosenId, path }: { skus: readonly SkuChoice[]; chosenId: number | null; path: string }) {
  const t = useT();
  const groups = skuOptionGroups(skus, chosenId);
  if (!groups.length) return null;
  return (
    <div className="sku-picker">
      {groups.map((group, index) => (
        <div key={index} className="sku-picker__group" role="radiogroup" aria-labelledby={`sku-group-${index}`}>
          <span id={`sku-group-${index}`} className="sku-picker__label">
            {group.kind === "size" ? t("shop.sku.size") : group.kind === "style" ? t("shop.sku.style") : t("shop.sku.option")}
          </span>
          <span className="sku-picker__values">
            {group.values.map((value) => (
              <PageLink
                key={value.value}
                to={`${path}?sku=${value.skuId}`}
                role="radio"
                aria-checked={value.chosen}
                className={`sku-picker__value${value.chosen ? " sku-picker__value--chosen" : ""}${value.inStock ? "" : " sku-picker__value--out"}`}
                preventScrollReset
                replace
              >
                {value.value}
              </PageLink>
            ))}
          </span>
        </div>
      ))}
    </div>
  );
}
