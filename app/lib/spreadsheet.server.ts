/**
 * The rows of a spreadsheet the community shares finds in: CSV (any delimiter of , ; tab)
 * or XLSX (its first sheet). Each row is a list of cell texts, with a cell's hyperlink
 * target added (a cell that shows "LINK" links to the item). Only what the bulk import
 * needs: no formulas, styles or dates.
 */
import { strFromU8, unzipSync } from "fflate";

export type SheetRows = string[][];

/** XLSX files are zip archives: they start with "PK\x03\x04". */
export const isXlsx = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/** CSV rows: quoted cells may hold the delimiter, quotes ("") and line breaks. */
export function readCsv(text: string): SheetRows {
  const body = text.replace(/^\uFEFF/, "");
  const firstLine = body.slice(0, body.indexOf("\n") === -1 ? body.length : body.indexOf("\n"));
  const delimiter = [",", ";", "\t"].reduce((best, candidate) =>
    firstLine.split(candidate).length > firstLine.split(best).length ? candidate : best,
  );
  const rows: SheetRows = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (quoted) {
      if (char === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell === "") quoted = true;
    else if (char === delimiter) {
      row.push(cell);
      cell = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && body[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += char;
  }
  if (cell !== "" || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

const XML_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function xmlText(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#")
      return String.fromCodePoint(name[1].toLowerCase() === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10));
    return XML_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The text of an <si> or <is> element: its <t> runs joined. */
const runsText = (xml: string) => [...xml.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)].map((run) => xmlText(run[1])).join("");

/** "C12" → [11, 2] (0-based row, column). */
function cellPosition(ref: string): [number, number] | null {
  const match = /^([A-Z]+)(\d+)$/i.exec(ref);
  if (!match) return null;
  let column = 0;
  for (const letter of match[1].toUpperCase()) column = column * 26 + (letter.charCodeAt(0) - 64);
  return [Number(match[2]) - 1, column - 1];
}

/** The first sheet's rows, as strings; a hyperlink's target follows its cell's text. */
export function readXlsx(bytes: Uint8Array): SheetRows {
  const files = unzipSync(bytes, {
    filter: (file) =>
      file.name === "xl/workbook.xml" ||
      file.name === "xl/_rels/workbook.xml.rels" ||
      file.name === "xl/sharedStrings.xml" ||
      /^xl\/worksheets\/(?:_rels\/)?sheet\d+\.xml(?:\.rels)?$/.test(file.name),
  });
  const text = (name: string) => (files[name] ? strFromU8(files[name]) : "");
  const shared = [...text("xl/sharedStrings.xml").matchAll(/<si>([\s\S]*?)<\/si>/g)].map((si) => runsText(si[1]));
  // the first sheet of the workbook, by its relationship (sheet1.xml is the usual name)
  const firstSheetRel = /<sheet\b[^>]*\br:id="([^"]+)"/.exec(text("xl/workbook.xml"))?.[1];
  const target = firstSheetRel
    ? new RegExp(`<Relationship\\b[^>]*Id="${firstSheetRel}"[^>]*Target="([^"]+)"`).exec(text("xl/_rels/workbook.xml.rels"))?.[1]
    : undefined;
  const sheetName = target ? `xl/${target.replace(/^\/?xl\//, "").replace(/^\//, "")}` : "xl/worksheets/sheet1.xml";
  const sheet = text(sheetName) || text("xl/worksheets/sheet1.xml");
  const rels = text(sheetName.replace(/worksheets\/(sheet\d+\.xml)$/, "worksheets/_rels/$1.rels"));
  const linkTargets = new Map(
    [...rels.matchAll(/<Relationship\b([^>]*)\/?>/g)].flatMap((rel) => {
      const id = /\bId="([^"]+)"/.exec(rel[1])?.[1];
      const href = /\bTarget="([^"]+)"/.exec(rel[1])?.[1];
      return id && href ? [[id, xmlText(href)] as const] : [];
    }),
  );
  const grid: string[][] = [];
  const put = (row: number, column: number, value: string) => {
    while (grid.length <= row) grid.push([]);
    const cells = grid[row];
    while (cells.length <= column) cells.push("");
    cells[column] = cells[column] ? `${cells[column]} ${value}` : value;
  };
  for (const cell of sheet.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
    const attributes = cell[1];
    const position = cellPosition(/\br="([^"]+)"/.exec(attributes)?.[1] ?? "");
    if (!position) continue;
    const type = /\bt="([^"]+)"/.exec(attributes)?.[1];
    const inner = cell[2] ?? "";
    const raw = /<v>([\s\S]*?)<\/v>/.exec(inner)?.[1];
    const value =
      type === "s" ? (shared[Number(raw)] ?? "") : type === "inlineStr" ? runsText(inner) : raw !== undefined ? xmlText(raw) : "";
    if (value) put(position[0], position[1], value);
  }
  for (const link of sheet.matchAll(/<hyperlink\b([^>]*)\/?>/g)) {
    const ref = /\bref="([^":]+)/.exec(link[1])?.[1];
    const id = /\br:id="([^"]+)"/.exec(link[1])?.[1];
    const position = cellPosition(ref ?? "");
    const href = id ? linkTargets.get(id) : undefined;
    if (position && href) put(position[0], position[1], href);
  }
  return grid;
}
