import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminShell } from "~/components/admin/admin-shell";
import { useBrowserTimeZone, useTimeZone } from "~/components/admin/time-zone";
import { visibleNav } from "~/components/admin/nav";
import { ErrorPage } from "~/components/ui/error-page";
import { pageMeta } from "~/lib/meta";
import { requireAdmin } from "~/services/permissions.server";
import adminStyles from "~/styles/admin.css";
import { loadBackOfficeCatalogue } from "~/i18n/back-office-catalogue";
import { readLanguage } from "~/i18n/i18n.server";
import { catalogueChunks } from "~/i18n/catalogue-chunks.server";
import { useNonce } from "~/lib/nonce";
import type { ClientLoaderFunctionArgs } from "@remix-run/react";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

/**
 * The back-office layout. Visitors go to /login?redirectTo=…, users without back-office
 * access get the 403 page below. Each child route checks its own permission again.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user, access } = await requireAdmin(request);
  const language = readLanguage(request);
  return {
    language,
    // the back office's texts, asked for at once (the page waits for them before it hydrates)
    catalogue: catalogueChunks().backOffice[language] ?? [],
    nav: visibleNav(access),
    user: { username: user.username, userType: access.userType, avatarUrl: user.avatarUrl },
  };
}

/** On a client navigation into the back office: its texts in the reader's language first (decision 031). */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const data = await serverLoader<typeof loader>();
  await loadBackOfficeCatalogue(data.language);
  return data;
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "admin.shell.title", noindex: true });

export default function AdminLayout() {
  const data = useLoaderData<typeof loader>();
  const nonce = useNonce();
  useBrowserTimeZone(useTimeZone());
  return (
    <>
      {data.catalogue.map((href) => (
        <link key={href} rel="modulepreload" href={href} nonce={nonce || undefined} data-catalogue="" />
      ))}
      <AdminShell nav={data.nav} user={data.user}>
        <Outlet />
      </AdminShell>
    </>
  );
}

/** 401/403/500 of the layout itself: the site chrome stays, the admin frame does not. */
export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
