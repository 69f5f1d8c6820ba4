/**
 * Who may do what: the one module that decides. Every admin loader and action calls a
 * guard from here (the layout guard alone is not enough).
 */
import { redirect } from "@remix-run/node";
import { ApiError, ForbiddenError } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { PERMISSIONS, userTypeOf, type Access, type Permission } from "~/lib/permissions";
import { directPermissionsOfUser, rolesOfUser } from "~/models/access.server";
import type { User } from "~/models/user.server";
import { MESSAGES } from "~/schemas/auth";
import { getApiUser, getPageUser } from "./request-user.server";
import { oncePerRequest } from "~/lib/request-scope.server";
import { signInHref } from "~/lib/http";

/** The roles and permissions a user holds now (computed once per page view). */
export function getAccess(user: Pick<User, "id" | "isAdmin">): Promise<Access> {
  return oncePerRequest(`access:${user.id}:${user.isAdmin}`, () => loadAccess(user));
}

async function loadAccess(user: Pick<User, "id" | "isAdmin">): Promise<Access> {
  const db = getDb();
  const roles = (await rolesOfUser(db, user.id)).map(({ id, name, description }) => ({ id, name, description }));
  const directPermissions = await directPermissionsOfUser(db, user.id);
  const userType = userTypeOf(
    roles.map((r) => r.name),
    user.isAdmin,
  );
  const allPermissions = userType === "super_admin" ? [...PERMISSIONS] : directPermissions.map((p) => p.name);
  return { userType, roles, directPermissions, allPermissions, hasAdminAccess: userType !== "user" };
}

export type Requirement = { permission: Permission } | { anyOf: readonly Permission[] } | { superAdmin: true } | { adminAccess: true };

export function meets(access: Access, requirement: Requirement): boolean {
  if ("permission" in requirement) return access.allPermissions.includes(requirement.permission);
  if ("anyOf" in requirement) return requirement.anyOf.some((p) => access.allPermissions.includes(p));
  if ("superAdmin" in requirement) return access.userType === "super_admin";
  return access.hasAdminAccess;
}

function forbidden(message = "You do not have permission to do this."): Response {
  return new Response(message, { status: 403, statusText: "Forbidden" });
}

/**
 * Sections whose visitors get a login-required screen (401, with a button to
 * /login?redirectTo=<the page>) instead of the redirect: docs/product/admin.md 2, "Email
 * marketing: Unauthenticated: a login-required screen with a button to /login"; their
 * 403 says '权限不足，需要管理员权限' alone (docs/product/admin.md 6).
 */
const LOGIN_SCREEN_SECTIONS = ["/admin/email-management"];
const ADMIN_REQUIRED_TEXT = "权限不足，需要管理员权限";
export const LOGIN_REQUIRED_TEXT = "请先登录。Please log in with an administrator account to use this page.";

function showsLoginScreen(pathname: string): boolean {
  return LOGIN_SCREEN_SECTIONS.some((section) => pathname === section || pathname.startsWith(`${section}/`));
}

/**
 * Pages: the logged-in user, else a redirect to /login?redirectTo=<this page> (or, in the
 * sections above, the 401 login-required screen: ErrorPage draws its button).
 */
export async function requireUser(request: Request): Promise<{ user: User; access: Access }> {
  const user = await getPageUser(request);
  if (!user) {
    const url = new URL(request.url);
    if (showsLoginScreen(url.pathname)) throw new Response(LOGIN_REQUIRED_TEXT, { status: 401, statusText: "Unauthorized" });
    throw redirect(signInHref(url.pathname + url.search));
  }
  return { user, access: await getAccess(user) };
}

/** Pages under /admin: back-office access plus, optionally, a requirement (else 403). */
export async function requireAdmin(request: Request, requirement?: Requirement): Promise<{ user: User; access: Access }> {
  const result = await requireUser(request);
  // the e-mail pages say it in the spec's words alone (docs/product/admin.md 6)
  const specWords = showsLoginScreen(new URL(request.url).pathname);
  if (!result.access.hasAdminAccess)
    throw forbidden(specWords ? ADMIN_REQUIRED_TEXT : `You do not have access to the admin area. ${ADMIN_REQUIRED_TEXT}`);
  if (requirement && !meets(result.access, requirement)) throw forbidden(specWords ? ADMIN_REQUIRED_TEXT : undefined);
  return result;
}

/** Who is asking: every write service takes one and decides with assertMay. */
export type Actor = { user: User; access: Access };

/**
 * The one check of what an actor may do, made by the service itself so a page and its
 * /api twin cannot drift: 403 '权限不足，需要管理员权限' (FORBIDDEN) otherwise. Pages turn
 * it into their 403 page through adminAction.
 */
export function assertMay(actor: Pick<Actor, "access">, requirement: Requirement): void {
  if (!actor.access.hasAdminAccess || !meets(actor.access, requirement)) throw new ForbiddenError(ADMIN_REQUIRED_TEXT);
}

/**
 * A page action under /admin: the admin (requireAdmin, with the page's own `gate` when the
 * whole page needs one: refused before the form is read), then `run`; a service's 403 (its
 * assertMay) becomes the page's 403, like the section's own refusal.
 */
export async function adminAction<T>(request: Request, run: (actor: Actor) => Promise<T>, gate?: Requirement): Promise<T> {
  const actor = await requireAdmin(request, gate);
  try {
    return await run(actor);
  } catch (error) {
    if (error instanceof ForbiddenError) {
      throw forbidden(showsLoginScreen(new URL(request.url).pathname) ? ADMIN_REQUIRED_TEXT : undefined);
    }
    throw error;
  }
}

/**
 * A further requirement for an admin already checked by requireAdmin (an action that
 * checks who is asking before reading the form, then what they ask for): 403 otherwise.
 */
export function requireMore(actor: { access: Access }, requirement: Requirement): void {
  if (!meets(actor.access, requirement)) throw forbidden();
}

/**
 * /api: the authenticated user (bearer token or session cookie) or the JSON 401 (with
 * `missingMessage` when a section words it its own way).
 */
export async function requireApiUser(
  request: Request,
  missingMessage: string = MESSAGES.authRequired,
): Promise<{ user: User; access: Access }> {
  const user = await getApiUser(request);
  if (!user) throw new ApiError(401, missingMessage, "AUTH_REQUIRED");
  return { user, access: await getAccess(user) };
}

/** /api endpoints open to everyone that answer more to some callers: the caller, or null for visitors. */
export async function optionalApiUser(request: Request): Promise<{ user: User; access: Access } | null> {
  const user = await getApiUser(request);
  return user ? { user, access: await getAccess(user) } : null;
}

/** /api admin endpoints: 403 '权限不足，需要管理员权限' when the requirement is not met. */
export async function requireApiAdmin(
  request: Request,
  requirement?: Requirement,
  missingMessage?: string,
): Promise<{ user: User; access: Access }> {
  const result = await requireApiUser(request, missingMessage);
  if (!result.access.hasAdminAccess || (requirement && !meets(result.access, requirement))) {
    throw new ApiError(403, "权限不足，需要管理员权限", "FORBIDDEN");
  }
  return result;
}
