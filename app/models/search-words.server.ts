/**
 * What the search knows of words beyond the products' own text: staff's aliases (words
 * that mean the same), the vocabulary typo corrections are chosen from, and how often
 * each search was made (the popular searches).
 */
import { sql } from "kysely";
import type { DB } from "~/lib/db.server";
import { onPostgres } from "./sql-dialect.server";

export type SearchAlias = {
  id: number;
  /** what shoppers type */
  term: string;
  /** what it also finds */
  alternatives: string[];
  /** each alternative also finds the term and the other alternatives */
  bothWays: boolean;
  createdAt: string;
  updatedAt: string;
};

type AliasRow = { id: number; term: string; alternatives: string; both_ways: number; created_at: string; updated_at: string };

function toAlias(row: AliasRow): SearchAlias {
  let alternatives: string[] = [];
  try {
    const parsed = JSON.parse(row.alternatives);
    if (Array.isArray(parsed)) alternatives = parsed.filter((value): value is string => typeof value === "string");
  } catch {
    // a damaged row finds only its term
  }
  return {
    id: row.id,
    term: row.term,
    alternatives,
    bothWays: row.both_ways === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function listAliases(db: DB): Promise<SearchAlias[]> {
  const rows = await db
    .selectFrom("search_aliases")
    .selectAll()
    .orderBy(sql`lower(term)`)
    .orderBy("id")
    .execute();
  return rows.map(toAlias);
}

export async function findAlias(db: DB, id: number): Promise<SearchAlias | undefined> {
  const row = await db.selectFrom("search_aliases").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toAlias(row);
}

/** Another alias with this term (the same letters in any case), if any. */
export async function findAliasByTerm(db: DB, term: string, exceptId?: number): Promise<SearchAlias | undefined> {
  let query = db
    .selectFrom("search_aliases")
    .selectAll()
    .where(sql`lower(term)`, "=", term.toLowerCase());
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  const row = await query.executeTakeFirst();
  return row && toAlias(row);
}

export type AliasInput = { term: string; alternatives: string[]; bothWays: boolean };

export async function insertAlias(db: DB, input: AliasInput): Promise<SearchAlias> {
  const row = await db
    .insertInto("search_aliases")
    .values({ term: input.term, alternatives: JSON.stringify(input.alternatives), both_ways: input.bothWays ? 1 : 0 })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toAlias(row);
}

export async function updateAlias(db: DB, id: number, input: AliasInput): Promise<SearchAlias | undefined> {
  const row = await db
    .updateTable("search_aliases")
    .set({
      term: input.term,
      alternatives: JSON.stringify(input.alternatives),
      both_ways: input.bothWays ? 1 : 0,
      updated_at: new Date().toISOString(),
    })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  return row && toAlias(row);
}

export async function deleteAlias(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom("search_aliases").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * The words of the products' names, shops and categories with how many products hold
 * each (the unicode61 words of products_words), those of Latin letters only: what typo
 * corrections are chosen from (model codes such as A123 are not words to correct to).
 */
export async function vocabulary(db: DB): Promise<Map<string, number>> {
  const words = new Map<string, number>();
  // read in short statements, in term order, with other work let in between: one statement
  // for all of it took 302 ms at 1,000,000 products, during which SQLite held the process
  // (issue 37); a page of VOCABULARY_PAGE words takes at most about 25 ms there
  let after = "";
  for (;;) {
    // PostgreSQL keeps the Latin words alone, counted by a trigger (migration 20261127090000);
    // SQLite's vocabulary of products_words is read from "a" to "z" (digits sort before,
    // Chinese after)
    const { rows } = onPostgres(db)
      ? await sql<{ term: string; doc: number }>`SELECT word AS term, documents AS doc FROM search_vocabulary
          WHERE documents > 0 AND word > ${after} ORDER BY word LIMIT ${VOCABULARY_PAGE}`.execute(db)
      : await sql<{ term: string; doc: number }>`SELECT term, doc FROM products_words_vocab
          WHERE term >= 'a' AND term > ${after} AND term < '{' ORDER BY term LIMIT ${VOCABULARY_PAGE}`.execute(db);
    for (const row of rows) if (/^[a-z]+$/.test(row.term)) words.set(row.term, Number(row.doc));
    if (rows.length < VOCABULARY_PAGE) return words;
    after = rows[rows.length - 1].term;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Words read per statement of vocabulary(). */
const VOCABULARY_PAGE = 1000;

/** Adds counted searches (term → searches) to their day's totals, in one transaction. */
export async function addSearchCounts(db: DB, day: string, counts: ReadonlyMap<string, number>): Promise<void> {
  if (!counts.size) return;
  // in term order: instances writing at the same moment lock the rows in the same order (no deadlock)
  const ordered = [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  await db.transaction().execute(async (trx) => {
    for (const [term, searches] of ordered) {
      await trx
        .insertInto("search_terms")
        .values({ term, day, searches })
        .onConflict((oc) => oc.columns(["term", "day"]).doUpdateSet((eb) => ({ searches: eb("search_terms.searches", "+", searches) })))
        .execute();
    }
  });
}

/** How many searches each term had since `sinceDay` (YYYY-MM-DD). */
export async function searchTermTotals(db: DB, sinceDay: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("search_terms")
    .select(["term", sql<number>`sum(searches)`.as("total")])
    .where("day", ">=", sinceDay)
    .groupBy("term")
    .execute();
  return new Map(rows.map((row) => [row.term, Number(row.total)]));
}

/**
 * The `count` most made searches since `sinceDay`, most first (ties in code-unit order,
 * as the in-memory list sorts them): the popular searches read straight from the
 * database, where several instances write them (PostgreSQL).
 */
export async function topSearchTerms(db: DB, sinceDay: string, count: number): Promise<string[]> {
  const { rows } = await sql<{ term: string }>`SELECT term FROM search_terms WHERE day >= ${sinceDay}
    GROUP BY term HAVING sum(searches) > 0 ORDER BY sum(searches) DESC, term COLLATE "C" LIMIT ${count}`.execute(db);
  return rows.map((row) => row.term);
}

/** Forgets the days before `beforeDay` (the popular searches look back a month). */
export async function pruneSearchTerms(db: DB, beforeDay: string): Promise<void> {
  await db.deleteFrom("search_terms").where("day", "<", beforeDay).execute();
}
