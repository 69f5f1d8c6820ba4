import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useLocation, useRouteError, useSubmit } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import { ProductCard } from "~/components/storefront/product-card";
import { EmptyState } from "~/components/ui/empty-state";
import { ErrorPage } from "~/components/ui/error-page";
import { Pagination } from "~/components/ui/pagination";
import { SubmitButton } from "~/components/ui/submit-button";
import { nullIfNotFound } from "~/lib/api.server";
import { pageMeta } from "~/lib/meta";
import { requireUser } from "~/services/permissions.server";
import { productCards } from "~/controllers/product-page.server";
import { redirectWithToast } from "~/lib/toast.server";
import { collectionBodySchema, collectionsQuerySchema } from "~/schemas/catalogue";
import { COLLECTIONS_PAGE_SIZE } from "~/schemas/catalogue-rules";
import { CATALOGUE_MESSAGES } from "~/schemas/catalogue-messages";
import { uncollect, userCollection } from "~/services/catalogue/collections.server";
import { useT, type Translate } from "~/i18n/i18n";

/** The sort select: one value per sort and order (the default first). */
const SORT_OPTIONS = {
  "date-desc": "Newest first",
  "date-asc": "Oldest first",
  "price-asc": "Price: low to high",
  "price-desc": "Price: high to low",
  "name-asc": "Name: A to Z",
  "name-desc": "Name: Z to A",
} as const;
type SortOption = keyof typeof SORT_OPTIONS;

/** A sort's name in the reader's language. */
function sortOptionName(t: Translate, option: SortOption): string {
  switch (option) {
    case "date-desc":
      return t("shop.collections.sortNewest");
    case "date-asc":
      return t("shop.collections.sortOldest");
    case "price-asc":
      return t("shop.filters.sortPriceAsc");
    case "price-desc":
      return t("shop.filters.sortPriceDesc");
    case "name-asc":
      return t("shop.collections.sortNameAsc");
    case "name-desc":
      return t("shop.collections.sortNameDesc");
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const search = new URL(request.url).searchParams;
  const [sortBy, sortOrder] = (search.get("sort") ?? "").split("-");
  const query = collectionsQuerySchema.parse({
    sortBy: sortBy || undefined,
    sortOrder: sortOrder || undefined,
    page: search.get("page") ?? undefined,
    limit: COLLECTIONS_PAGE_SIZE,
  });
  const list = await userCollection(user, query);
  return {
    sort: `${query.sortBy}-${query.sortOrder}` as SortOption,
    items: (await productCards(list.items)).map((card, index) => ({ ...card, collectedAt: list.items[index].collectedAt })),
    totalItems: list.totalItems,
    page: list.page,
    totalPages: list.totalPages,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  const formData = await request.formData();
  const url = new URL(request.url);
  const back = `/collections${url.search}`;
  if (formData.get("intent") !== "uncollect") throw new Response("Unknown action", { status: 400 });
  const parsed = collectionBodySchema.safeParse({ productId: formData.get("productId") });
  if (!parsed.success) return redirectWithToast(back, { type: "error", message: CATALOGUE_MESSAGES.productIdRequired });
  // a product deleted since the page was drawn has already left the collection
  await nullIfNotFound(uncollect(user, parsed.data.productId));
  return redirectWithToast(back, { message: CATALOGUE_MESSAGES.uncollected });
}

export default function Collections() {
  const data = useLoaderData<typeof loader>();
  const location = useLocation();
  const submit = useSubmit();
  const t = useT();
  return (
    <section aria-labelledby="collections-title" className="listing">
      <header className="listing__header">
        <h1 id="collections-title">{t("shop.collections.title")}</h1>
        <p className="muted">{t("shop.category.products", { count: data.totalItems })}</p>
      </header>
      {data.totalItems === 0 ? (
        <EmptyState title={t("shop.collections.empty")}>
          <p>
            <PageLink to="/search">{t("shop.collections.emptySearch")}</PageLink>
            {` ${t("shop.collections.emptyHint")}`}
          </p>
        </EmptyState>
      ) : (
        <>
          <Form
            method="get"
            className="product-filters"
            key={location.search}
            onChange={(event) => submit(event.currentTarget, { preventScrollReset: true })}
          >
            <div className="product-filters__field">
              <label htmlFor="collection-sort">{t("shop.filters.sortBy")}</label>
              <select id="collection-sort" name="sort" defaultValue={data.sort}>
                {(Object.keys(SORT_OPTIONS) as SortOption[]).map((value) => (
                  <option key={value} value={value}>
                    {sortOptionName(t, value)}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="button--secondary">
              {t("shop.filters.apply")}
            </button>
          </Form>
          <ul className="product-grid" aria-label={t("shop.collections.label")}>
            {data.items.map((item) => (
              <li key={item.id}>
                <ProductCard product={item}>
                  <p className="product-card__note muted">{t("shop.collections.collected", { date: item.collectedAt.slice(0, 10) })}</p>
                  <Form method="post" className="product-card__actions">
                    <input type="hidden" name="productId" value={item.id} />
                    <SubmitButton
                      name="intent"
                      value="uncollect"
                      className="button--secondary button--small"
                      aria-label={t("shop.collections.removeName", { name: item.name })}
                    >
                      {t("shop.collections.remove")}
                    </SubmitButton>
                  </Form>
                </ProductCard>
              </li>
            ))}
          </ul>
          <Pagination currentPage={data.page} totalPages={data.totalPages} searchParams={new URLSearchParams(location.search)} />
        </>
      )}
    </section>
  );
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "shop.collections.title", noindex: true });

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
