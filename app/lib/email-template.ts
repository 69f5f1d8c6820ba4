/**
 * Marketing mail as text: `{{variables}}` filled in (HTML-escaped in the HTML part), a
 * text part made from the HTML when the template has none, and an unsubscribe link in
 * both parts. Pure functions, no I/O (the sender and the previews share them).
 */
import { VARIABLE_PATTERN } from "~/schemas/email-rules";
import { decodeEntities, escapeHtml } from "./text";

/**
 * Replaces `{{name}}` with its value: HTML-escaped for `html`, as is for `text`, on one
 * line for `subject`. Names without a value stay as written.
 */
export function fillVariables(template: string, values: Readonly<Record<string, string>>, mode: "html" | "text" | "subject"): string {
  return template.replace(VARIABLE_PATTERN, (whole, name: string) => {
    if (!Object.prototype.hasOwnProperty.call(values, name)) return whole;
    const value = values[name];
    if (mode === "html") return escapeHtml(value);
    if (mode === "subject") return value.replace(/[\r\n]+/g, " ");
    return value;
  });
}

/** A readable plain-text version of an HTML mail: paragraphs, list items, links as "text (url)". */
export function htmlToText(html: string): string {
  let text = html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<(head|style|script|title)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<a\b[^>]*?\bhref\s*=\s*(["'])(.*?)\1[^>]*>([\s\S]*?)<\/a\s*>/gi, (_whole, _quote, href: string, inner: string) => {
      const label = decodeEntities(inner.replace(/<[^>]*>/g, ""))
        .replace(/\s+/g, " ")
        .trim();
      const url = decodeEntities(href).trim();
      if (!label) return url;
      return label === url || url.startsWith("#") ? label : `${label} (${url})`;
    })
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<li\b[^>]*>/gi, "\n- ")
    .replace(/<\/(p|div|h[1-6]|ul|ol|table|tr|blockquote|section|header|footer)\s*>/gi, "\n\n")
    .replace(/<(p|div|h[1-6]|ul|ol|table|tr|blockquote|section|header|footer)\b[^>]*>/gi, "\n")
    .replace(/<\/t[dh]\s*>/gi, " ")
    .replace(/<hr\b[^>]*>/gi, "\n----\n")
    .replace(/<[^>]*>/g, "");
  text = decodeEntities(text);
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

export type MessageVariables = {
  userName: string;
  email: string;
  siteName: string;
  siteUrl: string;
  unsubscribeUrl: string;
};

export type RenderedMessage = { subject: string; html: string; text: string };

const FOOTER =
  `<p style="margin:24px 0 0;color:#5f6368;font-size:12px;font-family:system-ui,sans-serif">` +
  `You receive this e-mail because you have an account at {{siteName}}. ` +
  `<a href="{{unsubscribeUrl}}" style="color:#5f6368">Unsubscribe</a></p>`;

/**
 * A run sends one HTML to thousands: the HTML with its footer and the text made from it
 * are worked out once per HTML, with the `{{variables}}` still in them (the text of a
 * filled HTML is the filled text of the HTML: values are escaped in one, decoded back in
 * the other).
 */
const prepared = new Map<string, { html: string; text: string }>();
function prepare(html: string): { html: string; text: string } {
  let entry = prepared.get(html);
  if (!entry) {
    const withFooter = /\{\{\s*unsubscribeUrl\s*\}\}/.test(html)
      ? html
      : /<\/body\s*>/i.test(html)
        ? html.replace(/<\/body\s*>/i, `${FOOTER}</body>`)
        : `${html}\n${FOOTER}`;
    entry = { html: withFooter, text: htmlToText(withFooter) };
    if (prepared.size >= 20) prepared.delete(prepared.keys().next().value!);
    prepared.set(html, entry);
  }
  return entry;
}

/**
 * One recipient's message. Custom variables (the template's own) never override the
 * built-in ones. When a part does not place `{{unsubscribeUrl}}` itself, an unsubscribe
 * footer is added to it: every marketing mail carries the link.
 */
export function renderMessage(
  content: { subject: string; html: string; text: string | null; variables?: Readonly<Record<string, string>> },
  builtins: MessageVariables,
): RenderedMessage {
  const values: Record<string, string> = { ...content.variables, ...builtins };
  const subject = fillVariables(content.subject, values, "subject").trim();
  const template = prepare(content.html);
  const html = fillVariables(template.html, values, "html");
  let text = fillVariables(content.text?.trim() ? content.text : template.text, values, "text");
  if (!text.includes(builtins.unsubscribeUrl)) {
    text = `${text.trimEnd()}\n\n--\nUnsubscribe: ${builtins.unsubscribeUrl}`;
  }
  return { subject, html, text };
}
