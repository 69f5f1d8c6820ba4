/**
 * Marketplace links and ids (docs/decisions/020-marketplace-links.md): what a shopper
 * pastes (a link, an app's share text, a shopping agent's link, a bare number) read as
 * (platform, item id); and agent links built from URL templates. Pure and client-safe:
 * the paste box, the search box and the admin import box use the same rules.
 *
 * Templates (the agents table, editable by admins) are URLs with placeholders:
 *   {id}   the marketplace item id
 *   {url}  the item's canonical marketplace link, URL-encoded
 *   {url2} the same, encoded twice (links carried inside another encoded link)
 * The parser reads agent links back through the same templates, so a new agent added in
 * the back office is understood without code.
 */

import { listingPlatform, marketplaceUrl, PLATFORMS, type Platform } from "~/schemas/catalogue-rules";

export type Marketplace = Platform;
const canonicalItemUrl = marketplaceUrl;

/** Short links that need a server-side fetch to find the item (docs/marketplace-links.md). */
export const SHORT_LINK_HOSTS = [
  "m.tb.cn",
  "tb.cn",
  "e.tb.cn",
  "weidian.info",
  "k.youshop10.com",
  "tinyurl.com",
  "hoobuy.cc",
  "l.acbuy.com",
  "oopbuy.cc",
  "pandabuy.page.link",
] as const;

/** The marketplaces' own sites: their pages are read by readMarketplaceUrl alone. */
const MARKETPLACE_HOSTS = ["weidian.com", "youshop10.com", "koudai.com", "taobao.com", "tmall.com", "tmall.hk", "1688.com", "tb.cn"];

/** qr.1688.com links are encrypted: nothing can read them without the 1688 app. */
const UNRESOLVABLE_HOSTS = ["qr.1688.com"];

export type AgentPattern = {
  name: string;
  templates: Partial<Record<Marketplace, string>>;
  /** further templates only read back (older link forms), each for one marketplace */
  readOnly?: Array<{ platform: Marketplace; template: string }>;
};

export type LinkReading =
  | { kind: "item"; platform: Marketplace; itemId: string; via: "link" | "agent" }
  /** a bare number: 13–15 digits is Weidian; 10–12 digits may be Weidian or 1688 */
  | { kind: "number"; itemId: string; candidates: Marketplace[] }
  | { kind: "short"; url: string }
  | { kind: "unresolvable"; url: string }
  | { kind: "unsupported" }
  | { kind: "empty" };

/** The first link in a text (share texts wrap it in 【】「」 and words), with or without its scheme. */
export function findLink(text: string): string | null {
  return findLinks(text)[0] ?? null;
}

// a link is ASCII: share texts glue Chinese words to it ("复制这条信息https://…打开手机淘宝")
const LINK_CHARS = "[A-Za-z0-9\\-._~:/?#[\\]@!$&*+,;=%]";
// the marketplaces' apps share links of their own schemes (taobao://item.taobao.com/…, tbopen://m.taobao.com/…)
const LINK_WITH_SCHEME = new RegExp(`(?:https?|taobao|tbopen|tmall|weidian):\\/\\/${LINK_CHARS}+`, "gi");
const LINK_WITHOUT_SCHEME = new RegExp(
  `(?:^|[^A-Za-z0-9.\\-/])((?:[a-z0-9-]+\\.)+(?:com|cn|hk|info|cc|link|net|top|shop|co)\\/${LINK_CHARS}*)`,
  "gi",
);

/**
 * Every link in a text, in the order pasted (a spreadsheet column, a list of finds, a
 * share text): with a scheme, or a bare host and path ("weidian.com/item.html?itemID=…").
 */
export function findLinks(text: string): string[] {
  const found: Array<{ at: number; link: string }> = [];
  const taken: Array<[number, number]> = [];
  for (const match of text.matchAll(LINK_WITH_SCHEME)) {
    found.push({ at: match.index, link: trimLink(match[0].replace(/^(?:taobao|tbopen|tmall|weidian):/i, "https:")) });
    taken.push([match.index, match.index + match[0].length]);
  }
  for (const match of text.matchAll(LINK_WITHOUT_SCHEME)) {
    const at = match.index + match[0].length - match[1].length;
    // inside a link already found (its path or its query)
    if (taken.some(([start, end]) => at >= start && at < end)) continue;
    found.push({ at, link: trimLink(`https://${match[1]}`) });
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.link);
}

function trimLink(link: string): string {
  return link.replace(/[.,;:!?)\]}>'"]+$/, "");
}

const bareHost = (host: string) => host.toLowerCase().replace(/^www\./, "");
const hostIs = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/** An id parameter's digits (a pasted link may carry junk glued after them: "7616832901=product_link"). */
const ID_VALUE = /^(\d{5,20})(?:$|[^0-9A-Za-z])/;

function param(url: URL, ...names: string[]): string | null {
  for (const name of names) {
    for (const [key, value] of url.searchParams) {
      if (key.toLowerCase() !== name.toLowerCase()) continue;
      const digits = ID_VALUE.exec(value.trim());
      if (digits) return digits[1];
    }
  }
  return null;
}

/** A marketplace's own item link read as (platform, item id), or null. */
export function readMarketplaceUrl(url: URL): { platform: Marketplace; itemId: string } | null {
  const host = url.hostname.toLowerCase();
  const path = url.pathname;
  if (hostIs(host, "weidian.com") || hostIs(host, "youshop10.com") || hostIs(host, "koudai.com")) {
    const id = param(url, "itemID", "itemId", "item_id");
    if (id) return { platform: "weidian", itemId: id };
    const inPath = /\/item\/(\d{5,20})(?:\.html?)?$/i.exec(path);
    return inPath ? { platform: "weidian", itemId: inPath[1] } : null;
  }
  if (hostIs(host, "tmall.com") || hostIs(host, "tmall.hk")) {
    const id = param(url, "id", "itemId", "item_id");
    return id ? { platform: "tmall", itemId: id } : null;
  }
  if (hostIs(host, "taobao.com")) {
    // world.taobao.com/item/N.htm, www.taobao.com/list/item/N.htm, a.m.taobao.com/iN.htm
    const inPath = /\/(?:list\/)?item\/(?:wap\/)?(\d{5,20})\.htm/i.exec(path) ?? /\/i(\d{5,20})\.htm/i.exec(path);
    if (inPath) return { platform: "taobao", itemId: inPath[1] };
    // the app's share pages name the item targetId
    const id = param(url, "id", "itemId", "item_id", "itemNumId", "targetId");
    return id ? { platform: "taobao", itemId: id } : null;
  }
  if (hostIs(host, "1688.com")) {
    const offer = /\/offer\/(\d{5,20})\.html?$/i.exec(path);
    if (offer) return { platform: "1688", itemId: offer[1] };
    const id = param(url, "offerId", "offer_id");
    return id ? { platform: "1688", itemId: id } : null;
  }
  return null;
}

// ---------------------------------------------------------------- agent templates

/**
 * A piece of a link form (a path segment, a parameter's value): plain text, or text
 * around one placeholder. Pieces are compared as text, never turned into a pattern: the
 * forms are stored data (docs/marketplace-links.md, "Adding an agent's link form").
 */
type Piece = { text: string } | { before: string; placeholder: "id" | "url"; after: string };

type TemplateParts = {
  host: string;
  segments: Piece[];
  query: Array<[string, Piece]>;
  hash: { segments: Piece[]; query: Array<[string, Piece]> } | null;
};

/**
 * Why a link form cannot be read back: not an http(s) link; no placeholder; a placeholder
 * outside the path and the parameters' values (the host, a parameter's name); two
 * placeholders in one piece (`/p/{url}{url2}`: where one ends and the other starts is
 * anyone's guess).
 */
export type LinkFormProblem = "notLink" | "noPlaceholder" | "misplaced" | "twoInOnePiece";

const TOKENS: Record<string, string> = { "{id}": "__QCID__", "{url}": "__QCURL__", "{url2}": "__QCURLTWICE__" };
const TOKEN_KINDS: Record<string, "id" | "url"> = { __QCID__: "id", __QCURL__: "url", __QCURLTWICE__: "url" };
const TOKEN = /__QCID__|__QCURL__|__QCURLTWICE__/g;
const PLACEHOLDER = /\{(?:id|url|url2)\}/g;

type Compiled = { parts: TemplateParts; problem: null } | { parts: null; problem: LinkFormProblem };

const compiledForms = new Map<string, Compiled>();

/** A form compiled (kept: the same few dozen forms read every pasted link). */
function compiled(template: string): Compiled {
  let form = compiledForms.get(template);
  if (form === undefined) {
    if (compiledForms.size > 2000) compiledForms.clear();
    form = compileForm(template);
    compiledForms.set(template, form);
  }
  return form;
}

/** Why a link form cannot be read back, or null when it can (the agent form checks this on save). */
export function linkFormProblem(template: string): LinkFormProblem | null {
  return compiled(template).problem;
}

function toPiece(value: string, problems: { placed: number; crowded: boolean }): Piece {
  const tokens = value.match(TOKEN) ?? [];
  if (tokens.length === 0) return { text: value };
  problems.placed += tokens.length;
  if (tokens.length > 1) {
    problems.crowded = true;
    return { text: value };
  }
  const [token] = tokens as [string];
  const at = value.indexOf(token);
  return { before: value.slice(0, at), placeholder: TOKEN_KINDS[token], after: value.slice(at + token.length) };
}

function compileForm(template: string): Compiled {
  const fail = (problem: LinkFormProblem): Compiled => ({ parts: null, problem });
  let text = template.trim();
  const placeholders = (text.match(PLACEHOLDER) ?? []).length;
  for (const [placeholder, token] of Object.entries(TOKENS)) text = text.split(placeholder).join(token);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail("notLink");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return fail("notLink");
  if (placeholders === 0) return fail("noPlaceholder");
  const problems = { placed: 0, crowded: false };
  const pieces = (path: string) =>
    path
      .split("/")
      .filter(Boolean)
      .map((segment) => toPiece(segment, problems));
  const params = (query: string): Array<[string, Piece]> =>
    [...new URLSearchParams(query)].map(([key, value]) => [key, toPiece(value, problems)]);
  const hashText = url.hash.replace(/^#/, "");
  let hash: TemplateParts["hash"] = null;
  if (hashText) {
    const [hashPath, hashQuery = ""] = hashText.split("?");
    hash = { segments: pieces(hashPath), query: params(hashQuery) };
  }
  const parts: TemplateParts = { host: bareHost(url.hostname), segments: pieces(url.pathname), query: params(url.search), hash };
  if (problems.crowded) return fail("twoInOnePiece");
  // a placeholder in the host or in a parameter's name is never read back
  if (problems.placed !== placeholders) return fail("misplaced");
  return { parts, problem: null };
}

type Captured = { id?: string; url?: string };

/** Line breaks: a placeholder for a link never takes them (a link is one line). */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/** Matches one piece of a form against the link's (case aside); collects the placeholder's value. */
function matchPiece(piece: Piece, actual: string, captured: Captured): boolean {
  if ("text" in piece) return piece.text.toLowerCase() === actual.toLowerCase();
  const { before, after } = piece;
  if (actual.length <= before.length + after.length) return false;
  if (actual.slice(0, before.length).toLowerCase() !== before.toLowerCase()) return false;
  if (actual.slice(actual.length - after.length).toLowerCase() !== after.toLowerCase()) return false;
  const value = actual.slice(before.length, actual.length - after.length);
  if (piece.placeholder === "id") {
    if (!/^\d{5,20}$/.test(value)) return false;
    captured.id = value;
    return true;
  }
  if (LINE_BREAK.test(value)) return false;
  let decoded = value;
  // the link may arrive encoded once more or once less than the template says
  for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(decoded); i++) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      break;
    }
  }
  captured.url = decoded;
  return true;
}

/** A page's ending is optional in a link (item-123 for item-123.html). */
const withoutEnding = (text: string) => text.replace(/\.(?:html?|php|aspx?)$/i, "");
const pieceWithoutEnding = (piece: Piece): Piece =>
  "text" in piece ? { text: withoutEnding(piece.text) } : { ...piece, after: withoutEnding(piece.after) };

/**
 * A language prefix before a site's own path: /en/, /fr/, /zh-CN/, /en_US/, /es-419/. Only
 * real language codes: two letters alone may be a site's own word (/tb/, /wd/).
 */
const LANGUAGES = new Set(
  "en fr es de it pt ru zh ja ko nl pl ar tr sv no nb da fi cs sk hu ro bg el uk he th vi id ms hi lt lv et hr sr sl".split(" "),
);
const LANGUAGE_SEGMENT = {
  test: (segment: string) => LANGUAGES.has(segment.slice(0, 2).toLowerCase()) && /^[a-z]{2}(?:[-_][a-z0-9]{2,4})?$/i.test(segment),
};

function matchSegments(template: Piece[], actual: string[], captured: Captured): boolean {
  const tryMatch = (pieces: string[]) =>
    pieces.length === template.length &&
    template.every((piece, i) => {
      const value = decodeSafe(pieces[i]);
      return matchPiece(piece, value, captured) || matchPiece(pieceWithoutEnding(piece), withoutEnding(value), captured);
    });
  if (tryMatch(actual)) return true;
  // "&inviteCode=…" glued onto the last segment of a link pasted without its "?"
  const last = actual[actual.length - 1];
  if (last?.includes("&") && tryMatch([...actual.slice(0, -1), last.slice(0, last.indexOf("&"))])) return true;
  // the site's language before its path, where the template has none (or another)
  if (actual.length > 0 && LANGUAGE_SEGMENT.test(actual[0])) {
    if (tryMatch(actual.slice(1))) return true;
    const first = template[0];
    if (first && "text" in first && LANGUAGE_SEGMENT.test(first.text) && tryMatch([first.text, ...actual.slice(1)])) return true;
  }
  return false;
}

function matchQuery(template: Array<[string, Piece]>, actual: URLSearchParams, captured: Captured): boolean {
  return template.every(([key, value]) => {
    const present = [...actual].find(([name]) => name.toLowerCase() === key.toLowerCase());
    return present !== undefined && matchPiece(value, present[1], captured);
  });
}

function decodeSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The agent's own site or one of its subdomains (m.cnfans.com for cnfans.com). */
const sameSite = (templateHost: string, linkHost: string) => hostIs(bareHost(linkHost), templateHost);

const holdsLink = (piece: Piece) => "placeholder" in piece && piece.placeholder === "url";

/** A whole value that is a link (a captured one, read again). */
const WHOLE_LINK: Piece = { before: "", placeholder: "url", after: "" };

type Item = { platform: Marketplace; itemId: string };

/**
 * The link a {url} / {url2} placeholder captured, read as an item: a marketplace link, or
 * another agent's link nested in this one (read with the other agents, one level deep).
 */
function readCapturedLink(raw: string, agents: readonly AgentPattern[]): Item | null {
  const captured: Captured = {};
  if (!matchPiece(WHOLE_LINK, raw, captured) || !captured.url) return null;
  let inner: URL;
  try {
    inner = new URL(captured.url.trim());
  } catch {
    return null;
  }
  return readMarketplaceUrl(inner) ?? (agents.length ? readAgentUrl(inner, agents, []) : null);
}

/**
 * A template that carries the marketplace link in a parameter ({url}, {url2}): the link
 * names the item whatever else the agent's URL holds, so its path (a language prefix,
 * a trailing slash, index.html before a hash route) and its other parameters
 * (from=search-input and the like come and go) are not required to match.
 */
function readLinkParameter(url: URL, parts: TemplateParts, agents: readonly AgentPattern[]): Item | null {
  const keys = [...parts.query, ...(parts.hash?.query ?? [])].filter(([, value]) => holdsLink(value)).map(([key]) => key.toLowerCase());
  if (keys.length === 0) return null;
  const hashQuery = url.hash.includes("?") ? url.hash.slice(url.hash.indexOf("?") + 1) : "";
  for (const [key, value] of [...url.searchParams, ...new URLSearchParams(hashQuery)]) {
    if (!keys.includes(key.toLowerCase())) continue;
    const found = readCapturedLink(value, agents);
    if (found) return found;
  }
  return null;
}

/** Reads a link through one template: the item it names, or null (also for a form that cannot be read back). */
export function readWithTemplate(
  url: URL,
  template: string,
  platform: Marketplace | null,
  nestedAgents: readonly AgentPattern[] = [],
): Item | null {
  const { parts } = compiled(template);
  if (!parts || !sameSite(parts.host, url.hostname)) return null;
  const byParameter = readLinkParameter(url, parts, nestedAgents);
  if (byParameter) return byParameter;
  const captured: Captured = {};
  if (!matchSegments(parts.segments, url.pathname.split("/").filter(Boolean), captured)) return null;
  if (!matchQuery(parts.query, url.searchParams, captured)) return null;
  if (parts.hash) {
    const [hashPath, hashQuery = ""] = url.hash.replace(/^#/, "").split("?");
    if (!matchSegments(parts.hash.segments, hashPath.split("/").filter(Boolean), captured)) return null;
    if (!matchQuery(parts.hash.query, new URLSearchParams(hashQuery), captured)) return null;
  }
  if (captured.url) {
    let inner: URL;
    try {
      inner = new URL(captured.url);
    } catch {
      return null;
    }
    return readMarketplaceUrl(inner) ?? (nestedAgents.length ? readAgentUrl(inner, nestedAgents, []) : null);
  }
  if (captured.id && platform) return { platform, itemId: captured.id };
  return null;
}

/**
 * A shopping agent's link read back to (platform, item id), or null. `nestedAgents`: the
 * agents a link carried inside this one may belong to (none: one level of nesting only).
 */
export function readAgentUrl(url: URL, agents: readonly AgentPattern[], nestedAgents: readonly AgentPattern[] = agents): Item | null {
  for (const agent of agents) {
    // taobao before tmall: agents order Tmall items as Taobao ones, often with one template for both
    const order: readonly Marketplace[] = ["taobao", ...PLATFORMS.filter((p) => p !== "taobao")];
    const candidates: Array<{ platform: Marketplace; template: string }> = [
      ...order.flatMap((platform) => (agent.templates[platform] ? [{ platform, template: agent.templates[platform]! }] : [])),
      ...(agent.readOnly ?? []),
    ];
    for (const { platform, template } of candidates) {
      const found = readWithTemplate(url, template, platform, nestedAgents);
      if (found) return found;
    }
  }
  return null;
}

// ---------------------------------------------------------------- agents not in the table

/** How agents name the marketplaces in their links (parameters and path segments). */
const PLATFORM_WORDS: Record<string, Marketplace> = {
  weidian: "weidian",
  wd: "weidian",
  micro: "weidian",
  taobao: "taobao",
  tb: "taobao",
  tmall: "tmall",
  tm: "tmall",
  "1688": "1688",
  ali_1688: "1688",
  alibaba: "1688",
  al: "1688",
};
const PLATFORM_PARAMS = ["platform", "shop_type", "shoptype", "channel", "source", "type", "mall", "site"];
const ITEM_PARAMS = ["id", "itemid", "item_id", "goodsid", "goods_id", "productid", "product_id", "offerid", "offer_id", "spuno"];
/** Pages about a shop, a search or a list, never one item. */
const NOT_AN_ITEM_PAGE = /shop|store|seller|search|keyword|list|categor|album|rebate/i;

/**
 * An agent the table does not know, when its link says both things plainly: a marketplace
 * by name (`platform=weidian`, `shop_type=ali_1688`, `channel=TAOBAO`; or a path segment
 * `/weidian/`, `/TAOBAO/`) and the item's id right with it. Pages about a shop or a search
 * are never read as items; numbered marketplaces (`/product/2/…`) need the agent's own data.
 */
function readUnknownAgentUrl(url: URL): Item | null {
  const where = decodeSafe(url.pathname) + (url.hash.includes("?") ? url.hash.slice(0, url.hash.indexOf("?")) : url.hash);
  if (NOT_AN_ITEM_PAGE.test(where)) return null;
  const hashQuery = url.hash.includes("?") ? url.hash.slice(url.hash.indexOf("?") + 1) : "";
  const params = [...url.searchParams, ...new URLSearchParams(hashQuery)].map(([key, value]) => [key.toLowerCase(), value.trim()]);
  const platform = params.find(([key, value]) => PLATFORM_PARAMS.includes(key) && PLATFORM_WORDS[value.toLowerCase()])?.[1];
  const id = params.find(([key, value]) => ITEM_PARAMS.includes(key) && /^\d{5,20}$/.test(value))?.[1];
  if (platform && id) return { platform: PLATFORM_WORDS[platform.toLowerCase()], itemId: id };
  const segments = where.split(/[/#]/).filter(Boolean);
  for (let i = 0; i + 1 < segments.length; i++) {
    const named = PLATFORM_WORDS[segments[i].toLowerCase()];
    const digits = /^(\d{5,20})(?:\.html?)?$/i.exec(segments[i + 1]);
    // the marketplace spelled out (two-letter codes only as parameters), the id the last segment
    if (named && segments[i].length > 2 && digits && i + 2 === segments.length) return { platform: named, itemId: digits[1] };
  }
  return null;
}

/**
 * A link that carries its item in a form only code can read (an encrypted parameter):
 * the decoder answers the link inside, or null. The reader uses the decoders its caller
 * hands it (the server's: LINK_DECODERS, app/marketplace/agent-links.server.ts, with
 * app/marketplace/pandabuy.server.ts), so it stays free of Node's crypto, and what a link
 * reads as never depends on which modules happen to be imported.
 */
export type LinkDecoder = (url: URL) => string | null;

function decodedLink(url: URL, decoders: readonly LinkDecoder[]): string | null {
  for (const decode of decoders) {
    try {
      const inner = decode(url);
      if (inner) return inner;
    } catch {
      // a value that does not decode is not a link
    }
  }
  return null;
}

/** A bare number: 13–15 digits is Weidian; 10–12 digits may be Weidian or 1688. */
export function readNumber(text: string): LinkReading {
  if (text.length >= 13 && text.length <= 15) return { kind: "number", itemId: text, candidates: ["weidian"] };
  if (text.length >= 10 && text.length <= 12) return { kind: "number", itemId: text, candidates: ["weidian", "1688"] };
  return { kind: "unsupported" };
}

/**
 * One link read: a marketplace's own, an agent's (the table's templates), or a link
 * carried inside it (a redirect's q=, an unknown site's url=, an "=" sent as %3D by a
 * pasted redirect; a form only code can read, by `decoders`), two levels deep at most.
 * Short links are named for the server to resolve; a link that names no item is unsupported.
 */
export function readLink(
  link: string,
  agents: readonly AgentPattern[] = [],
  decoders: readonly LinkDecoder[] = [],
  depth = 0,
): LinkReading {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return { kind: "unsupported" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { kind: "unsupported" };
  const host = url.hostname.toLowerCase();
  const own = readMarketplaceUrl(url);
  if (own) return { kind: "item", ...own, via: "link" };
  const agent = readAgentUrl(url, agents);
  if (agent) return { kind: "item", ...agent, via: "agent" };
  if (!MARKETPLACE_HOSTS.some((domain) => hostIs(host, domain))) {
    const unknownAgent = readUnknownAgentUrl(url);
    if (unknownAgent) return { kind: "item", ...unknownAgent, via: "agent" };
  }
  if (depth < 2) {
    const inner = decodedLink(url, decoders);
    if (inner) {
      const reading = readLink(inner, agents, decoders, depth + 1);
      if (reading.kind === "item") return { ...reading, via: "agent" };
    }
    // a link carried in a parameter (url=, q=, keyword=, h5Url=…; after a #/route too),
    // encoded once, twice or not at all
    const hashQuery = url.hash.includes("?") ? url.hash.slice(url.hash.indexOf("?") + 1) : "";
    for (const [, value] of [...url.searchParams, ...new URLSearchParams(hashQuery)]) {
      let text = value;
      for (let round = 0; round < 3; round++) {
        const inner = findLinks(text)[0];
        if (inner) {
          const reading = readLink(inner, agents, decoders, depth + 1);
          if (reading.kind === "item") return { ...reading, via: "agent" };
          break;
        }
        const decoded = decodeSafe(text);
        if (decoded === text) break;
        text = decoded;
      }
    }
    // an "=" or "?" sent encoded (itemID%3D…, by a pasted redirect)
    const rest = url.href.slice(url.origin.length);
    const decoded = decodeSafe(rest);
    if (decoded !== rest && !/https?:\/\//i.test(decoded)) {
      const reading = readLink(url.origin + decoded, agents, decoders, depth + 1);
      if (reading.kind === "item") return reading;
    }
  }
  if (UNRESOLVABLE_HOSTS.some((domain) => hostIs(host, domain))) return { kind: "unresolvable", url: url.href };
  if (SHORT_LINK_HOSTS.some((domain) => hostIs(host, domain))) return { kind: "short", url: url.href };
  return { kind: "unsupported" };
}

/** How useful a reading is when a text holds several links: an item, then a link the server can resolve. */
const USEFULNESS: Record<LinkReading["kind"], number> = { item: 3, short: 2, unresolvable: 1, number: 0, unsupported: 0, empty: 0 };

/**
 * Reads what a shopper pasted: a marketplace link (also inside share text), an agent's
 * link, or a bare number (10–15 digits; see `kind: "number"`). In a text with several
 * links, the first that names an item wins (an unknown first link does not hide a good
 * second one); else the first the server can resolve. `decoders`: see LinkDecoder.
 */
export function readMarketplaceInput(
  input: string,
  agents: readonly AgentPattern[] = [],
  decoders: readonly LinkDecoder[] = [],
): LinkReading {
  const text = input.trim();
  if (!text) return { kind: "empty" };
  if (/^\d+$/.test(text)) return readNumber(text);
  let best: LinkReading = { kind: "unsupported" };
  for (const link of findLinks(text)) {
    const reading = readLink(link, agents, decoders);
    if (reading.kind === "item") return reading;
    if (USEFULNESS[reading.kind] > USEFULNESS[best.kind]) best = reading;
  }
  return best;
}

/**
 * Every link of a pasted text read, in the order pasted (one line of digits counts as a
 * link too); the same item named twice is listed once, where it first appears.
 */
export function readMarketplaceInputs(
  input: string,
  agents: readonly AgentPattern[] = [],
  decoders: readonly LinkDecoder[] = [],
): Array<{ link: string; reading: LinkReading }> {
  const seen = new Set<string>();
  const readings: Array<{ link: string; reading: LinkReading }> = [];
  for (const line of input.split(/\r?\n/)) {
    const text = line.trim();
    if (!text) continue;
    const entries = /^\d+$/.test(text)
      ? [{ link: text, reading: readNumber(text) }]
      : findLinks(text).map((link) => ({ link, reading: readLink(link, agents, decoders) }));
    for (const entry of entries) {
      // Taobao and Tmall share item numbers: one listing, listed once
      const key =
        entry.reading.kind === "item" ? `${listingPlatform(entry.reading.platform)}:${entry.reading.itemId}` : `link:${entry.link}`;
      if (seen.has(key)) continue;
      seen.add(key);
      readings.push(entry);
    }
  }
  return readings;
}

/** An agent's link to an item: the template filled in, and its referral parameter (e.g. "ref=ABC") added. */
export function buildAgentLink(template: string, item: { platform: Marketplace; itemId: string }, referral?: string | null): string {
  const canonical = canonicalItemUrl(item.platform, item.itemId);
  let link = template
    .split("{id}")
    .join(item.itemId)
    .split("{url2}")
    .join(encodeURIComponent(encodeURIComponent(canonical)))
    .split("{url}")
    .join(encodeURIComponent(canonical));
  const extra = referral?.trim().replace(/^[?&]+/, "");
  if (extra) {
    const hashAt = link.indexOf("#");
    // hash-routed sites (…/#/page?x=1) read their parameters after the hash
    const inHash = hashAt !== -1 && link.indexOf("?", hashAt) !== -1;
    if (inHash || hashAt === -1) link += (link.slice(inHash ? hashAt : 0).includes("?") ? "&" : "?") + extra;
    else link = `${link.slice(0, hashAt)}${link.slice(0, hashAt).includes("?") ? "&" : "?"}${extra}${link.slice(hashAt)}`;
  }
  return link;
}

/** The template an agent uses for an item: Tmall items go through the Taobao one unless the agent has its own. */
export function agentTemplateFor(templates: Partial<Record<Marketplace, string>>, platform: Marketplace): string | null {
  return templates[platform] ?? (platform === "tmall" ? (templates.taobao ?? null) : null);
}
