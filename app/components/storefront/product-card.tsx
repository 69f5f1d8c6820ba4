import { PageLink } from "~/components/ui/page-link";
import type { ReactNode } from "react";
import type { Platform } from "~/schemas/catalogue-rules";
import { useT } from "~/i18n/i18n";
import { platformName } from "./labels";
import { Price } from "./price";
import { QcSummary } from "./qc-summary";

/** What a grid card shows (made on the server by toProductCard). */
export type ProductCardData = {
  id: number;
  name: string;
  priceCny: number | null;
  image: string | null;
  platform: Platform | null;
  href: string;
  /** approved QC photos */
  qcCount: number;
  /** when the newest approved QC set was sent (ISO), null without one */
  qcLatestAt: string | null;
};

/**
 * `eager`: the card's picture loads with the page, not when it nears the viewport: the first
 * row of a list at the top of its page, whose pictures are often the largest thing the page
 * paints (a lazy one starts only after the layout, docs/performance.md "Lighthouse, December").
 */
export function ProductCard({ product, eager = false, children }: { product: ProductCardData; eager?: boolean; children?: ReactNode }) {
  const t = useT();
  return (
    <article className="product-card">
      <PageLink to={product.href} className="product-card__link">
        {product.image ? (
          <img
            className="product-card__image"
            src={product.image}
            alt=""
            width={300}
            height={300}
            loading={eager ? undefined : "lazy"}
            decoding="async"
          />
        ) : (
          <span className="product-card__image product-card__image--none" aria-hidden="true">
            {t("shop.product.noImage")}
          </span>
        )}
        <span className="product-card__name">{product.name}</span>
      </PageLink>
      <div className="product-card__meta">
        <Price cny={product.priceCny} compact />
        {product.platform ? <span className={`badge badge--${product.platform}`}>{platformName(t, product.platform)}</span> : null}
      </div>
      <QcSummary count={product.qcCount} latestAt={product.qcLatestAt} className="product-card__qc" />
      {children}
    </article>
  );
}

/** Cards in a grid's first row on a phone (two columns). */
export const FIRST_ROW = 2;

/**
 * A responsive grid of cards (2 columns on phones, 4 on wide screens). `eager`: how many of
 * the first cards load their pictures with the page (a grid at the top of its page: FIRST_ROW).
 */
export function ProductGrid({ products, label, eager = 0 }: { products: ProductCardData[]; label?: string; eager?: number }) {
  return (
    <ul className="product-grid" aria-label={label}>
      {products.map((product, index) => (
        <li key={product.id}>
          <ProductCard product={product} eager={index < eager} />
        </li>
      ))}
    </ul>
  );
}
