/**
 * The allowlists of the HTML the blog stores (docs/decisions/017-blog.md). Every post and
 * comment is sanitised here on the server when it is saved; what the browser sent is
 * never trusted, and what is stored is what pages render.
 *
 * - Posts: the rich-text editor's formatting (paragraphs, headings 1–6, bold, italic,
 *   underline, strike, code, code blocks, quotes, lists, rules, line breaks), links with
 *   http, https, mailto or tel addresses (or a path on this site), images from this
 *   site's uploads folder or https. No styles, no classes but a code block's language,
 *   no event handlers, no frames, forms, SVG or MathML.
 * - Comments: p, br, a and blockquote; every link http/https/mailto with
 *   rel="ugc nofollow noopener noreferrer". Plain text (what the comment box sends) is
 *   turned into paragraphs first, and bare web addresses into links.
 */
import sanitizeHtml from "sanitize-html";
import { isAllowedImageSrc } from "./blog-text";
import { escapeHtml } from "./text";

export { isAllowedImageSrc };

/** Tags that are dropped with everything inside them (never shown as text). */
const NON_TEXT_TAGS = [
  "script",
  "style",
  "textarea",
  "option",
  "noscript",
  "template",
  "iframe",
  "object",
  "embed",
  "svg",
  "math",
  "title",
  "head",
  "xmp",
  "noembed",
  "noframes",
  "plaintext",
];

/** A tag name nobody allows: a transform renames what must go to it, and it is discarded. */
const DROP = "x-dropped";

const LINK_SCHEMES = ["http", "https", "mailto", "tel"];
const REL_VALUES = new Set(["nofollow", "noopener", "noreferrer", "sponsored", "ugc"]);

const POST_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "br",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "strike",
    "del",
    "code",
    "pre",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
    "img",
    "hr",
  ],
  allowedAttributes: {
    a: ["href", "title", "target", "rel"],
    img: ["src", "alt", "title", "width", "height"],
    ol: ["start"],
    code: ["class"],
  },
  allowedClasses: { code: [/^language-[a-z0-9+#-]{1,30}$/] },
  allowedSchemes: LINK_SCHEMES,
  allowedSchemesByTag: { img: ["https"] },
  allowedSchemesAppliedToAttributes: ["href", "src", "cite"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  nonTextTags: NON_TEXT_TAGS,
  parseStyleAttributes: false,
  enforceHtmlBoundary: false,
  nestingLimit: 40,
  transformTags: {
    img: (tagName, attribs) => {
      if (!isAllowedImageSrc(attribs.src)) return { tagName: DROP, attribs: {} };
      const kept: sanitizeHtml.Attributes = { src: attribs.src.trim(), alt: attribs.alt ?? "" };
      if (attribs.title) kept.title = attribs.title;
      for (const size of ["width", "height"] as const) if (/^\d{1,4}$/.test(attribs[size] ?? "")) kept[size] = attribs[size];
      return { tagName, attribs: kept };
    },
    a: (tagName, attribs) => {
      const kept: sanitizeHtml.Attributes = {};
      if (attribs.href) kept.href = attribs.href.trim();
      if (attribs.title) kept.title = attribs.title;
      const rel = new Set(
        (attribs.rel ?? "")
          .toLowerCase()
          .split(/\s+/)
          .filter((value) => REL_VALUES.has(value)),
      );
      if (attribs.target === "_blank") {
        kept.target = "_blank";
        rel.add("noopener");
        rel.add("noreferrer");
      }
      if (rel.size) kept.rel = [...rel].join(" ");
      return { tagName, attribs: kept };
    },
    ol: (tagName, attribs): sanitizeHtml.Tag => ({
      tagName,
      attribs: /^\d{1,6}$/.test(attribs.start ?? "") ? { start: attribs.start } : {},
    }),
  },
};

/** A post's HTML as it may be stored and shown. */
export function sanitizePostHtml(dirty: string): string {
  return sanitizeHtml(dirty, POST_OPTIONS).trim();
}

export const COMMENT_LINK_REL = "ugc nofollow noopener noreferrer";

const COMMENT_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "a", "blockquote"],
  // rel is always the one the transform below sets
  allowedAttributes: { a: ["href", "rel"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  nonTextTags: NON_TEXT_TAGS,
  parseStyleAttributes: false,
  enforceHtmlBoundary: false,
  nestingLimit: 10,
  transformTags: {
    a: (tagName, attribs): sanitizeHtml.Tag => {
      const href = (attribs.href ?? "").trim();
      // a link must lead somewhere outside: relative addresses are plain text
      if (!/^(https?:\/\/|mailto:)/i.test(href)) return { tagName: DROP, attribs: {} };
      return { tagName, attribs: { href, rel: COMMENT_LINK_REL } };
    },
  },
};

/** Bare web addresses in escaped text become links (trailing punctuation stays outside). */
function linkify(escaped: string): string {
  return escaped.replace(/\bhttps?:\/\/[^\s<>"]+/gi, (match) => {
    const trailing = /[.,;:!?)\]}'，。；：！？）]+$/u.exec(match)?.[0] ?? "";
    const url = match.slice(0, match.length - trailing.length);
    return `<a href="${url}">${url}</a>${trailing}`;
  });
}

/** Whether a comment already is HTML of the allowed kind (an API client's), not plain text. */
function looksLikeHtml(text: string): boolean {
  return /<\/?(p|br|a|blockquote)(\s[^>]*)?\/?>/i.test(text);
}

/** Plain text → paragraphs (blank lines), line breaks and links. */
export function plainTextToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${linkify(escapeHtml(paragraph)).replace(/\n/g, "<br />")}</p>`)
    .join("");
}

/** A comment's HTML as it may be stored and shown (from plain text or from allowed HTML). */
export function sanitizeCommentHtml(dirty: string): string {
  const html = looksLikeHtml(dirty) ? dirty : plainTextToHtml(dirty);
  return sanitizeHtml(html, COMMENT_OPTIONS)
    .replace(/<p>\s*<\/p>/g, "")
    .trim();
}

/** How many links a (sanitised) comment holds. */
export function countLinks(html: string): number {
  return html.match(/<a\s/gi)?.length ?? 0;
}
