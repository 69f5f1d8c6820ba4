import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok, parseId } from "~/lib/api.server";
import { readPreferredAgent } from "~/lib/agent-preference.server";
import { agentLinksFor } from "~/marketplace/agent-links.server";
import { getProduct } from "~/services/catalogue/products.server";

/**
 * GET /api/products/:id/agent-links → {data: [{name, url}]}: the enabled shopping agents'
 * links to the product, in the admin's order, the caller's preferred agent (the `agent`
 * cookie) first. A product without a marketplace item has none.
 */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const product = await getProduct(parseId(params.id));
    const links = await agentLinksFor(product, readPreferredAgent(request));
    return ok({ data: links.map(({ name, url }) => ({ name, url })) });
  });

export const action = () => methodNotAllowed(["GET"]);
