import type { LoaderFunctionArgs } from "@remix-run/node";
import { feedResponse } from "~/services/blog-feed.server";

/** /blog/feed.xml: RSS 2.0 of the newest posts (ETag and Last-Modified; 304 for a current copy). */
export const loader = ({ request }: LoaderFunctionArgs) => feedResponse(request, "rss");
