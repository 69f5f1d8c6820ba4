/** Shared steps of the admin e2e specs: unique names per project and quick setup via the API. */
import type { APIRequestContext, TestInfo } from "@playwright/test";
import { E2E_ADMIN } from "./auth-helpers";
import { expect } from "./fixtures";

/** A username no other test or project run uses (js and no-js share one database). */
export function uniqueName(testInfo: TestInfo, prefix: string): string {
  const project = testInfo.project.name.replace(/[^a-z]/gi, "");
  return `${prefix}_${project}_${Math.random().toString(36).slice(2, 8)}`;
}

export async function adminToken(request: APIRequestContext): Promise<string> {
  const response = await request.post("/api/auth/login", { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } });
  expect(response.status()).toBe(200);
  return (await response.json()).accessToken as string;
}

/** Creates a user through the admin API (setup only: the flows under test use the pages). */
export async function createUserViaApi(
  request: APIRequestContext,
  username: string,
  options: { admin?: boolean; password?: string; token?: string } = {},
): Promise<{ id: number; username: string; email: string; password: string }> {
  const token = options.token ?? (await adminToken(request));
  const headers = { Authorization: `Bearer ${token}` };
  let roleIds: number[] = [];
  if (options.admin) {
    const roles = (await (await request.get("/api/admin/roles", { headers })).json()).data as Array<{ id: number; name: string }>;
    roleIds = roles.filter((role) => role.name === "admin").map((role) => role.id);
  }
  const password = options.password ?? "e2e-password-1";
  const email = `${username}@example.com`;
  const response = await request.post("/api/admin/users", { headers, data: { username, email, password, roleIds } });
  expect(response.status(), await response.text()).toBe(201);
  return { id: (await response.json()).data.id as number, username, email, password };
}
