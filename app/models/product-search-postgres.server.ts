/**
 * The product search on PostgreSQL (docs/decisions/030-postgresql.md): the same answers as
 * searchProducts() gives on SQLite, from product_search (migration 20261127090000):
 * - a term of 3+ characters is a substring of the name, description, shop or category
 *   names: `document LIKE '%term%'`, through the trigram index (pg_trgm);
 * - a term of 1–2 letters or digits is one of the grams of name, shop and categories:
 *   `grams && ARRAY[...]`, through the GIN index;
 * - relevance is SQLite's: FTS5's bm25 over the same columns with the same weights,
 *   computed here for the matches (see rankOf()), so both engines put the same products
 *   first. Its statistics (how many products, how long their texts are, how many hold a
 *   term) are read once per change of the data (dataVersion()).
 * As on SQLite, the matches that pass the filters are counted up to SEARCH_COUNT_CAP + 1;
 * when they are countable they are ranked or sorted here, else the newest (or the sort's
 * order) come first.
 */
import { sql } from "kysely";
import { dataVersion, type DB } from "~/lib/db.server";
import { likeAnywherePostgres } from "./sql-dialect.server";
import {
  candidateOrder,
  clampPage,
  SEARCH_COUNT_CAP,
  whereSql,
  type Candidate,
  type ListFilter,
  type Page,
  type Product,
  type ProductSort,
  type Row,
  type SearchUnit,
  rowsInOrder,
  searchAnswer,
} from "./product.server";

/** The condition on product_search `s` that a product matches one unit (any of its alternatives). */
function unitCondition(unit: SearchUnit) {
  const alternatives = [
    ...unit.long.map((term) => sql`s.document LIKE ${likeAnywherePostgres(term)}`),
    ...(unit.short.length ? [sql`s.grams && ${unit.short}::text[]`] : []),
  ];
  return sql`(${sql.join(alternatives, sql` OR `)})`;
}

type SearchOptions = ListFilter & { page: number; limit: number; sort: ProductSort };

export async function searchProductsPostgres(
  db: DB,
  units: SearchUnit[],
  options: SearchOptions,
): Promise<Page<Product> & { totalCapped: boolean }> {
  // the matches and the filters, both read from the search rows alone
  const where = sql`${sql.join(units.map(unitCondition), sql` AND `)} AND ${whereSql(options, "s")}`;
  // the matches are planned as a whole (MATERIALIZED: the LIMIT is not seen), so through
  // the search indexes, and read only until the cap: with the LIMIT in sight the planner
  // scans the table for a common word, hoping for the matches early, and where they lie
  // late (rows of one kind added together) it read 30,000 rows, 20–50 ms, not 2
  const counted = await sql<{ n: number }>`WITH matches AS MATERIALIZED (SELECT 1 FROM product_search s WHERE ${where})
    SELECT count(*) AS n FROM (SELECT 1 FROM matches LIMIT ${SEARCH_COUNT_CAP + 1}) AS counted`.execute(db);
  const found = Number(counted.rows[0]?.n ?? 0);
  if (found === 0) return { items: [], totalItems: 0, page: 1, limit: options.limit, totalPages: 1, totalCapped: false };
  const totalCapped = found > SEARCH_COUNT_CAP;
  const totalItems = Math.min(found, SEARCH_COUNT_CAP);
  const page = clampPage(options.page, options.limit, totalItems);
  const offset = (page - 1) * options.limit;
  const answer = searchAnswer({ totalItems, page, limit: options.limit, totalCapped });

  if (totalCapped) return answer(await cappedPage(db, units, options, offset));

  const ranked = options.sort === "relevance";
  const { rows: matches } = await sql<Candidate & RankTexts>`SELECT s.product_id AS id, s.price_fen, s.qc_count
    ${ranked ? sql`, s.name, s.description, s.shop_name, s.category, s.grams` : sql``}
    ${options.sort === "popular" ? sql`, (SELECT p.view_count FROM products p WHERE p.id = s.product_id) AS view_count` : sql``}
    FROM product_search s WHERE ${where}`.execute(db);
  if (ranked) {
    const rank = await ranker(db, units);
    for (const match of matches) match.rank = rank(match);
  }
  const ids = matches
    .sort(candidateOrder(options.sort))
    .slice(offset, offset + options.limit)
    .map((match) => match.id);
  return answer(await rowsInOrder(db, ids));
}

/** How many products of the sort's order a capped search walks before it gathers the matches instead. */
const WALK_WINDOW = 600;

/**
 * A page of a search with more matches than are counted: too many to rank, every one
 * holds the terms, so the newest (or the sort's first) lead. First the sort's index is
 * walked, each product checked against its search row: when the matches are dense (a
 * common word), the page is found within WALK_WINDOW products (1 ms for "jacket" in
 * 100,000 products sorted by price, against 130 ms for gathering and sorting them all).
 * Otherwise the matches are gathered through the search indexes and the page sorted from
 * them (a few thousand matches: about 10 ms).
 */
async function cappedPage(db: DB, units: SearchUnit[], options: SearchOptions, offset: number): Promise<Row[]> {
  const need = offset + options.limit;
  const order = cappedOrder(options.sort);
  const matches = sql.join(units.map(unitCondition), sql` AND `);
  // ids first, the page's rows after: sorting whole rows made the planner merge-join all
  // products (60 ms instead of 8). The walk carries its own sort keys, so the planner sees
  // it already in the page's order and stops at the page's last match (0.5 ms for a word in
  // one product of ten); joined back to products it checked all WALK_WINDOW, then sorted (5 ms).
  let ids: number[] = [];
  if (need <= WALK_WINDOW) {
    const { rows } = await sql<{ id: number }>`SELECT p.id FROM (
        SELECT p.id, p.price_fen, p.qc_count, p.view_count FROM products p WHERE ${whereSql(options)}
        ORDER BY ${order} LIMIT ${WALK_WINDOW}
      ) AS p
      WHERE EXISTS (SELECT 1 FROM product_search s WHERE s.product_id = p.id AND ${matches})
      ORDER BY ${order} LIMIT ${need}`.execute(db);
    if (rows.length >= need) ids = rows.slice(offset).map((row) => row.id);
  }
  if (!ids.length) {
    // sorted from the search rows' own copies of the sort keys (views, which change all
    // day, are read from the products)
    const { rows } =
      options.sort === "popular"
        ? await sql<{ id: number }>`SELECT p.id FROM product_search s JOIN products p ON p.id = s.product_id
            WHERE ${matches} AND ${whereSql(options, "s")} ORDER BY ${order} LIMIT ${options.limit} OFFSET ${offset}`.execute(db)
        : await sql<{ id: number }>`SELECT s.product_id AS id FROM product_search s WHERE ${matches} AND ${whereSql(options, "s")}
            ORDER BY ${cappedOrder(options.sort, "s")} LIMIT ${options.limit} OFFSET ${offset}`.execute(db);
    ids = rows.map((row) => row.id);
  }
  return rowsInOrder(db, ids);
}

/** The order of a search too large to rank, as SQLite's gives it (relevance: the newest). */
function cappedOrder(sort: ProductSort, on: "p" | "s" = "p") {
  const id = sql.ref(on === "p" ? "p.id" : "s.product_id");
  const price = sql.ref(`${on}.price_fen`);
  switch (sort) {
    // SQLite walks its price index: products without a price first going up, last going
    // down; products_price_order (migration 20261128110000) is that order
    case "price_asc":
      return sql`${price} ASC NULLS FIRST, ${id} ASC`;
    case "price_desc":
      return sql`${price} DESC NULLS LAST, ${id} DESC`;
    case "popular":
      return sql`p.view_count DESC, p.id DESC`;
    case "qc":
      return sql`${sql.ref(`${on}.qc_count`)} DESC, ${id} DESC`;
    default:
      return sql`${id} DESC`;
  }
}

// ---------------------------------------------------------------- relevance (FTS5's bm25)

/** What a match's rank is computed from: product_search's texts. */
type RankTexts = { name: string; description: string; shop_name: string; category: string; grams: string[] };

/** FTS5's bm25 constants and the weights searchProducts() gives products_fts's columns. */
const K1 = 1.2;
const B = 0.75;
const COLUMN_WEIGHTS = { name: 4, description: 1, shop_name: 2, category: 1 } as const;

/** How many tokens FTS5's trigram tokenizer makes of a text: one per three characters in a row. */
const trigramTokens = (text: string) => Math.max(0, Array.from(text).length - 2);

/** How often `phrase` occurs in `text`, overlapping occurrences included (as FTS5 counts phrase hits). */
function occurrences(text: string, phrase: string): number {
  let count = 0;
  for (let at = text.indexOf(phrase); at !== -1; at = text.indexOf(phrase, at + 1)) count += 1;
  return count;
}

type CorpusStats = { rows: number; trigramTokens: number; grams: number; hits: Map<string, number> };
let stats: { version: number; readAt: number; value: Promise<CorpusStats> } | null = null;

/**
 * How long the corpus statistics are kept once the data changed: reading them scans every
 * search row (0.8 s at 100,000 products), and one product more or less moves a rank by
 * next to nothing, so a shop writing all day reads them once a minute, not at each write.
 */
const STATS_STALE_MS = 60_000;

/** The corpus statistics bm25 needs, read again when the data changed (at most once a minute). */
function corpusStats(db: DB): Promise<CorpusStats> {
  const version = dataVersion();
  const now = Date.now();
  if (!stats || (stats.version !== version && now - stats.readAt >= STATS_STALE_MS)) {
    const value = sql<{ rows: number; trigram_tokens: number | null; grams: number | null }>`SELECT count(*) AS rows,
        sum(greatest(char_length(name) - 2, 0) + greatest(char_length(description) - 2, 0)
          + greatest(char_length(shop_name) - 2, 0) + greatest(char_length(category) - 2, 0)) AS trigram_tokens,
        sum(cardinality(grams)) AS grams
      FROM product_search`
      .execute(db)
      .then(({ rows: [row] }) => ({
        rows: Number(row?.rows ?? 0),
        trigramTokens: Number(row?.trigram_tokens ?? 0),
        grams: Number(row?.grams ?? 0),
        hits: new Map<string, number>(),
      }));
    stats = { version, readAt: now, value };
    value.catch(() => (stats = null));
  }
  return stats.value;
}

/** How many products hold a long term anywhere (`long:`) or a gram (`short:`): bm25's IDF. */
async function hitCounts(db: DB, corpus: CorpusStats, keys: string[]): Promise<void> {
  const missing = keys.filter((key) => !corpus.hits.has(key));
  if (!missing.length) return;
  const { rows } = await sql<{ key: string; n: number }>`${sql.join(
    missing.map((key) =>
      key.startsWith("long:")
        ? sql`SELECT ${key}::text AS key, count(*) AS n FROM product_search WHERE document LIKE ${likeAnywherePostgres(key.slice(5))}`
        : sql`SELECT ${key}::text AS key, count(*) AS n FROM product_search WHERE grams @> ARRAY[${key.slice(6)}::text]`,
    ),
    sql` UNION ALL `,
  )}`.execute(db);
  // a bounded memory: a day of varied searches does not grow it without end
  if (corpus.hits.size > 10_000) corpus.hits.clear();
  for (const row of rows) corpus.hits.set(row.key, Number(row.n));
}

const idf = (rows: number, hits: number) => Math.max(1e-6, Math.log((rows - hits + 0.5) / (hits + 0.5)));

/**
 * A function giving each match its rank as SQLite gives it (lower is better): the units
 * that drive SQLite's search (matchSource() in product.server.ts) are the ones ranked:
 * the long-only units with products_fts's weighted bm25, else the short-only units with
 * products_grams' bm25, else the first unit of both kinds, with the better of the two.
 */
async function ranker(db: DB, units: SearchUnit[]): Promise<(match: RankTexts) => number> {
  const longOnly = units.filter((unit) => unit.long.length && !unit.short.length);
  const shortOnly = units.filter((unit) => unit.short.length && !unit.long.length);
  const [firstMixed] = units.filter((unit) => unit.long.length && unit.short.length);
  const longPhrases = longOnly.length ? longOnly.flatMap((unit) => unit.long) : shortOnly.length ? [] : firstMixed.long;
  const grams = longOnly.length ? [] : shortOnly.length ? shortOnly.flatMap((unit) => unit.short) : firstMixed.short;
  const corpus = await corpusStats(db);
  await hitCounts(db, corpus, [...longPhrases.map((phrase) => `long:${phrase}`), ...grams.map((gram) => `short:${gram}`)]);
  const rows = Math.max(1, corpus.rows);
  const longIdf = longPhrases.map((phrase) => idf(rows, corpus.hits.get(`long:${phrase}`) ?? 0));
  const gramIdf = grams.map((gram) => idf(rows, corpus.hits.get(`short:${gram}`) ?? 0));
  const averageTrigrams = corpus.trigramTokens / rows || 1;
  const averageGrams = corpus.grams / rows || 1;

  const bm25 = (frequencies: number[], weights: number[], length: number, average: number) =>
    -frequencies.reduce(
      (score, frequency, i) => score + (weights[i] * (frequency * (K1 + 1))) / (frequency + K1 * (1 - B + (B * length) / average)),
      0,
    );

  const longRank = (match: RankTexts) => {
    const columns = Object.keys(COLUMN_WEIGHTS) as Array<keyof typeof COLUMN_WEIGHTS>;
    const frequencies = longPhrases.map((phrase) =>
      columns.reduce((sum, column) => sum + COLUMN_WEIGHTS[column] * occurrences(match[column], phrase), 0),
    );
    if (frequencies.every((frequency) => frequency === 0)) return undefined;
    const length = columns.reduce((sum, column) => sum + trigramTokens(match[column]), 0);
    return bm25(frequencies, longIdf, length, averageTrigrams);
  };
  const shortRank = (match: RankTexts) => {
    const held = new Set(match.grams);
    const frequencies = grams.map((gram) => (held.has(gram) ? 1 : 0));
    if (frequencies.every((frequency) => frequency === 0)) return undefined;
    return bm25(frequencies, gramIdf, match.grams.length, averageGrams);
  };
  return (match) => {
    const ranks = [longPhrases.length ? longRank(match) : undefined, grams.length ? shortRank(match) : undefined].filter(
      (rank): rank is number => rank !== undefined,
    );
    return ranks.length ? Math.min(...ranks) : 0;
  };
}
