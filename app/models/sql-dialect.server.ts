/**
 * The few SQL words SQLite and PostgreSQL say differently, for the models' hand-written
 * queries (docs/decisions/030-postgresql.md). Everything else is the same SQL on both.
 */
import { sql, type Expression, type RawBuilder } from "kysely";
import { dialectOf } from "../../db/connection";
import type { DB } from "~/lib/db.server";

export const onPostgres = (db: DB) => dialectOf(db) === "postgres";

type Operand = Expression<unknown> | RawBuilder<unknown>;

/** `expression` for ordering and comparing without regard to case (SQLite's NOCASE). */
export function caseless(db: DB, expression: Operand): RawBuilder<unknown> {
  return onPostgres(db) ? sql`lower(${expression})` : sql`${expression} COLLATE NOCASE`;
}

/** LIKE that ignores the case of ASCII letters, as SQLite's LIKE does (PostgreSQL: ILIKE). */
export function likeCaseless(db: DB): RawBuilder<unknown> {
  return onPostgres(db) ? sql`ILIKE` : sql`LIKE`;
}

/** The current time as the ISO text the app stores (2026-11-26T16:47:38.123Z). */
export function nowIsoSql(db: DB): RawBuilder<string> {
  return onPostgres(db)
    ? sql<string>`to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
}

/**
 * The elements of a JSON array column as a FROM item `alias` (joined with a comma after the
 * table that holds the column) with SQLite json_each's columns `value` and `type` ('text'
 * for strings).
 */
export function jsonArrayElements(db: DB, column: Operand, alias: string): RawBuilder<unknown> {
  return onPostgres(db)
    ? sql`LATERAL (SELECT e.v #>> '{}' AS value, CASE jsonb_typeof(e.v) WHEN 'string' THEN 'text' ELSE jsonb_typeof(e.v) END AS type
        FROM jsonb_array_elements(${column}::jsonb) AS e (v)) AS ${sql.raw(alias)}`
    : sql`json_each(${column}) AS ${sql.raw(alias)}`;
}

/**
 * Inside a transaction: waits until no other transaction holds `key`, and holds it until
 * this one ends. SQLite runs one write transaction at a time already; PostgreSQL runs them
 * side by side, so a check-then-write (an allowance counted, then photos added) takes a
 * transaction-scoped advisory lock on what it checks.
 */
export async function serializeOn(db: DB, key: string): Promise<void> {
  if (onPostgres(db)) await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(db);
}

/**
 * Runs `work` in a transaction that holds `key` (serializeOn()): a check and the write it
 * allows, taking turns with every other transaction on the same key.
 */
export function lockedTransaction<T>(db: DB, key: string, work: (trx: DB) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await serializeOn(trx, key);
    return work(trx);
  });
}

/**
 * A pattern for PostgreSQL's LIKE finding `term` anywhere, its own % _ and \ taken
 * literally (a backslash is PostgreSQL's default escape; SQLite's LIKE would need ESCAPE).
 */
export const likeAnywherePostgres = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
