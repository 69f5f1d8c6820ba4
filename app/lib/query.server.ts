/** Query strings for /api lists: parsed with a zod schema, a bad value answers 400 naming it. */
import { ApiError, zodToFieldErrors } from "./api.server";
import type { ZodError } from "zod";

export function parseQuery<T>(
  request: Request,
  schema: { safeParse: (value: unknown) => { success: true; data: T } | { success: false; error: ZodError } },
  /** keys that may be repeated (?platform=a&platform=b): handed over as a list; any other key gives its last value */
  repeated: readonly string[] = [],
): T {
  const params = new URL(request.url).searchParams;
  const raw: Record<string, string | string[]> = Object.fromEntries(params);
  for (const key of repeated) if (params.getAll(key).length > 1) raw[key] = params.getAll(key);
  const result = schema.safeParse(raw);
  if (!result.success) {
    const errors = zodToFieldErrors(result.error);
    throw new ApiError(400, errors[0]?.message ?? "Invalid query", "VALIDATION_ERROR", errors);
  }
  return result.data;
}

/** The list envelope of docs/product/admin.md 3 (items, currentPage, totalPages, totalItems, ...). */
export function pageEnvelope<T>(page: { items: T[]; page: number; totalPages: number; totalItems: number; limit: number }) {
  return {
    items: page.items,
    currentPage: page.page,
    totalPages: page.totalPages,
    totalItems: page.totalItems,
    limit: page.limit,
    hasNextPage: page.page < page.totalPages,
    hasPrevPage: page.page > 1,
  };
}
