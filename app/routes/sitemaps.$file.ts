import type { LoaderFunctionArgs } from "@remix-run/node";
import { sitemapResponse } from "~/services/sitemap.server";

/** A file the sitemap index names: /sitemaps/pages.xml, /sitemaps/products-N.xml. */
export const loader = ({ request, params }: LoaderFunctionArgs) => sitemapResponse(request, params.file ?? "");
