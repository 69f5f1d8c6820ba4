import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteError } from "@remix-run/react";
import { ErrorPage } from "~/components/ui/error-page";
import { can, canAny, isSuperAdmin, QC_PERMISSIONS, sidebarRules } from "~/lib/permissions";
import { pageMeta } from "~/lib/meta";
import { requireAdmin } from "~/services/permissions.server";
import { USER_MANAGEMENT_PERMISSIONS } from "~/schemas/admin-users";
import { getAppVersion } from "~/services/site-tools.server";
import { blogDashboardCounts } from "~/services/blog.server";
import { catalogueCounts } from "~/services/catalogue.server";
import { countUsersForDashboard } from "~/services/users.server";

type CountCard = { id: string; label: string; value: number; to: string };
type QuickAction = { id: string; label: string; to: string };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, access } = await requireAdmin(request);
  const canSeeUsers = canAny(access, USER_MANAGEMENT_PERMISSIONS);

  // One entry per list the back office has, each linking to its list.
  const cards: CountCard[] = [];
  if (canSeeUsers) {
    const counts = await countUsersForDashboard();
    cards.push({ id: "users", label: "Total users", value: counts.all, to: "/admin/users" });
  }
  const catalogue = await catalogueCounts();
  const canSeeProducts = sidebarRules.products(access);
  if (canSeeProducts) cards.push({ id: "local-products", label: "Local products", value: catalogue.local, to: "/admin/products" });
  cards.push({ id: "categories", label: "Total categories", value: catalogue.categories, to: "/admin/categories" });
  if (canSeeProducts)
    cards.push({ id: "external-products", label: "External products", value: catalogue.external, to: "/admin/external-products" });
  const canSeeQc = sidebarRules.qc(access);
  const canReviewQc = canAny(access, QC_PERMISSIONS.review);
  // the spec's four count cards stay four; QC has its own panel
  const qc = canSeeQc ? { approved: catalogue.qcApproved, pending: catalogue.qcPending, canReview: canReviewQc } : null;

  // the blog has its own box (the spec's four count cards stay as they are)
  const blog = sidebarRules.blog(access) ? { ...(await blogDashboardCounts()), moderates: can(access, "blog.edit") } : null;

  const actions: QuickAction[] = [];
  if (can(access, "product.create")) actions.push({ id: "add-product", label: "Add product", to: "/admin/products/new" });
  if (can(access, "product.create")) actions.push({ id: "add-category", label: "Add category", to: "/admin/categories?modal=create" });
  if (canSeeProducts) actions.push({ id: "external-products", label: "External products", to: "/admin/external-products" });
  if (canReviewQc) actions.push({ id: "qc-review", label: "Review QC photos", to: "/admin/qc-review" });
  if (can(access, "blog.create")) actions.push({ id: "new-post", label: "Write a blog post", to: "/admin/blog/posts/new" });
  if (canSeeUsers) actions.push({ id: "users", label: "Manage users", to: "/admin/users" });
  if (access.allPermissions.includes("user.create")) {
    actions.push({ id: "create-user", label: "Create a user", to: "/admin/users?modal=create" });
  }
  if (isSuperAdmin(access)) actions.push({ id: "site-settings", label: "Site settings", to: "/admin/site-settings" });

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

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "Dashboard · Admin", noindex: true });

export default function AdminDashboard() {
  const data = useLoaderData<typeof loader>();
  return (
    <div className="admin-page">
      <header className="admin-page__header">
        <h1>Dashboard</h1>
        <p className="muted">Welcome, {data.username}.</p>
      </header>

      {data.cards.length > 0 ? (
        <ul className="admin-cards" aria-label="Counts">
          {data.cards.map((card) => (
            <li key={card.id}>
              <Link to={card.to} className="admin-card">
                <span className="admin-card__label">{card.label}</span>
                <span className="admin-card__value">{card.value}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}

      <div className="admin-grid">
        <section className="card" aria-labelledby="quick-actions">
          <h2 id="quick-actions">Quick actions</h2>
          {data.actions.length > 0 ? (
            <ul className="admin-actions">
              {data.actions.map((action) => (
                <li key={action.id}>
                  <Link to={action.to} className="button button--secondary">
                    {action.label}
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No actions are available to your account yet.</p>
          )}
        </section>

        {data.qc ? (
          <section className="card" aria-labelledby="qc-summary">
            <h2 id="qc-summary">QC photos</h2>
            <dl className="admin-facts">
              <dt>Approved</dt>
              <dd>
                <Link to="/admin/qc-manager">{data.qc.approved}</Link>
              </dd>
              <dt>Waiting for review</dt>
              <dd>
                <Link to="/admin/qc-review">{data.qc.pending}</Link>
              </dd>
            </dl>
          </section>
        ) : null}

        {data.blog ? (
          <section className="card" aria-labelledby="blog-box">
            <h2 id="blog-box">Blog</h2>
            <ul className="admin-links">
              <li>
                <Link to="/admin/blog/posts?status=published">{`${data.blog.published} published post${data.blog.published === 1 ? "" : "s"}`}</Link>
              </li>
              {data.blog.moderates ? (
                <li>
                  <Link to="/admin/blog/comments">{`${data.blog.pendingComments} comment${data.blog.pendingComments === 1 ? "" : "s"} to moderate`}</Link>
                </li>
              ) : null}
            </ul>
          </section>
        ) : null}

        <section className="card" aria-labelledby="seo">
          <h2 id="seo">SEO</h2>
          <p className="muted">The sitemap and robots.txt are built on every request from the current settings.</p>
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
                <Link to="/admin/site-settings?tab=tools">Generate the sitemap or test robots.txt</Link>
              </li>
            ) : null}
          </ul>
        </section>

        <section className="card" aria-labelledby="system-info">
          <h2 id="system-info">System info</h2>
          <dl className="admin-facts">
            <dt>Version</dt>
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
