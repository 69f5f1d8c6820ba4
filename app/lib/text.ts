/**
 * Text as it may be shown and written: what a paste can carry (control characters, a NUL
 * from a URL's %00) never reaches a page, a feed or a query. Client-safe.
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
