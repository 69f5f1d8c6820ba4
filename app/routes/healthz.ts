import { getSqlite } from "~/lib/db.server";
import { log } from "~/lib/log.server";

/** 200 {"ok":true} when the database answers (docs/runtime.md). */
export function loader() {
  try {
    const row = getSqlite().prepare("SELECT count(*) AS n FROM site_settings").get() as { n: number } | undefined;
    if (!row) throw new Error("no answer");
    return Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    log.error(`[healthz] database check failed: ${(error as Error).message}`);
    return Response.json({ ok: false, message: "database unavailable" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
}
