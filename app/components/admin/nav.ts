/**
 * The back-office sidebar as data (docs/product/admin.md 2). Each later feature adds its entry
 * here in one line; who sees it is decided on the server with `sidebarRules`, and only
 * the visible entries reach the browser.
 */
import { can, sidebarRules, type Access } from "~/lib/permissions";

/** `label`: the entry's catalogue key (app/i18n/catalogues/en/admin.ts, `admin.nav`) */
export type AdminNavLink = { id: string; label: string; to: string; end?: boolean };
export type AdminNavItem = AdminNavLink | { id: string; label: string; children: AdminNavLink[] };

type Visible = { visible: (access: Access) => boolean };
type NavDefinition = (AdminNavLink & Visible) | ({ id: string; label: string; children: Array<AdminNavLink & Partial<Visible>> } & Visible);

const always = () => true;

export const ADMIN_NAV: NavDefinition[] = [
  { id: "dashboard", label: "admin.nav.dashboard", to: "/admin", end: true, visible: always },
  { id: "users", label: "admin.nav.users", to: "/admin/users", visible: sidebarRules.users },
  { id: "categories", label: "admin.nav.categories", to: "/admin/categories", visible: always },
  {
    id: "products",
    label: "admin.nav.products",
    visible: sidebarRules.products,
    children: [
      { id: "local-products", label: "admin.nav.localProducts", to: "/admin/products" },
      { id: "external-products", label: "admin.nav.externalProducts", to: "/admin/external-products" },
    ],
  },
  {
    id: "blog",
    label: "admin.nav.blog",
    visible: sidebarRules.blog,
    children: [
      { id: "blog-categories", label: "admin.nav.blogCategories", to: "/admin/blog", end: true },
      { id: "blog-posts", label: "admin.nav.blogPosts", to: "/admin/blog/posts" },
      { id: "blog-comments", label: "admin.nav.blogComments", to: "/admin/blog/comments", visible: (a) => can(a, "blog.edit") },
      { id: "blog-settings", label: "admin.nav.blogSettings", to: "/admin/blog/settings", visible: (a) => can(a, "blog.edit") },
    ],
  },
  {
    id: "qc",
    label: "admin.nav.qc",
    visible: sidebarRules.qc,
    children: [
      { id: "qc-manager", label: "admin.nav.qcManager", to: "/admin/qc-manager" },
      // both sub-items for whoever sees QC management (docs/product/admin.md 2); reviewing itself needs qc.review / qc.approve / qc.reject
      { id: "qc-review", label: "admin.nav.qcReview", to: "/admin/qc-review" },
    ],
  },
  { id: "email", label: "admin.nav.email", to: "/admin/email-management", visible: sidebarRules.email },
  {
    id: "system",
    label: "admin.nav.system",
    visible: sidebarRules.system,
    children: [
      { id: "currency-settings", label: "admin.nav.currencySettings", to: "/admin/currency-settings" },
      { id: "product-display", label: "admin.nav.productDisplay", to: "/admin/product-display-settings" },
      { id: "agents", label: "admin.nav.agents", to: "/admin/agents" },
      { id: "site-settings", label: "admin.nav.siteSettings", to: "/admin/site-settings" },
      { id: "settings", label: "admin.nav.settings", to: "/admin/settings" },
    ],
  },
];

/** The entries this user may see, as plain data. */
export function visibleNav(access: Access): AdminNavItem[] {
  const items: AdminNavItem[] = [];
  for (const item of ADMIN_NAV) {
    if (!item.visible(access)) continue;
    if ("children" in item) {
      const children = item.children
        .filter((child) => child.visible?.(access) ?? true)
        .map(({ id, label, to, end }) => ({ id, label, to, end }));
      if (children.length > 0) items.push({ id: item.id, label: item.label, children });
    } else {
      items.push({ id: item.id, label: item.label, to: item.to, end: item.end });
    }
  }
  return items;
}
