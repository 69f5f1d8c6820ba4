/**
 * Throttling policies (numbers explained in docs/accounts.md). Only attempts that must
 * be limited are counted: code sending, and failed logins (never successful ones).
 */
import { ApiError } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { answerNotStored } from "~/lib/request-scope.server";
import { addHit, clearBucket, peekHits, takeBackHit } from "~/models/rate-limit.server";
import { MESSAGES } from "~/schemas/auth";

/**
 * The database, for reading or counting a limit: an answer made after that is one caller's
 * own (their count, their "too many"), never kept for others (docs/decisions/035-kept-only-when-the-answer-says-so.md).
 */
function limitsDb() {
  answerNotStored();
  return getDb();
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const LIMITS = {
  /** e-mails with a code, per address: one a minute for each purpose, 8 an hour in all */
  codePerEmailMinute: { max: 1, windowMs: MINUTE },
  codePerEmailHour: { max: 8, windowMs: HOUR },
  /** e-mails with a code, per client address (generous: many people can share one) */
  codePerIpHour: { max: 100, windowMs: HOUR },
  /** e-mail changes started by one account (each mails a code to a new address) */
  emailChangePerAccount: { max: 5, windowMs: HOUR },
  /** failed logins before a captcha is demanded (per account or per address) */
  captchaAfterFailures: 5,
  failureWindowMs: 15 * MINUTE,
  /** failed logins that stop further attempts for the window */
  failuresPerAccount: 20,
  failuresPerIp: 200,
  /** captcha images asked for through the API, per client address */
  captchasPerIp: { max: 30, windowMs: 10 * MINUTE },
  /** QC photo uploads (each up to 10 photos) by shoppers, per user and per client address */
  qcUploadsPerUser: { max: 20, windowMs: HOUR },
  qcUploadsPerIp: { max: 60, windowMs: HOUR },
  /** marketplace fetches asked for by shoppers (imports, crawls, short links), per user and per address */
  marketplacePerUser: { max: 30, windowMs: HOUR },
  marketplacePerIp: { max: 60, windowMs: HOUR },
  /** the same, for visitors whose address tells nobody apart (loopback: a proxy on the same host): one bucket for all */
  marketplaceShared: { max: 120, windowMs: HOUR },
  /** avatar images uploaded by one user (each stays public until used or swept) */
  avatarUploadsPerUser: { max: 10, windowMs: HOUR },
  /** likes (and taking them back) of posts and comments, per user */
  likesPerUser: { max: 60, windowMs: 10 * MINUTE },
  /** searches by photo (each decodes a picture), per client address, and for visitors no address tells apart */
  photoSearchesPerIp: { max: 60, windowMs: 10 * MINUTE },
  photoSearchesShared: { max: 600, windowMs: 10 * MINUTE },
  /** dead-link reports, per user or address */
  listingReports: { max: 10, windowMs: HOUR },
} as const;

/**
 * Per-address limits need an address that tells clients apart. Loopback (a reverse proxy
 * on the same machine without TRUST_PROXY, or local tools) and unknown addresses would put
 * everyone in one bucket, so they get no per-address limit; per-e-mail and per-account
 * limits still apply.
 */
export function countsPerAddress(ip: string): boolean {
  const value = ip
    .trim()
    .toLowerCase()
    .replace(/^::ffff:/, "");
  return value !== "" && value !== "::1" && !value.startsWith("127.");
}

export function tooManyRequests(retryAt: number): ApiError {
  const retryAfter = Math.max(1, Math.ceil((retryAt - Date.now()) / 1000));
  return new ApiError(429, MESSAGES.tooMany, "RATE_LIMITED", undefined, { retryAfter });
}

function codeSendingBuckets(email: string, ip: string, purpose: string): Array<[string, { max: number; windowMs: number }]> {
  const checks: Array<[string, { max: number; windowMs: number }]> = [
    [`code:email-min:${purpose}:${email}`, LIMITS.codePerEmailMinute],
    [`code:email-hour:${email}`, LIMITS.codePerEmailHour],
  ];
  if (countsPerAddress(ip)) checks.push([`code:ip:${ip}`, LIMITS.codePerIpHour]);
  return checks;
}

/** Throws 429 when one more in each bucket would pass its limit; counts nothing. */
async function assertWithin(checks: Array<[string, { max: number; windowMs: number }]>): Promise<void> {
  const db = limitsDb();
  for (const [bucket, limit] of checks) {
    const current = await peekHits(db, bucket);
    if (current.count >= limit.max) throw tooManyRequests(current.windowEndsAt);
  }
}

/** Throws 429 when a code e-mail would pass a limit; counts nothing. */
export async function assertCodeSendingAllowed(email: string, ip: string, purpose: string): Promise<void> {
  await assertWithin(codeSendingBuckets(email, ip, purpose));
}

/** Counts one code e-mail for the address and the client; throws 429 when over a limit. */
export async function limitCodeSending(email: string, ip: string, purpose: string): Promise<void> {
  await limitBuckets(codeSendingBuckets(email, ip, purpose));
}

/** Counts one captcha for the client address; 429 past the limit (each one is a stored row). */
export async function limitCaptchaIssuing(ip: string): Promise<void> {
  if (!countsPerAddress(ip)) return;
  await limitBuckets([[`captcha:ip:${ip}`, LIMITS.captchasPerIp]]);
}

const accountBucket = (account: string) => `login-fail:account:${account.toLowerCase()}`;
const ipBucket = (ip: string) => `login-fail:ip:${ip}`;

export type LoginPressure = { captchaRequired: boolean; blockedUntil: number | null };

/** How hard login is pushed back for this account and address right now. */
export async function loginPressure(account: string, ip: string): Promise<LoginPressure> {
  const db = limitsDb();
  const byAccount = await peekHits(db, accountBucket(account));
  const byIp = countsPerAddress(ip) ? await peekHits(db, ipBucket(ip)) : { count: 0, windowEndsAt: 0 };
  return pressureOf(byAccount, byIp);
}

/**
 * A login try, counted as a failure before the password is checked: tries sent at the same
 * moment each count in one atomic step, so each sees those before it and a burst of
 * guesses cannot pass the block or the captcha together (as it could when the failures
 * were counted after the check). `before` is the pressure without this try; `settle`
 * keeps the count when the password was wrong ("failed"), and takes it back otherwise: a
 * try refused before its check or whose right password is not a failure ("uncounted"),
 * or a login ("succeeded", which also clears the account's failures).
 */
export async function takeLoginTry(
  account: string,
  ip: string,
): Promise<{ before: LoginPressure; after: LoginPressure; settle: (outcome: "failed" | "uncounted" | "succeeded") => Promise<void> }> {
  const db = limitsDb();
  const perAddress = countsPerAddress(ip);
  const byAccount = await addHit(db, accountBucket(account), LIMITS.failureWindowMs);
  const byIp = perAddress ? await addHit(db, ipBucket(ip), LIMITS.failureWindowMs) : { count: 0, windowEndsAt: 0 };
  const minusOne = (window: { count: number; windowEndsAt: number }) => ({ ...window, count: Math.max(0, window.count - 1) });
  return {
    before: pressureOf(minusOne(byAccount), perAddress ? minusOne(byIp) : byIp),
    after: pressureOf(byAccount, byIp),
    settle: async (outcome) => {
      if (outcome === "failed") return;
      if (outcome === "succeeded") await clearBucket(db, accountBucket(account));
      else await takeBackHit(db, accountBucket(account));
      if (perAddress) await takeBackHit(db, ipBucket(ip));
    },
  };
}

function pressureOf(byAccount: { count: number; windowEndsAt: number }, byIp: { count: number; windowEndsAt: number }): LoginPressure {
  let blockedUntil: number | null = null;
  if (byAccount.count >= LIMITS.failuresPerAccount) blockedUntil = byAccount.windowEndsAt;
  if (byIp.count >= LIMITS.failuresPerIp) blockedUntil = Math.max(blockedUntil ?? 0, byIp.windowEndsAt);
  return {
    captchaRequired: byAccount.count >= LIMITS.captchaAfterFailures || byIp.count >= LIMITS.captchaAfterFailures,
    blockedUntil,
  };
}

/** Whether this address has failed often enough to be shown the captcha up front. */
export async function addressNeedsCaptcha(ip: string): Promise<boolean> {
  if (!countsPerAddress(ip)) return false;
  return (await peekHits(limitsDb(), ipBucket(ip))).count >= LIMITS.captchaAfterFailures;
}

/** A successful login clears the account's failures (the address keeps its count). */
export async function clearLoginFailures(account: string): Promise<void> {
  await clearBucket(limitsDb(), accountBucket(account));
}

/** Whether the registration page should show the captcha (its limits are near). */
export async function codeSendingNearLimit(ip: string): Promise<boolean> {
  if (!countsPerAddress(ip)) return false;
  const current = await peekHits(limitsDb(), `code:ip:${ip}`);
  return current.count >= LIMITS.codePerIpHour.max / 2;
}

/**
 * Counts one QC upload of a shopper (staff who publish directly are not limited); 429
 * 'Too many requests, please try again later' past the user's or the address's limit.
 */
export async function limitQcUploads(userId: number, ip: string): Promise<void> {
  const checks: Array<[string, { max: number; windowMs: number }]> = [[`qc-upload:user:${userId}`, LIMITS.qcUploadsPerUser]];
  if (countsPerAddress(ip)) checks.push([`qc-upload:ip:${ip}`, LIMITS.qcUploadsPerIp]);
  await limitBuckets(checks);
}

/**
 * Counts one request in each bucket, or none: each count is one atomic step that answers
 * the count with this request in it, so requests sent at the same moment (other instances
 * included) each see those before them and no limit is passed by a burst, as it was when
 * each looked first and counted after. A request over a limit takes back what it counted
 * (the windows are fixed: counting never lengthens one).
 */
async function limitBuckets(checks: Array<[string, { max: number; windowMs: number }]>): Promise<void> {
  const db = limitsDb();
  const counted: string[] = [];
  for (const [bucket, limit] of checks) {
    const window = await addHit(db, bucket, limit.windowMs);
    counted.push(bucket);
    if (window.count > limit.max) {
      for (const taken of counted) await takeBackHit(db, taken);
      throw tooManyRequests(window.windowEndsAt);
    }
  }
}

/**
 * Counts one marketplace fetch asked for by a shopper (an import, a crawl, a short link
 * opened); 429 past the user's or the address's limit. Staff who edit products are not
 * limited (the caller decides).
 */
export async function limitMarketplaceFetches(userId: number | null, ip: string): Promise<void> {
  const checks: Array<[string, { max: number; windowMs: number }]> = [];
  if (userId !== null) checks.push([`marketplace:user:${userId}`, LIMITS.marketplacePerUser]);
  if (countsPerAddress(ip)) checks.push([`marketplace:ip:${ip}`, LIMITS.marketplacePerIp]);
  // a visitor behind a same-host proxy (no TRUST_PROXY) is still counted: all of them together
  else if (userId === null) checks.push(["marketplace:ip:shared", LIMITS.marketplaceShared]);
  await limitBuckets(checks);
}

/** Counts one search by photo; 429 past the address's limit (or all unknown addresses' together). */
export async function limitPhotoSearches(ip: string): Promise<void> {
  await limitBuckets([
    countsPerAddress(ip) ? [`photo-search:ip:${ip}`, LIMITS.photoSearchesPerIp] : ["photo-search:ip:shared", LIMITS.photoSearchesShared],
  ]);
}

const emailChangeBucket = (userId: number): [string, { max: number; windowMs: number }] => [
  `email-change:user:${userId}`,
  LIMITS.emailChangePerAccount,
];

/**
 * Throws 429 when an e-mail change to `newEmail` would pass a limit (the account's, or the
 * code mails' of the new address and the client); counts nothing. Checked before the
 * account holder is proven, so a refused change spends no code and no login try.
 */
export async function assertEmailChangeAllowed(userId: number, newEmail: string, ip: string): Promise<void> {
  await assertWithin([emailChangeBucket(userId), ...codeSendingBuckets(newEmail, ip, "change")]);
}

/** Counts one e-mail change an account starts (a code mailed to a new address); 429 past the limit. */
export async function limitEmailChanges(userId: number): Promise<void> {
  await limitBuckets([emailChangeBucket(userId)]);
}

/** Counts one avatar upload of a user; 429 past the limit. */
export async function limitAvatarUploads(userId: number): Promise<void> {
  await limitBuckets([[`avatar-upload:user:${userId}`, LIMITS.avatarUploadsPerUser]]);
}

/** Counts one like (or un-like) of a user; 429 past the limit. */
export async function limitLikes(userId: number): Promise<void> {
  await limitBuckets([[`like:user:${userId}`, LIMITS.likesPerUser]]);
}

/** Counts one dead-link report; 429 past the limit of the user (or, for visitors, the address). */
export async function limitListingReports(userId: number | null, ip: string): Promise<void> {
  if (userId !== null) return limitBuckets([[`listing-report:user:${userId}`, LIMITS.listingReports]]);
  // visitors on one shared address (loopback, an unknown proxy) share one bucket: reports stay few
  return limitBuckets([[`listing-report:ip:${countsPerAddress(ip) ? ip : "shared"}`, LIMITS.listingReports]]);
}
