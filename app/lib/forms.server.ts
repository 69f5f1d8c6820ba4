/** Server-side form helper: a service error as a conform reply. */
import type { SubmissionResult } from "@conform-to/react";
import { ApiError, ForbiddenError } from "./api.server";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";

/**
 * Turns a service's ApiError into a conform reply: field errors on their fields, the
 * message as the form error. A permission refusal (ForbiddenError) and anything else are
 * rethrown: the page's 403 (adminAction) or its 500.
 */
export function replyWithApiError<T>(
  submission: {
    reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }) => SubmissionResult<T>;
  },
  error: unknown,
  options: { hideFields?: string[] } = {},
): SubmissionResult<T> {
  if (!(error instanceof ApiError) || error instanceof ForbiddenError) throw error;
  const fieldErrors: Record<string, string[]> = {};
  for (const fieldError of error.errors ?? []) {
    (fieldErrors[fieldError.field] ??= []).push(fieldError.message);
  }
  const formErrors = Object.keys(fieldErrors).length > 0 && error.errors?.every((e) => e.message === error.message) ? [] : [error.message];
  return submission.reply({ formErrors, fieldErrors, hideFields: options.hideFields });
}

/**
 * A form's reply that shows back what was typed, with no error and nothing done (a form
 * asking for another captcha image); the fields named in `hide` (a password) come back empty.
 */
export function typedOnly(formData: FormData, hide: string[] = []): SubmissionResult<string[]> {
  const submission = parseWithZod(formData, { schema: z.object({}).passthrough() });
  return submission.reply({ hideFields: hide }) as SubmissionResult<string[]>;
}
