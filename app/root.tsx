import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { AdBanner } from "~/components/storefront/ad-banner";
import { SiteFooter } from "~/components/storefront/site-footer";
import { SiteHeader } from "~/components/storefront/site-header";
import { Analytics } from "~/components/storefront/analytics";
import { ErrorPage } from "~/components/ui/error-page";
import { ToastView } from "~/components/ui/toast";
import { pageMeta } from "~/lib/meta";
import { useNonce } from "~/lib/nonce";
import { EarlyScript } from "~/lib/early-script";
import { DEFAULT_CURRENCY, type CurrencyCode, type Rates } from "~/lib/currency";
import { AccountMenu } from "~/components/storefront/account-menu";
import type { CategoryNavItem } from "~/components/storefront/category-nav";
import { rootLoader, type RootView } from "~/controllers/root.server";
import { DEFAULT_SITE_NAME } from "~/schemas/site-settings";
import stylesheet from "~/styles/app.css";
import { I18nProvider, useT } from "~/i18n/i18n";
import { PageTexts } from "~/i18n/page-texts";
import { isBackOfficePath, STOREFRONT_LANGUAGE, type Language } from "~/i18n/languages";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.ico", sizes: "any" },
];

export const loader = ({ request }: LoaderFunctionArgs) => rootLoader(request);

export type RootLoaderData = RootView & {
  searchQuery: string;
  currency: CurrencyCode;
  language: Language;
  /** on back-office pages: the storefront's language, which may differ (app/entry.client.tsx) */
  storefrontLanguage?: Language;
  /** on back-office pages: the zone scheduled times are typed and shown in (app/lib/time-zones.ts) */
  timeZone?: string;
  rates: Rates;
  categoryNav: CategoryNavItem[];
  currentUser: { id: number; username: string; avatarUrl: string | null; hasAdminAccess: boolean } | null;
};

export const meta: MetaFunction = ({ matches }) => pageMeta(matches);

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData("root") as RootLoaderData | undefined;
  const nonce = useNonce();
  const location = useLocation();
  const siteName = data?.siteInfo.site_name ?? DEFAULT_SITE_NAME;
  // the banner speaks to shoppers: the back office has work on its screens
  const inBackOffice = isBackOfficePath(location.pathname);
  const language = data?.language ?? STOREFRONT_LANGUAGE;
  return (
    <html lang={language} data-storefront-lang={data?.storefrontLanguage !== language ? data?.storefrontLanguage : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f766e" />
        <EarlyScript nonce={nonce} />
        <Meta />
        <Links />
      </head>
      <body>
        <I18nProvider language={language}>
          <HydratedMark />
          <SkipLink />
          <SiteHeader
            siteName={siteName}
            searchQuery={data?.searchQuery ?? ""}
            currency={data?.currency ?? DEFAULT_CURRENCY}
            language={language}
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
          {inBackOffice ? null : <PageTexts language={language} />}
          <ScrollRestoration nonce={nonce} />
          <Scripts nonce={nonce} />
        </I18nProvider>
      </body>
    </html>
  );
}

/**
 * Marks the document once React has taken it over (`<html data-hydrated>`): the page's
 * enhancements (a select that sends its form on change) work from then on. Before, the
 * page is the server's, whose forms work with their buttons; the browser tests wait for it.
 */
function HydratedMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return null;
}

function SkipLink() {
  const t = useT();
  return (
    <a className="skip-link" href="#main">
      {t("common.skipToContent")}
    </a>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  return <ErrorPage error={error} />;
}
