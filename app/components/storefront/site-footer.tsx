export function SiteFooter({ siteName }: { siteName: string }) {
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <p>
          © {year} {siteName}. Product data comes from public marketplace listings; we are not affiliated with Weidian, Taobao, Tmall or
          1688.
        </p>
        <nav aria-label="Footer">
          <a href="/">Home</a>
          <a href="/search">Search</a>
          <a href="/import">Find by link</a>
          <a href="/sitemap.xml">Sitemap</a>
        </nav>
      </div>
    </footer>
  );
}
