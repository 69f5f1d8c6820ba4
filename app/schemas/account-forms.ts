/** Schemas of the account pages' forms (the API uses the plain ones in auth.ts). */
import { z } from "zod";
import {
  codeSchema,
  emailChangeProofSchema,
  emailSchema,
  MESSAGES,
  passwordSchema,
  phoneSchema,
  resetPasswordSchema,
  sendRegistrationCodeSchema,
  usernameSchema,
} from "./auth";

export const sendCodeFormSchema = sendRegistrationCodeSchema;

export const resetPasswordFormSchema = resetPasswordSchema
  .extend({ confirmPassword: z.string(MESSAGES.passwordRequired).min(1, MESSAGES.passwordRequired) })
  .refine((value) => value.newPassword === value.confirmPassword, { message: MESSAGES.passwordMismatch, path: ["confirmPassword"] });

export const profileFormSchema = z
  .object({ username: usernameSchema, email: emailSchema, phone: phoneSchema })
  .extend(emailChangeProofSchema.shape);

export const confirmEmailFormSchema = z.object({ code: codeSchema });

export const passwordFormSchema = z
  .object({
    currentPassword: z.string().optional(),
    newPassword: passwordSchema,
    confirmPassword: z.string(MESSAGES.passwordRequired).min(1, MESSAGES.passwordRequired),
  })
  .refine((value) => value.newPassword === value.confirmPassword, { message: MESSAGES.passwordMismatch, path: ["confirmPassword"] });
