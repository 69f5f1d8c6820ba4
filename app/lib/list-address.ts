/**
 * The address of a back-office list (search, filters, page) without the query parameters
 * that only open one of its dialogs (and Remix's ?index): what its links, its forms'
 * returnTo and the redirects after an action use. Client-safe.
 */
export function listParams(params: URLSearchParams, dialogParams: readonly string[]): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of [...dialogParams, "index"]) next.delete(key);
  return next;
}

export function listAddress(
  path: string,
  params: URLSearchParams,
  dialogParams: readonly string[],
  extra: Record<string, string> = {},
): string {
  const next = listParams(params, dialogParams);
  for (const [key, value] of Object.entries(extra)) next.set(key, value);
  const query = next.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * Where a list's action goes back to: the list address its form named in `returnTo` (this
 * list's own path only, never another page or site), else the list as the request
 * addressed it. Dialog parameters are dropped: the page after an action shows the list.
 */
export function listReturnTo(returnTo: unknown, path: string, dialogParams: readonly string[], request: Request): string {
  if (typeof returnTo === "string" && returnTo.startsWith("/") && !returnTo.startsWith("//")) {
    const named = new URL(returnTo, "http://list.invalid");
    if (named.host === "list.invalid" && named.pathname === path) return listAddress(path, named.searchParams, dialogParams);
  }
  return listAddress(path, new URL(request.url).searchParams, dialogParams);
}
