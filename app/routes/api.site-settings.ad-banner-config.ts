import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { loadSettings, toAdBannerConfig } from "~/services/site-settings.server";

export const loader = () => apiRoute(async () => ok({ data: toAdBannerConfig(await loadSettings()) }));

export const action = () => methodNotAllowed(["GET"]);
