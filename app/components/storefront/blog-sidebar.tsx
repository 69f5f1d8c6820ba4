import { Form, NavLink } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import { useT } from "~/i18n/i18n";

export type BlogSidebarData = {
  categories: Array<{ name: string; href: string; depth: number; postCount: number }>;
  tags: Array<{ name: string; href: string; postCount: number }>;
  popular: Array<{ title: string; href: string }>;
};

/** The blog's side column: search, categories (a tree), popular posts, tags and the feeds. */
export function BlogSidebar({ data, query }: { data: BlogSidebarData; query: string }) {
  const t = useT();
  return (
    <aside className="blog-sidebar" aria-label={t("shop.header.blog")}>
      <Form method="get" action="/blog" role="search" className="site-search blog-search">
        <label htmlFor="blog-search-q" className="visually-hidden">
          {t("shop.blog.search")}
        </label>
        <input
          id="blog-search-q"
          type="search"
          name="q"
          defaultValue={query}
          placeholder={t("shop.blog.search")}
          required
          maxLength={200}
        />
        <button type="submit">{t("shop.header.search")}</button>
      </Form>

      {data.categories.length ? (
        <section className="blog-sidebar__section" aria-labelledby="blog-categories">
          <h2 id="blog-categories">{t("shop.blog.categories")}</h2>
          <ul className="blog-tree">
            {data.categories.map((category) => (
              <li key={category.href} style={{ paddingInlineStart: `${category.depth}rem` }}>
                <NavLink to={category.href}>{category.name}</NavLink> <span className="muted">({category.postCount})</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {data.popular.length ? (
        <section className="blog-sidebar__section" aria-labelledby="blog-popular">
          <h2 id="blog-popular">{t("shop.blog.popular")}</h2>
          <ol className="blog-popular">
            {data.popular.map((post) => (
              <li key={post.href}>
                <PageLink to={post.href}>{post.title}</PageLink>
              </li>
            ))}
          </ol>
        </section>
      ) : null}

      {data.tags.length ? (
        <section className="blog-sidebar__section" aria-labelledby="blog-tags">
          <h2 id="blog-tags">{t("shop.blog.tags")}</h2>
          <ul className="blog-tags">
            {data.tags.map((tag) => (
              <li key={tag.href}>
                <PageLink to={tag.href}>
                  #{tag.name} <span className="muted">{tag.postCount}</span>
                </PageLink>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <p className="blog-feeds">
        {`${t("shop.blog.follow")} `}
        <a href="/blog/feed.xml">RSS</a> · <a href="/blog/atom.xml">Atom</a>
      </p>
    </aside>
  );
}
