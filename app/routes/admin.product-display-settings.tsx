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
import { translatorOf } from "~/i18n/i18n.server";
import { useT } from "~/i18n/i18n";

const PAGE = "/admin/product-display-settings";

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
      const t = translatorOf(request);
      try {
        await saveSettingsByAdmin({ show_external_products: show ? "true" : "false" }, actor);
      } catch (error) {
        if (error instanceof ForbiddenError) throw error;
        log.error(`saving show_external_products failed: ${(error as Error).message}`);
        return redirectWithToast(PAGE, { type: "error", message: t("admin.display.saveFailed") });
      }
      return redirectWithToast(PAGE, { message: t("admin.display.saved") });
    },
    MANAGE_SETTINGS,
  );

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.display.pageTitle", noindex: true });

export default function ProductDisplaySettings() {
  const { showExternal } = useLoaderData<typeof loader>();
  const t = useT();
  const affected = [t("admin.display.home"), t("admin.display.hot"), t("admin.display.search"), t("admin.display.categories")];
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formAction === PAGE;
  return (
    <div className="admin-page">
      <header className="admin-page__header">
        <p>
          <Link to="/admin/settings">← {t("admin.nav.settings")}</Link>
        </p>
        <h1>{t("admin.nav.productDisplay")}</h1>
        <p className="muted">{t("admin.display.intro")}</p>
      </header>

      <section className="card" aria-labelledby="external-visibility">
        <h2 id="external-visibility">{t("admin.products.externalTitle")}</h2>
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
            <span>{t("admin.display.show")}</span>
          </label>
          <p className="muted" aria-live="polite">
            {saving ? t("admin.common.saving") : showExternal ? t("admin.display.shown") : t("admin.display.hidden")}
          </p>
          <div className="form-actions">
            <button type="submit" className="button button--secondary">
              {t("admin.common.save")}
            </button>
          </div>
        </Form>
        <h3>{t("admin.display.changes")}</h3>
        <ul className="admin-help">
          {affected.map((page) => (
            <li key={page}>{page}</li>
          ))}
        </ul>
        <p className="muted">{t("admin.display.note")}</p>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <AdminErrorPage error={useRouteError()} loadFailed="加载设置失败" />;
}
