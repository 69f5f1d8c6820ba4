import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation, useRouteError } from "@remix-run/react";
import { AdminErrorPage } from "~/components/admin/admin-error";
import { log } from "~/lib/log.server";
import { pageMeta } from "~/lib/meta";
import { requireAdmin, adminAction } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { isTrue } from "~/schemas/site-settings";
import { loadSettings } from "~/services/site-settings.server";
import { ForbiddenError } from "~/lib/api.server";
import { saveSettingsByAdmin, MANAGE_SETTINGS } from "~/services/site-tools.server";

const PAGE = "/admin/product-display-settings";
const MESSAGES = { saved: "外部商品显示设置已保存", saveFailed: "保存外部商品显示设置时出错" } as const;

/** /admin/product-display-settings (super admin): show or hide external products on the storefront. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, MANAGE_SETTINGS);
  const settings = await loadSettings();
  return { showExternal: isTrue(settings.show_external_products) };
}

export const action = ({ request }: ActionFunctionArgs) =>
  adminAction(
    request,
    async (actor) => {
      const formData = await request.formData();
      // a hidden "false" comes first; a ticked box adds "true"
      const show = formData.getAll("show_external_products").includes("true");
      try {
        await saveSettingsByAdmin({ show_external_products: show ? "true" : "false" }, actor);
      } catch (error) {
        if (error instanceof ForbiddenError) throw error;
        log.error(`saving show_external_products failed: ${(error as Error).message}`);
        return redirectWithToast(PAGE, { type: "error", message: MESSAGES.saveFailed });
      }
      return redirectWithToast(PAGE, { message: MESSAGES.saved });
    },
    MANAGE_SETTINGS,
  );

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "Product display · Admin", noindex: true });

const AFFECTED = ["Home page recommendations", "Hot products", "Search results", "Category lists"];

export default function ProductDisplaySettings() {
  const { showExternal } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formAction === PAGE;
  return (
    <div className="admin-page">
      <header className="admin-page__header">
        <p>
          <Link to="/admin/settings">← Admin settings</Link>
        </p>
        <h1>Product display</h1>
        <p className="muted">Decide whether products imported from the marketplaces appear in the storefront's lists.</p>
      </header>

      <section className="card" aria-labelledby="external-visibility">
        <h2 id="external-visibility">External products</h2>
        <Form method="post" action={PAGE} className="admin-switch-form">
          <input type="hidden" name="show_external_products" value="false" />
          <label className="admin-switch">
            <input
              type="checkbox"
              name="show_external_products"
              value="true"
              defaultChecked={showExternal}
              // with JavaScript the switch saves at once; without it, the button below does
              onChange={(event) => event.currentTarget.form?.requestSubmit()}
            />
            <span>Show external products on the storefront</span>
          </label>
          <p className="muted" aria-live="polite">
            {saving ? "Saving…" : showExternal ? "External products are shown." : "External products are hidden."}
          </p>
          <div className="form-actions">
            <button type="submit" className="button button--secondary">
              Save
            </button>
          </div>
        </Form>
        <h3>What this changes</h3>
        <ul className="admin-help">
          {AFFECTED.map((page) => (
            <li key={page}>{page}</li>
          ))}
        </ul>
        <p className="muted">
          A direct link to a product (or a lookup by its marketplace item id) always shows it. The admin product pages are never affected.
        </p>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed="加载设置失败" />;
}
