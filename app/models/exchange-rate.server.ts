/** Exchange rates (CNY per one unit), automatic and manual, and the refresh state. */
import type { DB } from "~/lib/db.server";

export type StoredRates = {
  auto: Record<string, number>;
  manual: Record<string, number>;
  mode: "automatic" | "manual";
  autoUpdatedAt: string | null;
  manualUpdatedAt: string | null;
  lastAttemptAt: string | null;
  lastError: string | null;
};

export async function readRates(db: DB): Promise<StoredRates> {
  const rows = await db.selectFrom("exchange_rates").selectAll().execute();
  const state = await db.selectFrom("exchange_rate_state").selectAll().where("id", "=", 1).executeTakeFirst();
  const auto: Record<string, number> = {};
  const manual: Record<string, number> = {};
  for (const row of rows) {
    if (row.auto_rate !== null) auto[row.code] = row.auto_rate;
    if (row.manual_rate !== null) manual[row.code] = row.manual_rate;
  }
  return {
    auto,
    manual,
    mode: state?.mode ?? "automatic",
    autoUpdatedAt: state?.auto_updated_at ?? null,
    manualUpdatedAt: state?.manual_updated_at ?? null,
    lastAttemptAt: state?.last_attempt_at ?? null,
    lastError: state?.last_error ?? null,
  };
}

/** Stores fetched rates (call inside a transaction). */
export async function saveAutoRates(db: DB, rates: Record<string, number>, at: string): Promise<void> {
  for (const [code, rate] of Object.entries(rates)) {
    await db
      .insertInto("exchange_rates")
      .values({ code, auto_rate: rate })
      .onConflict((oc) => oc.column("code").doUpdateSet({ auto_rate: rate }))
      .execute();
  }
  await db
    .updateTable("exchange_rate_state")
    .set({ auto_updated_at: at, last_attempt_at: at, last_error: null })
    .where("id", "=", 1)
    .execute();
}

/** Stores manual rates and switches to manual mode (call inside a transaction). */
export async function saveManualRates(db: DB, rates: Record<string, number>, at: string): Promise<void> {
  for (const [code, rate] of Object.entries(rates)) {
    await db
      .insertInto("exchange_rates")
      .values({ code, manual_rate: rate })
      .onConflict((oc) => oc.column("code").doUpdateSet({ manual_rate: rate }))
      .execute();
  }
  await db.updateTable("exchange_rate_state").set({ mode: "manual", manual_updated_at: at }).where("id", "=", 1).execute();
}

export async function setRateMode(db: DB, mode: "automatic" | "manual"): Promise<void> {
  await db.updateTable("exchange_rate_state").set({ mode }).where("id", "=", 1).execute();
}

export async function recordRateFailure(db: DB, at: string, error: string): Promise<void> {
  await db
    .updateTable("exchange_rate_state")
    .set({ last_attempt_at: at, last_error: error.slice(0, 500) })
    .where("id", "=", 1)
    .execute();
}
