/**
 * Text as it may be shown and written: what a paste can carry (control characters, a NUL
 * from a URL's %00) never reaches a page, a feed or a query; the one HTML and XML escaper
 * and the one entity decoder of the code. Client-safe.
 */

/** C0 and C1 control characters and DEL. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * One line of plain text (a search term, a title): every control character, tabs and line
 * breaks included, becomes a space.
 */
export function plainLine(text: string): string {
  return text.replace(CONTROLS, " ");
}

/**
 * What XML 1.0 forbids removed (docs/decisions/022-front-rules.md): control characters
 * but tab, line feed and carriage return; U+FFFE and U+FFFF; halves of surrogate pairs
 * standing alone. A feed or sitemap written with it is always well-formed.
 */
export function xmlSafe(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    "",
  );
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text in HTML, as element text or inside a quoted attribute: the five specials escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** Text in XML (a feed, a sitemap): what XML 1.0 forbids dropped, the five specials escaped. */
export function escapeXml(text: string): string {
  return xmlSafe(text).replace(/[<>&'"]/g, (c) => (c === "'" ? "&apos;" : HTML_ESCAPES[c]));
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  copy: "©",
  reg: "®",
  hellip: "…",
  mdash: "—",
  ndash: "–",
};

/**
 * HTML's character references read back: numeric ones (`&#233;`, `&#xE9;`) and the named
 * ones text carries (the table above); anything else stays as written.
 */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (whole, entity: string) => {
    if (entity[0] === "#") {
      const code = entity[1] === "x" || entity[1] === "X" ? Number.parseInt(entity.slice(2), 16) : Number.parseInt(entity.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[entity.toLowerCase()] ?? whole;
  });
}
