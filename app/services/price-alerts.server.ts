/**
 * "Tell me when it drops" (issue 39; docs/decisions/048-shoppers-comparisons.md): a signed-in
 * shopper asks on a product's page; when the product's price falls below the price they were
 * last told of, one e-mail says so, in the language they asked in, with a link that stops
 * the alert without logging in.
 *
 * The mail follows the price history, not the write paths: the job `prices.alerts` reads the
 * changes recorded since its place (every path that changes a price records it), so no path
 * has to remember to tell anyone. Its first run starts at the history's end: nobody is told
 * of drops from before the alerts existed.
 */
import { ApiError } from "~/lib/api.server";
import { formatMoney } from "~/lib/currency";
import { getDb } from "~/lib/db.server";
import { getEnv } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { asLanguage, STOREFRONT_LANGUAGE, type Language } from "~/i18n/languages";
import { translatorFor } from "~/i18n/i18n.server";
import {
  alertsAbove,
  deletePriceAlert,
  deletePriceAlertById,
  findPriceAlert,
  hasPriceAlert,
  lastPriceChangeId,
  markAlertTold,
  priceChangesAfter,
  upsertPriceAlert,
} from "~/models/price-alerts.server";
import { findProductById } from "~/models/product.server";
import { idTokens } from "~/services/crypto.server";
import { queueMail, renderMail } from "./mailer.server";
import type { JobDefinition } from "./jobs.server";
import { loadSettings } from "./site-settings.server";
import { productPath } from "./catalogue/common.server";

export const PRICE_ALERT_MESSAGES = {
  noPrice: "This product has no price to watch yet",
  invalidLink: "This link is not valid: copy the whole link from the e-mail, or stop the alert on the product's page.",
} as const;

const stopTokens = idTokens("price alert links", "price-alert");

/** The link that stops one alert, without logging in. */
export function stopAlertUrl(alertId: number): string {
  return `${getEnv().PUBLIC_URL}/price-alert?token=${stopTokens.sign(alertId)}`;
}

/** The alert a stop link names; a link that is not one of ours is refused. */
function alertOfStopToken(token: string | null | undefined): number {
  const id = stopTokens.read(token);
  if (!id) throw new ApiError(400, PRICE_ALERT_MESSAGES.invalidLink, "INVALID_TOKEN");
  return id;
}

const toFen = (cny: number) => Math.round(cny * 100);

/** Whether the user waits for this product's price to drop. */
export function watchesPrice(userId: number, productId: number): Promise<boolean> {
  return hasPriceAlert(getDb(), userId, productId);
}

/** Asks to be told when the price drops below the price now (asking again starts from the price now). */
export async function watchPrice(userId: number, productId: number, language: Language): Promise<void> {
  const product = await findProductById(getDb(), productId);
  if (!product) throw new ApiError(404, "Product not found", "NOT_FOUND");
  if (product.priceCny === null) throw new ApiError(400, PRICE_ALERT_MESSAGES.noPrice, "VALIDATION_ERROR");
  await upsertPriceAlert(getDb(), { userId, productId, priceFen: toFen(product.priceCny), language });
}

export async function unwatchPrice(userId: number, productId: number): Promise<void> {
  await deletePriceAlert(getDb(), userId, productId);
}

/** What a stop link names: whether its alert still runs, and its product (name and address). */
export async function stopLinkState(
  token: string | null | undefined,
): Promise<{ active: boolean; product: { name: string; path: string } | null }> {
  const alert = await findPriceAlert(getDb(), alertOfStopToken(token));
  return { active: alert !== null, product: await productLink(alert?.productId) };
}

async function productLink(productId: number | undefined): Promise<{ name: string; path: string } | null> {
  const product = productId ? await findProductById(getDb(), productId) : undefined;
  return product ? { name: product.name, path: productPath(product) } : null;
}

/** Stops the alert a mail's link names; answers the product it was for (null when already stopped). */
export async function stopAlertByToken(token: string | null | undefined): Promise<{ product: { name: string; path: string } | null }> {
  const alert = await deletePriceAlertById(getDb(), alertOfStopToken(token));
  return { product: await productLink(alert?.productId) };
}

/** Price changes read a run at most (a large import's changes take several runs, a minute apart at most). */
const CHANGES_A_RUN = 500;
const EVERY_MS = 60_000;

type Place = { after: number };
const placeOf = (payload: unknown): Place | null =>
  payload && typeof payload === "object" && typeof (payload as Place).after === "number" ? (payload as Place) : null;

/** Mails the drops recorded after `after`; answers the new place. */
export async function mailPriceDrops(after: number): Promise<{ after: number; more: boolean; mailed: number }> {
  const db = getDb();
  const changes = await priceChangesAfter(db, after, CHANGES_A_RUN);
  let mailed = 0;
  // the run's alerts in one read, then its changes in order: an alert told of a drop is told
  // of the next only when that goes lower still
  const alerts = changes.length
    ? await alertsAbove(db, [...new Set(changes.map((change) => change.productId))], Math.min(...changes.map((change) => change.priceFen)))
    : [];
  const alertsOf = new Map<number, typeof alerts>();
  for (const alert of alerts) {
    const ofProduct = alertsOf.get(alert.productId);
    if (ofProduct) ofProduct.push(alert);
    else alertsOf.set(alert.productId, [alert]);
  }
  const products = new Map<number, Awaited<ReturnType<typeof findProductById>>>();
  const site = alerts.length ? (await loadSettings()).site_name || "QC Finder" : "";
  for (const change of changes) {
    const told = (alertsOf.get(change.productId) ?? []).filter((alert) => alert.priceFen > change.priceFen);
    if (!told.length) continue;
    if (!products.has(change.productId)) products.set(change.productId, await findProductById(db, change.productId));
    const product = products.get(change.productId);
    if (!product) continue;
    const at = new Date().toISOString();
    for (const alert of told) {
      const language = asLanguage(alert.language) ?? STOREFRONT_LANGUAGE;
      const t = translatorFor(language);
      const values = {
        name: product.name,
        from: formatMoney(alert.priceFen / 100, "CNY"),
        to: formatMoney(change.priceFen / 100, "CNY"),
        site,
      };
      const { text, html } = renderMail({
        siteName: site,
        heading: t("email.priceDrop.heading"),
        paragraphs: [t("email.priceDrop.intro", values)],
        link: { href: `${getEnv().PUBLIC_URL}${productPath(product)}`, label: t("email.priceDrop.link") },
        footer: t("email.priceDrop.footer", { url: stopAlertUrl(alert.id) }),
        signOff: t("email.signOff", { site }),
      });
      queueMail({ to: alert.email, subject: t("email.priceDrop.subject", values), text, html });
      await markAlertTold(db, alert.id, change.priceFen, at);
      alert.priceFen = change.priceFen;
      mailed += 1;
    }
  }
  const last = changes.length ? changes[changes.length - 1].id : after;
  return { after: last, more: changes.length === CHANGES_A_RUN, mailed };
}

/** The periodic job: the drops recorded since its place, a minute apart (at once while more wait). */
export const priceAlertsJob: JobDefinition = {
  name: "prices.alerts",
  every: EVERY_MS,
  runAtStart: true,
  run: async (payload) => {
    const place = placeOf(payload) ?? { after: await lastPriceChangeId(getDb()) };
    const step = await mailPriceDrops(place.after);
    if (step.mailed) log.info(`price alerts: ${step.mailed} mail(s) for the drops up to change ${step.after}`);
    return { runAgainAt: step.more ? Date.now() : Date.now() + EVERY_MS, payload: { after: step.after } };
  },
};
