import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteError } from "@remix-run/react";
import { ErrorPage } from "~/components/ui/error-page";
import { can, canAny, isSuperAdmin, QC_PERMISSIONS, sidebarRules } from "~/lib/permissions";
import { pageMeta } from "~/lib/meta";
import { requireAdmin } from "~/services/permissions.server";
import { USER_MANAGEMENT_PERMISSIONS } from "~/schemas/admin-users";
import { getAppVersion } from "~/services/site-tools.server";
import { blogDashboardCounts } from "~/services/blog/sitemap.server";
import { catalogueCounts } from "~/services/catalogue/products.server";
import { countUsersForDashboard } from "~/services/users.server";
import { useT } from "~/i18n/i18n";

type CountCard = { id: string; label: string; value: number; to: string };
type QuickAction = { id: string; label: string; to: string };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, access } = await requireAdmin(request);
  const canSeeUsers = canAny(access, USER_MANAGEMENT_PERMISSIONS);

  // One entry per list the back office has, each linking to its list.
  const cards: CountCard[] = [];
  if (canSeeUsers) {
    const counts = await countUsersForDashboard();
    cards.push({ id: "users", label: "admin.dashboard.totalUsers", value: counts.all, to: "/admin/users" });
  }
  const catalogue = await catalogueCounts();
  const canSeeProducts = sidebarRules.products(access);
  if (canSeeProducts)
    cards.push({ id: "local-products", label: "admin.dashboard.localProducts", value: catalogue.local, to: "/admin/products" });
  cards.push({ id: "categories", label: "admin.dashboard.totalCategories", value: catalogue.categories, to: "/admin/categories" });
  if (canSeeProducts)
    cards.push({
      id: "external-products",
      label: "admin.dashboard.externalProducts",
      value: catalogue.external,
      to: "/admin/external-products",
    });
  const canSeeQc = sidebarRules.qc(access);
  const canReviewQc = canAny(access, QC_PERMISSIONS.review);
  // the spec's four count cards stay four; QC has its own panel
  const qc = canSeeQc ? { approved: catalogue.qcApproved, pending: catalogue.qcPending, canReview: canReviewQc } : null;

  // the blog has its own box (the spec's four count cards stay as they are)
  const blog = sidebarRules.blog(access) ? { ...(await blogDashboardCounts()), moderates: can(access, "blog.edit") } : null;

  const actions: QuickAction[] = [];
  if (can(access, "product.create")) actions.push({ id: "add-product", label: "admin.dashboard.addProduct", to: "/admin/products/new" });
  if (can(access, "product.create"))
    actions.push({ id: "add-category", label: "admin.dashboard.addCategory", to: "/admin/categories?modal=create" });
  if (canSeeProducts) actions.push({ id: "external-products", label: "admin.dashboard.externalProducts", to: "/admin/external-products" });
  if (canReviewQc) actions.push({ id: "qc-review", label: "admin.dashboard.reviewQc", to: "/admin/qc-review" });
  if (can(access, "blog.create")) actions.push({ id: "new-post", label: "admin.dashboard.writePost", to: "/admin/blog/posts/new" });
  if (canSeeUsers) actions.push({ id: "users", label: "admin.dashboard.manageUsers", to: "/admin/users" });
  if (access.allPermissions.includes("user.create")) {
    actions.push({ id: "create-user", label: "admin.dashboard.createUser", to: "/admin/users?modal=create" });
  }
  if (isSuperAdmin(access)) actions.push({ id: "site-settings", label: "admin.dashboard.siteSettings", to: "/admin/site-settings" });

  return {
    username: user.username,
    cards,
    actions,
    seoTools: isSuperAdmin(access),
    qc,
    blog,
    version: `v${getAppVersion()}`,
  };
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.dashboard.title", noindex: true });

export default function AdminDashboard() {
  const data = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <div className="admin-page">
      <header className="admin-page__header">
        <h1>{t("admin.dashboard.heading")}</h1>
        <p className="muted">{t("admin.dashboard.welcome", { name: data.username })}</p>
      </header>

      {data.cards.length > 0 ? (
        <ul className="admin-cards" aria-label={t("admin.dashboard.counts")}>
          {data.cards.map((card) => (
            <li key={card.id}>
              <Link to={card.to} className="admin-card">
                <span className="admin-card__label">{t(card.label)}</span>
                <span className="admin-card__value">{card.value}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}

      <div className="admin-grid">
        <section className="card" aria-labelledby="quick-actions">
          <h2 id="quick-actions">{t("admin.dashboard.quickActions")}</h2>
          {data.actions.length > 0 ? (
            <ul className="admin-actions">
              {data.actions.map((action) => (
                <li key={action.id}>
                  <Link to={action.to} className="button button--secondary">
                    {t(action.label)}
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">{t("admin.dashboard.noActions")}</p>
          )}
        </section>

        {data.qc ? (
          <section className="card" aria-labelledby="qc-summary">
            <h2 id="qc-summary">{t("admin.dashboard.qcPhotos")}</h2>
            <dl className="admin-facts">
              <dt>{t("admin.dashboard.approved")}</dt>
              <dd>
                <Link to="/admin/qc-manager">{data.qc.approved}</Link>
              </dd>
              <dt>{t("admin.dashboard.waitingReview")}</dt>
              <dd>
                <Link to="/admin/qc-review">{data.qc.pending}</Link>
              </dd>
            </dl>
          </section>
        ) : null}

        {data.blog ? (
          <section className="card" aria-labelledby="blog-box">
            <h2 id="blog-box">{t("admin.dashboard.blog")}</h2>
            <ul className="admin-links">
              <li>
                <Link to="/admin/blog/posts?status=published">{t("admin.dashboard.publishedPosts", { count: data.blog.published })}</Link>
              </li>
              {data.blog.moderates ? (
                <li>
                  <Link to="/admin/blog/comments">{t("admin.dashboard.commentsToModerate", { count: data.blog.pendingComments })}</Link>
                </li>
              ) : null}
            </ul>
          </section>
        ) : null}

        <section className="card" aria-labelledby="seo">
          <h2 id="seo">{t("admin.dashboard.seo")}</h2>
          <p className="muted">{t("admin.dashboard.seoText")}</p>
          <ul className="admin-links">
            <li>
              <a href="/sitemap.xml" target="_blank" rel="noreferrer">
                /sitemap.xml
              </a>
            </li>
            <li>
              <a href="/robots.txt" target="_blank" rel="noreferrer">
                /robots.txt
              </a>
            </li>
            {data.seoTools ? (
              <li>
                <Link to="/admin/site-settings?tab=tools">{t("admin.dashboard.seoTools")}</Link>
              </li>
            ) : null}
          </ul>
        </section>

        <section className="card" aria-labelledby="system-info">
          <h2 id="system-info">{t("admin.dashboard.systemInfo")}</h2>
          <dl className="admin-facts">
            <dt>{t("admin.dashboard.version")}</dt>
            <dd>
              <span className="admin-badge">{data.version}</span>
            </dd>
          </dl>
        </section>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
