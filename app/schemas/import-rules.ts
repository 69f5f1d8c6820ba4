/** Bulk import of links (docs/marketplace-links.md, "Bulk import"): limits and messages. Client-safe. */
import type { ImportRowStatus } from "../../db/schema";

export const IMPORT_LIMITS = {
  /** links pasted, or rows of a file (a header row without a link does not count) */
  rows: 1000,
  fileBytes: 5 * 1024 * 1024,
  /** rows shown on a page of a job's results */
  pageSize: 50,
  jobsPageSize: 20,
} as const;

export const IMPORT_MESSAGES = {
  empty: "Paste links, or choose a CSV or XLSX file.",
  tooManyLinks: "At most 1,000 links at once: split the list and import it in parts.",
  tooManyRows: "At most 1,000 rows at once: split the file and import it in parts.",
  tooBig: "The file is over 5 MB: split it and import it in parts.",
  notSheet: "Choose a CSV or XLSX file (a spreadsheet saved or exported as .csv or .xlsx).",
  /** a file refused by the reader's bounds (docs/decisions/034-bounded-readers.md): broken, encrypted or hostile */
  unreadable: "This file could not be read as a spreadsheet: save it again as .xlsx or .csv from your spreadsheet app, or paste the links.",
  sheetTooLarge:
    "The sheet is too large to read (at most 100,000 filled cells, 32,767 characters a cell, 50 MB unpacked): split it and import it in parts.",
  notUtf8: 'The CSV file is not UTF-8 text: save it as "CSV UTF-8" from your spreadsheet app.',
  noLink: "No link or item id in this row.",
  duplicate: (position: number) => `The same item as row ${position}.`,
  ambiguous: "A number of 10 to 12 digits may be a Weidian or a 1688 item: use its link instead.",
  creatorGone: "The account that started this import was deleted.",
  started: (rows: number) => `Import started: ${rows.toLocaleString("en-US")} row${rows === 1 ? "" : "s"}.`,
  retried: (rows: number) => `${rows} failed row${rows === 1 ? "" : "s"} will be tried again.`,
  nothingToRetry: "No failed rows to try again.",
  notFound: "Import not found.",
} as const;

export const IMPORT_STATUS_LABELS: Record<ImportRowStatus, string> = {
  pending: "Waiting",
  imported: "Imported",
  exists: "Already there",
  duplicate: "Duplicate",
  not_item: "Not an item",
  failed: "Failed",
};

export const IMPORT_STATUSES = Object.keys(IMPORT_STATUS_LABELS) as ImportRowStatus[];
