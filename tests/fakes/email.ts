/**
 * Helpers for the e-mail marketing tests: many recipients at once (inserted into the
 * server's own database: registering each through the API would spend seconds on
 * password hashing), the admin's token, and calls to /api/email. Nothing here reaches
 * into the app's code.
 */
import crypto from "node:crypto";
import { sql } from "kysely";
import { expect } from "vitest";
import { api, apiLogin, TEST_ADMIN, type ApiResult } from "../setup/api-client";
import type { ServerDb } from "../setup/server-db";
import { waitFor } from "../setup/wait";

export type Recipient = { id: number; email: string; username: string };

let batch = 0;

/**
 * Inserts `count` users with verified addresses (or not), never logged in unless
 * `lastLoginAt` is given. Addresses are unique to this call.
 */
export async function insertRecipients(
  db: ServerDb,
  count: number,
  options: { prefix?: string; verified?: boolean; lastLoginAt?: string | null; usernames?: string[] } = {},
): Promise<Recipient[]> {
  const tag = `${Date.now().toString(36)}${(batch += 1)}${crypto.randomBytes(2).toString("hex")}`;
  const wanted = Array.from({ length: count }, (_, n) => ({
    username: options.usernames?.[n] ?? `${options.prefix ?? "r"}_${tag}_${n}`,
    email: `${options.prefix ?? "r"}-${tag}-${n}@example.test`,
  }));
  if (count === 0) return [];
  const inserted = await db
    .insertInto("users")
    .values(
      wanted.map((user) => ({ ...user, email_verified: options.verified === false ? 0 : 1, last_login_at: options.lastLoginAt ?? null })),
    )
    .returning(["id", "email"])
    .execute();
  // in the order asked for (RETURNING promises no order)
  const ids = new Map(inserted.map((row) => [row.email, row.id]));
  return wanted.map((user) => ({ id: ids.get(user.email)!, ...user }));
}

/** Everyone a campaign to `all` reaches right now (what the run fixes as its audience). */
export async function audienceNow(db: ServerDb): Promise<string[]> {
  const { rows } = await sql<{ email: string }>`
    SELECT email FROM users u
    WHERE email_verified = 1 AND NOT EXISTS (SELECT 1 FROM email_unsubscribes x WHERE x.user_id = u.id)
    ORDER BY id`.execute(db);
  return rows.map((row) => row.email.toLowerCase());
}

export type EmailApi = <T = any>(path: string, options?: { method?: string; body?: unknown }) => Promise<ApiResult<T>>;

/** /api/email calls as the test super admin. */
export async function emailApi(baseUrl: string): Promise<EmailApi> {
  const { accessToken } = await apiLogin(baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  return (path, options = {}) => api(baseUrl, `/api/email${path}`, { token: accessToken, ...options });
}

export async function createTemplate(call: EmailApi, body: Record<string, unknown> = {}): Promise<{ id: number }> {
  const response = await call("/templates", {
    body: {
      name: `Template ${crypto.randomBytes(3).toString("hex")}`,
      subject: "Hello {{userName}}",
      html_content:
        '<p>Hi {{userName}} ({{email}}), news from <a href="{{siteUrl}}">{{siteName}}</a>.</p><p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>',
      text_content: "Hi {{userName}} ({{email}}), news from {{siteName}} {{siteUrl}}. Unsubscribe: {{unsubscribeUrl}}",
      ...body,
    },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

export async function createCampaign(call: EmailApi, body: Record<string, unknown>): Promise<{ id: number; status: string }> {
  const response = await call("/campaigns", {
    body: { name: `Campaign ${crypto.randomBytes(3).toString("hex")}`, subject: "News for {{userName}}", ...body },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

export async function execute(call: EmailApi, id: number): Promise<ApiResult> {
  return call(`/campaigns/${id}/execute`, { method: "POST" });
}

export async function campaign(call: EmailApi, id: number): Promise<Record<string, any>> {
  const response = await call(`/campaigns/${id}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
}

/** Polls the campaign until `check` holds (or fails after `timeoutMs`, showing the last state). */
export async function waitForCampaign(
  call: EmailApi,
  id: number,
  check: (campaign: Record<string, any>) => boolean,
  timeoutMs = 20_000,
): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  let last: Record<string, any> = {};
  for (;;) {
    last = await campaign(call, id);
    if (check(last)) return last;
    if (Date.now() > deadline)
      throw new Error(`campaign ${id} never got there; last: ${JSON.stringify({ ...last, html_content: undefined })}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** How many messages each address got. */
export function deliveries(messages: Array<{ to: string[] }>, addresses: string[]): Map<string, number> {
  const wanted = new Set(addresses.map((a) => a.toLowerCase()));
  const counts = new Map<string, number>();
  for (const message of messages) {
    for (const to of message.to) if (wanted.has(to)) counts.set(to, (counts.get(to) ?? 0) + 1);
  }
  return counts;
}

/** Polls until `check` holds (tests/setup/wait.ts), failing after `timeoutMs` with `what`. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000, what = "condition"): Promise<void> {
  await waitFor(check, { timeoutMs, what });
}
