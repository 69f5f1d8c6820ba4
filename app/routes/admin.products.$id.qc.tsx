import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { AdminQcImages, AdminQcUpload, QcDeleteDialogs } from "~/components/admin/qc-images";
import { adminImagesOf, qcAllowed, qcImagesAction, requireQcViewer } from "~/controllers/admin-qc.server";
import { productIdParam } from "~/controllers/admin-product-form.server";
import { pageMeta, rootLanguage } from "~/lib/meta";
import { translatorFor, useT } from "~/i18n/i18n";
import { QC_MESSAGES as M } from "~/schemas/qc-rules";
import { productPath } from "~/services/catalogue/common.server";
import { getProduct } from "~/services/catalogue/products.server";
import { orNotFound } from "~/controllers/product-page.server";

/** /admin/products/:id/qc (docs/product/admin.md 2): the upload area and the product's QC photos. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { access } = await requireQcViewer(request);
  const id = productIdParam(params.id);
  const product = await orNotFound(getProduct(id));
  const images = await adminImagesOf(product.id);
  const url = new URL(request.url);
  const allowed = qcAllowed(access);
  const confirmId = Number(url.searchParams.get("imageId"));
  const confirmOne =
    url.searchParams.get("modal") === "delete" && allowed.delete ? (images.find((image) => image.id === confirmId) ?? null) : null;
  return {
    product: { id: product.id, name: product.name, isExternal: product.isExternal, url: productPath(product) },
    images,
    allowed,
    confirmOne,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  // who is asking, before the form is read
  const actor = await requireQcViewer(request);
  const id = productIdParam(params.id);
  await orNotFound(getProduct(id));
  return qcImagesAction(request, actor, { productId: id, back: `/admin/products/${id}/qc`, clientIp: String(context.clientIp ?? "") });
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const t = translatorFor(rootLanguage(matches));
  return pageMeta(matches, {
    title: t("admin.productQc.pageTitle", { name: data?.product.name ?? t("admin.productForm.product") }),
    noindex: true,
  });
};

export default function ProductQcPage() {
  const { product, images, allowed, confirmOne } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  const self = `/admin/products/${product.id}/qc`;
  const pending = images.filter((image) => image.status === "pending").length;
  return (
    <div className="admin-page">
      <header className="admin-page__header">
        <p>
          <Link to={product.isExternal ? "/admin/external-products" : "/admin/products"}>
            ← {product.isExternal ? t("admin.products.externalTitle") : t("admin.products.localTitle")}
          </Link>
        </p>
        <h1>{t("admin.productQc.title", { name: product.name })}</h1>
        <p className="muted">
          ID {product.id} · {t("admin.productQc.counts", { approved: images.length - pending, pending })} ·{" "}
          <a href={product.url} target="_blank" rel="noreferrer">
            {t("admin.productForm.viewOnSite")}
          </a>{" "}
          · <Link to={`/admin/products/${product.id}/edit`}>{t("admin.productForm.editTitle")}</Link>
          {pending && allowed.review ? (
            <>
              {" "}
              · <Link to="/admin/qc-review">{t("admin.productQc.reviewPending")}</Link>
            </>
          ) : null}
        </p>
      </header>

      {allowed.upload ? (
        <section className="card" aria-labelledby="qc-upload-title">
          <h2 id="qc-upload-title">{t("admin.productQc.upload")}</h2>
          <AdminQcUpload action={self} errors={actionData && "errors" in actionData ? actionData.errors : []} />
        </section>
      ) : null}

      <section className="card" aria-labelledby="qc-images-title">
        <h2 id="qc-images-title">{t("admin.productQc.current", { n: images.length })}</h2>
        <AdminQcImages
          images={images}
          canDelete={allowed.delete}
          action={self}
          returnTo={self}
          deleteHref={(imageId) => `${self}?modal=delete&imageId=${imageId}`}
          error={actionData && "error" in actionData ? actionData.error : null}
        />
      </section>

      <QcDeleteDialogs
        action={self}
        closeTo={self}
        confirmOne={confirmOne}
        confirmSelection={actionData && "confirm" in actionData ? actionData.confirm.ids : null}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed={M.loadImagesFailed} />;
}
