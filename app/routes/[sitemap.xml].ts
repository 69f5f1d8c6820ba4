import { buildSitemap } from "~/services/sitemap.server";

export async function loader() {
  const { xml } = await buildSitemap();
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
