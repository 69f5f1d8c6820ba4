import { Form, useSubmit } from "@remix-run/react";
import { SEARCH_SORT_LABELS, type SearchSort } from "~/schemas/catalogue-rules";

export type ExternalFilter = "" | "local" | "external";
export type CategoryOption = { id: number; name: string; depth: number };

const EXTERNAL_LABELS: Record<ExternalFilter, string> = { "": "All products", local: "Local only", external: "External only" };

/**
 * The filters of a product list: a GET form that works without JavaScript (the Apply
 * button); with JavaScript a change submits it at once. The page number is left out, so
 * a new filter starts at page 1.
 */
export function ProductFilters({
  hidden = {},
  sorts,
  sort,
  external,
  categories,
  category = "",
}: {
  hidden?: Record<string, string>;
  sorts: readonly SearchSort[];
  sort: SearchSort;
  external: ExternalFilter;
  categories?: CategoryOption[];
  category?: string;
}) {
  const submit = useSubmit();
  return (
    <Form
      method="get"
      className="product-filters"
      aria-label="Filters"
      onChange={(event) => submit(event.currentTarget, { preventScrollReset: true })}
    >
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {categories ? (
        <div className="product-filters__field">
          <label htmlFor="filter-category">Category</label>
          <select id="filter-category" name="category" defaultValue={category}>
            <option value="">All categories</option>
            {categories.map((option) => (
              <option key={option.id} value={String(option.id)}>
                {`${"— ".repeat(option.depth)}${option.name}`}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="product-filters__field">
        <label htmlFor="filter-sort">Sort by</label>
        <select id="filter-sort" name="sort" defaultValue={sort}>
          {sorts.map((value) => (
            <option key={value} value={value}>
              {SEARCH_SORT_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
      <div className="product-filters__field">
        <label htmlFor="filter-external">Source</label>
        <select id="filter-external" name="external" defaultValue={external}>
          {(Object.keys(EXTERNAL_LABELS) as ExternalFilter[]).map((value) => (
            <option key={value} value={value}>
              {EXTERNAL_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button--secondary">
        Apply
      </button>
    </Form>
  );
}
