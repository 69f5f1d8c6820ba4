/**
 * Bulk import (docs/marketplace-links.md, "Bulk import"): staff paste up to 1,000 links or
 * upload a CSV/XLSX export; each row becomes a row of an import job, read at once (not an
 * item, the same item twice) and imported in the background, one row after the other,
 * by the job runner: a restart goes on with the rows still waiting. Failed rows can be
 * tried again.
 */
import { setImmediate } from "node:timers/promises";
import { ApiError } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { log } from "~/lib/log.server";
import { findLinks, readLink, readNumber, type LinkReading } from "~/marketplace/links";
import { isXlsx, readCsv, readXlsx, SheetRefused, type SheetRefusal, type SheetRow } from "~/lib/spreadsheet.server";
import {
  finishImportJobIfDone,
  findImportJob,
  insertImportJob,
  listImportJobs,
  listImportRows,
  pendingImportRows,
  requeueFailedRows,
  settleImportRow,
  type ImportJob,
  type ImportRow,
  type ImportRowStatus,
  type NewImportRow,
} from "~/models/import.server";
import { findUserById } from "~/models/user.server";
import { listingPlatform } from "~/schemas/catalogue-rules";
import { IMPORT_LIMITS, IMPORT_MESSAGES as M } from "~/schemas/import-rules";
import { PASTE_MESSAGES as P } from "~/schemas/marketplace-rules";
import { agentPatterns, LINK_DECODERS } from "~/marketplace/agent-links.server";
import { enqueueJob, type JobDefinition } from "./jobs.server";
import { findPasted } from "~/marketplace/find.server";
import { importFailureText, importItem } from "~/marketplace/import.server";
import { getAccess, type Actor } from "./permissions.server";
import { staffWrite } from "./writes.server";

export type { ImportJob, ImportRow, ImportRowStatus };

/** Who may bulk import: those who may create products. */
export const IMPORT_ACCESS = { permission: "product.create" } as const;

const JOB_NAME = "imports.run";
const jobKey = (id: number) => `import-${id}`;

const refuse = (field: string, message: string) => new ApiError(400, message, "VALIDATION_ERROR", [{ field, message }]);

export type ImportInput = { text?: string | null; file?: { name: string; bytes: Uint8Array; type?: string } | null };

/** What the reader's refusals say to staff (docs/decisions/034-bounded-readers.md). */
const REFUSALS: Record<SheetRefusal, string> = {
  unreadable: M.unreadable,
  tooManyRows: M.tooManyRows,
  tooLarge: M.sheetTooLarge,
  notUtf8: M.notUtf8,
  notText: M.notSheet,
};

/**
 * The rows of what was sent: a paste (one row a line), or the file's (CSV or XLSX), read
 * within the reader's bounds; a file past them is refused whole with one message.
 */
async function rowsOf(input: ImportInput): Promise<{ source: ImportJob["source"]; fileName: string | null; rows: SheetRow[] }> {
  const file = input.file && input.file.bytes.length > 0 ? input.file : null;
  if (file) {
    if (file.bytes.length > IMPORT_LIMITS.fileBytes) throw refuse("file", M.tooBig);
    const xlsx = isXlsx(file.bytes);
    // a binary file (an image, a PDF) named .csv is not a sheet
    const looksCsv = /\.(csv|txt|tsv)$/i.test(file.name) || /^text\/(csv|plain|tab-separated-values)/i.test(file.type ?? "");
    if (!xlsx && !looksCsv) throw refuse("file", M.notSheet);
    // a header row may come first: one row more than may be imported
    const options = { maxRows: IMPORT_LIMITS.rows + 1 };
    // the reader and what follows it (the page's render) each run in turns of their own:
    // other requests are answered in between (a 5 MB file is work enough without the render)
    await setImmediate();
    try {
      const rows = xlsx ? await readXlsx(file.bytes, options) : await readCsv(file.bytes, options);
      return { source: xlsx ? "xlsx" : "csv", fileName: file.name, rows };
    } catch (error) {
      if (!(error instanceof SheetRefused)) throw error;
      log.info(`bulk import: ${file.name} refused (${error.reason}): ${error.message}`);
      throw refuse("file", REFUSALS[error.reason]);
    } finally {
      await setImmediate();
    }
  }
  const text = input.text ?? "";
  return { source: "paste", fileName: null, rows: text.split(/\r?\n/).map((line, index) => ({ position: index + 1, cells: [line] })) };
}

/** A row's reading: the first of its links (or id cells) that names an item, else the first link's. */
function readRow(cells: string[], agents: Awaited<ReturnType<typeof agentPatterns>>): { link: string; reading: LinkReading } | null {
  let first: { link: string; reading: LinkReading } | null = null;
  for (const cell of cells) {
    const candidates = /^\d{5,20}$/.test(cell) ? [cell] : findLinks(cell);
    for (const link of candidates) {
      const reading: LinkReading = /^\d+$/.test(link) ? readNumber(link) : readLink(link, agents, LINK_DECODERS);
      if (reading.kind === "item") return { link, reading };
      first ??= { link, reading };
    }
  }
  return first;
}

/**
 * Starts an import: every row read now (the same item twice is folded into its first row;
 * a row without an item says why), the rest left to the background job. Bad input (not a
 * CSV or XLSX file, over 5 MB, over 1,000 rows, nothing) is refused whole: nothing is
 * imported. Answers the job's id.
 */
export const startImport = staffWrite(
  { requires: IMPORT_ACCESS, stales: [] },
  async (input: ImportInput, actor: Actor): Promise<number> => {
    const { source, fileName, rows } = await rowsOf(input);
    const agents = await agentPatterns();
    const withContent = rows
      .map(({ position, cells }) => ({ position, cells: cells.map((cell) => cell.trim()).filter(Boolean) }))
      .filter((row) => row.cells.length > 0);
    // a spreadsheet's header row ("Name, Link, Price") holds no link: not a row to import
    if (source !== "paste" && withContent.length && !readRow(withContent[0].cells, agents)) withContent.shift();
    if (withContent.length === 0) throw refuse(source === "paste" ? "links" : "file", M.empty);
    if (withContent.length > IMPORT_LIMITS.rows)
      throw refuse(source === "paste" ? "links" : "file", source === "paste" ? M.tooManyLinks : M.tooManyRows);

    const firstOf = new Map<string, number>();
    const newRows: NewImportRow[] = withContent.map(({ position, cells }) => {
      const found = readRow(cells, agents);
      const base = { position, link: (found?.link ?? cells.join(" ")).slice(0, 2000), platform: null, itemId: null, message: null };
      if (!found) return { ...base, status: "not_item", message: M.noLink };
      const { reading } = found;
      if (reading.kind === "item" || (reading.kind === "number" && reading.candidates.length === 1)) {
        const platform = reading.kind === "item" ? reading.platform : reading.candidates[0];
        // Taobao and Tmall share item numbers: one listing, one key
        const key = `${listingPlatform(platform)}:${reading.itemId}`;
        const earlier = firstOf.get(key);
        if (earlier !== undefined) return { ...base, platform, itemId: reading.itemId, status: "duplicate", message: M.duplicate(earlier) };
        firstOf.set(key, position);
        return { ...base, platform, itemId: reading.itemId, status: "pending" };
      }
      if (reading.kind === "number") return { ...base, itemId: reading.itemId, status: "not_item", message: M.ambiguous };
      if (reading.kind === "short") return { ...base, status: "pending" };
      return { ...base, status: "not_item", message: reading.kind === "unresolvable" ? P.unresolvable : P.unsupported };
    });
    const id = await insertImportJob(getDb(), { createdBy: actor.user.id, source, fileName }, newRows);
    if (newRows.some((row) => row.status === "pending")) await enqueueJob({ name: JOB_NAME, payload: { jobId: id }, key: jobKey(id) });
    log.info(`bulk import ${id}: ${newRows.length} rows from ${fileName ?? "a paste"} by ${actor.user.username}`);
    return id;
  },
);

/** Failed rows back in the queue (a marketplace that did not answer may answer now). Answers how many. */
export const retryFailedRows = staffWrite(
  { requires: IMPORT_ACCESS, stales: [] },
  async (jobId: number, _actor: Actor): Promise<number> => {
    await importJob(jobId);
    const count = await requeueFailedRows(getDb(), jobId);
    // a run of its own, not keyed as the import's: the import's last run may be ending right
    // now (its rows all settled, its job not yet marked done), and a keyed one would then be
    // dropped as already running, leaving these rows waiting. Two runs of one import at once
    // are harmless: a row is settled once (settleImportRow), a product made once (its key).
    if (count) await enqueueJob({ name: JOB_NAME, payload: { jobId } });
    return count;
  },
);

export async function importJob(id: number): Promise<ImportJob> {
  const job = await findImportJob(getDb(), id);
  if (!job) throw new ApiError(404, M.notFound, "NOT_FOUND");
  return job;
}

export const importJobs = (page: number) => listImportJobs(getDb(), { page, limit: IMPORT_LIMITS.jobsPageSize });

export const importRows = (jobId: number, query: { status: ImportRowStatus | null; page: number }) =>
  listImportRows(getDb(), jobId, { ...query, limit: IMPORT_LIMITS.pageSize });

/** One row: where its link leads, imported when new. Never throws: a failure is the row's outcome. */
async function importRow(row: ImportRow, actor: Actor): Promise<void> {
  const db = getDb();
  let platform = row.platform;
  try {
    const outcome = await findPasted(row.link);
    if (outcome.kind === "found") {
      await settleImportRow(db, row.id, { status: "exists", message: null, productId: outcome.product.id });
      return;
    }
    if (outcome.kind === "error") {
      // a short link that did not open may open later; anything else is not an item
      const status = outcome.message === P.shortLinkFailed ? "failed" : "not_item";
      await settleImportRow(db, row.id, { status, message: outcome.message });
      return;
    }
    if (outcome.kind === "choose") {
      await settleImportRow(db, row.id, { status: "not_item", message: M.ambiguous });
      return;
    }
    platform = outcome.platform;
    const { product, created } = await importItem(outcome.platform, outcome.itemId, actor);
    await settleImportRow(db, row.id, {
      status: created ? "imported" : "exists",
      message: null,
      productId: product.id,
      platform: outcome.platform,
      itemId: outcome.itemId,
    });
  } catch (error) {
    const text = platform ? importFailureText(error, platform) : null;
    if (!text) log.warn(`bulk import: row ${row.position} (${row.link}) failed: ${(error as Error).stack ?? error}`);
    await settleImportRow(db, row.id, { status: "failed", message: text ?? `Failed: ${(error as Error).message}` });
  }
}

/**
 * The background job of one import: its waiting rows, in order, as the person who started
 * it (their permissions today). Stopped by a shutdown, it goes on from the next waiting
 * row at the next start.
 */
export const importRunJob: JobDefinition = {
  name: JOB_NAME,
  run: async (payload, { signal }) => {
    const jobId = Number((payload as { jobId?: unknown } | null)?.jobId);
    const db = getDb();
    const job = Number.isInteger(jobId) ? await findImportJob(db, jobId) : null;
    if (!job) return;
    const creator = job.createdBy ? await findUserById(db, job.createdBy) : null;
    if (!creator) {
      for (let rows = await pendingImportRows(db, jobId, 200); rows.length; rows = await pendingImportRows(db, jobId, 200))
        for (const row of rows) await settleImportRow(db, row.id, { status: "failed", message: M.creatorGone });
      await finishImportJobIfDone(db, jobId);
      return;
    }
    const actor = { user: creator, access: await getAccess(creator) };
    while (!signal.aborted) {
      const rows = await pendingImportRows(db, jobId, 20);
      if (rows.length === 0) break;
      for (const row of rows) {
        if (signal.aborted) break;
        await importRow(row, actor);
      }
    }
    if (await finishImportJobIfDone(db, jobId)) {
      log.info(`bulk import ${jobId}: done`);
      return;
    }
    // stopped mid-way: the next start goes on from the next waiting row
    return { runAgainAt: Date.now() };
  },
};
