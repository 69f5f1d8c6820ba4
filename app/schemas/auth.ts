/**
 * Account inputs: one zod schema per input, shared by pages and /api, with the limits
 * and messages as named constants.
 */
import { z } from "zod";

import { CODE_LENGTH, MESSAGES, PASSWORD_MAX, PASSWORD_MIN, PHONE_MAX, USERNAME_MAX, USERNAME_MIN } from "./auth-rules";

export * from "./auth-rules";

export const emailSchema = z
  .string(MESSAGES.emailRequired)
  .trim()
  .min(1, MESSAGES.emailRequired)
  .max(254, MESSAGES.emailInvalid)
  .pipe(z.email(MESSAGES.emailInvalid))
  .transform((value) => value.toLowerCase());

export const usernameSchema = z
  .string(MESSAGES.usernameRequired)
  .trim()
  .min(1, MESSAGES.usernameRequired)
  .min(USERNAME_MIN, MESSAGES.usernameLength)
  .max(USERNAME_MAX, MESSAGES.usernameLength)
  .regex(/^[\p{L}\p{N}_.-]+$/u, MESSAGES.usernameChars);

export const passwordSchema = z
  .string(MESSAGES.passwordRequired)
  .min(1, MESSAGES.passwordRequired)
  .min(PASSWORD_MIN, MESSAGES.passwordMin)
  .max(PASSWORD_MAX, MESSAGES.passwordMax);

export const codeSchema = z
  .string(MESSAGES.codeRequired)
  .trim()
  .min(1, MESSAGES.codeRequired)
  .regex(new RegExp(`^\\d{${CODE_LENGTH}}$`), MESSAGES.codeFormat);

/** A code that may be left out: an empty value counts as none (a form's empty field, a client's ""). */
export const optionalCodeSchema = z.preprocess((value) => (value === "" || value === null ? undefined : value), codeSchema.optional());

/**
 * What proves the account holder when the e-mail changes: the current password, or for an
 * account without one, the code mailed to its current address. Either may be left out (the
 * service says which is missing).
 */
export const emailChangeProofSchema = z.object({
  currentPassword: z.string().max(PASSWORD_MAX, MESSAGES.passwordMax).optional().nullable(),
  currentEmailCode: optionalCodeSchema,
});

export const phoneSchema = z
  .string()
  .trim()
  .max(PHONE_MAX, MESSAGES.phoneInvalid)
  .regex(/^[+\d][\d\s()-]*$/, MESSAGES.phoneInvalid)
  .or(z.literal(""))
  .optional();

export const sendCodeSchema = z.object({ email: emailSchema });

/** The registration code request: a captcha comes with it once the address sends many. */
export const sendRegistrationCodeSchema = sendCodeSchema.extend({
  captchaId: z.string().trim().max(100).optional(),
  captchaText: z.string().trim().max(20).optional(),
});

export const registerSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
  code: codeSchema,
});

export const loginSchema = z.object({
  email: z.string(MESSAGES.identifierRequired).trim().min(1, MESSAGES.identifierRequired).max(254),
  password: z.string(MESSAGES.passwordRequired).min(1, MESSAGES.passwordRequired).max(PASSWORD_MAX),
  captchaId: z.string().trim().max(100).optional(),
  captchaText: z.string().trim().max(20).optional(),
});

export const verifyEmailSchema = z.object({ email: emailSchema, code: codeSchema });

export const resetPasswordSchema = z.object({
  email: emailSchema,
  code: codeSchema,
  newPassword: passwordSchema,
});

export const changePasswordSchema = z.object({
  currentPassword: z.string(MESSAGES.passwordRequired).min(1, MESSAGES.passwordRequired),
  newPassword: passwordSchema,
});

export const refreshTokenSchema = z.object({
  refreshToken: z.string(MESSAGES.refreshTokenRequired).trim().min(1, MESSAGES.refreshTokenRequired),
});

export const updateProfileSchema = z
  .object({
    username: usernameSchema.optional(),
    email: emailSchema.optional(),
    phone: phoneSchema.nullable(),
    avatarUrl: z.string().trim().max(500).optional().nullable(),
  })
  .extend(emailChangeProofSchema.shape);

export const googleTokenSchema = z
  .object({
    idToken: z.string().optional(),
    credential: z.string().optional(),
    token: z.string().optional(),
  })
  .refine((value) => value.idToken || value.credential || value.token, {
    message: "idToken is required",
    path: ["idToken"],
  })
  .transform((value) => ({ idToken: (value.idToken || value.credential || value.token)! }));
