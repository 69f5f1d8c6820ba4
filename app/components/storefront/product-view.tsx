import { Form, useRouteLoaderData } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import type { MetaDescriptor } from "@remix-run/node";
import { SubmitButton } from "~/components/ui/submit-button";
import { absoluteUrl, pageMeta, rootSiteInfo } from "~/lib/meta";
import { useNonce } from "~/lib/nonce";
import type { RootLoaderData } from "~/root";
import type { Platform } from "~/schemas/catalogue-rules";
import { Price } from "./price";
import { ProductGallery } from "./product-gallery";
import { dayText } from "~/lib/dates";
import { QcSummary } from "./qc-summary";
import { ShareLink } from "./share-link";
import { QcGallery, QcUploadBox, type QcSetView, type QcUploaderView } from "./qc-gallery";
import { percentText, useI18n, useT } from "~/i18n/i18n";
import { platformName } from "./labels";
import { ProductCard, type ProductCardData } from "./product-card";
import { PriceHistory, type PriceHistoryPointView } from "./price-history";
import { SkuPicker } from "./sku-picker";
import { signInHref } from "~/lib/http";

/** The product page's data (made on the server by loadProductPage). */
export type ProductViewData = {
  product: {
    id: number;
    name: string;
    priceCny: number | null;
    images: string[];
    skus: Array<{ id: number; name: string; priceCny: number; stock: number; image: string | null }>;
    paragraphs: string[];
    shopName: string | null;
    platform: Platform | null;
    platformLabel: string | null;
    platformItemId: string | null;
    originalUrl: string | null;
    category: { id: number; name: string } | null;
    path: string;
  };
  /** approved QC photos in sets, newest first */
  qc: QcSetView[];
  /** what the listing watch knows (external products only) */
  listing: {
    unavailable: { since: string; checkedAt: string | null } | null;
    priceChange: { fromCny: number; toCny: number; at: string } | null;
  } | null;
  /** "Buy via" links of the enabled shopping agents, the preferred one first */
  agents: {
    links: Array<{ name: string; url: string; preferred: boolean }>;
    choices: Array<{ id: number; name: string }>;
    preferredId: number | null;
  };
  /** null for visitors */
  viewer: { collected: boolean; priceAlert: boolean; qc: QcUploaderView } | null;
  /** other listings whose photos match (issue 38), cheapest first */
  sameItem: Array<{ card: ProductCardData; score: number }>;
  /** the prices recorded, oldest first (issue 39) */
  priceHistory: PriceHistoryPointView[];
  /** the SKU `?sku=` chose, whose photo and price the page shows */
  chosenSkuId: number | null;
};

/** The page's own address: the product's, with the SKU chosen (links and forms keep the choice). */
export function pagePath(data: Pick<ProductViewData, "product" | "chosenSkuId">): string {
  return data.chosenSkuId !== null && data.product.skus.some((sku) => sku.id === data.chosenSkuId)
    ? `${data.product.path}?sku=${data.chosenSkuId}`
    : data.product.path;
}

function summary(data: ProductViewData): string {
  const text = data.product.paragraphs.join(" ").replace(/\s+/g, " ").trim();
  return text.length > 200 ? `${text.slice(0, 197)}…` : text;
}

/** The origin of a picture on another host (https or http), or null (our own uploads, none). */
function imageHost(image: string | undefined): string | null {
  if (!image || !/^https?:\/\//i.test(image)) return null;
  try {
    return new URL(image).origin;
  } catch {
    return null;
  }
}

/** Title, description, canonical link and Open Graph tags of a product page. */
export function productMeta(matches: Array<{ id: string; data?: unknown }>, data: ProductViewData | undefined): MetaDescriptor[] {
  if (!data) return pageMeta(matches, { titleKey: "common.error.notFound", noindex: true });
  const base = rootSiteInfo(matches)?.site_url ?? "";
  const canonical = absoluteUrl(base, data.product.path);
  const description = summary(data);
  const tags = pageMeta(matches, { title: data.product.name, ...(description ? { description } : {}) });
  tags.push({ tagName: "link", rel: "canonical", href: canonical });
  tags.push({ property: "og:type", content: "product" });
  tags.push({ property: "og:url", content: canonical });
  const chosenImage = data.product.skus.find((sku) => sku.id === data.chosenSkuId)?.image;
  const ogImage = chosenImage ?? data.product.images[0];
  if (ogImage) tags.push({ property: "og:image", content: absoluteUrl(base, ogImage) });
  // the main picture is the page's largest paint and usually on the marketplace's image
  // host: its connection starts with the head, beside the stylesheet, not once the body is read
  const host = imageHost(data.product.images[0]);
  if (host) tags.push({ tagName: "link", rel: "preconnect", href: host });
  return tags;
}

function ProductJsonLd({ data, base }: { data: ProductViewData; base: string }) {
  const nonce = useNonce();
  const { product } = data;
  const sku = product.platformItemId ?? String(product.id);
  const price = product.skus.find((item) => item.id === data.chosenSkuId)?.priceCny ?? product.priceCny;
  // out of stock when the marketplace no longer lists it, or when every SKU is at 0
  const soldOut = data.listing?.unavailable != null || (product.skus.length > 0 && product.skus.every((sku) => sku.stock <= 0));
  const json = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    // the seller's shop: the brand a marketplace listing is sold under (no brand field of its own)
    ...(product.shopName ? { brand: { "@type": "Brand", name: product.shopName } } : {}),
    image: product.images.map((image) => absoluteUrl(base, image)),
    description: summary(data) || undefined,
    sku,
    productID: sku,
    url: absoluteUrl(base, product.path),
    ...(price !== null
      ? {
          offers: {
            "@type": "Offer",
            priceCurrency: "CNY",
            price: price.toFixed(2),
            availability: soldOut ? "https://schema.org/OutOfStock" : "https://schema.org/InStock",
            url: absoluteUrl(base, product.path),
          },
        }
      : {}),
  };
  const html = JSON.stringify(json).replace(/</g, "\\u003c");
  return <script type="application/ld+json" nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: html }} />;
}

function CollectBox({ data }: { data: ProductViewData }) {
  const t = useT();
  const { viewer } = data;
  if (!viewer) {
    const back = pagePath(data);
    return (
      <p className="collect-box collect-box--visitor">
        <PageLink to={signInHref(back)}>{t("shop.product.collectLogIn")}</PageLink>
        {` ${t("shop.product.collectOr")} `}
        <PageLink to={signInHref(back, "register")}>{t("shop.product.collectRegister")}</PageLink>
        {` ${t("shop.product.collectToCollect")}`}
      </p>
    );
  }
  return (
    <Form method="post" className="collect-box" action={pagePath(data)}>
      {viewer.collected ? (
        <>
          <span className="collect-box__state">
            {`${t("shop.product.inCollectionBefore")} `}
            <PageLink to="/collections">{t("shop.product.inCollectionLink")}</PageLink>
          </span>
          <SubmitButton name="intent" value="uncollect" className="button--secondary" pendingText={t("shop.product.removing")}>
            {t("shop.product.removeFromCollection")}
          </SubmitButton>
        </>
      ) : (
        <SubmitButton name="intent" value="collect" className="button--accent" pendingText={t("shop.product.adding")}>
          {t("shop.product.collect")}
        </SubmitButton>
      )}
    </Form>
  );
}

/** What the listing watch saw: a listing that looks gone, a price change. */
function ListingStatus({ data }: { data: ProductViewData }) {
  const { t, language } = useI18n();
  const { listing } = data;
  if (!listing || (!listing.unavailable && !listing.priceChange)) return null;
  return (
    <div className="listing-status">
      {listing.unavailable ? (
        <p className="notice notice--warning" role="status">
          {t("shop.product.unavailable", { date: dayText(listing.unavailable.checkedAt ?? listing.unavailable.since, language) })}
        </p>
      ) : null}
      {listing.priceChange ? (
        <p className="muted">
          {`${t("shop.product.priceChangedFrom")} `}
          <Price cny={listing.priceChange.fromCny} />
          {` ${t("shop.product.priceChangedOn", { date: dayText(listing.priceChange.at, language) })}`}
        </p>
      ) : null}
    </div>
  );
}

/** "Tell me when it drops": a plain form for signed-in shoppers, a way to log in for visitors. */
function PriceAlertBox({ data }: { data: ProductViewData }) {
  const t = useT();
  const { viewer, product } = data;
  if (product.priceCny === null) return null;
  if (!viewer) {
    return (
      <p className="price-alert">
        <PageLink to={signInHref(pagePath(data))}>{t("shop.priceHistory.alertLogIn")}</PageLink>
        {` ${t("shop.priceHistory.alertLogInRest")}`}
      </p>
    );
  }
  return (
    <Form method="post" action={pagePath(data)} className="price-alert" preventScrollReset>
      {viewer.priceAlert ? (
        <>
          <span>{t("shop.priceHistory.alertOn")} </span>
          <SubmitButton name="intent" value="unwatch-price" className="button--secondary button--small" pendingText={t("common.working")}>
            {t("shop.priceHistory.alertStop")}
          </SubmitButton>
        </>
      ) : (
        <SubmitButton name="intent" value="watch-price" className="button--secondary button--small" pendingText={t("common.working")}>
          {t("shop.priceHistory.alertAsk")}
        </SubmitButton>
      )}
    </Form>
  );
}

/** A dead link reported in one form (visitors too; no JavaScript needed). */
function ReportDeadLink({ data }: { data: ProductViewData }) {
  const t = useT();
  if (!data.listing) return null;
  return (
    <details className="listing-status__report">
      <summary>{t("shop.product.reportDeadLink")}</summary>
      <Form method="post" action="/report-listing" className="listing-status__form">
        <input type="hidden" name="productId" value={data.product.id} />
        <input type="hidden" name="returnTo" value={pagePath(data)} />
        <label htmlFor="report-note">{t("shop.product.reportNote")}</label>
        <input id="report-note" name="note" type="text" maxLength={500} placeholder={t("shop.product.reportPlaceholder")} />
        <SubmitButton className="button--secondary button--small" pendingText={t("shop.product.sending")}>
          {t("shop.product.sendReport")}
        </SubmitButton>
      </Form>
    </details>
  );
}

/** Links to the product on the shopping agents' sites, and the shopper's choice of agent (a cookie, no JS needed). */
function BuyVia({ data }: { data: ProductViewData }) {
  const t = useT();
  const { links, choices, preferredId } = data.agents;
  if (links.length === 0) return null;
  const [first, ...rest] = links;
  return (
    <section className="buy-via" aria-labelledby="buy-via-title">
      <h2 id="buy-via-title">{t("shop.product.buyViaAgent")}</h2>
      <p>
        <a className="button buy-via__main" href={first.url} rel="nofollow noopener noreferrer" target="_blank">
          {t("shop.product.buyVia", { name: first.name })}
        </a>
        {first.preferred ? <span className="muted">{` ${t("shop.product.yourAgent")}`}</span> : null}
      </p>
      {rest.length ? (
        <ul className="buy-via__others" aria-label={t("shop.product.otherAgents")}>
          {rest.map((link) => (
            <li key={link.name}>
              <a href={link.url} rel="nofollow noopener noreferrer" target="_blank">
                {link.name}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <Form method="post" action="/agent-preference" className="buy-via__choose">
        <input type="hidden" name="returnTo" value={pagePath(data)} />
        <label htmlFor="preferred-agent">{t("shop.product.yourAgent")}</label>
        <select id="preferred-agent" name="agent" defaultValue={preferredId ? String(preferredId) : ""}>
          <option value="">{t("shop.product.noPreference")}</option>
          {choices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.name}
            </option>
          ))}
        </select>
        <button type="submit" className="button--secondary button--small">
          {t("common.save")}
        </button>
      </Form>
    </section>
  );
}

/** Other listings of the same item (another seller or marketplace), cheapest first, prices in the visitor's currency. */
function SameItemElsewhere({ items }: { items: ProductViewData["sameItem"] }) {
  const { t, language } = useI18n();
  return (
    <section className="product-page__same-item" aria-labelledby="same-item-title">
      <h2 id="same-item-title">{t("shop.sameItem.title")}</h2>
      <p className="muted">{t("shop.sameItem.intro")}</p>
      <ul className="product-grid product-grid--compact">
        {items.map((item) => (
          <li key={item.card.id}>
            <ProductCard product={item.card}>
              <p className="muted same-item__score">{t("shop.sameItem.match", { percent: percentText(language, item.score) })}</p>
            </ProductCard>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ProductView({ data }: { data: ProductViewData }) {
  const t = useT();
  const root = useRouteLoaderData("root") as RootLoaderData | undefined;
  const base = root?.siteInfo.site_url ?? "";
  const { product } = data;
  const platformLabel = product.platform ? platformName(t, product.platform) : product.platformLabel;
  const photoCount = data.qc.reduce((sum, set) => sum + set.photos.length, 0);
  const chosen = product.skus.find((sku) => sku.id === data.chosenSkuId) ?? null;
  // the chosen SKU's photo leads the gallery; links to share keep the choice
  const images = chosen?.image ? [chosen.image, ...product.images.filter((image) => image !== chosen.image)] : product.images;
  const here = pagePath(data);
  return (
    <article className="product-page" aria-labelledby="product-title">
      {/* name and price first: on a phone they come before the pictures, in the first screen */}
      <div className="product-page__heading">
        <h1 id="product-title">{product.name}</h1>
        <p className="product-page__price">
          <Price cny={chosen ? chosen.priceCny : product.priceCny} />
          {chosen ? <span className="product-page__chosen">{t("shop.sku.chosen", { name: chosen.name })}</span> : null}
        </p>
      </div>

      <ProductGallery key={chosen?.id ?? "product"} images={images} name={product.name} />

      <div className="product-page__summary">
        <SkuPicker skus={product.skus} chosenId={data.chosenSkuId} path={product.path} />
        <ListingStatus data={data} />
        <dl className="product-page__facts">
          {platformLabel ? (
            <>
              <dt>{t("shop.product.platform")}</dt>
              <dd>
                <span className={`badge badge--${product.platform}`}>{platformLabel}</span>
              </dd>
            </>
          ) : null}
          {product.shopName ? (
            <>
              <dt>{t("shop.product.shop")}</dt>
              <dd>{product.shopName}</dd>
            </>
          ) : null}
          {product.category ? (
            <>
              <dt>{t("shop.product.category")}</dt>
              <dd>
                <PageLink to={`/category/${product.category.id}`}>{product.category.name}</PageLink>
              </dd>
            </>
          ) : null}
        </dl>
        {product.originalUrl ? (
          <p>
            <a className="button button--secondary" href={product.originalUrl} rel="nofollow noopener noreferrer" target="_blank">
              {platformLabel ? t("shop.product.viewOn", { platform: platformLabel }) : t("shop.product.viewOnMarketplace")}
            </a>
          </p>
        ) : null}
        <CollectBox data={data} />
        <ShareLink url={absoluteUrl(base, here)} title={product.name} />
        <BuyVia data={data} />
        <ReportDeadLink data={data} />
      </div>

      {product.skus.length ? (
        <section className="product-page__skus" aria-labelledby="skus-title">
          <h2 id="skus-title">{t("shop.product.options")}</h2>
          <div className="table-scroll">
            <table className="sku-table">
              <thead>
                <tr>
                  <th scope="col">{t("shop.product.option")}</th>
                  <th scope="col">{t("shop.product.price")}</th>
                  <th scope="col">{t("shop.product.stock")}</th>
                </tr>
              </thead>
              <tbody>
                {product.skus.map((sku) => (
                  <tr key={sku.id} className={sku.id === data.chosenSkuId ? "sku-table__chosen" : undefined}>
                    <td>
                      <PageLink
                        to={`${product.path}?sku=${sku.id}`}
                        preventScrollReset
                        replace
                        aria-current={sku.id === data.chosenSkuId || undefined}
                      >
                        {sku.name}
                      </PageLink>
                    </td>
                    <td>
                      <Price cny={sku.priceCny} />
                    </td>
                    <td>{sku.stock}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}

      <PriceHistory points={data.priceHistory} alert={<PriceAlertBox data={data} />} />

      {data.sameItem.length ? <SameItemElsewhere items={data.sameItem} /> : null}

      <section className="product-page__description" aria-labelledby="description-title">
        <h2 id="description-title">{t("shop.product.description")}</h2>
        {product.paragraphs.length ? (
          product.paragraphs.map((text, index) => <p key={index}>{text}</p>)
        ) : (
          <p className="muted">{t("shop.product.noDescription")}</p>
        )}
      </section>

      <section id="qc-gallery" className="product-page__qc" aria-labelledby="qc-title">
        <h2 id="qc-title">
          {t("shop.product.qcPhotos")}
          {photoCount ? <span className="product-page__count"> ({photoCount})</span> : null}
        </h2>
        {photoCount ? (
          <QcSummary
            count={photoCount}
            latestAt={
              data.qc
                .map((set) => set.date)
                .sort()
                .at(-1) ?? null
            }
            className="product-page__qc-summary"
          />
        ) : null}
        <QcGallery sets={data.qc} title={product.name} chosenSku={chosen?.name ?? null} />
        <QcUploadBox
          action={here}
          viewer={data.viewer?.qc ?? null}
          productPath={here}
          skus={product.skus.map((sku) => sku.name)}
          chosenSku={chosen?.name ?? null}
        />
      </section>

      <ProductJsonLd data={data} base={base} />
    </article>
  );
}
