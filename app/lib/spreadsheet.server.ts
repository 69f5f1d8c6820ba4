/**
 * The rows of a spreadsheet the community shares finds in: CSV (any delimiter of , ; tab)
 * or XLSX (its first sheet). Each row is its number in the file and the texts of its
 * filled cells, in column order, with a cell's hyperlink target added to its text (a cell
 * that shows "LINK" links to the item). Only what the bulk import needs: no formulas,
 * styles or dates.
 *
 * Everything here comes from outside, so it is read with stated bounds
 * (docs/decisions/034-bounded-readers.md, SHEET_BOUNDS): the archive by yauzl (its central
 * directory, checked before anything is inflated; zlib inflates off the event loop), the
 * XML by saxes (a streaming tokenizer, linear in its input, no DTD), the CSV by a
 * single-pass state machine that yields to other requests as it goes. A file past a bound
 * is refused whole (SheetRefused), never half read; nothing from the file ever becomes a
 * regular expression.
 */
import path from "node:path/posix";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { setImmediate } from "node:timers/promises";
import { SaxesParser, type SaxesTagPlain } from "saxes";
import yauzl from "yauzl";

/** The limits of a readable sheet. Excel's own limits where it has one. */
export const SHEET_BOUNDS = {
  /** Excel's last row and column (XFD): a reference past them is not a real sheet's */
  maxRow: 1_048_576,
  maxColumn: 16_384,
  /** Excel's limit of one cell's text */
  cellChars: 32_767,
  /** filled cells in all (a thousand rows of a hundred columns) */
  cells: 100_000,
  /** characters of all filled cells together */
  textChars: 10_000_000,
  /** entries in the archive (a real workbook has tens) */
  zipEntries: 10_000,
  /** bytes inflated from the parts read (the workbook, its relationships, the first sheet, the shared strings) */
  inflatedBytes: 50 * 1024 * 1024,
  /** nesting of XML elements (a sheet's cell text sits 4 to 6 deep) */
  xmlDepth: 64,
  /** the whole read; the bounds above keep it far below */
  timeMs: 5_000,
} as const;

export type SheetRow = { position: number; cells: string[] };

/**
 * Why a file was refused: not readable as a sheet (broken, encrypted, hostile, past the
 * sheet's limits), more rows than asked for, more than the bounds, a text file that is
 * not UTF-8 (UTF-16, or a legacy code page), or not text at all (a binary file named .csv).
 */
export type SheetRefusal = "unreadable" | "tooManyRows" | "tooLarge" | "notUtf8" | "notText";

export class SheetRefused extends Error {
  constructor(
    readonly reason: SheetRefusal,
    detail: string,
  ) {
    super(detail);
    this.name = "SheetRefused";
  }
}

const refuse = (reason: SheetRefusal, detail: string): never => {
  throw new SheetRefused(reason, detail);
};

export type SheetOptions = {
  /** rows with a filled cell: one more and the file is refused as "tooManyRows" */
  maxRows: number;
};

/** XLSX files are zip archives: they start with "PK\x03\x04". */
export const isXlsx = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/** "C12" → [12, 3] (1-based row and column); null when it is not a cell reference. */
function cellPosition(ref: string): [number, number] | null {
  let at = 0;
  let column = 0;
  while (at < ref.length) {
    const code = ref.charCodeAt(at) | 0x20; // lower case
    if (code < 0x61 || code > 0x7a) break;
    column = column * 26 + (code - 0x60);
    // past XFD already: no need to read on (ZZZZZZZZZZ… would overflow)
    if (column > SHEET_BOUNDS.maxColumn) return [1, column];
    at++;
  }
  if (at === 0 || at === ref.length) return null;
  const digits = ref.slice(at);
  if (!/^\d{1,10}$/.test(digits)) return null;
  return [Number(digits), column];
}

/**
 * The filled cells of a sheet as they are read, in any order, within the bounds: rows
 * past `maxRows`, references past the sheet's limits, cells or text past their bounds
 * refuse the file at once.
 */
class SheetCells {
  private readonly byRow = new Map<number, Map<number, string>>();
  private cells = 0;
  private chars = 0;

  constructor(private readonly options: SheetOptions) {}

  put(row: number, column: number, value: string): void {
    if (row < 1 || row > SHEET_BOUNDS.maxRow || column < 1 || column > SHEET_BOUNDS.maxColumn)
      refuse("unreadable", `a cell reference (row ${row}, column ${column}) is past the sheet's limits`);
    if (value.length > SHEET_BOUNDS.cellChars) refuse("tooLarge", `a cell holds more than ${SHEET_BOUNDS.cellChars} characters`);
    if (!value.trim()) return;
    let cells = this.byRow.get(row);
    if (!cells) {
      if (this.byRow.size >= this.options.maxRows) refuse("tooManyRows", `more than ${this.options.maxRows} rows`);
      cells = new Map();
      this.byRow.set(row, cells);
    }
    const before = cells.get(column);
    if (before === undefined && ++this.cells > SHEET_BOUNDS.cells) refuse("tooLarge", `more than ${SHEET_BOUNDS.cells} filled cells`);
    this.chars += value.length;
    if (this.chars > SHEET_BOUNDS.textChars) refuse("tooLarge", `more than ${SHEET_BOUNDS.textChars} characters of text`);
    cells.set(column, before ? `${before} ${value}` : value);
  }

  rows(): SheetRow[] {
    return [...this.byRow.entries()]
      .sort(([a], [b]) => a - b)
      .map(([position, cells]) => ({
        position,
        cells: [...cells.entries()].sort(([a], [b]) => a - b).map(([, text]) => text),
      }));
  }
}

/** Refuses the read once it has taken longer than SHEET_BOUNDS.timeMs. */
function deadline(): () => void {
  const until = Date.now() + SHEET_BOUNDS.timeMs;
  return () => {
    if (Date.now() > until) refuse("unreadable", `not read within ${SHEET_BOUNDS.timeMs / 1000} s`);
  };
}

// ------------------------------------------------------------------ CSV

/** Bytes decoded and read between two turns of the event loop. */
const CSV_SLICE_BYTES = 128 * 1024;

/** The delimiter the first line uses most (a count over at most its first 64 KB, never a split). */
function csvDelimiter(start: string): string {
  const head = start.slice(0, 64 * 1024);
  const lineEnd = head.search(/[\r\n]/);
  const firstLine = lineEnd === -1 ? head : head.slice(0, lineEnd);
  let best = ",";
  let bestCount = -1;
  for (const candidate of [",", ";", "\t"]) {
    let count = 0;
    for (let at = firstLine.indexOf(candidate); at !== -1; at = firstLine.indexOf(candidate, at + 1)) count++;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

/** A UTF-16 byte order mark (Excel's "Unicode text" export). */
const isUtf16 = (bytes: Uint8Array) => (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);

/**
 * CSV rows (UTF-8, with or without a BOM): quoted cells may hold the delimiter, quotes ("")
 * and line breaks. UTF-16 text or another code page is refused as not UTF-8, a file with
 * NUL bytes (an image, a PDF) as not text. Decoded and read a slice at a time, in one
 * pass: a quote or a CR at the end of a slice waits for the next one to be read.
 */
export async function readCsv(bytes: Uint8Array, options: SheetOptions): Promise<SheetRow[]> {
  if (isUtf16(bytes)) refuse("notUtf8", "UTF-16 text");
  if (bytes.includes(0)) refuse("notText", "NUL bytes: not a text file");
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const sheet = new SheetCells(options);
  const overdue = deadline();
  let delimiter = "";
  let row = 1;
  let column = 1;
  let cell = "";
  let quoted = false;
  let filled = false;
  let carried = "";
  const endCell = () => {
    if (cell) sheet.put(row, column, cell);
    column++;
    cell = "";
  };
  const read = (text: string, final: boolean) => {
    // a quote or a CR at the end may be the first of two characters read together
    let end = text.length;
    if (!final && end > 0 && (text[end - 1] === '"' || text[end - 1] === "\r")) end--;
    for (let i = 0; i < end; i++) {
      const char = text[i];
      filled = true;
      if (quoted) {
        if (char === '"' && text[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (char === '"') quoted = false;
        else cell += char;
      } else if (char === '"' && cell === "") quoted = true;
      else if (char === delimiter) {
        endCell();
        if (column > SHEET_BOUNDS.maxColumn) refuse("tooLarge", `a row of more than ${SHEET_BOUNDS.maxColumn} cells`);
      } else if (char === "\n" || char === "\r") {
        if (char === "\r" && text[i + 1] === "\n") i++;
        endCell();
        row++;
        column = 1;
        if (row > SHEET_BOUNDS.maxRow) refuse("tooLarge", `more than ${SHEET_BOUNDS.maxRow} lines`);
      } else cell += char;
      // a cell that grows past the bound is refused as it grows, not at its end
      if (cell.length > SHEET_BOUNDS.cellChars) refuse("tooLarge", `a cell holds more than ${SHEET_BOUNDS.cellChars} characters`);
    }
    carried = text.slice(end);
  };
  for (let start = 0; start < bytes.length || start === 0; start += CSV_SLICE_BYTES) {
    if (start > 0) {
      // other requests run between two slices
      await setImmediate();
      overdue();
    }
    const final = start + CSV_SLICE_BYTES >= bytes.length;
    let text: string;
    try {
      text = decoder.decode(bytes.subarray(start, start + CSV_SLICE_BYTES), { stream: !final });
    } catch {
      return refuse("notUtf8", "not UTF-8 text");
    }
    if (start === 0) {
      if (text.startsWith("\uFEFF")) text = text.slice(1);
      delimiter = csvDelimiter(text);
    }
    read(carried + text, final);
    if (final) break;
  }
  if (filled && (cell !== "" || column > 1)) endCell();
  return sheet.rows();
}

// ------------------------------------------------------------------ XLSX: the archive

type Archive = { zip: yauzl.ZipFile; entries: Map<string, yauzl.Entry>; inflated: { bytes: number } };

const promised = <T>(run: (done: (error: Error | null, value: T) => void) => void) =>
  new Promise<T>((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value))));

/**
 * The archive's entries, from its central directory, checked before anything is inflated:
 * at most SHEET_BOUNDS.zipEntries, none encrypted, no name twice, and no two entries
 * sharing bytes (a zip bomb points many entries at one stream).
 */
async function openArchive(bytes: Uint8Array): Promise<Archive> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let zip: yauzl.ZipFile;
  try {
    zip = await promised<yauzl.ZipFile>((done) =>
      yauzl.fromBuffer(buffer, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false }, done),
    );
  } catch (error) {
    return refuse("unreadable", `not a zip archive: ${(error as Error).message}`);
  }
  // an error emitted with nobody listening would end the process
  zip.on("error", () => {});
  try {
    if (zip.entryCount > SHEET_BOUNDS.zipEntries) refuse("tooLarge", `more than ${SHEET_BOUNDS.zipEntries} entries in the archive`);
    const entries = new Map<string, yauzl.Entry>();
    const spans: Array<[number, number]> = [];
    for (;;) {
      const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
        zip.once("entry", resolve);
        zip.once("end", () => resolve(null));
        zip.once("error", reject);
        zip.readEntry();
      }).finally(() => zip.removeAllListeners("entry").removeAllListeners("end").removeAllListeners("error"));
      if (!entry) break;
      if (entry.isEncrypted()) refuse("unreadable", "encrypted entries");
      if (entries.has(entry.fileName)) refuse("unreadable", `two entries named ${entry.fileName}`);
      entries.set(entry.fileName, entry);
      const header = await promised<{ fileDataStart: number }>((done) => zip.readLocalFileHeader(entry, { minimal: true }, done));
      spans.push([entry.relativeOffsetOfLocalHeader, header.fileDataStart + entry.compressedSize]);
    }
    spans.sort((a, b) => a[0] - b[0]);
    for (let n = 1; n < spans.length; n++) if (spans[n][0] < spans[n - 1][1]) refuse("unreadable", "entries share data");
    return { zip, entries, inflated: { bytes: 0 } };
  } catch (error) {
    zip.close();
    if (error instanceof SheetRefused) throw error;
    return refuse("unreadable", `a broken zip archive: ${(error as Error).message}`);
  }
}

/**
 * Streams one part of the archive as text into `parse`, counting what is inflated against
 * SHEET_BOUNDS.inflatedBytes (the declared sizes first, then the bytes themselves).
 */
async function readPart(archive: Archive, name: string, parse: (text: string) => void, overdue: () => void): Promise<boolean> {
  const entry = archive.entries.get(name);
  if (!entry) return false;
  if (archive.inflated.bytes + entry.uncompressedSize > SHEET_BOUNDS.inflatedBytes)
    refuse("tooLarge", `the sheet unpacks to more than ${SHEET_BOUNDS.inflatedBytes / 1024 / 1024} MB`);
  let stream: Readable;
  try {
    stream = await promised<Readable>((done) => archive.zip.openReadStream(entry, done));
  } catch (error) {
    return refuse("unreadable", `${name}: ${(error as Error).message}`);
  }
  const decoder = new StringDecoder("utf8");
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      archive.inflated.bytes += chunk.length;
      if (archive.inflated.bytes > SHEET_BOUNDS.inflatedBytes)
        refuse("tooLarge", `the sheet unpacks to more than ${SHEET_BOUNDS.inflatedBytes / 1024 / 1024} MB`);
      overdue();
      parse(decoder.write(chunk));
    }
    parse(decoder.end());
  } catch (error) {
    stream.destroy();
    if (error instanceof SheetRefused) throw error;
    return refuse("unreadable", `${name}: ${(error as Error).message}`);
  }
  return true;
}

// ------------------------------------------------------------------ XLSX: the XML parts

/** An element's name without its namespace prefix ("x:c" → "c"). */
const localName = (name: string) => name.slice(name.indexOf(":") + 1);

/** The relationship id of an element (`r:id`, whatever the prefix of the relationships namespace). */
function relationshipId(attributes: Record<string, string>): string | undefined {
  for (const [name, value] of Object.entries(attributes)) if (name.endsWith(":id")) return checkedId(value);
  return undefined;
}

/** A relationship id is an XML name ("rId3"); anything else is not a workbook's. */
function checkedId(id: string): string {
  return /^[A-Za-z_][\w.-]{0,254}$/.test(id) ? id : refuse("unreadable", `a relationship id that is not one ("${id.slice(0, 20)}")`);
}

type XmlHandlers = {
  open?: (name: string, attributes: Record<string, string>) => void;
  close?: (name: string) => void;
  text?: (text: string) => void;
};

/**
 * A streaming XML reader over saxes: well-formed XML only, no DTD (a DOCTYPE, and with it
 * any entity of its own, is refused), at most SHEET_BOUNDS.xmlDepth levels deep. Element
 * names come without their prefix.
 */
function xmlReader(part: string, handlers: XmlHandlers): { write: (text: string) => void; end: () => void } {
  const parser = new SaxesParser();
  let depth = 0;
  parser.on("doctype", () => refuse("unreadable", `${part}: a DOCTYPE`));
  parser.on("error", (error) => refuse("unreadable", `${part}: ${error.message}`));
  parser.on("opentag", (tag: SaxesTagPlain) => {
    if (++depth > SHEET_BOUNDS.xmlDepth) refuse("unreadable", `${part}: elements nested more than ${SHEET_BOUNDS.xmlDepth} deep`);
    handlers.open?.(localName(tag.name), tag.attributes);
  });
  parser.on("closetag", (tag: SaxesTagPlain) => {
    depth--;
    handlers.close?.(localName(tag.name));
  });
  const onText = (text: string) => handlers.text?.(text);
  parser.on("text", onText);
  parser.on("cdata", onText);
  return {
    write: (text) => {
      if (text) parser.write(text);
    },
    end: () => {
      parser.close();
    },
  };
}

/** Reads a part of the archive through xmlReader; false when the archive has no such part. */
async function readXmlPart(archive: Archive, name: string, handlers: XmlHandlers, overdue: () => void): Promise<boolean> {
  const reader = xmlReader(name, handlers);
  const found = await readPart(archive, name, reader.write, overdue);
  if (found) reader.end();
  return found;
}

/** The target of each relationship of a .rels part, by id. */
async function readRelationships(archive: Archive, name: string, overdue: () => void): Promise<Map<string, string>> {
  const targets = new Map<string, string>();
  await readXmlPart(
    archive,
    name,
    {
      open: (element, attributes) => {
        if (element === "Relationship" && attributes.Id && attributes.Target) targets.set(checkedId(attributes.Id), attributes.Target);
      },
    },
    overdue,
  );
  return targets;
}

/** The first sheet's part, by the workbook's first <sheet> and its relationship (sheet1.xml when they do not say). */
async function firstSheetPart(archive: Archive, overdue: () => void): Promise<string> {
  let firstSheet: string | undefined;
  let seen = false;
  await readXmlPart(
    archive,
    "xl/workbook.xml",
    {
      open: (element, attributes) => {
        if (element !== "sheet" || seen) return;
        seen = true;
        firstSheet = relationshipId(attributes);
      },
    },
    overdue,
  );
  const target = firstSheet ? (await readRelationships(archive, "xl/_rels/workbook.xml.rels", overdue)).get(firstSheet) : undefined;
  if (target) {
    const part = target.startsWith("/") ? target.slice(1) : path.normalize(path.join("xl", target));
    if (archive.entries.has(part)) return part;
  }
  return "xl/worksheets/sheet1.xml";
}

/** A cell of the sheet that shows a shared string: filled in once the strings are read. */
type SharedCell = { row: number; column: number; index: number };

/** The first sheet's rows, as strings; a hyperlink's target follows its cell's text. */
export async function readXlsx(bytes: Uint8Array, options: SheetOptions): Promise<SheetRow[]> {
  const overdue = deadline();
  const archive = await openArchive(bytes);
  try {
    const sheetPart = await firstSheetPart(archive, overdue);
    const sheet = new SheetCells(options);
    const sharedCells: SharedCell[] = [];
    const links: Array<{ row: number; column: number; id: string }> = [];

    // the sheet: <row r="12"><c r="B12" t="s"><v>3</v></c>…</row>, then <hyperlink ref="B12" r:id="rId1"/>
    let row = 0;
    let column = 0;
    let type = "";
    let value: string | null = null;
    let capture = false;
    let inCell = false;
    let inPhonetic = false;
    const addText = (text: string) => {
      if (!capture || inPhonetic) return;
      value = (value ?? "") + text;
      if (value.length > SHEET_BOUNDS.cellChars) refuse("tooLarge", `a cell holds more than ${SHEET_BOUNDS.cellChars} characters`);
    };
    const position = (ref: string | undefined, fallback: [number, number]): [number, number] => {
      if (ref === undefined) return fallback;
      return cellPosition(ref) ?? refuse("unreadable", `a cell reference that is not one ("${ref.slice(0, 20)}")`);
    };
    const found = await readXmlPart(
      archive,
      sheetPart,
      {
        open: (element, attributes) => {
          switch (element) {
            case "row": {
              const number = attributes.r === undefined ? row + 1 : Number(attributes.r);
              if (!Number.isInteger(number) || number < 1 || number > SHEET_BOUNDS.maxRow)
                refuse("unreadable", `a row number past the sheet's limits ("${String(attributes.r).slice(0, 20)}")`);
              row = number;
              column = 0;
              break;
            }
            case "c":
              [row, column] = position(attributes.r, [Math.max(row, 1), column + 1]);
              if (row > SHEET_BOUNDS.maxRow || column > SHEET_BOUNDS.maxColumn)
                refuse("unreadable", `a cell reference past the sheet's limits ("${String(attributes.r).slice(0, 20)}")`);
              type = attributes.t ?? "n";
              value = null;
              inCell = true;
              break;
            case "v":
              capture = inCell;
              break;
            case "t":
              capture = inCell && type === "inlineStr";
              break;
            case "rPh":
              inPhonetic = true;
              break;
            case "hyperlink": {
              const ref = attributes.ref?.split(":")[0];
              const id = relationshipId(attributes);
              const at = ref ? cellPosition(ref) : null;
              if (at && id) links.push({ row: at[0], column: at[1], id });
              break;
            }
          }
        },
        close: (element) => {
          if (element === "v" || element === "t") capture = false;
          else if (element === "rPh") inPhonetic = false;
          else if (element === "c") {
            inCell = false;
            if (value === null) return;
            if (type === "s") {
              const index = Number(value);
              if (Number.isInteger(index) && index >= 0) {
                if (sharedCells.length >= SHEET_BOUNDS.cells) refuse("tooLarge", `more than ${SHEET_BOUNDS.cells} filled cells`);
                sharedCells.push({ row, column, index });
              }
            } else sheet.put(row, column, value);
          }
        },
        text: addText,
      },
      overdue,
    );
    if (!found) refuse("unreadable", "no worksheet");

    // the shared strings the sheet shows (only those are kept): <si><t>…</t><r><t>…</t></r><rPh>…</rPh></si>
    if (sharedCells.length) {
      const wanted = new Set(sharedCells.map((cell) => cell.index));
      const strings = new Map<number, string>();
      let index = -1;
      let text: string | null = null;
      let inRun = false;
      let phonetic = false;
      await readXmlPart(
        archive,
        "xl/sharedStrings.xml",
        {
          open: (element) => {
            if (element === "si") {
              index++;
              text = wanted.has(index) ? "" : null;
            } else if (element === "t") inRun = true;
            else if (element === "rPh") phonetic = true;
          },
          close: (element) => {
            if (element === "si" && text !== null) strings.set(index, text);
            else if (element === "t") inRun = false;
            else if (element === "rPh") phonetic = false;
          },
          text: (chunk) => {
            if (text === null || !inRun || phonetic) return;
            text += chunk;
            if (text.length > SHEET_BOUNDS.cellChars) refuse("tooLarge", `a cell holds more than ${SHEET_BOUNDS.cellChars} characters`);
          },
        },
        overdue,
      );
      for (const cell of sharedCells) {
        const shared = strings.get(cell.index);
        if (shared !== undefined) sheet.put(cell.row, cell.column, shared);
      }
    }

    // hyperlinks: their targets are in the sheet's relationships
    if (links.length) {
      const rels = `${path.dirname(sheetPart)}/_rels/${path.basename(sheetPart)}.rels`;
      const targets = await readRelationships(archive, rels, overdue);
      for (const link of links) {
        const href = targets.get(link.id);
        if (href) sheet.put(link.row, link.column, href);
      }
    }
    return sheet.rows();
  } finally {
    archive.zip.close();
  }
}
