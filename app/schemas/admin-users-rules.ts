/** Admin user-management limits and messages (docs/product/admin.md 5, 8, 9): zod-free, client-safe. */
import type { UserType } from "~/lib/permissions";

export const USERS_PAGE_SIZE = 10;
export const PAGE_WINDOW = 5;
/** Most users one batch may create (one request stays short). */
export const BATCH_MAX = 200;

/** Seeing the user list = any of these (docs/product/admin.md 6: manage users). */
export const USER_MANAGEMENT_PERMISSIONS = ["user.create", "user.edit", "user.delete"] as const;

export const USER_TYPE_FILTERS = ["all", "admin", "regular"] as const;
export type UserTypeFilterValue = (typeof USER_TYPE_FILTERS)[number];

export const ADMIN_MESSAGES = {
  noChanges: "no changes made",
  saveConfirm: "Are you sure you want to save these changes? Modified fields take effect immediately",
  confirmRequired: "Please confirm before saving",
  passwordMin: "密码长度至少6位字符",
  passwordMismatch: "The two passwords do not match",
  passwordResetConfirm: "Reset this user's password? It takes effect immediately.",
  batchEmpty: "please enter user data",
  batchFormat: "invalid user data format",
  userNotFound: "User not found or already deleted",
  roleNotFound: "Role not found",
  permissionNotFound: "Permission not found",
  roleNotHeld: "The user does not hold this role",
  permissionNotHeld: "The user does not hold this permission",
  invalidRole: "Roles can only be super_admin or admin",
  onlySuperAdminGrants: "Only a super admin can grant the super_admin role",
  onlySuperAdminAssignsRoles: "Only a super admin can assign roles",
  cannotManageSuperAdmin: "Only a super admin can change a super admin",
  cannotManageAdmin: "Only a super admin can change another administrator",
  onlySuperAdminSetsAdmin: "Only a super admin can grant or remove administrator access",
  onlySuperAdminGrantsPermissions: "Only a super admin can grant or revoke permissions",
  cannotDeleteSelf: "You cannot delete your own account",
  cannotDemoteSelf: "You cannot remove your own administrator access",
  lastSuperAdmin: "The last super admin cannot be removed",
  hasLinkedData: "The user still has linked data and cannot be deleted",
  expiryInPast: "The expiry time must be in the future",
  ordinaryUsersNeedNoPermissions: "Ordinary users do not need management permissions.",
  loadFailed: "获取用户数据失败",
  updateFailed: "更新用户失败",
  resetFailed: "重置密码失败",
  invalidUserData: "接收到无效的用户数据结构",
  batchTooMany: `At most ${BATCH_MAX} users per batch`,
  created: "User created successfully",
  createFailed: "Failed to create user",
  updated: "User updated successfully",
  deleted: "User deleted successfully",
  deleteFailed: "Failed to delete user",
  passwordReset: "Password reset successfully",
  roleAssigned: "Role assigned successfully",
  roleAssignFailed: "Failed to assign role",
  roleRevoked: "Role revoked successfully",
  roleRevokeFailed: "Failed to revoke role",
  permissionGranted: "Permission granted successfully",
  permissionGrantFailed: "Failed to grant permission",
  permissionRevoked: "Permission revoked successfully",
  permissionRevokeFailed: "Failed to revoke permission",
  neverLoggedIn: "never logged in",
  superAdminHoldsAll: "Super admins hold every permission.",
} as const;

/** The batch summary of docs/product/admin.md 8. */
export const batchSummary = (success: number, failed: number) => `success ${success}, failed ${failed}`;

/** A role or a permission as the back office shows it. */
export type RoleJson = { id: number; name: string; description: string };

/** What the permission dialog shows of a user (the server makes it; the dialog only shows it). */
export type PermissionDialogData = {
  user: { id: number; username: string; userType: UserType; hasAdminAccess: boolean };
  roles: Array<RoleJson & { held: boolean; expiresAt: string | null }>;
  /** null for users without back-office access: ordinary users need no management permissions */
  permissionGroups: Array<{ label: string; prefix: string; permissions: Array<RoleJson & { held: boolean }> }> | null;
};
