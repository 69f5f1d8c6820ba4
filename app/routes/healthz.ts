import { databaseAnswers } from "~/lib/db.server";
import { log } from "~/lib/log.server";

/** 200 {"ok":true} when the database answers (docs/runtime.md). */
export async function loader() {
  try {
    await databaseAnswers();
    return Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    log.error(`[healthz] database check failed: ${(error as Error).message}`);
    return Response.json({ ok: false, message: "database unavailable" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
}
