/**
 * The back-office sidebar as data (docs/product/admin.md 2). Each later feature adds its entry
 * here in one line; who sees it is decided on the server with `sidebarRules`, and only
 * the visible entries reach the browser.
 */
import { can, sidebarRules, type Access } from "~/lib/permissions";

export type AdminNavLink = { id: string; label: string; to: string; end?: boolean };
export type AdminNavItem = AdminNavLink | { id: string; label: string; children: AdminNavLink[] };

type Visible = { visible: (access: Access) => boolean };
type NavDefinition = (AdminNavLink & Visible) | ({ id: string; label: string; children: Array<AdminNavLink & Partial<Visible>> } & Visible);

const always = () => true;

export const ADMIN_NAV: NavDefinition[] = [
  { id: "dashboard", label: "Dashboard", to: "/admin", end: true, visible: always },
  { id: "users", label: "User management", to: "/admin/users", visible: sidebarRules.users },
  { id: "categories", label: "Category management", to: "/admin/categories", visible: always },
  {
    id: "products",
    label: "Product management",
    visible: sidebarRules.products,
    children: [
      { id: "local-products", label: "Local products", to: "/admin/products" },
      { id: "external-products", label: "External products", to: "/admin/external-products" },
    ],
  },
  {
    id: "blog",
    label: "Blog management",
    visible: sidebarRules.blog,
    children: [
      { id: "blog-categories", label: "Blog categories", to: "/admin/blog", end: true },
      { id: "blog-posts", label: "Blog posts", to: "/admin/blog/posts" },
      { id: "blog-comments", label: "Comments", to: "/admin/blog/comments", visible: (a) => can(a, "blog.edit") },
      { id: "blog-settings", label: "Blog settings", to: "/admin/blog/settings", visible: (a) => can(a, "blog.edit") },
    ],
  },
  {
    id: "qc",
    label: "QC management",
    visible: sidebarRules.qc,
    children: [
      { id: "qc-manager", label: "QC file management", to: "/admin/qc-manager" },
      // both sub-items for whoever sees QC management (docs/product/admin.md 2); reviewing itself needs qc.review / qc.approve / qc.reject
      { id: "qc-review", label: "QC image review", to: "/admin/qc-review" },
    ],
  },
  { id: "email", label: "Email marketing", to: "/admin/email-management", visible: sidebarRules.email },
  {
    id: "system",
    label: "System settings",
    visible: sidebarRules.system,
    children: [
      { id: "currency-settings", label: "Exchange rates", to: "/admin/currency-settings" },
      { id: "product-display", label: "Product display", to: "/admin/product-display-settings" },
      { id: "agents", label: "Shopping agents", to: "/admin/agents" },
      { id: "site-settings", label: "Site settings", to: "/admin/site-settings" },
      { id: "settings", label: "Admin settings", to: "/admin/settings" },
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
