/**
 * Browser sessions: a cookie holding a random token; the row (keyed by the token's
 * SHA-256) lives in SQLite, so logout and password changes revoke it at once.
 */
import { createCookie } from "@remix-run/node";
import { getDb } from "~/lib/db.server";
import { getEnv } from "~/lib/env.server";
import { answerNotStored } from "~/lib/request-scope.server";
import { deleteSession, deleteUserSessions, findSession, insertSession } from "~/models/session.server";
import { randomToken, sha256 } from "~/services/crypto.server";

export const SESSION_COOKIE_NAME = "sid";

function sessionCookie(request: Request) {
  return createCookie(SESSION_COOKIE_NAME, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: new URL(request.url).protocol === "https:" || getEnv().PUBLIC_URL.startsWith("https://"),
  });
}

export async function readSessionToken(request: Request): Promise<string | null> {
  const value = await sessionCookie(request).parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 20 ? value : null;
}

/** The user id of a live session, or null. */
export async function getSessionUserId(request: Request): Promise<{ userId: number; sessionHash: string } | null> {
  const token = await readSessionToken(request);
  if (!token) return null;
  const sessionHash = sha256(token);
  const session = await findSession(getDb(), sessionHash);
  if (!session) return null;
  if (session.expiresAt <= new Date().toISOString()) {
    await deleteSession(getDb(), sessionHash);
    return null;
  }
  // what is made with a user's session is that user's own (docs/decisions/035-kept-only-when-the-answer-says-so.md)
  answerNotStored();
  return { userId: session.userId, sessionHash };
}

/** Starts a new session (always a new id) and returns its Set-Cookie header. */
export async function startSession(request: Request, input: { userId: number; maxAgeSeconds: number; ip: string }): Promise<string> {
  const token = randomToken(32);
  await insertSession(getDb(), {
    idHash: sha256(token),
    userId: input.userId,
    expiresAt: new Date(Date.now() + input.maxAgeSeconds * 1000).toISOString(),
    ip: input.ip || null,
    userAgent: request.headers.get("User-Agent"),
  });
  return sessionCookie(request).serialize(token, { maxAge: input.maxAgeSeconds });
}

/** Ends the request's session and returns the Set-Cookie header that clears the cookie. */
export async function endSession(request: Request): Promise<string> {
  const token = await readSessionToken(request);
  if (token) await deleteSession(getDb(), sha256(token));
  return sessionCookie(request).serialize("", { maxAge: 0 });
}

export async function endOtherSessions(userId: number, keepSessionHash?: string): Promise<void> {
  await deleteUserSessions(getDb(), userId, keepSessionHash);
}
