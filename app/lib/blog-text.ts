/**
 * The blog's text rules (docs/product/admin.md 5), pure and client-safe: slugs of posts,
 * categories and tags, the plain text of a post's HTML, and the reading time.
 */
import { decodeEntities } from "./text";

/**
 * The small table of Chinese words a post slug spells in pinyin (longest first when they
 * overlap). Words of this site's subject: shopping on Chinese marketplaces.
 */
export const PINYIN_WORDS: Readonly<Record<string, string>> = {
  淘宝: "taobao",
  天猫: "tianmao",
  微店: "weidian",
  代购: "daigou",
  集运: "jiyun",
  质检: "zhijian",
  购物: "gouwu",
  指南: "zhinan",
  教程: "jiaocheng",
  攻略: "gonglve",
  新手: "xinshou",
  入门: "rumen",
  推荐: "tuijian",
  评测: "pingce",
  测评: "ceping",
  运费: "yunfei",
  物流: "wuliu",
  包裹: "baoguo",
  尺码: "chima",
  球鞋: "qiuxie",
  鞋子: "xiezi",
  衣服: "yifu",
  卫衣: "weiyi",
  外套: "waitao",
  手表: "shoubiao",
  包包: "baobao",
  照片: "zhaopian",
  图片: "tupian",
  价格: "jiage",
  优惠: "youhui",
  省钱: "shengqian",
  技巧: "jiqiao",
  如何: "ruhe",
  怎么: "zenme",
  选择: "xuanze",
  比较: "bijiao",
  中国: "zhongguo",
  博客: "boke",
  新闻: "xinwen",
  更新: "gengxin",
  的: "de",
  和: "he",
  与: "yu",
};

const PINYIN_ENTRIES = Object.entries(PINYIN_WORDS).sort((a, b) => b[0].length - a[0].length);

const HAN = /\p{Script=Han}/u;
/** Longest slug kept (cut at a hyphen); longer titles make unwieldy addresses. */
export const SLUG_MAX_LENGTH = 80;

/** Letters with accents lose them (é → e), full-width forms become plain (Ａ → a). */
function fold(value: string): string {
  return value
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

function trimSlug(slug: string): string {
  let cut = slug.replace(/^-+|-+$/g, "");
  if (cut.length > SLUG_MAX_LENGTH) {
    cut = cut.slice(0, SLUG_MAX_LENGTH);
    const lastHyphen = cut.lastIndexOf("-");
    if (lastHyphen > SLUG_MAX_LENGTH / 2) cut = cut.slice(0, lastHyphen);
    cut = cut.replace(/-+$/g, "");
  }
  return cut;
}

/** 'article-' and the last six digits of the time (docs/product/admin.md 5). */
export function articleSlug(now: number = Date.now()): string {
  return `article-${String(Math.floor(now)).slice(-6).padStart(6, "0")}`;
}

/**
 * A post's slug from its title (docs/product/admin.md 5): lowercased; the words of the pinyin
 * table become pinyin; if Chinese characters remain, 'article-' plus the last six digits
 * of the time; otherwise every run of other characters becomes one hyphen. A title with
 * nothing left (only punctuation, say) also gets the 'article-' form.
 */
export function postSlugFromTitle(title: string, now: number = Date.now()): string {
  let text = fold(title);
  for (const [word, pinyin] of PINYIN_ENTRIES) {
    if (text.includes(word)) text = text.split(word).join(` ${pinyin} `);
  }
  if (HAN.test(text)) return articleSlug(now);
  return trimSlug(text.replace(/[^a-z0-9]+/g, "-")) || articleSlug(now);
}

/**
 * A category's (or tag's) slug from its name (docs/product/admin.md 5): lowercased; runs of
 * characters that are neither letters/digits nor Chinese become hyphens; ends trimmed.
 * Also how a slug typed by hand is cleaned.
 */
export function slugFromName(name: string): string {
  return trimSlug(fold(name).replace(/[^a-z0-9\p{Script=Han}]+/gu, "-"));
}

/** `base`, `base-2`, `base-3` … : the first that `taken` does not hold. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The text of (sanitised) HTML: tags stripped, block ends as spaces, entities decoded, spaces collapsed. */
export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, " ")
      .replace(/<!--[\s\S]*?-->/g, " ")
      .replace(/<[^>]*>/g, " "),
  )
    .replace(/\s+/g, " ")
    .trim();
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;

/**
 * Words of a text: every Chinese or Japanese character counts as one word (those
 * languages write no spaces), and every other run between spaces that holds a letter or
 * digit counts as one.
 */
export function countWords(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  const rest = text
    .replace(CJK, " ")
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  return cjk + rest;
}

/** Words per minute (docs/product/admin.md 9). */
export const READING_WORDS_PER_MINUTE = 200;

/** Minutes to read: words of the tag-stripped content ÷ 200, rounded up (at least 1). */
export function readingTime(html: string): number {
  return Math.max(1, Math.ceil(countWords(htmlToText(html)) / READING_WORDS_PER_MINUTE));
}

/** A short plain summary: the text cut at a word near `max` characters, with an ellipsis. */
export function summarize(text: string, max = 200): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?，。；：！？]+$/u, "")}…`;
}

const UPLOAD_PATH = /^\/uploads\/[A-Za-z0-9][A-Za-z0-9/_.-]*$/;

/** An image address a post may show: a file of this site's uploads folder, or https. */
export function isAllowedImageSrc(src: string | undefined): boolean {
  const value = (src ?? "").trim();
  if (UPLOAD_PATH.test(value)) return !value.includes("..") && !value.includes("//");
  if (!/^https:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname.length > 0 && !/[\s"'<>\\]/.test(value);
  } catch {
    return false;
  }
}
