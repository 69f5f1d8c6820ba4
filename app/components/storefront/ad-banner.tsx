import type { AdBannerConfig } from "~/schemas/site-settings";
import { useT } from "~/i18n/i18n";

const isSafeHref = (href: string) => /^(https?:\/\/|\/(?!\/))/i.test(href.trim());

/** The advertisement banner of the ad_banner_* settings; the subtext differs on mobile. */
export function AdBanner({ config }: { config: AdBannerConfig }) {
  const t = useT();
  const hasButton = config.buttonText.trim() !== "" && isSafeHref(config.link);
  if (!config.title && !config.description && !hasButton) return null;
  return (
    <aside className="ad-banner" aria-label={t("shop.ad.label")}>
      <div className="container ad-banner__inner">
        {config.logo && isSafeHref(config.logo) ? (
          <img className="ad-banner__logo" src={config.logo} alt="" width={40} height={40} />
        ) : null}
        <div className="ad-banner__text">
          {config.title ? <strong className="ad-banner__title">{config.title}</strong> : null}
          {config.description ? <span className="ad-banner__description">{config.description}</span> : null}
        </div>
        {hasButton ? (
          <div className="ad-banner__action">
            <a className="button button--accent" href={config.link} rel="noopener noreferrer sponsored" target="_blank">
              {config.buttonText}
            </a>
            {config.buttonSubtext ? <small className="ad-banner__subtext ad-banner__subtext--desktop">{config.buttonSubtext}</small> : null}
            {config.buttonSubtextMobile || config.buttonSubtext ? (
              <small className="ad-banner__subtext ad-banner__subtext--mobile">{config.buttonSubtextMobile || config.buttonSubtext}</small>
            ) : null}
          </div>
        ) : null}
      </div>
    </aside>
  );
}
