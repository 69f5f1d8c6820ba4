/**
 * What the storefront pages share on the server: the caller's access for the storefront
 * lists, product cards, and the product page's loader and collect action (one product
 * view behind two addresses: /product/:id and /:platform/:itemId).
 */
import { data, redirect } from "@remix-run/node";
import { PRODUCT_ID_HEADER } from "~/lib/content-version.server";
import type { ProductCardData } from "~/components/storefront/product-card";
import type { ProductViewData } from "~/components/storefront/product-view";
import { ApiError, orPageNotFound, pageId, pageNotFound } from "~/lib/api.server";
import { getPageUser } from "~/services/request-user.server";
import type { Access } from "~/lib/permissions";
import { getAccess, requireUser } from "~/services/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import { PLATFORM_LABELS, PLATFORMS, type Platform } from "~/schemas/catalogue-rules";
import { CATALOGUE_MESSAGES } from "~/schemas/catalogue-messages";
import { unknownItemPage } from "./pasted-links.server";
import { productPath, type Product, type ProductWithSkus } from "~/services/catalogue/common.server";
import { countViewOf, getProduct, getProductByItem, shouldCountView } from "~/services/catalogue/products.server";
import { collect, collectionState, uncollect } from "~/services/catalogue/collections.server";
import type { QcPhoto, QcUploadActionData } from "~/components/storefront/qc-gallery";
import { readLanguage, translateMessage, translatorFor } from "~/i18n/i18n.server";
import type { Language } from "~/i18n/languages";
import { approvedQcImages, groupIntoSets, latestQcDates, receiveQcUpload, uploaderState, type QcImage } from "~/services/qc.server";
import { agentLinksFor } from "~/marketplace/agent-links.server";
import { enabledAgents } from "~/services/agents.server";
import { listingNotice } from "~/services/listing-watch.server";
import { readPreferredAgent } from "~/lib/agent-preference.server";
import { decodeEntities } from "~/lib/text";
import { sameItemElsewhere } from "~/services/catalogue/same-item.server";
import { priceHistoryOfProduct } from "~/services/catalogue/price-history.server";
import { unwatchPrice, watchesPrice, watchPrice } from "~/services/price-alerts.server";

/** The site's own 404 page (the route's ErrorBoundary renders it). */
export const notFound = (): Response => pageNotFound("Not found");

/** Awaits a service call; its 404 ApiError becomes the 404 page. */
export const orNotFound = <T>(promise: Promise<T>): Promise<T> => orPageNotFound(promise, "Not found");

/** A positive whole number from a path segment, else the 404 page. */
export const idParam = (value: string | undefined): number => pageId(value, "Not found");

/** The caller's access (null for visitors): storefront lists depend on it. */
export async function storefrontAccess(request: Request): Promise<Access | null> {
  const user = await getPageUser(request);
  return user ? getAccess(user) : null;
}

export function toProductCard(product: Product, qcLatestAt: string | null = null): ProductCardData {
  return {
    id: product.id,
    name: product.name,
    priceCny: product.priceCny,
    image: product.images[0] ?? null,
    platform: product.platform,
    href: productPath(product),
    qcCount: product.qcCount,
    qcLatestAt: product.qcCount > 0 ? qcLatestAt : null,
  };
}

/** The cards of a list, each with its QC photos count and when its newest QC set was sent (one query for the list). */
export async function productCards(products: Product[]): Promise<ProductCardData[]> {
  const dates = await latestQcDates(products.filter((product) => product.qcCount > 0).map((product) => product.id));
  return products.map((product) => toProductCard(product, dates.get(product.id) ?? null));
}

/** "The same item elsewhere": the other listings' cards with their photo match, cheapest first. */
async function sameItemCards(productId: number): Promise<ProductViewData["sameItem"]> {
  const items = await sameItemElsewhere(productId);
  const cards = await productCards(items.map((item) => item.product));
  return items.map((item, at) => ({ card: cards[at], score: item.score }));
}

const BLOCK_END = /<\/(p|div|li|h[1-6]|blockquote|tr)>|<br\s*\/?>/gi;

/** Plain-text paragraphs of a description (markup, if any, is reduced to its text). */
export function descriptionParagraphs(product: Pick<Product, "description" | "descriptionItems">): string[] {
  const items = product.descriptionItems.map((item) => item.trim()).filter(Boolean);
  if (items.length) return items;
  let text = product.description ?? "";
  if (/<[a-z!/][\s\S]*>/i.test(text)) {
    text = decodeEntities(text.replace(BLOCK_END, (tag) => (/^<br/i.test(tag) ? "\n" : "\n\n")).replace(/<[^>]*>/g, ""));
  }
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

function toPhoto(image: QcImage): QcPhoto {
  return {
    id: image.id,
    url: image.imageUrl ?? "",
    thumb: image.thumbUrl ?? image.imageUrl ?? "",
    width: image.width ?? 0,
    height: image.height ?? 0,
    thumbWidth: image.thumbWidth ?? 0,
    thumbHeight: image.thumbHeight ?? 0,
  };
}

function toView(
  product: ProductWithSkus,
  viewer: ProductViewData["viewer"],
  qcImages: QcImage[],
  agents: ProductViewData["agents"],
  listing: ProductViewData["listing"],
  sameItem: ProductViewData["sameItem"],
  priceHistory: ProductViewData["priceHistory"],
  chosenSkuId: number | null,
): ProductViewData {
  return {
    agents,
    sameItem,
    listing,
    priceHistory,
    chosenSkuId,
    qc: groupIntoSets(qcImages).map((set) => ({ key: set.key, date: set.date, photos: set.images.map(toPhoto), skuName: set.skuName })),
    product: {
      id: product.id,
      name: product.name,
      priceCny: product.priceCny,
      images: product.images,
      skus: product.skus.map((sku) => ({ id: sku.id, name: sku.name, priceCny: sku.priceCny, stock: sku.stock, image: sku.thumbnailUrl })),
      paragraphs: descriptionParagraphs(product),
      shopName: product.shopName,
      platform: product.platform,
      platformLabel: product.platform ? PLATFORM_LABELS[product.platform] : null,
      platformItemId: product.platformItemId,
      originalUrl: product.originalUrl,
      category: product.categoryId && product.categoryName ? { id: product.categoryId, name: product.categoryName } : null,
      path: productPath(product),
    },
    viewer,
  };
}

/** Finds the product of an address; counts the view when asked. Throws the service's 404. */
export type LocateProduct = (options: { countView: boolean }) => Promise<ProductWithSkus>;

/** /product/:id: a product by its id (301 to /{platform}/{itemId} when it has both). */
export function locateById(params: { id?: string }): { locate: LocateProduct; path: null } {
  const id = idParam(params.id);
  return { locate: ({ countView }) => getProduct(id, { countView }), path: null };
}

/** /:platform/:itemId: the canonical address of a marketplace product (404 for an address that cannot be one). */
export function locateByItem(params: { platform?: string; itemId?: string }): { locate: LocateProduct; path: string } {
  const platform = params.platform as Platform;
  const itemId = params.itemId ?? "";
  if (!PLATFORMS.includes(platform) || !/^[A-Za-z0-9_-]{1,40}$/.test(itemId)) throw notFound();
  return {
    locate: ({ countView }) => getProductByItem(itemId, platform, { countView }),
    path: `/${platform}/${encodeURIComponent(itemId)}`,
  };
}

/**
 * The page of /:platform/:itemId. An item id not in the catalogue is still a 404, but
 * with where the item can be seen and bought, and the import offer
 * (docs/marketplace-links.md, "No dead ends").
 */
export async function loadItemPage(request: Request, params: { platform?: string; itemId?: string }) {
  const target = locateByItem(params);
  try {
    return await loadProductPage(request, target.locate, target.path);
  } catch (error) {
    if (error instanceof Response && error.status === 404 && /^\d{5,20}$/.test(params.itemId ?? "")) {
      throw await unknownItemPage(request, params.platform as Platform, params.itemId!);
    }
    throw error;
  }
}

/**
 * The product page's loader: 404 for a missing product; a 301 to the canonical address
 * (query string kept) when asked at another one; the view is counted only on the
 * canonical address. `expectedPath` is the canonical address when the route knows it
 * before reading (the platform route): then one read both finds and counts.
 */
export async function loadProductPage(request: Request, locate: LocateProduct, expectedPath: string | null = null) {
  const url = new URL(request.url);
  const countView = shouldCountView(request, url.searchParams.get("incrementView"));
  const known = expectedPath !== null && expectedPath === url.pathname;
  const product = await orNotFound(locate({ countView: known && countView }));
  const canonical = productPath(product);
  if (url.pathname !== canonical) throw redirect(canonical + url.search, 301);
  if (!known && countView) await countViewOf(product);

  const user = await getPageUser(request);
  const preferred = readPreferredAgent(request);
  const watched = product.isExternal && Boolean(product.platform && product.platformItemId);
  const [qcImages, viewer, links, choices, listing, sameItem, priceHistory] = await Promise.all([
    approvedQcImages(product.id),
    user ? viewerOf(user, product.id) : null,
    agentLinksFor(product, preferred),
    enabledAgents(),
    watched ? listingNotice(product.id) : null,
    sameItemCards(product.id),
    priceHistoryOfProduct(product),
  ]);
  const agents = {
    links: links.map(({ name, url, preferred: isPreferred }) => ({ name, url, preferred: isPreferred })),
    choices,
    preferredId: links.some((link) => link.preferred) ? preferred : null,
  };
  // the server's front counts the views of the stored copies it gives by this id (app/services/hit-counters.server.ts)
  return data(toView(product, viewer, qcImages, agents, listing, sameItem, priceHistory, chosenSku(product, url)), {
    headers: { [PRODUCT_ID_HEADER]: String(product.id) },
  });
}

/** `?sku=<id>` when the address chose one of the product's SKUs, else "". */
function skuQuery(product: ProductWithSkus, url: URL): string {
  const id = chosenSku(product, url);
  return id === null ? "" : `?sku=${id}`;
}

/** The SKU `?sku=<id>` names, when it is one of the product's (contract: the page shows its photo and price). */
function chosenSku(product: ProductWithSkus, url: URL): number | null {
  const id = Number(url.searchParams.get("sku"));
  return Number.isInteger(id) && product.skus.some((sku) => sku.id === id) ? id : null;
}

async function viewerOf(
  user: NonNullable<Awaited<ReturnType<typeof getPageUser>>>,
  productId: number,
): Promise<NonNullable<ProductViewData["viewer"]>> {
  const [collected, qc, priceAlert] = await Promise.all([
    collectionState(user, productId),
    getAccess(user).then((access) => uploaderState(productId, user, access)),
    watchesPrice(user.id, productId),
  ]);
  return {
    collected,
    priceAlert,
    qc: {
      publishes: qc.publishes,
      used: qc.used,
      remaining: qc.remaining,
      pending: qc.pending.map(toPhoto),
      rejected: qc.rejected.map((image) => ({ id: image.id, reason: image.reviewReason, date: image.reviewedAt ?? image.createdAt })),
    },
  };
}

/** A file the upload skipped: "<file>: <reason>", the reason in the reader's language (as the upload box says it). */
function skippedFileText(text: string, language: Language): string {
  const file = /^(.+): ([^:]+)$/.exec(text);
  return file ? `${file[1]}: ${translateMessage(language, file[2])}` : translateMessage(language, text);
}

const isMultipart = (request: Request) => (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");

/**
 * The upload box's post (multipart `photos`): stored photos go back to the product with a
 * notice (files refused one by one are named in it); when nothing could be stored the
 * page comes back with the messages (400, 404 or 429).
 */
async function qcUploadAction(
  request: Request,
  product: ProductWithSkus,
  actor: Awaited<ReturnType<typeof requireUser>>,
  clientIp: string,
) {
  const back = `${productPath(product)}${skuQuery(product, new URL(request.url))}#qc-upload`;
  try {
    const outcome = await receiveQcUpload(request, product.id, actor, { field: "photos", clientIp });
    // the notice is read on the next page, in the reader's language
    const language = readLanguage(request);
    const t = translatorFor(language);
    const done = outcome.published
      ? t("shop.qc.uploadedPublished", { count: outcome.uploaded.length })
      : t("shop.qc.uploadedPending", { count: outcome.uploaded.length });
    const skipped = outcome.errors.map((error) => skippedFileText(error.message, language));
    return redirectWithToast(
      back,
      skipped.length ? { message: t("shop.qc.notUploaded", { done }), details: skipped, type: "info" } : { message: done, type: "success" },
    );
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500 || error.status === 401 || error.status === 403) throw error;
    const messages = [...new Set([...(error.errors ?? []).map((item) => item.message), error.message])];
    const body: QcUploadActionData = { qcUpload: { errors: messages } };
    return data(body, { status: error.status });
  }
}

/**
 * The product page's action: collect or uncollect, or a QC photo upload (logged-in users;
 * visitors go to log in).
 */
export async function productPageAction(
  request: Request,
  locate: LocateProduct,
  clientIp = "",
): Promise<Response | ReturnType<typeof data<QcUploadActionData>>> {
  const actor = await requireUser(request);
  const { user } = actor;
  const product = await orNotFound(locate({ countView: false }));
  // the upload's files are streamed to disk: never read a multipart body with formData()
  if (isMultipart(request)) return qcUploadAction(request, product, actor, clientIp);
  const formData = await request.formData();
  const intent = formData.get("intent");
  // back to the page as it was: the SKU chosen stays chosen
  const back = productPath(product) + skuQuery(product, new URL(request.url));
  if (intent === "collect") {
    await orNotFound(collect(user, product.id));
    return redirectWithToast(back, { message: CATALOGUE_MESSAGES.collected });
  }
  if (intent === "uncollect") {
    await uncollect(user, product.id);
    return redirectWithToast(back, { message: CATALOGUE_MESSAGES.uncollected });
  }
  // "tell me when it drops" (the mail goes in the language of the page asked from)
  if (intent === "watch-price" || intent === "unwatch-price") {
    const t = translatorFor(readLanguage(request));
    const here = `${back}#price-history-title`;
    if (intent === "unwatch-price") {
      await unwatchPrice(user.id, product.id);
      return redirectWithToast(here, { message: t("shop.priceHistory.alertStopped") });
    }
    try {
      await watchPrice(user.id, product.id, readLanguage(request));
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) return redirectWithToast(here, { message: error.message, type: "error" });
      throw error;
    }
    return redirectWithToast(here, { message: t("shop.priceHistory.alertStarted") });
  }
  throw new Response("Unknown action", { status: 400 });
}
