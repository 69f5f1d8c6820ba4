/**
 * Roles and permissions, client-safe: names, labels and the pure rules the sidebar and
 * the server share. The server side (who holds what) is permissions.server.ts.
 */

export const PERMISSIONS = [
  "product.create",
  "product.edit",
  "product.delete",
  "blog.create",
  "blog.edit",
  "blog.delete",
  "blog.publish",
  "blog.manage_categories",
  "user.create",
  "user.edit",
  "user.delete",
  "qc.upload",
  "qc.review",
  "qc.approve",
  "qc.reject",
  "qc.delete",
  "qc.manage",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const ROLES = ["super_admin", "admin"] as const;
export type RoleName = (typeof ROLES)[number];

export type UserType = "super_admin" | "admin" | "user";

export const USER_TYPE_LABELS: Record<UserType, string> = {
  super_admin: "Super admin",
  admin: "Admin",
  user: "User",
};

/** What the server knows about one user's access (GET /api/auth/permissions). */
export type Access = {
  userType: UserType;
  roles: Array<{ id: number; name: string; description: string }>;
  directPermissions: Array<{ id: number; name: string; description: string }>;
  allPermissions: string[];
  hasAdminAccess: boolean;
};

/** super_admin by role; admin by the admin role or the is_admin flag; else user. */
export function userTypeOf(roleNames: readonly string[], isAdmin: boolean): UserType {
  if (roleNames.includes("super_admin")) return "super_admin";
  return roleNames.includes("admin") || isAdmin ? "admin" : "user";
}

export function can(access: Pick<Access, "allPermissions">, permission: Permission): boolean {
  return access.allPermissions.includes(permission);
}

export function canAny(access: Pick<Access, "allPermissions">, permissions: readonly Permission[]): boolean {
  return permissions.some((permission) => access.allPermissions.includes(permission));
}

const hasRole = (access: Pick<Access, "roles">, role: RoleName) => access.roles.some((r) => r.name === role);

export const isSuperAdmin = (access: Pick<Access, "roles">) => hasRole(access, "super_admin");

/** Permission groups shown in the permission dialog. */
export const PERMISSION_GROUPS: Array<{ label: string; prefix: string }> = [
  { label: "Products", prefix: "product." },
  { label: "Blog", prefix: "blog." },
  { label: "QC", prefix: "qc." },
  { label: "Users", prefix: "user." },
];

/**
 * QC actions (docs/product/storefront.md 6, docs/product/admin.md 6): upload needs qc.upload; review
 * needs qc.review, qc.approve or qc.reject (approving: qc.review or qc.approve;
 * rejecting: qc.review or qc.reject); delete needs qc.delete; qc.manage covers all.
 */
export const QC_PERMISSIONS = {
  upload: ["qc.upload", "qc.manage"],
  review: ["qc.review", "qc.approve", "qc.reject", "qc.manage"],
  approve: ["qc.review", "qc.approve", "qc.manage"],
  reject: ["qc.review", "qc.reject", "qc.manage"],
  delete: ["qc.delete", "qc.manage"],
} as const satisfies Record<string, readonly Permission[]>;

/** Staff whose QC photos are published at once (a shopper's wait for review). */
export function publishesQc(access: Pick<Access, "allPermissions" | "hasAdminAccess">): boolean {
  return access.hasAdminAccess && canAny(access, QC_PERMISSIONS.upload);
}

/** Sidebar rules of docs/product/admin.md section 2. */
export const sidebarRules = {
  users: (a: Access) => isSuperAdmin(a),
  products: (a: Access) => canAny(a, ["product.create", "product.edit", "product.delete"]) || a.userType !== "user",
  blog: (a: Access) => a.allPermissions.some((p) => p.startsWith("blog.")),
  qc: (a: Access) => a.allPermissions.some((p) => p.startsWith("qc.")) || hasRole(a, "admin") || isSuperAdmin(a),
  // super_admin and admin: the admin role or the is_admin flag (docs/product/admin.md 6: "is_admin
  // grants access to the admin area and management actions")
  email: (a: Access) => a.userType === "super_admin" || a.userType === "admin",
  system: (a: Access) => isSuperAdmin(a),
};
