import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useRouteError, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { AdBanner } from "~/components/storefront/ad-banner";
import { SiteFooter } from "~/components/storefront/site-footer";
import { SiteHeader } from "~/components/storefront/site-header";
import { Analytics } from "~/components/storefront/analytics";
import { ErrorPage } from "~/components/ui/error-page";
import { ToastView } from "~/components/ui/toast";
import { pageMeta } from "~/lib/meta";
import { useNonce } from "~/lib/nonce";
import { DEFAULT_CURRENCY, type CurrencyCode, type Rates } from "~/lib/currency";
import { AccountMenu } from "~/components/storefront/account-menu";
import type { CategoryNavItem } from "~/components/storefront/category-nav";
import { rootLoader, type RootView } from "~/controllers/root.server";
import { SITE_SETTING_FALLBACKS } from "~/schemas/site-settings";
import stylesheet from "~/styles/app.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.ico", sizes: "any" },
];

export const loader = ({ request }: LoaderFunctionArgs) => rootLoader(request);

export type RootLoaderData = RootView & {
  searchQuery: string;
  currency: CurrencyCode;
  rates: Rates;
  categoryNav: CategoryNavItem[];
  currentUser: { id: number; username: string; avatarUrl: string | null; hasAdminAccess: boolean } | null;
};

export const meta: MetaFunction = ({ matches }) => pageMeta(matches);

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData("root") as RootLoaderData | undefined;
  const nonce = useNonce();
  const location = useLocation();
  const siteName = data?.siteInfo.site_name ?? SITE_SETTING_FALLBACKS.site_name;
  // the banner speaks to shoppers: the back office has work on its screens
  const inBackOffice = location.pathname === "/admin" || location.pathname.startsWith("/admin/");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f766e" />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <SiteHeader
          siteName={siteName}
          searchQuery={data?.searchQuery ?? ""}
          currency={data?.currency ?? DEFAULT_CURRENCY}
          categories={data?.categoryNav ?? []}
          returnTo={location.pathname + location.search}
          search={location.pathname !== "/"}
          accountSlot={<AccountMenu user={data?.currentUser ?? null} />}
        />
        {data?.adBanner?.enabled && !inBackOffice ? <AdBanner config={data.adBanner} /> : null}
        {data?.toast ? <ToastView key={data.toast.id} toast={data.toast} /> : null}
        <main id="main" className="container main">
          {children}
        </main>
        <SiteFooter siteName={siteName} />
        {data?.analyticsCode ? <Analytics code={data.analyticsCode} /> : null}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  return <ErrorPage error={error} />;
}
