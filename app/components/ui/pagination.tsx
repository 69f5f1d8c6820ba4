import { Link } from "@remix-run/react";

/** Page numbers around the current one (a window of `size`, default 5). */
export function pageWindow(current: number, total: number, size = 5): number[] {
  const count = Math.min(size, total);
  let start = Math.max(1, current - Math.floor(count / 2));
  start = Math.min(start, total - count + 1);
  return Array.from({ length: count }, (_, i) => start + i);
}

/** Links that keep the other query parameters; works without JavaScript. */
export function Pagination({
  currentPage,
  totalPages,
  searchParams,
  pageParam = "page",
  label = "Pagination",
}: {
  currentPage: number;
  totalPages: number;
  searchParams: URLSearchParams;
  pageParam?: string;
  label?: string;
}) {
  if (totalPages <= 1) return null;
  const href = (page: number) => {
    const params = new URLSearchParams(searchParams);
    params.set(pageParam, String(page));
    return `?${params.toString()}`;
  };
  return (
    <nav className="pagination" aria-label={label}>
      {currentPage > 1 ? (
        <Link to={href(currentPage - 1)} rel="prev">
          ‹ Previous
        </Link>
      ) : (
        <span aria-disabled="true">‹ Previous</span>
      )}
      {pageWindow(currentPage, totalPages).map((page) =>
        page === currentPage ? (
          <span key={page} aria-current="page" className="pagination__current">
            {page}
          </span>
        ) : (
          <Link key={page} to={href(page)}>
            {page}
          </Link>
        ),
      )}
      {currentPage < totalPages ? (
        <Link to={href(currentPage + 1)} rel="next">
          Next ›
        </Link>
      ) : (
        <span aria-disabled="true">Next ›</span>
      )}
    </nav>
  );
}
