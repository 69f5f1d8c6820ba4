/**
 * Where a pasted link or id leads when the item is not in the catalogue yet: its
 * marketplace page and the shopping agents' links at once, for everyone; an import button
 * for logged-in shoppers (one per marketplace when a bare number could be either), a way
 * to log in for visitors; or what is wrong with the link. A text with several links gets
 * a list (PastedList), one entry a link. Plain forms: works without JavaScript.
 */
import { Form } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import { SubmitButton } from "~/components/ui/submit-button";
import type { Platform } from "~/schemas/catalogue-rules";
import { useI18n, useT } from "~/i18n/i18n";
import { platformName } from "./labels";
import { signInHref } from "~/lib/http";

export type ItemLinks = { marketplace: string; agents: Array<{ name: string; url: string }> };

export type PastedView =
  | { kind: "found"; link: string; name: string; path: string }
  | { kind: "importable"; link: string; platform: Platform; itemId: string; links: ItemLinks }
  | { kind: "choose"; link: string; itemId: string; candidates: Platform[]; pages: Array<{ platform: Platform; url: string }> }
  | { kind: "error"; link: string; message: string };

/** The item on its marketplace and at the shopping agents: usable before (and without) importing it. */
function ItemLinksList({ view }: { view: Extract<PastedView, { kind: "importable" | "choose" }> }) {
  const t = useT();
  const pages = view.kind === "importable" ? [{ platform: view.platform, url: view.links.marketplace }] : view.pages;
  const agents = view.kind === "importable" ? view.links.agents : [];
  return (
    <ul className="import-panel__links">
      {pages.map((page) => (
        <li key={page.platform}>
          <a href={page.url} rel="nofollow noopener noreferrer" target="_blank">
            {t("shop.import.openOn", { platform: platformName(t, page.platform) })}
          </a>
        </li>
      ))}
      {agents.map((agent) => (
        <li key={agent.name}>
          <a href={agent.url} rel="nofollow noopener noreferrer" target="_blank">
            {t("shop.product.buyVia", { name: agent.name })}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** A text that held several links: each one's outcome, in the order pasted. */
export function PastedList({ views, loggedIn }: { views: PastedView[]; loggedIn: boolean }) {
  return (
    <ol className="pasted-list">
      {views.map((view) => (
        <li key={view.link} className="pasted-list__item">
          <p className="pasted-list__link">
            <code>{view.link}</code>
          </p>
          <ImportPanel view={view} loggedIn={loggedIn} />
        </li>
      ))}
    </ol>
  );
}

export function ImportPanel({ view, loggedIn }: { view: PastedView; loggedIn: boolean }) {
  const { t, message } = useI18n();
  if (view.kind === "found") {
    return (
      <div className="import-panel">
        <p>
          {`${t("shop.import.inCatalogue")} `}
          <PageLink to={view.path}>{view.name}</PageLink>
        </p>
      </div>
    );
  }
  if (view.kind === "error") {
    return (
      <div className="import-panel" role="alert">
        <p className="notice notice--warning">{message(view.message)}</p>
      </div>
    );
  }
  const back = `/import?link=${encodeURIComponent(view.link)}`;
  const where =
    view.kind === "importable"
      ? t("shop.import.platformItem", { platform: platformName(t, view.platform), id: view.itemId })
      : t("shop.import.item", { id: view.itemId });
  return (
    <div className="import-panel">
      <p>
        <strong>{where}</strong>
        {` ${t("shop.import.notYet")}`}
        {view.kind === "choose" ? ` ${t("shop.import.chooseMarketplace")}` : ""}
      </p>
      <ItemLinksList view={view} />
      {loggedIn ? (
        <Form method="post" action="/import" className="import-panel__form">
          <input type="hidden" name="link" value={view.link} />
          {view.kind === "importable" ? (
            <SubmitButton className="button" pendingText={t("shop.import.importing")}>
              {t("shop.import.importFrom", { platform: platformName(t, view.platform) })}
            </SubmitButton>
          ) : (
            view.candidates.map((platform) => (
              <SubmitButton
                key={platform}
                name="platform"
                value={platform}
                className="button button--secondary"
                pendingText={t("shop.import.importing")}
              >
                {t("shop.import.importFrom", { platform: platformName(t, platform) })}
              </SubmitButton>
            ))
          )}
        </Form>
      ) : (
        <p>
          <PageLink to={signInHref(back)}>{t("shop.import.logIn")}</PageLink>
          {` ${t("shop.import.or")} `}
          <PageLink to={signInHref(back, "register")}>{t("shop.import.register")}</PageLink>
          {` ${t("shop.import.toImport")}`}
        </p>
      )}
    </div>
  );
}

/** The data of the 404 of an unknown item (thrown by its page's loader), or null for any other 404. */
export function unknownItemOf(data: unknown): { view: PastedView; loggedIn: boolean } | null {
  const unknown = (data as { unknownItem?: { view?: PastedView; loggedIn?: boolean } } | null)?.unknownItem;
  return unknown?.view ? { view: unknown.view, loggedIn: Boolean(unknown.loggedIn) } : null;
}
