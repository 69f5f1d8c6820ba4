/**
 * Unsubscribing from campaign mail without logging in (docs/runtime.md "E-mail marketing",
 * RFC 8058). Each message carries a link with a token naming the user, signed with an
 * HMAC under a key of its own derived from the app's secret: it cannot be guessed or
 * altered, never expires, and works for that one user only.
 */
import { ApiError } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { getEnv } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { deleteUnsubscribe, findUnsubscribe, insertUnsubscribe } from "~/models/email/unsubscribes.server";
import { findUserById } from "~/models/user.server";
import { idTokens } from "~/services/crypto.server";

const tokens = idTokens("unsubscribe links", "unsubscribe");

export const UNSUBSCRIBE_MESSAGES = {
  invalid:
    "This unsubscribe link is not valid. Copy the whole link from the e-mail, or log in and choose on your profile whether we send you news.",
  gone: "This account no longer exists, so it gets no e-mail from us.",
} as const;

export function unsubscribeToken(userId: number): string {
  return tokens.sign(userId);
}

export function unsubscribeUrl(userId: number): string {
  return `${getEnv().PUBLIC_URL}/unsubscribe?token=${unsubscribeToken(userId)}`;
}

/** The user a token names, or null when it is not one of ours. */
export function readUnsubscribeToken(token: string | null | undefined): number | null {
  return tokens.read(token);
}

/** "ja***@example.com": enough for the owner to recognise, little for whoever the link was forwarded to. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "***";
  const local = email.slice(0, at);
  return `${local.slice(0, Math.min(2, Math.max(1, local.length - 1)))}***${email.slice(at)}`;
}

export type UnsubscribeState = { email: string; unsubscribed: boolean };

async function userOfToken(token: string | null | undefined) {
  const userId = readUnsubscribeToken(token);
  if (!userId) throw new ApiError(400, UNSUBSCRIBE_MESSAGES.invalid, "INVALID_TOKEN");
  const user = await findUserById(getDb(), userId);
  if (!user) throw new ApiError(404, UNSUBSCRIBE_MESSAGES.gone, "USER_DELETED");
  return user;
}

/** What the confirm page shows (GET never changes anything). */
export async function unsubscribeState(token: string | null | undefined): Promise<UnsubscribeState> {
  const user = await userOfToken(token);
  return { email: maskEmail(user.email), unsubscribed: Boolean(await findUnsubscribe(getDb(), user.id)) };
}

/** Unsubscribes the token's user (again is fine). `source`: the confirm form or an RFC 8058 one-click POST. */
export async function unsubscribeByToken(token: string | null | undefined, source: "link" | "one-click"): Promise<UnsubscribeState> {
  const user = await userOfToken(token);
  if (await insertUnsubscribe(getDb(), { userId: user.id, email: user.email, source })) {
    log.info(`email: user ${user.id} unsubscribed (${source})`);
  }
  return { email: maskEmail(user.email), unsubscribed: true };
}

/** Takes an unsubscribe back (the owner changed their mind on the same page). */
export async function resubscribeByToken(token: string | null | undefined): Promise<UnsubscribeState> {
  const user = await userOfToken(token);
  if (await deleteUnsubscribe(getDb(), user.id)) log.info(`email: user ${user.id} subscribed again`);
  return { email: maskEmail(user.email), unsubscribed: false };
}

/** Whether the user gets the shop's news and offers by e-mail (campaigns): not unsubscribed. */
export async function getsMarketingMail(userId: number): Promise<boolean> {
  return !(await findUnsubscribe(getDb(), userId));
}

/**
 * The profile's choice: the same flag the unsubscribe link and the one-click unsubscribe
 * set (a user who unsubscribed by mail sees the box unticked, and can tick it again).
 */
export async function setMarketingMail(user: { id: number; email: string }, wanted: boolean): Promise<void> {
  if (wanted) {
    if (await deleteUnsubscribe(getDb(), user.id)) log.info(`email: user ${user.id} subscribed again (profile)`);
  } else if (await insertUnsubscribe(getDb(), { userId: user.id, email: user.email, source: "profile" })) {
    log.info(`email: user ${user.id} unsubscribed (profile)`);
  }
}
