import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, byMethod, ok, parseId, readBody } from "~/lib/api.server";
import { NO_TOKEN } from "~/schemas/catalogue-messages";
import { searchAliasSchema, SEARCH_ALIAS_MESSAGES as M } from "~/schemas/search";
import { requireApiAdmin } from "~/services/permissions.server";
import { deleteSearchAlias, getSearchAlias, MANAGE_SEARCH_WORDS, searchAliasJson, updateSearchAlias } from "~/services/search.server";

/** GET /api/admin/search-aliases/:id (product.edit) → {data}. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    await requireApiAdmin(request, MANAGE_SEARCH_WORDS, NO_TOKEN);
    return ok({ data: searchAliasJson(await getSearchAlias(parseId(params.id))) });
  });

export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    /** {term, alternatives, both_ways?}: the whole alias. */
    PUT: async () => {
      const actor = await requireApiAdmin(request, undefined, NO_TOKEN);
      const body = await readBody(request, searchAliasSchema);
      return ok({ message: M.updated, data: searchAliasJson(await updateSearchAlias(parseId(params.id), body, actor)) });
    },
    DELETE: async () => {
      const actor = await requireApiAdmin(request, undefined, NO_TOKEN);
      await deleteSearchAlias(parseId(params.id), actor);
      return ok({ message: M.deleted });
    },
  });
