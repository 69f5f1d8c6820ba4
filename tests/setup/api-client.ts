/** Small HTTP helpers for integration tests against a running test server. */

export type ApiResult<T = any> = { status: number; body: T; headers: Headers };

export async function api<T = any>(
  baseUrl: string,
  path: string,
  options: { method?: string; token?: string; body?: unknown; headers?: Record<string, string>; cookie?: string } = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.Cookie = options.cookie;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  const response = await fetch(`${baseUrl}${path}`, {
    method: options.method ?? (body ? "POST" : "GET"),
    headers,
    body,
    redirect: "manual",
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

export async function apiLogin(baseUrl: string, email: string, password: string) {
  const result = await api(baseUrl, "/api/auth/login", { body: { email, password } });
  if (result.status !== 200) throw new Error(`login as ${email} failed: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body as { token: string; accessToken: string; refreshToken: string; user: { id: number } };
}

/** Test admin credentials passed to servers started by startTestServer (ADMIN_EMAIL/PASSWORD). */
export const TEST_ADMIN = { email: "admin@example.com", password: "admin-password-test", username: "admin" };

/** Creates a product through the admin API (fails the test unless it is created): its id and the path of its page. */
export async function createProduct(baseUrl: string, token: string, body: Record<string, unknown>): Promise<{ id: number; path: string }> {
  const result = await api(baseUrl, "/api/admin/products", { token, body });
  if (result.status !== 201) throw new Error(`creating a product failed: ${result.status} ${JSON.stringify(result.body)}`);
  return { id: result.body.data.id as number, path: new URL(result.body.data.url as string, baseUrl).pathname };
}
