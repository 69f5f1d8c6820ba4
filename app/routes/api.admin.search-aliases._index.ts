import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, byMethod, ok, readBody } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { searchAliasSchema, SEARCH_ALIAS_MESSAGES as M } from "~/schemas/search";
import { requireApiAdmin } from "~/services/permissions.server";
import { createSearchAlias, MANAGE_SEARCH_WORDS, searchAliases, searchAliasJson } from "~/services/search.server";

/** GET /api/admin/search-aliases (product.edit) → {data: [{id, term, alternatives, both_ways, ...}]}, by term. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, MANAGE_SEARCH_WORDS, NO_TOKEN);
    return ok({ data: (await searchAliases()).map(searchAliasJson) });
  });

/**
 * POST /api/admin/search-aliases {term, alternatives: string[] | "a, b", both_ways?} (product.edit)
 * → 201 {data}; 409 when the term already has an alias.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  byMethod(request, {
    POST: async () => {
      const actor = await requireApiAdmin(request, undefined, NO_TOKEN);
      const body = await readBody(request, searchAliasSchema);
      return ok({ message: M.created, data: searchAliasJson(await createSearchAlias(body, actor)) }, { status: 201 });
    },
  });
