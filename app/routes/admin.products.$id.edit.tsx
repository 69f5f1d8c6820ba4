import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { formatDate, formatDateTime } from "~/components/admin/format";
import { ProductForm, ProductImportBox } from "~/components/admin/product-form";
import { productFormAction, productFormLoader, productIdParam } from "~/controllers/admin-product-form.server";
import { pageMeta, rootLanguage } from "~/lib/meta";
import { translatorFor, useI18n, useT } from "~/i18n/i18n";

/** /admin/products/:id/edit (product.edit): a non-numeric id is the invalid-id page. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  productFormLoader(request, { kind: "edit", id: productIdParam(params.id) });
export const action = ({ request, params }: ActionFunctionArgs) =>
  productFormAction(request, { kind: "edit", id: productIdParam(params.id) });

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const t = translatorFor(rootLanguage(matches));
  return pageMeta(matches, {
    title: t("admin.productForm.editPageTitle", { name: data?.product?.name ?? t("admin.productForm.product") }),
    noindex: true,
  });
};

type SameItemRow = {
  id: number;
  name: string;
  priceCny: number | null;
  platform: string | null;
  image: string | null;
  score: number;
  decision: "linked" | "dismissed" | null;
};

/** The decisions the form offers, each where it would change something. */
const SAME_ITEM_CHOICES: Array<{ value: string; key: string; shownWhen: (decision: SameItemRow["decision"]) => boolean }> = [
  { value: "linked", key: "link", shownWhen: (decision) => decision !== "linked" },
  { value: "dismissed", key: "dismiss", shownWhen: (decision) => decision !== "dismissed" },
  { value: "forget", key: "forget", shownWhen: (decision) => decision !== null },
];

/** Listings whose photos match this product's, with staff's word on each (plain forms). */
function ProbablySameItems({ productId, items }: { productId: number; items: SameItemRow[] }) {
  const { t, language } = useI18n();
  const percent = new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 0 });
  return (
    <section id="same-item" className="card" aria-labelledby="same-item-title">
      <h2 id="same-item-title">{t("admin.sameItem.title")}</h2>
      <p className="muted">{t("admin.sameItem.intro")}</p>
      <ul className="same-item-list">
        {items.map((item) => (
          <li key={item.id} className="same-item-list__row">
            {item.image ? <img src={item.image} alt="" width={48} height={48} loading="lazy" /> : null}
            <div>
              <p>
                <strong>{t("admin.sameItem.asN", { n: item.id })}</strong>
                {item.decision ? (
                  <span className={item.decision === "linked" ? "admin-badge admin-badge--success" : "admin-badge"}>
                    {t(`admin.sameItem.${item.decision}`)}
                  </span>
                ) : null}
              </p>
              <p className="muted">
                <Link to={`/admin/products/${item.id}/edit`}>{item.name}</Link>
                {" · "}
                {item.priceCny === null ? "—" : `¥${item.priceCny.toFixed(2)}`}
                {item.platform ? ` · ${item.platform}` : ""}
                {" · "}
                {t("admin.sameItem.match", { percent: percent.format(item.score) })}
              </p>
            </div>
            <Form method="post" action={`/admin/products/${productId}/same-item`} className="same-item-list__actions">
              <input type="hidden" name="other" value={item.id} />
              {SAME_ITEM_CHOICES.filter((choice) => choice.shownWhen(item.decision)).map((choice) => (
                <button
                  key={choice.value}
                  type="submit"
                  name="decision"
                  value={choice.value}
                  className={choice.value === "linked" ? undefined : "button--secondary"}
                  aria-label={t(`admin.sameItem.${choice.key}Label`, { n: item.id })}
                >
                  {t(`admin.sameItem.${choice.key}`)}
                </button>
              ))}
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function EditProduct() {
  const { categories, product, listing, sameItems } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const { t, message } = useI18n();
  if (!product) return null;
  const back = product.isExternal ? "/admin/external-products" : "/admin/products";
  return (
    <div className="admin-page admin-page--narrow">
      <header className="admin-page__header">
        <p>
          <Link to={back}>← {product.isExternal ? t("admin.products.externalTitle") : t("admin.products.localTitle")}</Link>
        </p>
        <h1>{t("admin.productForm.editTitle")}</h1>
        <p className="muted">
          ID {product.id} ·{" "}
          <a href={product.url} target="_blank" rel="noreferrer">
            {t("admin.productForm.viewOnSite")}
          </a>
        </p>
      </header>
      {sameItems.length ? <ProbablySameItems productId={product.id} items={sameItems} /> : null}
      {listing ? (
        <section className="card" aria-labelledby="listing-title">
          <h2 id="listing-title">{t("admin.productForm.listingWatch")}</h2>
          <dl className="admin-facts">
            <dt>{t("admin.productForm.status")}</dt>
            <dd>
              {listing.state?.status === "unavailable"
                ? t("admin.products.unavailableSince", { date: formatDateTime(listing.state.unavailableSince) })
                : listing.state?.checkedAt
                  ? t("admin.productForm.available")
                  : t("admin.products.notChecked")}
            </dd>
            <dt>{t("admin.productForm.lastCheck")}</dt>
            <dd>{formatDateTime(listing.state?.checkedAt)}</dd>
            {listing.state?.lastError ? (
              <>
                <dt>{t("admin.productForm.lastProblem")}</dt>
                <dd>{message(listing.state.lastError)}</dd>
              </>
            ) : null}
            <dt>{t("admin.productForm.pricesSeen")}</dt>
            <dd>
              {listing.history.length
                ? listing.history.map((point) => `¥${point.priceCny.toFixed(2)} (${formatDate(point.recordedAt)})`).join(" ← ")
                : "—"}
            </dd>
          </dl>
          <h3>{t("admin.productForm.deadLinkReports", { n: listing.reports.length })}</h3>
          {listing.reports.length ? (
            <ul className="admin-help">
              {listing.reports.map((report, index) => (
                <li key={index}>
                  {formatDateTime(report.createdAt)} · {report.username ?? t("admin.productForm.visitor")}
                  {report.note ? `: ${report.note}` : ""}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">{t("admin.productForm.noReports")}</p>
          )}
        </section>
      ) : null}
      <ProductForm
        id="edit-product"
        defaults={product}
        categories={categories}
        outcome={outcome}
        submitLabel={t("admin.productForm.save")}
        cancelTo={back}
        importBox={<ProductImportBox outcome={outcome} />}
      />
    </div>
  );
}

export function ErrorBoundary() {
  const t = useT();
  return <AdminErrorPage error={useRouteError()} loadFailed={t("admin.productForm.loadFailed")} />;
}
