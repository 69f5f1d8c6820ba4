/** Admin user-management inputs, limits and messages (docs/product/admin.md 5, 8, 9). */
import { z } from "zod";
import { emailSchema, MESSAGES, PASSWORD_MAX, phoneSchema, usernameSchema } from "./auth";

import { ADMIN_MESSAGES, USER_TYPE_FILTERS, USERS_PAGE_SIZE } from "./admin-users-rules";

export * from "./admin-users-rules";

const optionalName = z.string().trim().max(50, "At most 50 characters").optional().or(z.literal("")).nullable();
export const adminCreateUserSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: z
    .string(MESSAGES.passwordRequired)
    .min(1, MESSAGES.passwordRequired)
    .min(6, ADMIN_MESSAGES.passwordMin)
    .max(PASSWORD_MAX, MESSAGES.passwordMax),
  firstName: optionalName,
  lastName: optionalName,
  phone: phoneSchema.nullable(),
  roleIds: z.array(z.coerce.number().int().positive()).optional().default([]),
});
export type AdminCreateUserInput = z.infer<typeof adminCreateUserSchema>;

const booleanish = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0", "on"])])
  .transform((v) => v === true || v === "true" || v === "1" || v === "on");

export const adminUpdateUserSchema = z.object({
  username: usernameSchema.optional(),
  email: emailSchema.optional(),
  phone: phoneSchema.nullable(),
  is_admin: booleanish.optional(),
  avatar_url: z.string().trim().max(500).optional().nullable(),
});
export type AdminUpdateUserInput = z.infer<typeof adminUpdateUserSchema>;

export const adminResetPasswordSchema = z.object({
  newPassword: z.string(ADMIN_MESSAGES.passwordMin).min(6, ADMIN_MESSAGES.passwordMin).max(PASSWORD_MAX, MESSAGES.passwordMax),
});

export const roleAssignmentSchema = z.object({
  expiresAt: z
    .union([z.iso.datetime({ offset: true }), z.iso.date(), z.literal(""), z.null()])
    .optional()
    .transform((value) => (value ? new Date(value).toISOString() : null)),
});

/** Query of the admin user list (page and API). */
export const userListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).catch(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).catch(USERS_PAGE_SIZE).default(USERS_PAGE_SIZE),
  q: z.string().trim().max(100).catch("").default(""),
  userType: z.enum(USER_TYPE_FILTERS).catch("all").default("all"),
});

/** The user edit form: username and email are required there; empty phone/avatar clear them. */
export const adminEditUserFormSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  // an empty field arrives as undefined: on this form that means "clear it"
  phone: phoneSchema.transform((value) => value ?? ""),
  avatar_url: adminUpdateUserSchema.shape.avatar_url.transform((value) => value ?? ""),
  // an unticked checkbox is absent: false
  is_admin: z.boolean().optional().default(false),
  confirm: z.literal("on", { error: ADMIN_MESSAGES.confirmRequired }),
});

export const adminResetPasswordFormSchema = adminResetPasswordSchema
  .extend({
    confirmPassword: z.string(ADMIN_MESSAGES.passwordMismatch),
    confirm: z.literal("on", { error: ADMIN_MESSAGES.confirmRequired }),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: ADMIN_MESSAGES.passwordMismatch,
    path: ["confirmPassword"],
  });

/** The batch-create form: one textarea. */
export const adminBatchFormSchema = z.object({
  lines: z.string(ADMIN_MESSAGES.batchEmpty).trim().min(1, ADMIN_MESSAGES.batchEmpty),
});

/**
 * Parses the batch-create text: one user per line,
 * "username, email, password, firstName, lastName, phone" (at least the first three).
 */
export function parseBatchLines(text: string): Array<AdminCreateUserInput | { error: string }> {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const fields = line.split(",").map((f) => f.trim());
      if (fields.length < 3 || !fields[0] || !fields[1] || !fields[2]) return { error: ADMIN_MESSAGES.batchFormat };
      const [username, email, password, firstName, lastName, phone] = fields;
      const parsed = adminCreateUserSchema.safeParse({ username, email, password, firstName, lastName, phone: phone ?? "" });
      if (!parsed.success) return { error: parsed.error.issues[0].message };
      return parsed.data;
    });
}

export type BatchEntry = AdminCreateUserInput | { error: string };

/**
 * The API's batch body: each entry is a user object or a
 * "username,email,password,firstName,lastName,phone" line.
 */
export function parseBatchEntries(users: unknown[]): BatchEntry[] {
  return users.map((entry): BatchEntry => {
    if (typeof entry === "string") {
      return entry.trim() ? parseBatchLines(entry)[0] : { error: ADMIN_MESSAGES.batchFormat };
    }
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return { error: ADMIN_MESSAGES.batchFormat };
    const parsed = adminCreateUserSchema.safeParse(entry);
    return parsed.success ? parsed.data : { error: parsed.error.issues[0].message };
  });
}

export const adminBatchBodySchema = z.object({
  // how many: batchCreateUsers counts (one rule for the page and /api)
  users: z.array(z.unknown(), ADMIN_MESSAGES.batchEmpty),
});
