/** Client-safe HTTP helpers. */

const DEFAULT_REDIRECT = "/";

/**
 * Only same-site relative paths are followed; anything else (absolute URLs,
 * protocol-relative "//host", backslash tricks) goes to the default.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback: string = DEFAULT_REDIRECT): string {
  if (!to || typeof to !== "string") return fallback;
  const target = to.trim();
  // eslint-disable-next-line no-control-regex -- a control character makes the address unsafe
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\") || /[\u0000-\u001f]/.test(target)) {
    return fallback;
  }
  return target;
}

/** The sign-in (or sign-up) page that comes back to `back` (a path of this site) afterwards. */
export function signInHref(back: string, page: "login" | "register" = "login"): string {
  return `/${page}?redirectTo=${encodeURIComponent(back)}`;
}

/**
 * The values of every cookie named `name` in a Cookie header, in order, spaces around them
 * trimmed: a reader takes the first it understands (a browser may send two of a name, from
 * two paths). No decoding: each reader knows its values' form.
 */
export function cookieValues(header: string | null | undefined, name: string): string[] {
  const values: string[] = [];
  if (!header) return values;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index).trim() === name) values.push(part.slice(index + 1).trim());
  }
  return values;
}
