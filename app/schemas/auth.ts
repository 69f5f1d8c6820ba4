/**
 * Account inputs: one zod schema per input, shared by pages and /api, with the limits
 * and messages as named constants.
 */
import { z } from "zod";

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
export const CODE_LENGTH = 6;
export const CODE_TTL_MINUTES = 10;
export const CODE_MAX_ATTEMPTS = 5;
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const PHONE_MAX = 30;

export const MESSAGES = {
  emailRequired: "Email is required",
  emailInvalid: "Please enter a valid email address",
  usernameRequired: "Username is required",
  usernameLength: `Username must be ${USERNAME_MIN} to ${USERNAME_MAX} characters`,
  usernameChars: "Username may contain letters, numbers, underscores, dots and hyphens only",
  passwordRequired: "Password is required",
  passwordMin: `Password must be at least ${PASSWORD_MIN} characters`,
  passwordMax: `Password must be at most ${PASSWORD_MAX} characters`,
  passwordMismatch: "Passwords do not match",
  codeRequired: "Verification code is required",
  codeFormat: `The verification code is ${CODE_LENGTH} digits`,
  codeInvalid: "Invalid or expired verification code",
  phoneInvalid: "Please enter a valid phone number",
  identifierRequired: "Email or username is required",
  invalidCredentials: "Invalid email/username or password",
  captchaRequired: "Please enter the characters shown in the image",
  captchaInvalid: "The characters did not match the image. Please try again.",
  emailNotVerified: "Please verify your email address before logging in.",
  tooMany: "Too many requests, please try again later",
  emailTaken: "This email is already registered",
  usernameTaken: "This username is already taken",
  authRequired: "Authentication required",
  authRequiredForAction: "Authentication required for this action.",
  userDeleted: "User account deleted",
  tokenExpired: "Token expired",
  // spec/storefront.md 8 fallbacks
  sendCodeFailed: "Failed to send verification code. Please try again.",
  registrationFailed: "Registration failed. Please try again.",
  loginFailed: "Login failed. Please check your credentials and try again.",
  sendResetFailed: "Failed to send password reset code. Please try again.",
  resetFailed: "Failed to reset password. Please try again.",
  verifyFailed: "Failed to verify email. Please try again.",
  resendFailed: "Failed to resend verification code. Please try again.",
  profileLoginRequired: "You must be logged in to view your profile.",
  profileUpdateFailed: "Failed to update profile.",
  passwordChangeFailed: "Failed to change password.",
  googleFailed: "Google login failed.",
  avatarNotImage: "Please select an image file",
  avatarTooLarge: "Image size cannot exceed 5MB",
  avatarFailed: "Avatar upload failed, please try again",
  currentPasswordWrong: "Current password is incorrect",
} as const;

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

export const phoneSchema = z
  .string()
  .trim()
  .max(PHONE_MAX, MESSAGES.phoneInvalid)
  .regex(/^[+\d][\d\s()-]*$/, MESSAGES.phoneInvalid)
  .or(z.literal(""))
  .optional();

export const sendCodeSchema = z.object({ email: emailSchema });

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

export const refreshTokenSchema = z.object({ refreshToken: z.string().min(1, "refreshToken is required") });

export const updateProfileSchema = z.object({
  username: usernameSchema.optional(),
  email: emailSchema.optional(),
  phone: phoneSchema.nullable(),
  avatarUrl: z
    .string()
    .trim()
    .max(500)
    .refine((value) => value === "" || /^\/uploads\/[\w./-]+$/.test(value) || /^https?:\/\/\S+$/i.test(value), "avatarUrl must be an uploaded image path or an http(s) URL")
    .optional()
    .nullable(),
});

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
