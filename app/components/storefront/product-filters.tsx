import { Form, useSubmit } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import { Fragment, useEffect, type FormEvent } from "react";
import { CURRENCIES, type CurrencyCode } from "~/lib/currency";
import { LISTING_PAGE_SIZES, LISTING_SOURCE_LABELS, PLATFORMS, type Platform, type SearchSort } from "~/schemas/catalogue-rules";
import { useI18n } from "~/i18n/i18n";
import { listingSourceName, platformName, sortName } from "./labels";

export type ExternalFilter = "" | "local" | "external";
export type CategoryOption = { id: number; name: string; depth: number };

/** What a listing's filter form shows (made on the server by readListingQuery()). */
export type ProductFiltersView = {
  sort: SearchSort;
  external: ExternalFilter;
  platforms: Platform[];
  /** the price bounds as typed, in the visitor's currency */
  min: string;
  max: string;
  qc: boolean;
  per: number;
  currency: CurrencyCode;
  /** why the price bounds were not applied */
  priceError: string | null;
};

/** How many filters narrow the list (the sort and page size do not). */
export const activeFilterCount = (view: ProductFiltersView, category = "") =>
  view.platforms.length + (view.min || view.max ? 1 : 0) + (view.qc ? 1 : 0) + (view.external ? 1 : 0) + (category ? 1 : 0);

/**
 * Prices typed while a choice's answer was on its way (issue 39): the answer renders the
 * form anew from what was sent, so what the shopper typed since would be emptied. The form
 * notes the prices it sent with a choice and what is typed after; a price input made for
 * the answer takes back what was typed since, so an answer never empties what the shopper
 * typed (it is applied with Enter or Apply, like any typed price).
 */
const typedPrices: { sent: Record<string, string> | null; typed: Record<string, string> } = { sent: null, typed: {} };

function noteTyped(event: FormEvent<HTMLInputElement>) {
  typedPrices.typed[event.currentTarget.name] = event.currentTarget.value;
}

/** A price input attached for an answer: what was typed since the choice was sent comes back. */
function restoreTyped(input: HTMLInputElement | null) {
  if (!input || !typedPrices.sent) return;
  const typed = typedPrices.typed[input.name];
  if (typed !== undefined && typed !== typedPrices.sent[input.name]) input.value = typed;
}

/**
 * The filters and sorts of a product list: a GET form that works without JavaScript (the
 * Apply button); with JavaScript a change of a choice submits it at once, with every
 * field's current value (typed prices otherwise wait for Enter or Apply). The page number
 * is left out, so a new filter starts at page 1.
 */
export function ProductFilters({
  hidden = {},
  sorts,
  view,
  categories,
  category = "",
  clearHref,
}: {
  hidden?: Record<string, string>;
  sorts: readonly SearchSort[];
  view: ProductFiltersView;
  categories?: CategoryOption[];
  category?: string;
  /** the list without filters (shown when some are set) */
  clearHref?: string;
}) {
  const { t, message } = useI18n();
  const submit = useSubmit();
  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLInputElement;
    if (target.type === "text" || target.type === "number") return;
    const form = event.currentTarget;
    const price = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? "";
    typedPrices.sent = { min: price("min"), max: price("max") };
    typedPrices.typed = { ...typedPrices.sent };
    submit(form, { preventScrollReset: true });
  };
  // the answer has been shown (its price inputs took back what was typed): nothing is pending
  useEffect(() => {
    typedPrices.sent = null;
  }, []);
  const onSubmit = () => {
    // Enter or Apply sends what is typed: nothing is pending any more
    typedPrices.sent = null;
    typedPrices.typed = {};
  };
  const symbol = CURRENCIES[view.currency].symbol;
  const active = activeFilterCount(view, category);
  return (
    <Form method="get" className="product-filters" aria-label={t("shop.filters.label")} onChange={onChange} onSubmit={onSubmit}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {categories ? (
        <div className="product-filters__field">
          <label htmlFor="filter-category">{t("shop.filters.category")}</label>
          <select id="filter-category" name="category" defaultValue={category}>
            <option value="">{t("shop.filters.allCategories")}</option>
            {categories.map((option) => (
              <option key={option.id} value={String(option.id)}>
                {`${"— ".repeat(option.depth)}${option.name}`}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="product-filters__field">
        <label htmlFor="filter-sort">{t("shop.filters.sortBy")}</label>
        <select id="filter-sort" name="sort" defaultValue={view.sort}>
          {sorts.map((value) => (
            <option key={value} value={value}>
              {sortName(t, value)}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="product-filters__field product-filters__platforms">
        <legend>{t("shop.filters.marketplace")}</legend>
        <div className="product-filters__checks">
          {PLATFORMS.map((platform) => (
            <label key={platform} className="check">
              <input type="checkbox" name="platform" value={platform} defaultChecked={view.platforms.includes(platform)} />
              {platformName(t, platform)}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="product-filters__field product-filters__price">
        <legend>{t("shop.filters.price", { currency: view.currency })}</legend>
        <div className="product-filters__range">
          {(["min", "max"] as const).map((bound) => (
            <Fragment key={bound}>
              {bound === "max" ? <span aria-hidden="true">–</span> : null}
              <label htmlFor={`filter-${bound}`} className="visually-hidden">
                {bound === "min"
                  ? t("shop.filters.lowestPrice", { currency: view.currency })
                  : t("shop.filters.highestPrice", { currency: view.currency })}
              </label>
              <input
                id={`filter-${bound}`}
                type="text"
                name={bound}
                inputMode="decimal"
                placeholder={`${symbol.trim()} ${bound === "min" ? t("shop.filters.min") : t("shop.filters.max")}`}
                defaultValue={view[bound]}
                ref={restoreTyped}
                onInput={noteTyped}
                aria-invalid={view.priceError ? true : undefined}
                aria-describedby={view.priceError ? "filter-price-error" : undefined}
                size={7}
              />
            </Fragment>
          ))}
        </div>
        {view.priceError ? (
          <p id="filter-price-error" className="field__error" role="alert">
            {message(view.priceError)}
          </p>
        ) : null}
      </fieldset>
      <div className="product-filters__field product-filters__qc">
        <label className="check">
          <input type="checkbox" name="qc" value="1" defaultChecked={view.qc} />
          {t("shop.filters.withQc")}
        </label>
      </div>
      <div className="product-filters__field">
        <label htmlFor="filter-external">{t("shop.filters.listing")}</label>
        <select id="filter-external" name="external" defaultValue={view.external}>
          {(Object.keys(LISTING_SOURCE_LABELS) as ExternalFilter[]).map((value) => (
            <option key={value} value={value}>
              {listingSourceName(t, value)}
            </option>
          ))}
        </select>
      </div>
      <div className="product-filters__field">
        <label htmlFor="filter-per">{t("shop.filters.perPage")}</label>
        <select id="filter-per" name="per" defaultValue={String(view.per)}>
          {LISTING_PAGE_SIZES.map((size) => (
            <option key={size} value={String(size)}>
              {size}
            </option>
          ))}
        </select>
      </div>
      <div className="product-filters__actions">
        <button type="submit" className="button--secondary">
          {t("shop.filters.apply")}
        </button>
        {active && clearHref ? (
          <PageLink to={clearHref} className="product-filters__clear" preventScrollReset>
            {t("shop.filters.clear", { count: active })}
          </PageLink>
        ) : null}
      </div>
    </Form>
  );
}
