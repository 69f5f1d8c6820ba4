/**
 * Account workflows: registration with an e-mail code, login (with captcha and
 * throttling), e-mail verification, password reset, Google sign-in, and the first
 * super admin. Pages and /api call these same functions; they throw ApiError.
 */
import crypto from "node:crypto";
import { ApiError } from "~/lib/api.server";
import { refusedAsDuplicate, uniqueKeyOf } from "~/lib/db-errors.server";
import { getDb } from "~/lib/db.server";
import { getEnv } from "~/lib/env.server";
import type { Access } from "~/lib/permissions";
import { getAccess } from "~/services/permissions.server";
import { assignRole, countSuperAdmins, findRole } from "~/models/access.server";
import {
  findLoginCandidate,
  findUserByEmail,
  findUserByGoogleId,
  findUserById,
  findUserByUsername,
  findUsersByPendingEmail,
  getPasswordHash,
  insertUser,
  recordLogin,
  updateUserRow,
  type User,
} from "~/models/user.server";
import { MESSAGES, USERNAME_MAX } from "~/schemas/auth";
import { loadSettings, siteBaseUrl, toSiteInfo } from "./site-settings.server";
import { checkCaptcha } from "./captcha.server";
import { invalidCode, issueCode, redeemCode } from "./codes.server";
import { burnPasswordCheck, hashPassword, verifyPassword } from "./crypto.server";
import { queueMail, renderMail } from "./mailer.server";
import { translatorFor } from "~/i18n/i18n.server";
import { STOREFRONT_LANGUAGE, type Language } from "~/i18n/languages";
import { checkCurrentPassword, setPassword } from "./passwords.server";
import {
  assertCodeSendingAllowed,
  assertEmailChangeAllowed,
  clearLoginFailures,
  codeSendingNearLimit,
  limitCodeSending,
  limitEmailChanges,
  takeLoginTry,
  tooManyRequests,
} from "./rate-limit.server";

async function siteFacts() {
  const settings = await loadSettings();
  return { siteName: toSiteInfo(settings).site_name, baseUrl: siteBaseUrl(settings) };
}

type CodeMailKind = "register" | "verify" | "reset" | "change" | "approve";
type CodeMailTexts = { subject: string; heading: string; intro: string; advice?: string; link: { href: string; label: string } };

/**
 * Queues a mail with a code (see queueMail: the answer never waits for, or tells of, the send),
 * in the language of the reader whose request causes it.
 */
async function mailCode(
  to: string,
  kind: CodeMailKind,
  code: string,
  options: {
    /** register: the page the shopper started from */
    returnTo?: string;
    language?: Language;
    /** approve: the address the account is to move to */
    newEmail?: string;
  } = {},
) {
  const { returnTo, language = STOREFRONT_LANGUAGE } = options;
  const { siteName, baseUrl } = await siteFacts();
  const t = translatorFor(language);
  const values = { code, site: siteName };
  // the registration's second step, the address filled in (and where the shopper was going)
  const registerStep = new URLSearchParams({ step: "2", email: to, ...(returnTo ? { redirectTo: returnTo } : {}) });
  const all: Record<CodeMailKind, CodeMailTexts> = {
    register: {
      subject: t("email.code.registerSubject", values),
      heading: t("email.code.registerHeading"),
      intro: t("email.code.registerIntro", values),
      link: { href: `${baseUrl}/register?${registerStep}`, label: t("email.code.registerLink") },
    },
    verify: {
      subject: t("email.code.verifySubject", values),
      heading: t("email.code.verifyHeading"),
      intro: t("email.code.verifyIntro"),
      link: { href: `${baseUrl}/verify-email?email=${encodeURIComponent(to)}`, label: t("email.code.verifyLink") },
    },
    reset: {
      subject: t("email.code.resetSubject", values),
      heading: t("email.code.resetHeading"),
      intro: t("email.code.resetIntro"),
      link: { href: `${baseUrl}/reset-password?email=${encodeURIComponent(to)}`, label: t("email.code.resetLink") },
    },
    change: {
      subject: t("email.code.changeSubject", values),
      heading: t("email.code.changeHeading"),
      intro: t("email.code.changeIntro"),
      link: { href: `${baseUrl}/profile`, label: t("email.code.changeLink") },
    },
    approve: {
      subject: t("email.code.approveSubject", values),
      heading: t("email.code.approveHeading"),
      intro: t("email.code.approveIntro", { email: options.newEmail ?? "" }),
      advice: t("email.code.approveAdvice"),
      link: { href: `${baseUrl}/profile`, label: t("email.code.changeLink") },
    },
  };
  const texts = all[kind];
  const body = renderMail({
    siteName,
    heading: texts.heading,
    paragraphs: [texts.intro, t("email.code.expires"), ...(texts.advice ? [texts.advice] : [])],
    code,
    codeLabel: t("email.code.codeLabel"),
    link: texts.link,
    signOff: t("email.signOff", { site: siteName }),
  });
  queueMail({ to, subject: texts.subject, ...body });
}

/** Queues a notice without a code, to the owner of an address someone else tried to use. */
async function mailNotice(
  to: string,
  input: { subject: string; heading: string; paragraphs: string[]; link: { path: string; label: string }; signOff?: string },
) {
  const { siteName, baseUrl } = await siteFacts();
  const body = renderMail({
    siteName,
    heading: input.heading,
    paragraphs: input.paragraphs,
    link: { href: `${baseUrl}${input.link.path}`, label: input.link.label },
    signOff: input.signOff,
  });
  queueMail({ to, subject: input.subject.replace("{site}", siteName), ...body });
}

// ---------------------------------------------------------------- registration

/**
 * Mails a registration code. When the address already has an account, that person is
 * told so instead (and no code is issued): the answer and its time are the same either
 * way. Once the client's address has used half of its hourly allowance, a solved captcha
 * must come with the request (400 CAPTCHA_REQUIRED with requiresCaptcha otherwise), on
 * the page and the API alike.
 */
export async function sendRegistrationCode(
  email: string,
  ip: string,
  captcha: { captchaId?: string; captchaText?: string } = {},
  /** the page the shopper started from (a path on this site): the mail's link goes back to it */
  returnTo?: string,
  /** the language of the mail (the reader's) */
  language: Language = STOREFRONT_LANGUAGE,
): Promise<void> {
  // over a limit a captcha would not help: 429 first
  await assertCodeSendingAllowed(email, ip, "register");
  if (await codeSendingNearLimit(ip)) {
    const solved = await checkCaptcha(captcha.captchaId, captcha.captchaText);
    if (!solved) {
      const message = captcha.captchaText ? MESSAGES.captchaInvalid : MESSAGES.captchaRequired;
      throw new ApiError(400, message, "CAPTCHA_REQUIRED", [{ field: "captchaText", message }], { requiresCaptcha: true });
    }
  }
  await limitCodeSending(email, ip, "register");
  const existing = await findUserByEmail(getDb(), email);
  if (existing) {
    const { siteName } = await siteFacts();
    const t = translatorFor(language);
    await mailNotice(email, {
      subject: t("email.notice.subject", { site: siteName }),
      heading: t("email.notice.registeredHeading"),
      paragraphs: [t("email.notice.registeredText", { site: siteName }), t("email.notice.registeredAdvice")],
      link: { path: "/forgot-password", label: t("email.code.resetLink") },
      signOff: t("email.signOff", { site: siteName }),
    });
    return;
  }
  const code = await issueCode(email, "register");
  await mailCode(email, "register", code, { returnTo, language });
}

/** 409: the username or the address belongs to another account. */
export const userConflict = (field: "username" | "email") =>
  new ApiError(409, field === "username" ? MESSAGES.usernameTaken : MESSAGES.emailTaken, "CONFLICT", [
    { field, message: field === "username" ? MESSAGES.usernameTaken : MESSAGES.emailTaken },
  ]);

/**
 * A write of a user whose username and address were checked free first: taken in between
 * (a double submit, another instance), the users table's UNIQUE keys refuse it, answered
 * as the same 409 naming the field.
 */
export function writingUser<T>(write: () => Promise<T>): Promise<T> {
  return refusedAsDuplicate("users", write, (column) => userConflict(column === "email" ? "email" : "username"));
}

export async function register(input: { username: string; email: string; password: string; code: string }): Promise<User> {
  const db = getDb();
  if (await findUserByUsername(db, input.username)) throw userConflict("username");
  await redeemCode(input.email, "register", input.code);
  if (await findUserByEmail(db, input.email)) throw userConflict("email");
  const passwordHash = await hashPassword(input.password);
  return writingUser(() => insertUser(db, { username: input.username, email: input.email, passwordHash, emailVerified: true }));
}

// ---------------------------------------------------------------- login

export type LoginInput = { email: string; password: string; captchaId?: string; captchaText?: string };
export type LoginSuccess = { user: User; access: Access };

/**
 * Checks credentials. Order: throttle (429), captcha when demanded (400
 * requiresCaptcha), credentials (401, never saying whether the account exists),
 * e-mail verification (403 requiresEmailVerification). Only failures are counted.
 */
export async function login(input: LoginInput, ip: string): Promise<LoginSuccess> {
  const account = input.email.trim().toLowerCase();
  const loginTry = await takeLoginTry(account, ip);
  const pressure = loginTry.before;
  if (pressure.blockedUntil) {
    await loginTry.settle("uncounted");
    throw tooManyRequests(pressure.blockedUntil);
  }

  if (pressure.captchaRequired) {
    const solved = await checkCaptcha(input.captchaId, input.captchaText);
    if (!solved) {
      await loginTry.settle("uncounted");
      const message = input.captchaText ? MESSAGES.captchaInvalid : MESSAGES.captchaRequired;
      throw new ApiError(400, message, "CAPTCHA_REQUIRED", [{ field: "captchaText", message }], { requiresCaptcha: true });
    }
  }

  const candidate = await findLoginCandidate(getDb(), account);
  const valid = candidate?.passwordHash
    ? await verifyPassword(candidate.passwordHash, input.password)
    : (await burnPasswordCheck(input.password), false);
  if (!candidate || !valid) {
    await loginTry.settle("failed");
    throw new ApiError(401, MESSAGES.invalidCredentials, "INVALID_CREDENTIALS", undefined, {
      requiresCaptcha: loginTry.after.captchaRequired,
    });
  }

  const { user } = candidate;
  if (!user.emailVerified) {
    // the password was right: not a failure (as before, the account's count stays)
    await loginTry.settle("uncounted");
    throw new ApiError(403, MESSAGES.emailNotVerified, "EMAIL_NOT_VERIFIED", undefined, {
      requiresEmailVerification: true,
      email: user.email,
    });
  }
  await loginTry.settle("succeeded");
  return completeLogin(user, ip);
}

/** Records the login (time and address) and resolves the user's access. */
export async function completeLogin(user: User, ip: string): Promise<LoginSuccess> {
  await recordLogin(getDb(), user.id, ip);
  const fresh = { ...user, lastLoginAt: new Date().toISOString(), lastLoginIp: ip || null };
  return { user: fresh, access: await getAccess(fresh) };
}

/** Session length for a user: admins 5 h, others 24 h (REFRESH_MAX_AGE_*). */
export function sessionMaxAge(access: Access): number {
  return access.hasAdminAccess ? getEnv().REFRESH_MAX_AGE_ADMIN : getEnv().REFRESH_MAX_AGE_USER;
}

// ---------------------------------------------------------------- e-mail verification

/**
 * Mails a verification code to an unverified account, or a confirmation code to an
 * address waiting to become a user's new e-mail (when no account has it). Silent for any
 * other address; the answer is the same in every case.
 */
export async function resendVerification(email: string, ip: string, language: Language = STOREFRONT_LANGUAGE): Promise<void> {
  await limitCodeSending(email, ip, "verify");
  const db = getDb();
  const user = await findUserByEmail(db, email);
  if (user) {
    if (!user.emailVerified) await mailCode(email, "verify", await issueCode(email, "verify_email", user.id), { language });
    return;
  }
  const [pending] = await findUsersByPendingEmail(db, email);
  if (pending) await mailCode(email, "change", await issueCode(email, "change_email", pending.id), { language });
}

/** What proves the account holder when the e-mail changes (one or the other, by the account). */
export type AccountHolderProof = { currentPassword?: string | null; currentEmailCode?: string };

/**
 * Starts an e-mail change. A session alone is not enough (a stolen one would take the
 * account over): the account holder proves it first (proveAccountHolder). Then it is
 * counted like every code mail (429 over the limits), and the new address gets a code, or,
 * when it already has an account, its owner gets a notice and no code is issued. The
 * caller answers "code sent" either way.
 */
export async function startEmailChange(
  user: User,
  newEmail: string,
  ip: string,
  proof: AccountHolderProof,
  language: Language = STOREFRONT_LANGUAGE,
): Promise<void> {
  await proveAccountHolder(user, newEmail, ip, proof, language);
  // per account too: a session on a shared address could otherwise mail any number of strangers
  await limitEmailChanges(user.id);
  await limitCodeSending(newEmail, ip, "change");
  const owner = await findUserByEmail(getDb(), newEmail);
  if (owner && owner.id !== user.id) {
    const { siteName } = await siteFacts();
    const t = translatorFor(language);
    await mailNotice(newEmail, {
      subject: t("email.notice.subject", { site: siteName }),
      heading: t("email.notice.changeHeading"),
      paragraphs: [t("email.notice.changeText", { site: siteName }), t("email.notice.changeAdvice")],
      link: { path: "/login", label: t("email.notice.logIn") },
      signOff: t("email.signOff", { site: siteName }),
    });
    return;
  }
  await mailCode(newEmail, "change", await issueCode(newEmail, "change_email", user.id), { language });
}

/**
 * The account holder's proof before an e-mail change (decision 033):
 * - an account with a password: `currentPassword`, checked as a login try of the account
 *   (checkCurrentPassword: a wrong one counts as a failed login; 429 once throttled);
 *   missing: 400 CURRENT_PASSWORD_REQUIRED naming currentPassword;
 * - an account without one (Google sign-in only): a code mailed to its current address
 *   (counted like every code mail, the new address named in the mail). Without
 *   `currentEmailCode` the code is sent and the answer is 400 CURRENT_EMAIL_CODE_SENT naming
 *   currentEmailCode ("We sent a code to …"); a wrong or expired one is 400 INVALID_CODE
 *   naming it.
 * The limits of the change itself are looked at first (counting nothing), so a change that
 * would be refused for them spends no login try and no code, and mails nobody.
 */
async function proveAccountHolder(user: User, newEmail: string, ip: string, proof: AccountHolderProof, language: Language): Promise<void> {
  const hash = await getPasswordHash(getDb(), user.id);
  if (hash && !proof.currentPassword) {
    throw new ApiError(400, MESSAGES.currentPasswordRequired, "CURRENT_PASSWORD_REQUIRED", [
      { field: "currentPassword", message: MESSAGES.currentPasswordRequired },
    ]);
  }
  await assertEmailChangeAllowed(user.id, newEmail, ip);
  if (hash) return checkCurrentPassword(user, hash, proof.currentPassword!, ip);
  if (proof.currentEmailCode) {
    const { userId } = await redeemCode(user.email, "approve_email_change", proof.currentEmailCode, "currentEmailCode");
    if (userId !== user.id) throw invalidCode("currentEmailCode");
    return;
  }
  await limitCodeSending(user.email, ip, "approve-change");
  const code = await issueCode(user.email, "approve_email_change", user.id);
  await mailCode(user.email, "approve", code, { language, newEmail });
  const message = MESSAGES.currentEmailCodeSent(user.email);
  throw new ApiError(400, message, "CURRENT_EMAIL_CODE_SENT", [{ field: "currentEmailCode", message }]);
}

/**
 * Verifies an address with its code: either an unverified account's own address, or a
 * pending new address (which then replaces the old one). Proving the address also ends
 * any Google link made before it was proven (it may belong to someone else).
 */
export async function verifyEmail(email: string, code: string): Promise<User> {
  const db = getDb();
  const user = await findUserByEmail(db, email);
  if (user && !user.emailVerified) {
    await redeemCode(email, "verify_email", code);
    return (await updateUserRow(db, user.id, { email_verified: 1, google_id: null }))!;
  }
  // a new address: the code names the user waiting for it
  const { userId } = await redeemCode(email, "change_email", code);
  const waiting = userId === null ? undefined : await findUserById(db, userId);
  if (!waiting || waiting.pendingEmail !== email) throw invalidCode();
  return applyEmailChange(waiting.id, email);
}

/** The profile page's confirmation: the code must be the one mailed for this user. */
export async function confirmEmailChange(userId: number, email: string, code: string): Promise<User> {
  const { userId: codeUser } = await redeemCode(email, "change_email", code);
  if (codeUser !== userId) throw invalidCode();
  return applyEmailChange(userId, email);
}

async function applyEmailChange(userId: number, email: string): Promise<User> {
  const db = getDb();
  const owner = await findUserByEmail(db, email);
  if (owner && owner.id !== userId) throw userConflict("email");
  const updated = await writingUser(() => updateUserRow(db, userId, { email, pending_email: null, email_verified: 1 }));
  if (!updated) throw new ApiError(404, MESSAGES.userDeleted, "USER_DELETED");
  return updated;
}

// ---------------------------------------------------------------- password reset

/** Mails a reset code when the address has an account; the answer (and its time) never tells. */
export async function sendResetCode(email: string, ip: string, language: Language = STOREFRONT_LANGUAGE): Promise<void> {
  await limitCodeSending(email, ip, "reset");
  const user = await findUserByEmail(getDb(), email);
  if (!user) return;
  await mailCode(email, "reset", await issueCode(email, "reset_password", user.id), { language });
}

/**
 * Sets a new password with a reset code, through the one password function (every
 * session and token ends). Receiving the code proves the address: it counts as verified,
 * and a Google link made before it was proven is removed (a verified Google address
 * links again at the next Google sign-in).
 */
export async function resetPassword(input: { email: string; code: string; newPassword: string }): Promise<User> {
  await redeemCode(input.email, "reset_password", input.code);
  const user = await findUserByEmail(getDb(), input.email);
  if (!user) throw invalidCode();
  const updated = await setPassword(user.id, input.newPassword, { extra: { email_verified: 1, google_id: null } });
  await clearLoginFailures(input.email);
  return updated;
}

// ---------------------------------------------------------------- Google

export type GoogleIdentity = {
  sub: string;
  email?: string;
  email_verified?: boolean | string;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
};

async function uniqueUsername(base: string): Promise<string> {
  const db = getDb();
  const cleaned =
    base
      .normalize("NFKC")
      .replace(/[^\p{L}\p{N}_.-]+/gu, "")
      .slice(0, USERNAME_MAX - 5) || "user";
  const stem = cleaned.length >= 3 ? cleaned : `${cleaned}user`;
  if (!(await findUserByUsername(db, stem))) return stem;
  for (let i = 0; i < 20; i++) {
    const candidate = `${stem}${crypto.randomInt(1000, 99999)}`;
    if (!(await findUserByUsername(db, candidate))) return candidate;
  }
  return `user${crypto.randomUUID().slice(0, 8)}`;
}

/**
 * Signs in with a Google identity. Only an address Google has verified counts: an
 * unverified one never creates, links or signs in to an account (anyone can put any
 * address on a Google account). With a verified address: the linked account, or the
 * account with that address (it is then linked), or a new account.
 */
export async function loginWithGoogle(identity: GoogleIdentity, ip: string): Promise<LoginSuccess> {
  const email = identity.email?.trim().toLowerCase();
  const emailVerified = identity.email_verified === true || identity.email_verified === "true";
  if (!email) throw new ApiError(400, `${MESSAGES.googleFailed} Your Google account has no e-mail address.`, "GOOGLE_FAILED");
  if (!emailVerified) {
    throw new ApiError(
      403,
      `${MESSAGES.googleFailed} Your Google e-mail address is not verified. Verify it with Google, or register or log in with your e-mail address instead.`,
      "GOOGLE_EMAIL_UNVERIFIED",
    );
  }

  // two sign-ins of one new Google account at once (a double submit; two instances): the
  // second's insert is refused by a UNIQUE key and it starts again, then finding the first's
  for (let attempt = 1; ; attempt++) {
    let account: User;
    try {
      account = await googleAccount(identity, email);
    } catch (error) {
      if (attempt < 3 && uniqueKeyOf(error)) continue;
      throw error;
    }
    return completeLogin(account, ip);
  }
}

/** The account of a Google identity: the one linked to it, the one with its address (linked now), or a new one. */
async function googleAccount(identity: GoogleIdentity, email: string): Promise<User> {
  const db = getDb();
  const linked = await findUserByGoogleId(db, identity.sub);
  if (linked) return linked;
  const existing = await findUserByEmail(db, email);
  if (existing) {
    const updated = await updateUserRow(db, existing.id, {
      google_id: identity.sub,
      email_verified: 1,
      avatar_url: existing.avatarUrl ?? identity.picture ?? null,
    });
    return updated!;
  }
  return insertUser(db, {
    username: await uniqueUsername(identity.name || email.split("@")[0]),
    email,
    passwordHash: null,
    firstName: identity.given_name ?? null,
    lastName: identity.family_name ?? null,
    avatarUrl: identity.picture ?? null,
    emailVerified: true,
    googleId: identity.sub,
  });
}

// ---------------------------------------------------------------- first super admin

/**
 * Creates the first super_admin when none exists: ADMIN_EMAIL/ADMIN_PASSWORD, or a
 * random password printed once. Also used by `npm run admin:create`.
 */
export async function ensureSuperAdmin(
  input: { email?: string; password?: string; username?: string } = {},
  options: { force?: boolean } = {},
): Promise<{ created: boolean; promoted: boolean; email: string; username: string; generatedPassword?: string } | null> {
  const db = getDb();
  if (!options.force && (await countSuperAdmins(db)) > 0) return null;
  const role = await findRole(db, { name: "super_admin" });
  if (!role) throw new Error("the super_admin role is missing: run the migrations first");

  const email = (input.email ?? "admin@localhost").trim().toLowerCase();
  const existing = await findUserByEmail(db, email);
  if (existing) {
    // a new password goes through the one password function: the old one's sessions end
    if (input.password) await setPassword(existing.id, input.password);
    await db.transaction().execute(async (trx) => {
      await updateUserRow(trx, existing.id, { is_admin: 1, email_verified: 1 });
      await assignRole(trx, { userId: existing.id, roleId: role.id, expiresAt: null, assignedBy: null });
    });
    return { created: false, promoted: true, email, username: existing.username };
  }

  const generatedPassword = input.password ? undefined : crypto.randomBytes(12).toString("base64url");
  const username = input.username?.trim() || (await uniqueUsername(email.split("@")[0] === "admin" ? "admin" : email.split("@")[0]));
  await db.transaction().execute(async (trx) => {
    const user = await insertUser(trx, {
      username,
      email,
      passwordHash: await hashPassword(input.password ?? generatedPassword!),
      isAdmin: true,
      emailVerified: true,
    });
    await assignRole(trx, { userId: user.id, roleId: role.id, expiresAt: null, assignedBy: null });
  });
  return { created: true, promoted: false, email, username, generatedPassword };
}
