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
import { plainLine } from "~/lib/text";
import { useNonce } from "~/lib/nonce";
import { getPageUser } from "~/services/request-user.server";
import { DEFAULT_CURRENCY, type CurrencyCode, type Rates } from "~/lib/currency";
import { readCurrency } from "~/lib/currency.server";
import { getAccess } from "~/services/permissions.server";
import { getToast } from "~/lib/toast.server";
import { AccountMenu } from "~/components/storefront/account-menu";
import { getRates } from "~/services/currency.server";
import { loadSettings, toAdBannerConfig, toSiteInfo } from "~/services/site-settings.server";
import { isTrue, SITE_SETTING_FALLBACKS } from "~/schemas/site-settings";
import stylesheet from "~/styles/app.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.ico", sizes: "any" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const settings = await loadSettings();
  const { toast, headers } = await getToast(request);
  const url = new URL(request.url);
  const user = await getPageUser(request);
  const access = user ? await getAccess(user) : null;
  const { rates } = await getRates();
  return Response.json(
    {
      siteInfo: toSiteInfo(settings),
      // a switched-off banner (perhaps a draft) never reaches the page, not even its data
      adBanner: isTrue(settings.ad_banner_enabled) ? toAdBannerConfig(settings) : null,
      analyticsCode: settings.google_analytics_code.trim(),
      toast,
      searchQuery: url.pathname === "/search" ? plainLine(url.searchParams.get("q") ?? "") : "",
      currency: readCurrency(request),
      rates,
      currentUser:
        user && access
          ? {
              id: user.id,
              username: user.username,
              avatarUrl: user.avatarUrl,
              hasAdminAccess: access.hasAdminAccess,
            }
          : null,
    },
    { headers: headers ?? undefined },
  );
}

export type RootLoaderData = {
  siteInfo: ReturnType<typeof toSiteInfo>;
  adBanner: ReturnType<typeof toAdBannerConfig> | null;
  analyticsCode: string;
  toast: Awaited<ReturnType<typeof getToast>>["toast"];
  searchQuery: string;
  currency: CurrencyCode;
  rates: Rates;
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
