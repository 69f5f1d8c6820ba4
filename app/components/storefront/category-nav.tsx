import { PageLink } from "~/components/ui/page-link";
import type { MouseEvent } from "react";
import { useT } from "~/i18n/i18n";

export type CategoryNavItem = {
  id: number;
  name: string;
  productCount: number;
  children: Array<{ id: number; name: string; productCount: number }>;
};

/**
 * "Categories" in the header: a details/summary menu, so it opens and closes without
 * JavaScript; with it, a choice closes the menu (a client-side navigation keeps the page).
 */
export function CategoryMenu({ categories }: { categories: CategoryNavItem[] }) {
  const t = useT();
  const close = (event: MouseEvent<HTMLElement>) => event.currentTarget.closest("details")?.removeAttribute("open");
  return (
    <details className="category-menu">
      <summary>
        {/* on a phone the menu's sign stands for the word (still its name for screen readers) */}
        <span className="category-menu__icon" aria-hidden="true">
          ☰
        </span>
        <span className="category-menu__label">{t("shop.header.categories")}</span>
      </summary>
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a click on a link inside (Enter included) closes the menu */}
      <nav className="category-menu__panel" aria-label={t("shop.header.categories")} onClick={close}>
        <ul className="category-menu__list">
          <li className="category-menu__all">
            <PageLink to="/search">{t("shop.search.allProducts")}</PageLink>
          </li>
          {categories.map((parent) => (
            <li key={parent.id}>
              <PageLink to={`/category/${parent.id}`} className="category-menu__parent">
                {parent.name}
              </PageLink>
              {parent.children.length ? (
                <ul>
                  {parent.children.map((child) => (
                    <li key={child.id}>
                      <PageLink to={`/category/${child.id}`}>{child.name}</PageLink>
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      </nav>
    </details>
  );
}
