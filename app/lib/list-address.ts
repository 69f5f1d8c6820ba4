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
