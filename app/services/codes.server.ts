/**
 * Six-digit e-mail codes: 10 minutes, 5 attempts, single use, stored as keyed hashes.
 * Each new code retires the previous one of the same address and purpose.
 */
import { ApiError } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { consumeCode, findLiveCode, replaceCode, takeAttempt } from "~/models/verification-code.server";
import { CODE_LENGTH, CODE_MAX_ATTEMPTS, CODE_TTL_MINUTES, MESSAGES } from "~/schemas/auth";
import type { CodePurpose } from "../../db/schema";
import { keyedHash, randomDigits, safeEqual } from "./crypto.server";

const hashCode = (email: string, purpose: CodePurpose, code: string) => keyedHash(`code:${purpose}:${email}:${code}`);

/** 400 INVALID_CODE naming the input that carried a wrong, expired or used code. */
export const invalidCode = (field = "code") =>
  new ApiError(400, MESSAGES.codeInvalid, "INVALID_CODE", [{ field, message: MESSAGES.codeInvalid }]);

/** Makes and stores a new code; returns it for the mail. */
export async function issueCode(email: string, purpose: CodePurpose, userId: number | null = null): Promise<string> {
  const code = randomDigits(CODE_LENGTH);
  await replaceCode(getDb(), {
    email,
    purpose,
    codeHash: hashCode(email, purpose, code),
    userId,
    expiresAt: new Date(Date.now() + CODE_TTL_MINUTES * 60_000).toISOString(),
  });
  return code;
}

/**
 * Checks and consumes a code. Throws a 400 with MESSAGES.codeInvalid for a wrong,
 * expired, used or exhausted code, naming `field` (the input that carried the code).
 * Returns the user id stored with the code.
 */
export async function redeemCode(email: string, purpose: CodePurpose, code: string, field = "code"): Promise<{ userId: number | null }> {
  const db = getDb();
  const stored = await findLiveCode(db, email, purpose);
  const invalid = () => invalidCode(field);
  // a try is taken before the code is compared (a right one too): CODE_MAX_ATTEMPTS in all
  if (!stored || !(await takeAttempt(db, stored.id, CODE_MAX_ATTEMPTS))) throw invalid();
  if (!safeEqual(stored.codeHash, hashCode(email, purpose, code))) throw invalid();
  if (!(await consumeCode(db, stored.id))) throw invalid();
  return { userId: stored.userId };
}
