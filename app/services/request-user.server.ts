/** Who is making this request: a page session cookie, or a bearer token on /api. */
import { ApiError } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { findUserById, type User } from "~/models/user.server";
import { MESSAGES } from "~/schemas/auth";
import { verifyAccessToken } from "~/services/tokens.server";
import { answerNotStored, oncePerRequest } from "~/lib/request-scope.server";
import { getSessionUserId } from "./session.server";

/**
 * The user of the session cookie, or null. The root loader, a layout and a page all ask:
 * a page view looks it up once.
 */
export function getPageUser(request: Request): Promise<User | null> {
  return oncePerRequest("page-user", () => findPageUser(request));
}

async function findPageUser(request: Request): Promise<User | null> {
  const session = await getSessionUserId(request);
  if (!session) return null;
  return (await findUserById(getDb(), session.userId)) ?? null;
}

function bearerToken(request: Request): string | null {
  const header = request.headers.get("Authorization");
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match ? match[1].trim() : null;
}

/**
 * The user of a bearer token (checked first) or of the session cookie. A bad or expired
 * token throws the JSON 401; a token whose user is gone throws 404 'User account deleted'.
 */
export async function getApiUser(request: Request): Promise<User | null> {
  const token = bearerToken(request);
  if (token) {
    // an answer made for a token's holder is theirs (docs/decisions/035-kept-only-when-the-answer-says-so.md)
    answerNotStored();
    const claims = await verifyAccessToken(token);
    const user = await findUserById(getDb(), Number(claims.sub));
    if (!user) throw new ApiError(404, MESSAGES.userDeleted, "USER_DELETED");
    if (user.tokenVersion !== claims.tv) {
      throw new ApiError(401, MESSAGES.tokenRevoked, "TOKEN_REVOKED", undefined, { isExpired: true });
    }
    return user;
  }
  return getPageUser(request);
}
