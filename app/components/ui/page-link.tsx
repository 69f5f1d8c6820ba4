import { useLocation } from "@remix-run/react";
import type { AnchorHTMLAttributes, MouseEvent } from "react";

/**
 * A link to a page of the shop that, once the page is hydrated, is followed without loading
 * a new document, as Remix's <Link> does, and costs the hydration next to nothing.
 *
 * Remix's <Link> is about twenty hooks and contexts (react-router's href resolution, click
 * handler and navigation state, Remix's prefetching): a page's product cards, menus and
 * lists are dozens of links, a sixth of the home page's hydration (docs/performance.md,
 * "Lighthouse, December"). This one is a plain `<a>` with one shared click handler that asks
 * Remix's router to navigate when the click is one the browser would follow in this tab.
 * Before hydration, and for any other click, the browser follows the link itself.
 *
 * `to` is a path (`/search?q=tote`), or an address relative to the page's path (`?page=2`,
 * `#comments`), written out in full as <Link> writes it. Routes are discovered as <Link>'s are (`data-discover`).
 * Where prefetching or an active state is wanted, use Remix's <Link> or <NavLink>.
 */
type PageLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  to: string;
  /** keep the scroll position (a link within the page's own lists or comments) */
  preventScrollReset?: boolean;
  /** replace the history entry instead of adding one */
  replace?: boolean;
};

type RemixRouter = { navigate: (to: string, options: { replace?: boolean; preventScrollReset?: boolean }) => unknown };

export function PageLink(props: PageLinkProps) {
  return isRelative(props.to) ? <RelativePageLink {...props} /> : <Anchor {...props} href={props.to} />;
}

/** `?page=2`, `#comments`: written out from the page's path, as Remix's <Link> writes them (its route's path, the same here). */
function RelativePageLink(props: PageLinkProps) {
  const { pathname } = useLocation();
  const url = new URL(props.to, `http://page${pathname}`);
  return <Anchor {...props} href={url.pathname + url.search + url.hash} />;
}

function Anchor({ to, href, preventScrollReset, replace, onClick, children, ...attributes }: PageLinkProps & { href: string }) {
  const follow =
    onClick || preventScrollReset || replace
      ? (event: MouseEvent<HTMLAnchorElement>) => {
          onClick?.(event);
          followInPage(event, { preventScrollReset, replace });
        }
      : followInPage;
  return (
    // the attributes in the order Remix's <Link> writes them: the same HTML as before
    <a {...attributes} data-discover={isInApp(to) ? "true" : undefined} href={href} onClick={follow}>
      {children}
    </a>
  );
}

/** An address relative to the page's own (not a path, not another site's). */
function isRelative(to: string): boolean {
  return !to.startsWith("/") && isInApp(to);
}

/** Whether an address is one of the app's (not another site's, not a scheme of its own). */
function isInApp(to: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:|^\/\//i.test(to);
}

/** A click the browser would follow in this tab, taken by the router: the same tests as react-router's <Link>. */
function followInPage(event: MouseEvent<HTMLAnchorElement>, options: { preventScrollReset?: boolean; replace?: boolean } = {}): void {
  const link = event.currentTarget;
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
  if ((link.target && link.target !== "_self") || link.hasAttribute("download")) return;
  const router = (window as unknown as { __remixRouter?: RemixRouter }).__remixRouter;
  const url = new URL(link.href, window.location.href);
  if (!router || url.origin !== window.location.origin) return;
  event.preventDefault();
  const to = url.pathname + url.search + url.hash;
  const here = window.location.pathname + window.location.search + window.location.hash;
  void router.navigate(to, { replace: options.replace ?? to === here, preventScrollReset: options.preventScrollReset });
}
