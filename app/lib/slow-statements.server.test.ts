/**
 * A statement slower than SLOW_STATEMENT_MS is reported (issue 37: on SQLite it holds the
 * whole process): a warning naming it and whether a request was waiting for it, which the
 * benchmark counts. Real statements on the test file's database, on either engine.
 */
import { sql } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "./db.server";
import { newRequestScope, requestScope } from "./request-scope.server";

/** A statement that takes a few hundred milliseconds on either engine. */
const slow = () =>
  sql<{ n: number }>`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT count(*) AS n FROM c`.execute(
    getDb(),
  );

afterEach(() => vi.restoreAllMocks());

describe("slow statements", () => {
  it("are reported with the statement, and whether they kept a request waiting", async () => {
    const warned: string[] = [];
    vi.spyOn(console, "warn").mockImplementation((line: string) => void warned.push(line));
    await getDb().selectFrom("site_settings").select("key").limit(1).execute();
    expect(warned).toEqual([]);
    await slow();
    await requestScope.run(newRequestScope("GET"), slow);
    expect(warned).toHaveLength(2);
    expect(warned[0]).toMatch(/slow statement: \d+ ms in the background: WITH RECURSIVE c\(x\)/);
    expect(warned[1]).toMatch(/slow statement: \d+ ms answering a request: WITH RECURSIVE c\(x\)/);
  });
});
