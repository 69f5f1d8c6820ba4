import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { loadSettings, toSiteInfo } from "~/services/site-settings.server";

export const loader = () => apiRoute(async () => ok({ data: toSiteInfo(await loadSettings()) }));

export const action = () => methodNotAllowed(["GET"]);
