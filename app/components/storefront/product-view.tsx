import { Form, Link, useRouteLoaderData } from "@remix-run/react";
import type { MetaDescriptor } from "@remix-run/node";
import { SubmitButton } from "~/components/ui/submit-button";
import { absoluteUrl, pageMeta, rootSiteInfo } from "~/lib/meta";
import { useNonce } from "~/lib/nonce";
import type { RootLoaderData } from "~/root";
import type { Platform } from "~/schemas/catalogue-rules";
import { Price } from "./price";

/** The product page's data (made on the server by loadProductPage). */
export type ProductViewData = {
  product: {
    id: number;
    name: string;
    priceCny: number | null;
    images: string[];
    skus: Array<{ id: number; name: string; priceCny: number; stock: number }>;
    paragraphs: string[];
    shopName: string | null;
    platform: Platform | null;
    platformLabel: string | null;
    platformItemId: string | null;
    originalUrl: string | null;
    category: { id: number; name: string } | null;
    path: string;
  };
  /** null for visitors */
  viewer: { collected: boolean } | null;
};


function summary(data: ProductViewData): string {
  const text = data.product.paragraphs.join(" ").replace(/\s+/g, " ").trim();
  return text.length > 200 ? `${text.slice(0, 197)}…` : text;
}

/** Title, description, canonical link and Open Graph tags of a product page. */
export function productMeta(matches: Array<{ id: string; data?: unknown }>, data: ProductViewData | undefined): MetaDescriptor[] {
  if (!data) return pageMeta(matches, { title: "Page not found", noindex: true });
  const base = rootSiteInfo(matches)?.site_url ?? "";
  const canonical = absoluteUrl(base, data.product.path);
  const description = summary(data);
  const tags = pageMeta(matches, { title: data.product.name, ...(description ? { description } : {}) });
  tags.push({ tagName: "link", rel: "canonical", href: canonical });
  tags.push({ property: "og:type", content: "product" });
  tags.push({ property: "og:url", content: canonical });
  if (data.product.images[0]) tags.push({ property: "og:image", content: absoluteUrl(base, data.product.images[0]) });
  return tags;
}

function ProductJsonLd({ data, base }: { data: ProductViewData; base: string }) {
  const nonce = useNonce();
  const { product } = data;
  const sku = product.platformItemId ?? String(product.id);
  const json = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    image: product.images.map((image) => absoluteUrl(base, image)),
    description: summary(data) || undefined,
    sku,
    productID: sku,
    url: absoluteUrl(base, product.path),
    ...(product.priceCny !== null
      ? { offers: { "@type": "Offer", priceCurrency: "CNY", price: product.priceCny.toFixed(2), url: absoluteUrl(base, product.path) } }
      : {}),
  };
  const html = JSON.stringify(json).replace(/</g, "\\u003c");
  return <script type="application/ld+json" nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: html }} />;
}

function CollectBox({ data }: { data: ProductViewData }) {
  const { viewer, product } = data;
  if (!viewer) {
    const back = encodeURIComponent(product.path);
    return (
      <p className="collect-box collect-box--visitor">
        <Link to={`/login?redirectTo=${back}`}>Log in</Link> or <Link to={`/register?redirectTo=${back}`}>register</Link> to collect
      </p>
    );
  }
  return (
    <Form method="post" className="collect-box" action={product.path}>
      {viewer.collected ? (
        <>
          <span className="collect-box__state">
            In <Link to="/collections">your collection</Link>
          </span>
          <SubmitButton name="intent" value="uncollect" className="button--secondary" pendingText="Removing…">
            Remove from collection
          </SubmitButton>
        </>
      ) : (
        <SubmitButton name="intent" value="collect" className="button--accent" pendingText="Adding…">
          Collect
        </SubmitButton>
      )}
    </Form>
  );
}

export function ProductView({ data }: { data: ProductViewData }) {
  const root = useRouteLoaderData("root") as RootLoaderData | undefined;
  const base = root?.siteInfo.site_url ?? "";
  const { product } = data;
  const [main, ...others] = product.images;
  return (
    <article className="product-page" aria-labelledby="product-title">
      <div className="product-page__gallery">
        {main ? (
          <a href={main} className="product-page__main-image">
            <img src={main} alt={product.name} width={600} height={600} />
          </a>
        ) : (
          <span className="product-page__main-image product-page__main-image--none" aria-hidden="true">
            No image
          </span>
        )}
        {others.length ? (
          <ul className="product-page__thumbs" aria-label="More images">
            {others.map((image, index) => (
              <li key={`${index}-${image}`}>
                <a href={image} aria-label={`Image ${index + 2}`}>
                  <img src={image} alt="" width={80} height={80} loading="lazy" decoding="async" />
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </div>

      <div className="product-page__summary">
        <h1 id="product-title">{product.name}</h1>
        <p className="product-page__price">
          <Price cny={product.priceCny} />
        </p>
        <dl className="product-page__facts">
          {product.platformLabel ? (
            <>
              <dt>Platform</dt>
              <dd>
                <span className={`badge badge--${product.platform}`}>{product.platformLabel}</span>
              </dd>
            </>
          ) : null}
          {product.shopName ? (
            <>
              <dt>Shop</dt>
              <dd>{product.shopName}</dd>
            </>
          ) : null}
          {product.category ? (
            <>
              <dt>Category</dt>
              <dd>
                <Link to={`/category/${product.category.id}`}>{product.category.name}</Link>
              </dd>
            </>
          ) : null}
        </dl>
        {product.originalUrl ? (
          <p>
            <a className="button button--secondary" href={product.originalUrl} rel="nofollow noopener" target="_blank">
              View on {product.platformLabel ?? "the marketplace"}
            </a>
          </p>
        ) : null}
        <CollectBox data={data} />
      </div>

      {product.skus.length ? (
        <section className="product-page__skus" aria-labelledby="skus-title">
          <h2 id="skus-title">Options</h2>
          <div className="table-scroll">
            <table className="sku-table">
              <thead>
                <tr>
                  <th scope="col">Option</th>
                  <th scope="col">Price</th>
                  <th scope="col">Stock</th>
                </tr>
              </thead>
              <tbody>
                {product.skus.map((sku) => (
                  <tr key={sku.id}>
                    <td>{sku.name}</td>
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

      <section className="product-page__description" aria-labelledby="description-title">
        <h2 id="description-title">Description</h2>
        {product.paragraphs.length ? product.paragraphs.map((text, index) => <p key={index}>{text}</p>) : <p className="muted">No description.</p>}
      </section>

      <section id="qc-gallery" aria-labelledby="qc-title">
        <h2 id="qc-title">QC photos</h2>
        <p>No QC photos available.</p>
      </section>

      <ProductJsonLd data={data} base={base} />
    </article>
  );
}
