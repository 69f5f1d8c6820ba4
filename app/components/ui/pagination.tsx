import { PageLink } from "~/components/ui/page-link";
import { useT } from "~/i18n/i18n";

/** Page numbers around the current one (a window of `size`, default 5). */
export function pageWindow(current: number, total: number, size = 5): number[] {
  const count = Math.min(size, total);
  let start = Math.max(1, current - Math.floor(count / 2));
  start = Math.min(start, total - count + 1);
  return Array.from({ length: count }, (_, i) => start + i);
}

/**
 * The first page, the last, and those within `around` of the current one, with a gap
 * ("…") where numbers are skipped (docs/product/admin.md 9, the blog's lists).
 */
export function pageLinks(current: number, total: number, around = 2): Array<number | "gap"> {
  const pages = new Set<number>([1, total]);
  for (let page = current - around; page <= current + around; page++) if (page >= 1 && page <= total) pages.add(page);
  const sorted = [...pages].sort((a, b) => a - b);
  const links: Array<number | "gap"> = [];
  sorted.forEach((page, index) => {
    if (index > 0 && page - sorted[index - 1] > 1) links.push("gap");
    links.push(page);
  });
  return links;
}

/**
 * Links that keep the other query parameters; works without JavaScript. `variant`
 * "window" shows five numbers around the current page, "ends" the first, the last and
 * two either side of the current one with ellipses.
 */
export function Pagination({
  currentPage,
  totalPages,
  searchParams,
  pageParam = "page",
  label,
  variant = "window",
  basePath = "",
}: {
  currentPage: number;
  totalPages: number;
  searchParams: URLSearchParams;
  pageParam?: string;
  label?: string;
  variant?: "window" | "ends";
  /** the list's path, when its links must not be relative (a layout route's child) */
  basePath?: string;
}) {
  const t = useT();
  if (totalPages <= 1) return null;
  const href = (page: number) => {
    const params = new URLSearchParams(searchParams);
    if (page === 1 && variant === "ends") params.delete(pageParam);
    else params.set(pageParam, String(page));
    const query = params.toString();
    return query ? `${basePath}?${query}` : basePath || "?";
  };
  const numbers = variant === "ends" ? pageLinks(currentPage, totalPages) : pageWindow(currentPage, totalPages);
  return (
    <nav className="pagination" aria-label={label ?? t("common.pagination.label")}>
      {currentPage > 1 ? (
        <PageLink to={href(currentPage - 1)} rel="prev">
          {`‹ ${t("common.previous")}`}
        </PageLink>
      ) : (
        <span aria-disabled="true">{`‹ ${t("common.previous")}`}</span>
      )}
      {numbers.map((page, index) =>
        page === "gap" ? (
          <span key={`gap-${index}`} className="pagination__gap" aria-hidden="true">
            …
          </span>
        ) : page === currentPage ? (
          <span key={page} aria-current="page" className="pagination__current">
            {page}
          </span>
        ) : (
          <PageLink key={page} to={href(page)}>
            {page}
          </PageLink>
        ),
      )}
      {currentPage < totalPages ? (
        <PageLink to={href(currentPage + 1)} rel="next">
          {`${t("common.next")} ›`}
        </PageLink>
      ) : (
        <span aria-disabled="true">{`${t("common.next")} ›`}</span>
      )}
    </nav>
  );
}
