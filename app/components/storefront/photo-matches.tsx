import { PageLink } from "~/components/ui/page-link";
import { percentText, useI18n } from "~/i18n/i18n";
import { ProductCard, type ProductCardData } from "./product-card";

/** A product a photo matched: its card, how close (0..1) and the picture of it that matched. */
export type PhotoMatchCard = { card: ProductCardData; score: number; image: string };

/** The products a photo matched, best first, each with the picture that matched and how close it is. */
export function PhotoMatches({ items }: { items: PhotoMatchCard[] }) {
  const { t, language } = useI18n();
  return (
    <ul className="product-grid photo-matches">
      {items.map((item) => (
        <li key={item.card.id}>
          <ProductCard product={item.card}>
            <p className="photo-matches__why">
              <img src={item.image} alt={t("shop.photoSearch.matchedPhoto")} width={40} height={40} loading="lazy" />
              <span>{t("shop.photoSearch.match", { percent: percentText(language, item.score) })}</span>
            </p>
            <PageLink className="photo-matches__similar" to={`/search/photo?image=${encodeURIComponent(item.image)}`}>
              {t("shop.photoSearch.findSimilar")}
            </PageLink>
          </ProductCard>
        </li>
      ))}
    </ul>
  );
}
