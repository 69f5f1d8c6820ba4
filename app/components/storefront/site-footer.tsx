import { useT } from "~/i18n/i18n";

export function SiteFooter({ siteName }: { siteName: string }) {
  const t = useT();
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <p>
          © {year} {siteName}. {t("shop.footer.notice")}
        </p>
        <nav aria-label={t("shop.footer.nav")}>
          <a href="/">{t("shop.footer.home")}</a>
          <a href="/search">{t("shop.footer.search")}</a>
          <a href="/import">{t("shop.footer.findByLink")}</a>
          <a href="/search/photo">{t("shop.footer.findByPhoto")}</a>
          <a href="/blog">{t("shop.header.blog")}</a>
          <a href="/sitemap.xml">{t("shop.footer.sitemap")}</a>
        </nav>
      </div>
    </footer>
  );
}
