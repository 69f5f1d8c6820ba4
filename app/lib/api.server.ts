/**
 * The JSON side of the contract: the one error envelope and helpers for /api routes.
 *   failure: {"success": false, "message": "...", "code"?: "...", "errors"?: [{field, message}]}
 */
import { ZodError } from "zod";

export type FieldError = { field: string; message: string };

export type ApiErrorBody = {
  success: false;
  message: string;
  code?: string;
  errors?: FieldError[];
  [extra: string]: unknown;
};

/** Thrown from services and guards; turned into the envelope by apiRoute(). */
export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
    public code?: string,
    public errors?: FieldError[],
    public extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function apiError(
  status: number,
  message: string,
  options: { code?: string; errors?: FieldError[]; extra?: Record<string, unknown>; headers?: HeadersInit } = {},
): Response {
  const body: ApiErrorBody = { success: false, message };
  if (options.code) body.code = options.code;
  if (options.errors?.length) body.errors = options.errors;
  Object.assign(body, options.extra);
  return Response.json(body, { status, headers: options.headers });
}

export function zodToFieldErrors(error: ZodError): FieldError[] {
  return error.issues.map((issue) => ({ field: issue.path.join(".") || "body", message: issue.message }));
}

/** Turns anything thrown inside an /api handler into the envelope (never an HTML page). */
export function toApiResponse(error: unknown): Response {
  if (error instanceof Response) {
    if (error.headers.get("Content-Type")?.includes("application/json")) return error;
    const status = error.status >= 400 ? error.status : 500;
    return apiError(status, error.statusText || defaultMessage(status));
  }
  if (error instanceof ApiError) {
    return apiError(error.status, error.message, { code: error.code, errors: error.errors, extra: error.extra });
  }
  if (error instanceof ZodError) {
    const errors = zodToFieldErrors(error);
    return apiError(400, errors[0]?.message ?? "Invalid input", { code: "VALIDATION_ERROR", errors });
  }
  console.warn("[api] unexpected error:", error);
  return apiError(500, "Internal server error", { code: "INTERNAL_ERROR" });
}

export function defaultMessage(status: number): string {
  switch (status) {
    case 400:
      return "Bad request";
    case 401:
      return "Authentication required";
    case 403:
      return "Forbidden";
    case 404:
      return "Not found";
    case 405:
      return "Method not allowed";
    case 409:
      return "Conflict";
    case 413:
      return "Payload too large";
    case 429:
      return "Too many requests, please try again later";
    default:
      return "Internal server error";
  }
}

type Handler = () => Promise<Response> | Response;

/** Wraps a resource-route handler so every failure answers the JSON envelope. */
export async function apiRoute(handler: Handler): Promise<Response> {
  try {
    return await handler();
  } catch (error) {
    return toApiResponse(error);
  }
}

/** 405 for methods a resource route does not serve. */
export function methodNotAllowed(allowed: string[]): Response {
  return apiError(405, defaultMessage(405), { code: "METHOD_NOT_ALLOWED", headers: { Allow: allowed.join(", ") } });
}

export function ok<T extends Record<string, unknown>>(body: T, init?: ResponseInit): Response {
  return Response.json({ success: true, ...body }, init);
}
