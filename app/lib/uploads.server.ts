/**
 * Resolving a request path under UPLOADS_DIR without ever leaving it.
 * Used by the server's /uploads handler; the uploads service (later) writes here.
 */
import path from "node:path";

/**
 * Maps the part of a URL after /uploads/ to an absolute file path inside `root`, or
 * null when the request is malformed or tries to escape: "..", encoded "..", absolute
 * paths, backslashes, NUL bytes and dot-files are refused.
 */
export function resolveUploadPath(root: string, rawPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
    // a second decoding pass catches double-encoded traversal such as %252e%252e
    if (/%[0-9a-f]{2}/i.test(decoded)) decoded = decodeURIComponent(decoded);
  } catch {
    return null;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return null;
  const relative = decoded.replace(/^\/+/, "");
  if (relative === "" || decoded.startsWith("//") || path.isAbsolute(relative) || /^[a-z]:/i.test(relative)) return null;
  const segments = relative.split("/");
  if (segments.some((segment) => segment === "" || segment === "." || segment === ".." || segment.startsWith("."))) {
    return null;
  }
  const resolvedRoot = path.resolve(root);
  const resolved = path.resolve(resolvedRoot, ...segments);
  if (!resolved.startsWith(resolvedRoot + path.sep)) return null;
  return resolved;
}
