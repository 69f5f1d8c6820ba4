import { Link } from "@remix-run/react";
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

export function ProductCard({ product, children }: { product: ProductCardData; children?: ReactNode }) {
  const t = useT();
  return (
    <article className="product-card">
      <Link to={product.href} className="product-card__link">
        {product.image ? (
          <img className="product-card__image" src={product.image} alt="" width={300} height={300} loading="lazy" decoding="async" />
        ) : (
          <span className="product-card__image product-card__image--none" aria-hidden="true">
            {t("shop.product.noImage")}
          </span>
        )}
        <span className="product-card__name">{product.name}</span>
      </Link>
      <div className="product-card__meta">
        <Price cny={product.priceCny} compact />
        {product.platform ? <span className={`badge badge--${product.platform}`}>{platformName(t, product.platform)}</span> : null}
      </div>
      <QcSummary count={product.qcCount} latestAt={product.qcLatestAt} className="product-card__qc" />
      {children}
    </article>
  );
}

/** A responsive grid of cards (2 columns on phones, 4 on wide screens). */
export function ProductGrid({ products, label }: { products: ProductCardData[]; label?: string }) {
  return (
    <ul className="product-grid" aria-label={label}>
      {products.map((product) => (
        <li key={product.id}>
          <ProductCard product={product} />
        </li>
      ))}
    </ul>
  );
}
