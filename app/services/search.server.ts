/**
 * What a search means beyond its letters (docs/decisions/028-forgiving-search.md):
 * - staff's aliases: a typed alias also finds what it stands for (af1 → Air Force 1), both
 *   ways when staff say so (耐克 ↔ Nike);
 * - typos: when a search finds few products, a Latin word no product holds finds the words
 *   within one edit (4–5 letters) or two (6 or more) of it, or the two words it joins
 *   ("airforce" → "air force");
 * - on no results, "did you mean" (the parts that find something, corrected) and the
 *   popular searches (the most made searches of the last 30 days that found products).
 *
 * The aliases and the vocabulary are kept in memory until the content changes, so every
 * answer is a function of the database: the front may store it (decision 022).
 */
import { ApiError } from "~/lib/api.server";
import { refusedAsDuplicate } from "~/lib/db-errors.server";
import { contentVersion, viewsMoved } from "~/lib/content-version.server";
import { dataVersion, getDb } from "~/lib/db.server";
import { editDistance } from "~/lib/edit-distance";
import { log } from "~/lib/log.server";
import { onPostgres } from "~/models/sql-dialect.server";
import { answerDependsOn, answerNotStored } from "~/lib/request-scope.server";
import { isEmptyUnit, searchUnit, type SearchTerms } from "~/models/product.server";
import {
  addSearchCounts,
  deleteAlias,
  findAlias,
  findAliasByTerm,
  insertAlias,
  listAliases,
  pruneSearchTerms,
  searchTermTotals,
  topSearchTerms,
  updateAlias,
  vocabulary,
  type SearchAlias,
} from "~/models/search-words.server";
import { SEARCH_ALIAS_MESSAGES as M, type SearchAliasBody } from "~/schemas/search";
import { normalizeForSearch } from "../../db/search-grams";
import type { Actor } from "./permissions.server";
import { staffWrite } from "./writes.server";

export type { SearchAlias };

/** Staff who edit products edit the words that find them. */
export const MANAGE_SEARCH_WORDS = { permission: "product.edit" } as const;

// ---------------------------------------------------------------- reading a search

/** One part of a search: what was typed and everything it finds. */
export type SearchPart = { typed: string; alternatives: string[]; aliased: boolean };

/** The words of a search as the indexes hold them: NFKC, lower case, single spaces. */
export const normalizeSearch = (q: string) => normalizeForSearch(q).replace(/\s+/g, " ").trim();

const HAN = /\p{Script=Han}/u;

type AliasIndex = {
  /** a key (an alias term or, both ways, an alternative) → what it finds, itself first (an alias adds, never takes away) */
  byKey: Map<string, string[]>;
  /** the most words a key has */
  longestKey: number;
  /** keys in Chinese script: found inside a longer word too (耐克外套 holds 耐克) */
  hanKeys: string[];
};

let aliasCache: { content: number; data: number; index: Promise<AliasIndex> } | undefined;

/**
 * A model name's letters and digits joined: "aj 1", "aj-1" and "aj1" are one key, "aj1".
 * Shoppers write a model with or without the space or the hyphen.
 */
export function joinModelNumber(phrase: string): string {
  return phrase.replace(/(?<![\p{L}\p{N}])(\p{L}{1,8})[\s-]+(\d{1,4})(?![\p{L}\p{N}])/gu, "$1$2");
}

/** The ways a letters-then-digits word is written: aj1 → aj1, aj 1, aj-1 (itself alone otherwise). */
export function modelNumberForms(word: string): string[] {
  const model = /^(\p{L}{1,8})(\d{1,4})$/u.exec(word);
  return model && /[a-z]/.test(model[1]) ? [word, `${model[1]} ${model[2]}`, `${model[1]}-${model[2]}`] : [word];
}

/** An English plural's singular (boots → boot, dunks → dunk), which finds it too (a substring); null for others. */
export function singularOf(word: string): string | null {
  return /^[a-z]{3,}s$/.test(word) && !/(ss|us|is)$/.test(word) ? word.slice(0, -1) : null;
}

/** Every way a typed word is searched: itself, its model-number forms, its singular. */
export function wordForms(word: string): string[] {
  const singular = singularOf(word);
  return singular ? [...modelNumberForms(word), singular] : modelNumberForms(word);
}

/** Latin keys this short are found inside other words ("aj" in "ajustable"): an alias of one finds what it stands for only. */
const WHOLE_WORD_ONLY = /^[a-z]{1,2}$/;

function buildAliasIndex(aliases: SearchAlias[]): AliasIndex {
  const byKey = new Map<string, string[]>();
  const add = (key: string, finds: string[]) => {
    const k = joinModelNumber(normalizeSearch(key));
    if (!k) return;
    const list = byKey.get(k) ?? (WHOLE_WORD_ONLY.test(k) ? [] : modelNumberForms(k));
    for (const phrase of finds.map(normalizeSearch)) {
      for (const form of modelNumberForms(joinModelNumber(phrase)).concat(phrase)) {
        if (form && !WHOLE_WORD_ONLY.test(form) && !list.includes(form)) list.push(form);
      }
    }
    if (list.length) byKey.set(k, list);
  };
  for (const alias of aliases) {
    add(alias.term, alias.alternatives);
    if (alias.bothWays) for (const alternative of alias.alternatives) add(alternative, [alias.term, ...alias.alternatives]);
  }
  // one step further: what a key finds, a key itself, adds what it finds (aj → air jordan,
  // and air jordan ⇄ jordan: aj finds jordan)
  for (const [key, list] of byKey) {
    for (const phrase of [...list]) {
      if (phrase === key) continue;
      for (const more of byKey.get(phrase) ?? []) if (more !== key && !list.includes(more)) list.push(more);
    }
  }
  const keys = [...byKey.keys()];
  return {
    byKey,
    longestKey: Math.max(1, ...keys.map((key) => key.split(" ").length)),
    hanKeys: keys.filter((key) => !key.includes(" ") && [...key].every((char) => HAN.test(char))).sort((a, b) => b.length - a.length),
  };
}

function aliasIndex(): Promise<AliasIndex> {
  const content = contentVersion();
  const data = dataVersion();
  if (!aliasCache || aliasCache.content !== content || aliasCache.data !== data) {
    const index = listAliases(getDb()).then(buildAliasIndex);
    aliasCache = { content, data, index };
    index.catch(() => {
      if (aliasCache?.index === index) aliasCache = undefined;
    });
  }
  return aliasCache.index;
}

/** A model word whose letters are an alias ("nb550": nb → new balance) also finds what they stand for with its number ("new balance 550"). */
function withAliasedPrefix(word: string, forms: string[], index: AliasIndex): string[] {
  const model = /^(\p{L}{1,8})(\d{1,4})$/u.exec(word);
  const meanings = model ? index.byKey.get(model[1]) : undefined;
  if (!model || !meanings) return forms;
  return [...forms, ...meanings.filter((meaning) => !/\d$/.test(meaning)).map((meaning) => `${meaning} ${model[2]}`)];
}

/** "af 1", "af-1" → "af1": a model prefix of up to three letters joined to its number. */
function joinShortModelNumbers(text: string): string {
  return text
    .replace(/(?<![\p{L}\p{N}])([a-z]{1,3})[\s-]+(\d{1,4})(?![\p{L}\p{N}])/gu, "$1$2")
    .replace(/(?<![\p{L}\p{N}])([a-z]{1,8})-(\d{1,4})(?![\p{L}\p{N}])/gu, "$1$2");
}

/** Splits a word of Chinese script around the alias keys it holds (耐克外套 → 耐克, 外套). */
function splitAtHanKeys(word: string, hanKeys: string[]): string[] {
  if (!HAN.test(word)) return [word];
  for (const key of hanKeys) {
    const at = word.indexOf(key);
    if (at < 0 || key === word) continue;
    return [...splitAtHanKeys(word.slice(0, at), hanKeys), key, ...splitAtHanKeys(word.slice(at + key.length), hanKeys)].filter(Boolean);
  }
  return [word];
}

/** The parts of a search, with what the aliases add (at most 8 parts). */
export async function readSearch(q: string): Promise<SearchPart[]> {
  const index = await aliasIndex();
  // a short model prefix and its number are one word however written (af 1, af-1, af1);
  // longer words keep their number apart ("jordan retro 4" still finds "jordan 4")
  const words = joinShortModelNumbers(normalizeSearch(q))
    .split(" ")
    .filter(Boolean)
    .flatMap((word) => (index.hanKeys.length ? splitAtHanKeys(word, index.hanKeys) : [word]));
  const parts: SearchPart[] = [];
  for (let i = 0; i < words.length;) {
    let taken = 0;
    for (let n = Math.min(index.longestKey, words.length - i); n >= 1 && !taken; n--) {
      const key = joinModelNumber(words.slice(i, i + n).join(" "));
      const singular = n === 1 ? singularOf(key) : null;
      const finds = index.byKey.get(key) ?? (singular ? index.byKey.get(singular) : undefined);
      if (finds) {
        parts.push({ typed: key, alternatives: finds, aliased: true });
        taken = n;
      }
    }
    if (!taken) {
      parts.push({ typed: words[i], alternatives: withAliasedPrefix(words[i], wordForms(words[i]), index), aliased: false });
      taken = 1;
    }
    i += taken;
  }
  return parts.filter((part) => !isEmptyUnit(searchUnit(part.alternatives))).slice(0, 8);
}

export const termsOf = (parts: SearchPart[]): SearchTerms => parts.map((part) => searchUnit(part.alternatives));

// ---------------------------------------------------------------- typos

type Vocabulary = { words: Map<string, number>; byLength: Map<number, Array<[string, number]>> };

let vocabularyCache: { content: number; data: number; vocabulary: Promise<Vocabulary> } | undefined;

function currentVocabulary(): Promise<Vocabulary> {
  const content = contentVersion();
  const data = dataVersion();
  if (!vocabularyCache || vocabularyCache.content !== content || vocabularyCache.data !== data) {
    const loaded = vocabulary(getDb()).then((words) => {
      const byLength = new Map<number, Array<[string, number]>>();
      for (const entry of words) {
        const list = byLength.get(entry[0].length) ?? [];
        list.push(entry);
        byLength.set(entry[0].length, list);
      }
      return { words, byLength };
    });
    vocabularyCache = { content, data, vocabulary: loaded };
    loaded.catch(() => {
      if (vocabularyCache?.vocabulary === loaded) vocabularyCache = undefined;
    });
  }
  return vocabularyCache.vocabulary;
}

/** How many edits a typed word of this length may be from the word meant. */
const editsAllowed = (length: number) => (length >= 6 ? 2 : length >= 4 ? 1 : 0);

/** Typed words may be corrected when they are Latin letters (and digits) of 4+ characters. */
const CORRECTABLE = /^(?=.*[a-z])[a-z0-9]{4,40}$/;

/**
 * The words a typed word probably meant, best first (fewest edits, then the most
 * products), or the two words it joins; none when products hold the word itself.
 */
function correctionsOf(word: string, vocab: Vocabulary): string[] {
  if (!CORRECTABLE.test(word) || vocab.words.has(word)) return [];
  const max = editsAllowed(word.length);
  const found: Array<{ word: string; distance: number; products: number }> = [];
  for (let length = word.length - max; length <= word.length + max; length++) {
    for (const [candidate, products] of vocab.byLength.get(length) ?? []) {
      if (candidate.length < 3 || !/[a-z]/.test(candidate)) continue;
      const distance = editDistance(word, candidate, max);
      if (distance <= max) found.push({ word: candidate, distance, products });
    }
  }
  // two words run together: both halves are words products hold
  let joined: { phrase: string; products: number } | undefined;
  for (let at = 2; at <= word.length - 2; at++) {
    const left = vocab.words.get(word.slice(0, at));
    const right = vocab.words.get(word.slice(at));
    if (left && right && (!joined || Math.min(left, right) > joined.products)) {
      joined = { phrase: `${word.slice(0, at)} ${word.slice(at)}`, products: Math.min(left, right) };
    }
  }
  const best = Math.min(...found.map((entry) => entry.distance));
  const nearest = found
    .filter((entry) => entry.distance === best)
    .sort((a, b) => b.products - a.products || a.word.localeCompare(b.word))
    .slice(0, 3)
    .map((entry) => entry.word);
  return joined ? [joined.phrase, ...nearest] : nearest;
}

/** The search's parts with typo corrections added, and the search as corrected; null when nothing was corrected. */
export async function correctSearch(parts: SearchPart[]): Promise<{ parts: SearchPart[]; text: string } | null> {
  const vocab = await currentVocabulary();
  let corrected = false;
  const widened = parts.map((part) => {
    if (part.aliased) return part;
    const corrections = correctionsOf(part.typed, vocab);
    if (!corrections.length) return part;
    corrected = true;
    return { typed: corrections[0], alternatives: [...part.alternatives, ...corrections], aliased: false };
  });
  return corrected ? { parts: widened, text: widened.map((part) => part.typed).join(" ") } : null;
}

// ---------------------------------------------------------------- popular searches

const POPULAR_DAYS = 30;
const POPULAR_COUNT = 8;
const FLUSH_DELAY_MS = 5000;
/** A search worth showing to others: not too long, not a link. */
const COUNTABLE = (term: string) => term.length >= 2 && term.length <= 40 && !/[/:]|\.[a-z]{2,}/i.test(term);

/**
 * The searches of the last 30 days, counted: the written totals (read once, again after
 * another process wrote or the day turned) plus this process's counts. The list shown is
 * kept up to date at each count (totals only grow, so the new top is within the old top
 * and the term counted), and written to the database every few seconds.
 */
type CountState = {
  pending: Map<string, number>;
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
  totals: { day: string; data: number; byTerm: Map<string, number>; top: string[] } | null;
  loading: Promise<void> | null;
  prunedAt: number;
};

declare global {
  var __searchCounts: CountState | undefined;
}

// on globalThis: the server's front counts the searches of the pages it answers from memory
const counts: CountState = (globalThis.__searchCounts ??= {
  pending: new Map(),
  timer: null,
  flushing: null,
  totals: null,
  loading: null,
  prunedAt: 0,
});

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** The most made searches of `byTerm`, most first (ties: in alphabetical order), from `among` when given. */
function topOf(byTerm: Map<string, number>, among?: Iterable<string>): string[] {
  const terms = among ? [...new Set(among)] : [...byTerm.keys()];
  return terms
    .filter((term) => (byTerm.get(term) ?? 0) > 0)
    .sort((a, b) => byTerm.get(b)! - byTerm.get(a)! || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, POPULAR_COUNT);
}

function setTop(top: string[]): void {
  const totals = counts.totals!;
  if (top.join("\n") !== totals.top.join("\n")) {
    totals.top = top;
    viewsMoved("popular-searches");
  }
}

/** Reads the written totals (with the counts not written yet) when there are none, or they are another day's or another process wrote. */
async function currentTotals(): Promise<NonNullable<CountState["totals"]>> {
  const day = today();
  const data = dataVersion();
  if (!counts.totals || counts.totals.day !== day || counts.totals.data !== data) {
    // one read for everyone asking at once
    counts.loading ??= (async () => {
      try {
        const byTerm = await searchTermTotals(getDb(), daysAgo(POPULAR_DAYS));
        for (const [term, n] of counts.pending) byTerm.set(term, (byTerm.get(term) ?? 0) + n);
        const before = counts.totals?.top ?? [];
        counts.totals = { day, data, byTerm, top: before };
        setTop(topOf(byTerm));
      } finally {
        counts.loading = null;
      }
    })();
    await counts.loading;
  }
  return counts.totals!;
}

/** Counts one search that found products (shown among the popular ones at once, written within a few seconds). */
export function countSearch(q: string): void {
  const term = normalizeSearch(q);
  if (!COUNTABLE(term)) return;
  counts.pending.set(term, (counts.pending.get(term) ?? 0) + 1);
  const totals = counts.totals;
  if (totals) {
    totals.byTerm.set(term, (totals.byTerm.get(term) ?? 0) + 1);
    setTop(topOf(totals.byTerm, [...totals.top, term]));
  }
  if (!counts.timer) {
    counts.timer = setTimeout(() => void flushSearchCounts(), FLUSH_DELAY_MS);
    counts.timer.unref();
  }
}

/** Writes the counted searches now (and forgets the days no list looks at any more). */
export async function flushSearchCounts(): Promise<void> {
  if (counts.timer) {
    clearTimeout(counts.timer);
    counts.timer = null;
  }
  if (counts.flushing) await counts.flushing;
  if (!counts.pending.size) return;
  const batch = counts.pending;
  counts.pending = new Map();
  counts.flushing = (async () => {
    const db = getDb();
    await addSearchCounts(db, today(), batch);
    // the old days go at most once an hour (on PostgreSQL each search is written at once)
    if (Date.now() - counts.prunedAt >= 3_600_000) {
      await pruneSearchTerms(db, daysAgo(POPULAR_DAYS * 3));
      counts.prunedAt = Date.now();
    }
  })()
    .catch((error) => {
      for (const [term, n] of batch) counts.pending.set(term, (counts.pending.get(term) ?? 0) + n);
      log.warn(`search counts: writing ${batch.size} failed, kept for the next try: ${(error as Error).message}`);
    })
    .finally(() => {
      counts.flushing = null;
    });
  await counts.flushing;
}

/**
 * On PostgreSQL, where several instances count searches, writes the searches counted so
 * far (this caller's among them) before the answer goes; on SQLite nothing (one process
 * holds the counts and adds them to what it reads).
 */
export async function searchCountsWritten(): Promise<void> {
  if (!onPostgres(getDb())) return;
  await flushSearchCounts();
  // a flush started by another caller may hold this caller's search: it is the one in flight
  if (counts.flushing) await counts.flushing;
}

/** The most made searches of the last 30 days that found products (an answer showing them is stored until they change). */
export async function popularSearches(): Promise<string[]> {
  answerDependsOn("popular-searches");
  // on PostgreSQL the other instances' searches are in the database only: read each time
  // (only a search that finds nothing shows them), and the answer is not stored: another
  // instance's searches would not drop the copy
  if (onPostgres(getDb())) {
    answerNotStored();
    return topSearchTerms(getDb(), daysAgo(POPULAR_DAYS), POPULAR_COUNT);
  }
  return [...(await currentTotals()).top];
}

// ---------------------------------------------------------------- aliases (staff)

const aliasNotFound = () => new ApiError(404, M.notFound, "NOT_FOUND");

/** After a write (staffWrite then makes the stored search pages and answers stale). */
function aliasChanged() {
  aliasCache = undefined;
}

export async function searchAliases(): Promise<SearchAlias[]> {
  return listAliases(getDb());
}

export async function getSearchAlias(id: number): Promise<SearchAlias> {
  const alias = await findAlias(getDb(), id);
  if (!alias) throw aliasNotFound();
  return alias;
}

const termTaken = (term: string) => new ApiError(409, M.termTaken(term), "CONFLICT", [{ field: "term", message: M.termTaken(term) }]);

async function assertTermFree(term: string, exceptId?: number) {
  const taken = await findAliasByTerm(getDb(), term, exceptId);
  if (taken) throw termTaken(taken.term);
}

export const createSearchAlias = staffWrite(
  { requires: MANAGE_SEARCH_WORDS, stales: ["shop"] },
  async (body: SearchAliasBody, _actor: Actor): Promise<SearchAlias> => {
    await assertTermFree(body.term);
    // checked free, then taken by another save in between: the UNIQUE key refuses it
    const alias = await refusedAsDuplicate(
      "search_aliases",
      () => insertAlias(getDb(), { term: body.term, alternatives: body.alternatives, bothWays: body.both_ways }),
      () => termTaken(body.term),
    );
    aliasChanged();
    return alias;
  },
);

export const updateSearchAlias = staffWrite(
  { requires: MANAGE_SEARCH_WORDS, stales: ["shop"] },
  async (id: number, body: SearchAliasBody, _actor: Actor): Promise<SearchAlias> => {
    await getSearchAlias(id);
    await assertTermFree(body.term, id);
    const alias = await refusedAsDuplicate(
      "search_aliases",
      () => updateAlias(getDb(), id, { term: body.term, alternatives: body.alternatives, bothWays: body.both_ways }),
      () => termTaken(body.term),
    );
    if (!alias) throw aliasNotFound();
    aliasChanged();
    return alias;
  },
);

export const deleteSearchAlias = staffWrite(
  { requires: MANAGE_SEARCH_WORDS, stales: ["shop"] },
  async (id: number, _actor: Actor): Promise<void> => {
    if (!(await deleteAlias(getDb(), id))) throw aliasNotFound();
    aliasChanged();
  },
);

export function searchAliasJson(alias: SearchAlias) {
  return {
    id: alias.id,
    term: alias.term,
    alternatives: alias.alternatives,
    both_ways: alias.bothWays,
    created_at: alias.createdAt,
    updated_at: alias.updatedAt,
  };
}
