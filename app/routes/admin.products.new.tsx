import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { ProductForm, ProductImportBox } from "~/components/admin/product-form";
import { productFormAction, productFormLoader } from "~/controllers/admin-product-form.server";
import { pageMeta } from "~/lib/meta";
import { useT } from "~/i18n/i18n";

/** /admin/products/new (product.create). */
export const loader = ({ request }: LoaderFunctionArgs) => productFormLoader(request, { kind: "create" });
export const action = ({ request }: ActionFunctionArgs) => productFormAction(request, { kind: "create" });

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.productForm.newPageTitle", noindex: true });

export default function NewProduct() {
  const { categories } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const t = useT();
  return (
    <div className="admin-page admin-page--narrow">
      <header className="admin-page__header">
        <p>
          <Link to="/admin/products">← {t("admin.products.localTitle")}</Link>
        </p>
        <h1>{t("admin.products.add")}</h1>
      </header>
      <ProductForm
        id="new-product"
        defaults={null}
        categories={categories}
        outcome={outcome}
        submitLabel={t("admin.productForm.create")}
        cancelTo="/admin/products"
        importBox={<ProductImportBox outcome={outcome} />}
      />
    </div>
  );
}

export function ErrorBoundary() {
  const t = useT();
  return <AdminErrorPage error={useRouteError()} loadFailed={t("admin.productForm.formLoadFailed")} />;
}
