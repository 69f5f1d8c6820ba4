import { loadSettings, robotsTxt } from "~/services/site-settings.server";

export async function loader() {
  return new Response(robotsTxt(await loadSettings()), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
