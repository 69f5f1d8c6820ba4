import type { LoaderFunctionArgs } from "@remix-run/node";
import { sitemapResponse } from "~/services/sitemap.server";

/** The sitemap: every page in one file while it fits, else the index of /sitemaps/*.xml. */
export const loader = ({ request }: LoaderFunctionArgs) => sitemapResponse(request, "sitemap.xml");
