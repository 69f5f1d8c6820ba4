/**
 * The JSON side of the contract: the one error envelope and helpers for /api routes.
 *   failure: {"success": false, "message": "...", "code"?: "...", "errors"?: [{field, message}]}
 */
import { ZodError } from "zod";
import { formatBytes, isPayloadTooLarge } from "./body-limits.server";
import { idOf } from "./ids";
import { log } from "./log.server";

/**
 * A JSON answer with the charset spelled out: what express sent for every /api answer
 * anyway, now also what the server's front sends for the answers it keeps.
 */
function json(body: unknown, init?: ResponseInit): Response {
  const headers = new Headers(init?.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(body), { ...init, headers });
}

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

/**
 * A service's refusal of an action the actor may not take (its permission check, not a
 * rule about the thing itself): /api answers 403 in the envelope; a page shows its 403.
 */
export class ForbiddenError extends ApiError {
  constructor(message = "权限不足，需要管理员权限") {
    super(403, message, "FORBIDDEN");
    this.name = "ForbiddenError";
  }
}

/**
 * A service's failure that a page shows to the admin (a toast, a form error). A refusal
 * (ForbiddenError) is not one: it goes on to the page's 403 (adminAction).
 */
export const isServiceError = (error: unknown): error is ApiError => error instanceof ApiError && !(error instanceof ForbiddenError);

export function apiError(
  status: number,
  message: string,
  options: { code?: string; errors?: FieldError[]; extra?: Record<string, unknown>; headers?: HeadersInit } = {},
): Response {
  const body: ApiErrorBody = { success: false, message };
  if (options.code) body.code = options.code;
  if (options.errors?.length) body.errors = options.errors;
  Object.assign(body, options.extra);
  return json(body, { status, headers: options.headers });
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
  if (isPayloadTooLarge(error)) {
    // the server answers this 413 itself (server/serve.ts); this is its JSON twin
    const limit = (error as { limit?: number }).limit;
    return apiError(413, limit ? `The request is too large (at most ${formatBytes(limit)})` : defaultMessage(413), {
      code: "PAYLOAD_TOO_LARGE",
    });
  }
  log.error(`[api] unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
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

/**
 * The envelope of /api/email (docs/runtime.md "E-mail marketing"): every answer is
 * `{success, message, data, error}`. Success: `data` holds the answer, `error` is null.
 * Failure: `data` is null and `error` the machine code, next to the usual `message`,
 * `code` and `errors` of the error envelope.
 */
export function dataOk(message: string, data: unknown, init?: ResponseInit): Response {
  return json({ success: true, message, data, error: null }, init);
}

async function asDataEnvelope(response: Response): Promise<Response> {
  if (response.ok) return response;
  const body = (await response.json().catch(() => ({ message: response.statusText || defaultMessage(response.status) }))) as Record<
    string,
    unknown
  >;
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  return json(
    {
      ...body,
      success: false,
      message: body.message ?? defaultMessage(response.status),
      data: null,
      error: body.code ?? body.message ?? null,
    },
    { status: response.status, headers },
  );
}

/** apiRoute() with the {success, message, data, error} envelope. */
export async function dataApiRoute(handler: Handler): Promise<Response> {
  return asDataEnvelope(await apiRoute(handler));
}

/** methodNotAllowed() with the {success, message, data, error} envelope. */
export function dataMethodNotAllowed(allowed: string[]): Promise<Response> {
  return asDataEnvelope(methodNotAllowed(allowed));
}

/** byMethod() with the {success, message, data, error} envelope. */
export async function dataByMethod(
  request: Request,
  handlers: Partial<Record<"POST" | "PUT" | "PATCH" | "DELETE", () => Promise<Response>>>,
): Promise<Response> {
  return asDataEnvelope(await byMethod(request, handlers));
}

/** 405 for methods a resource route does not serve. */
export function methodNotAllowed(allowed: string[]): Response {
  return apiError(405, defaultMessage(405), { code: "METHOD_NOT_ALLOWED", headers: { Allow: allowed.join(", ") } });
}

export function ok<T extends Record<string, unknown>>(body: T, init?: ResponseInit): Response {
  return json({ success: true, ...body }, init);
}

type Schema<T> = { safeParse: (value: unknown) => { success: true; data: T } | { success: false; error: ZodError } };

/** A JSON (or urlencoded/multipart form) body as an object, unchecked: for a service that checks it itself. */
export async function readRawBody(request: Request): Promise<Record<string, unknown>> {
  let raw: unknown = {};
  const type = request.headers.get("Content-Type") ?? "";
  if (type.includes("application/json")) {
    const text = await request.text();
    if (text.trim()) {
      try {
        raw = JSON.parse(text);
      } catch {
        throw new ApiError(400, "The request body is not valid JSON", "INVALID_JSON");
      }
    }
  } else if (type.includes("form")) {
    raw = Object.fromEntries(await request.formData());
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new ApiError(400, "The request body must be a JSON object", "INVALID_JSON");
  }
  return raw as Record<string, unknown>;
}

/** Checks input with a zod schema: the value, or 400 naming each bad field (VALIDATION_ERROR). */
export function parseInput<T>(schema: Schema<T>, raw: unknown): T {
  const result = schema.safeParse(raw);
  if (!result.success) {
    const errors = zodToFieldErrors(result.error);
    throw new ApiError(400, errors[0]?.message ?? "Invalid input", "VALIDATION_ERROR", errors);
  }
  return result.data;
}

/** Reads a JSON (or urlencoded/multipart form) body and validates it with a zod schema. */
export async function readBody<T>(request: Request, schema: Schema<T>): Promise<T> {
  return parseInput(schema, await readRawBody(request));
}

/** A positive integer route parameter, or 400 naming it. */
export function parseId(value: string | undefined, name = "id"): number {
  const id = idOf(value);
  if (id === null) throw new ApiError(400, `Invalid ${name}`, "VALIDATION_ERROR", [{ field: name, message: `Invalid ${name}` }]);
  return id;
}

// ---------------------------------------------------------------- not found

/** A 404 of the envelope (`NOT_FOUND`) with the thing's own message. */
export const notFound = (message: string) => new ApiError(404, message, "NOT_FOUND");

export const isNotFound = (error: unknown): error is ApiError => error instanceof ApiError && error.status === 404;

/**
 * The promise's value, or null when it fails with a 404: for a caller that can do without
 * the thing (a dialog about a record that has gone). Every other failure, a database
 * error above all, is thrown on: it never reads as "not found".
 */
export async function nullIfNotFound<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/**
 * For a page: the value, or the page's own 404 (its error boundary's "not found", with
 * `message` or the service's) when the promise fails with a 404. Other failures go on.
 */
export async function orPageNotFound<T>(promise: Promise<T>, message?: string): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (isNotFound(error)) throw pageNotFound(message ?? error.message);
    throw error;
  }
}

/** The id of a page's address, or the page's 404 with `message` (a word where a number belongs included). */
export function pageId(value: string | undefined, message: string): number {
  const id = idOf(value);
  if (id === null) throw pageNotFound(message);
  return id;
}

/** The Response a page throws for a 404 (its error boundary shows the message). */
export function pageNotFound(message = "Not Found"): Response {
  // the reason phrase stays plain ASCII (a message may hold Chinese); the body says what
  return new Response(message, { status: 404, statusText: "Not Found" });
}

/** Dispatches a resource route's action by HTTP method; other methods get 405. */
export function byMethod(
  request: Request,
  handlers: Partial<Record<"POST" | "PUT" | "PATCH" | "DELETE", () => Promise<Response>>>,
): Promise<Response> {
  const handler = handlers[request.method as keyof typeof handlers];
  if (!handler) return Promise.resolve(methodNotAllowed(["GET", ...Object.keys(handlers)]));
  return apiRoute(handler);
}
