/**
 * The one currency service: rates in effect, manual rates, and the daily refresh from the
 * public rate files (RATES_URL, then RATES_BACKUP_URL, then the spec's defaults).
 *
 * Manual rates (admin) take precedence while the mode is manual; otherwise the fetched
 * rates, refreshed at most once per 24 hours in the background (a page never waits for
 * it), a failed attempt retried after an hour. Rates are kept in memory like the site
 * settings (dropped on save or when another process writes the database).
 */
import { dataVersion, getDb, type DB } from "~/lib/db.server";
import { getEnv } from "~/lib/env.server";
import { ApiError } from "~/lib/api.server";
import { log } from "~/lib/log.server";
import type { JobDefinition } from "~/services/jobs.server";
import { CURRENCIES, CURRENCY_CODES, DEFAULT_RATES, minorUnits, SPEC_CURRENCY_CODES, type CurrencyCode, type Rates } from "~/lib/currency";
import { RATE_MESSAGES } from "~/schemas/catalogue-messages";
import { readRates, recordRateFailure, saveAutoRates, saveManualRates, setRateMode, type StoredRates } from "~/models/exchange-rate.server";
import type { Actor } from "./permissions.server";
import { pagesChanged, staffWrite } from "./writes.server";

const DAY_MS = 24 * 60 * 60_000;
const RETRY_MS = 60 * 60_000;
const FETCH_TIMEOUT_MS = 10_000;

export type RatesView = { rates: Rates; mode: "automatic" | "manual"; lastUpdated: string | null };

const FOREIGN = CURRENCY_CODES.filter((code): code is Exclude<CurrencyCode, "CNY"> => code !== "CNY");

function effective(stored: StoredRates): RatesView {
  const rates = { CNY: 1 } as Rates;
  for (const code of FOREIGN) {
    const manual = stored.mode === "manual" ? stored.manual[code] : undefined;
    rates[code] = manual ?? stored.auto[code] ?? DEFAULT_RATES[code];
  }
  return {
    rates,
    mode: stored.mode,
    lastUpdated: stored.mode === "manual" ? (stored.manualUpdatedAt ?? stored.autoUpdatedAt) : stored.autoUpdatedAt,
  };
}

let cached: { db: DB; version: number; stored: Promise<StoredRates> } | undefined;

function stored(): Promise<StoredRates> {
  const db = getDb();
  const version = dataVersion();
  if (cached?.db !== db || cached.version !== version) {
    const value = readRates(db);
    cached = { db, version, stored: value };
    value.catch(() => {
      if (cached?.stored === value) cached = undefined;
    });
  }
  return cached.stored;
}

const forget = () => {
  cached = undefined;
  // prices on pages follow the rates (the refresh job's writes too, not only the staff's)
  pagesChanged(["shop"]);
};

/** The rates in effect. Starts a background refresh when the fetched ones are a day old. */
export async function getRates(): Promise<RatesView> {
  const current = await stored();
  if (current.mode === "automatic" && isStale(current, Date.now())) void refreshRates().catch(() => {});
  return effective(current);
}

function isStale(current: StoredRates, now: number): boolean {
  const updated = current.autoUpdatedAt ? Date.parse(current.autoUpdatedAt) : 0;
  const attempted = current.lastAttemptAt ? Date.parse(current.lastAttemptAt) : 0;
  return now - updated >= DAY_MS && now - attempted >= RETRY_MS;
}

/**
 * Reads one rate file: `{"date": "...", "cny": {"usd": 0.15, ...}}`, units of each currency
 * per 1 CNY. Answers CNY per unit (the inverse) for the currencies the site shows.
 */
export function parseRateFile(body: unknown): Record<string, number> {
  const table = (body as { cny?: Record<string, unknown> } | null)?.cny;
  if (!table || typeof table !== "object") throw new Error("no cny table");
  const rates: Record<string, number> = {};
  for (const code of FOREIGN) {
    const perCny = Number(table[code.toLowerCase()]);
    if (Number.isFinite(perCny) && perCny > 0) rates[code] = Math.round((1 / perCny) * 1e6) / 1e6;
  }
  if (Object.keys(rates).length === 0) throw new Error("no usable rates");
  return rates;
}

async function fetchRateFile(url: string): Promise<Record<string, number>> {
  const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return parseRateFile(await response.json());
}

let running: Promise<RatesView> | undefined;

/**
 * Fetches the rate files now (the primary, then the backup). On success the fetched rates
 * are stored; when both fail, one warning line is logged and the stored (or default)
 * rates stay in effect. Concurrent calls share one fetch.
 */
export function refreshRates(): Promise<RatesView> {
  running ??= (async () => {
    const env = getEnv();
    const at = new Date().toISOString();
    const failures: string[] = [];
    for (const url of [env.RATES_URL, env.RATES_BACKUP_URL]) {
      try {
        const rates = await fetchRateFile(url);
        await getDb()
          .transaction()
          .execute((trx) => saveAutoRates(trx, rates, at));
        forget();
        return effective(await stored());
      } catch (error) {
        failures.push(`${url}: ${(error as Error).message}`);
      }
    }
    log.warn(`exchange rates: every source failed, keeping the stored or default rates (${failures.join("; ")})`);
    await recordRateFailure(getDb(), at, failures.join("; "));
    forget();
    return effective(await stored());
  })().finally(() => {
    running = undefined;
  });
  return running;
}

/** The rates in effect are the super administrator's to set (docs/product/admin.md). */
export const MANAGE_RATES = { superAdmin: true } as const;

/**
 * The admin's force refresh (ignores the daily limit): fetches now and goes back to
 * automatic mode, so the live rates are the ones in effect. Answers whether a source
 * answered.
 */
export const forceRefreshRates = staffWrite(
  { requires: MANAGE_RATES, stales: ["shop"] },
  async (_actor: Actor): Promise<RatesView & { fetched: boolean }> => {
    const before = (await stored()).autoUpdatedAt;
    const view = await refreshRates();
    const after = await stored();
    const fetched = after.autoUpdatedAt !== before && after.lastError === null;
    if (fetched && after.mode === "manual") {
      await setRateMode(getDb(), "automatic");
      forget();
      return { ...effective(await stored()), fetched };
    }
    return { ...view, fetched };
  },
);

/** Saves manual rates (only positive numbers are kept) and switches to manual mode. */
async function setManualRates(rates: Partial<Record<string, number>>): Promise<RatesView> {
  const kept: Record<string, number> = {};
  for (const code of FOREIGN) {
    const value = rates[code];
    if (typeof value === "number" && Number.isFinite(value) && value > 0) kept[code] = value;
  }
  const at = new Date().toISOString();
  await getDb()
    .transaction()
    .execute((trx) => saveManualRates(trx, kept, at));
  forget();
  return effective(await stored());
}

/**
 * Manual rates as typed (the page's inputs, the API's JSON): each value is read as a
 * number and only those above zero are kept; none valid → 400 '请输入有效的汇率（正数）'.
 */
export const setManualRatesFromInput = staffWrite(
  { requires: MANAGE_RATES, stales: ["shop"] },
  async (input: Record<string, unknown>, _actor: Actor): Promise<RatesView> => {
    const numbers: Record<string, number> = {};
    for (const [code, value] of Object.entries(input)) {
      const number = typeof value === "number" ? value : typeof value === "string" && value.trim() ? Number(value.trim()) : NaN;
      if (Number.isFinite(number) && number > 0) numbers[code.toUpperCase()] = number;
    }
    if (!FOREIGN.some((code) => code in numbers)) {
      throw new ApiError(400, RATE_MESSAGES.invalid, "VALIDATION_ERROR", [{ field: "rates", message: RATE_MESSAGES.invalid }]);
    }
    return setManualRates(numbers);
  },
);

/** Back to automatic mode: the fetched rates (or the defaults) are in effect again; the manual values are kept for later. */
export const switchToAutomaticRates = staffWrite(
  { requires: MANAGE_RATES, stales: ["shop"] },
  async (_actor: Actor): Promise<RatesView> => {
    await setRateMode(getDb(), "automatic");
    forget();
    return effective(await stored());
  },
);

/**
 * The daily refresh as a periodic job: every hour it fetches when the stored rates are a
 * day old (and the last failed attempt an hour old), also right after a start.
 */
export const ratesRefreshJob: JobDefinition = {
  name: "rates.refresh",
  every: RETRY_MS,
  run: async () => {
    const current = await stored();
    if (current.mode === "automatic" && isStale(current, Date.now())) await refreshRates();
  },
};

/**
 * The rates view of GET /api/exchange-rates: the spec's eight currencies, as that answer
 * always had them (every currency offered: GET /api/currency/rates).
 */
export async function specRatesView(): Promise<RatesView> {
  const view = await getRates();
  const rates = Object.fromEntries(SPEC_CURRENCY_CODES.map((code) => [code, view.rates[code]])) as Rates;
  return { ...view, rates };
}

/** Every display currency with its rate, symbol and minor units (GET /api/currency/rates). */
export async function currencyRatesView() {
  const view = await getRates();
  return {
    base: "CNY" as const,
    rates: view.rates,
    currencies: CURRENCY_CODES.map((code) => ({
      code,
      name: CURRENCIES[code].name,
      symbol: CURRENCIES[code].symbol.trim(),
      decimals: minorUnits(code),
      rate: view.rates[code],
    })),
    mode: view.mode,
    lastUpdated: view.lastUpdated,
  };
}
