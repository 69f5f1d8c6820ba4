/**
 * Marketplace links, imports and agents: limits and messages (client-safe, no zod).
 * The admin import box speaks Chinese like the rest of the back office
 * (docs/product/admin.md 5, 8: '请输入商品链接或ID。'); the storefront speaks English.
 */
import { PLATFORM_LABELS, type Platform } from "./catalogue-rules";

export const IMPORT_MESSAGES = {
  required: "请输入商品链接或ID。",
  unsupported: "不支持的链接或ID格式：请输入微店、淘宝、天猫或1688的商品链接或ID。",
  unresolvable: "1688的二维码链接无法识别：请在1688应用中打开后复制商品链接。",
  empty: "没有获取到商品信息，请检查链接是否正确。",
  fetchFailed: "获取商品信息失败，请稍后重试。",
  /** the shop's name is told, not filled: the form has no shop field (creation strips shop_name, docs/product/admin.md 4) */
  filled: (platform: Platform, itemId: string, shopName?: string | null) =>
    `已导入${PLATFORM_LABELS[platform]}商品 ${itemId}${shopName ? `（店铺：${shopName}）` : ""}，请检查后保存。`,
} as const;

export const PASTE_MESSAGES = {
  required: "Paste a product link or id.",
  unsupported: "This is not a Weidian, Taobao, Tmall or 1688 product link or id.",
  unresolvable: "1688 QR links can only be opened in the 1688 app. Open it there and copy the product link instead.",
  shortLinkFailed: "This short link could not be opened. Open it in your browser and paste the product link instead.",
  notFound: (platform: Platform) => `We could not find this item on ${PLATFORM_LABELS[platform]}. Check the link and try again.`,
  fetchFailed: (platform: Platform) => `${PLATFORM_LABELS[platform]} did not answer (fetch failed). Try again in a minute.`,
  imported: (platform: Platform) => `Imported from ${PLATFORM_LABELS[platform]}.`,
  found: "This product is already in the catalogue.",
  tooMany: "Too many requests, please try again later",
} as const;

export const CRAWL_MESSAGES = {
  itemIdRequired: "Item ID is required",
  itemIdInvalid: "Item ID must be a number",
  notFound: (platform: Platform, itemId: string) => `Item ${itemId} was not found on ${PLATFORM_LABELS[platform]}`,
  fetchFailed: (platform: Platform) =>
    `Fetch failed: ${PLATFORM_LABELS[platform]} could not be reached or answered in an unexpected format`,
} as const;

export const AGENT_MESSAGES = {
  nameRequired: "Agent name is required.",
  nameTaken: "An agent with this name already exists.",
  templateInvalid: "Enter an https link template that holds {id}, {url} or {url2}.",
  templatePlaceholderPlace:
    "Put {id}, {url} or {url2} in the link's path or in a parameter's value, not in its host or a parameter's name.",
  templateOnePerPart:
    "Put at most one of {id}, {url} or {url2} in each part of the link (between two slashes, or one parameter's value): two side by side cannot be told apart.",
  templateRequired: "Give at least one link template.",
  readPatternsInvalid: "Each line is a marketplace (weidian, taobao, tmall or 1688), a space, and a link template.",
  referralParamInvalid: "Letters, digits, _ and - only.",
  notFound: "Agent not found",
  created: (name: string) => `Agent added: ${name}`,
  saved: (name: string) => `Agent saved: ${name}`,
  deleted: (name: string) => `Agent deleted: ${name}`,
  preferred: (name: string) => `${name} comes first on product pages now.`,
} as const;

export const LISTING_MESSAGES = {
  reported: "Thank you. We will check this listing.",
  reportFailed: "The report could not be sent.",
  noteTooLong: "Keep the note under 500 characters.",
} as const;

/** "not found" answers in a row before a listing is marked unavailable */
export const LISTING_MISSES_UNAVAILABLE = 3;
