/**
 * Where a pasted link or id leads when the item is not in the catalogue yet: its
 * marketplace page and the shopping agents' links at once, for everyone; an import button
 * for logged-in shoppers (one per marketplace when a bare number could be either), a way
 * to log in for visitors; or what is wrong with the link. A text with several links gets
 * a list (PastedList), one entry a link. Plain forms: works without JavaScript.
 */
import { Form, Link } from "@remix-run/react";
import { SubmitButton } from "~/components/ui/submit-button";
import { PLATFORM_LABELS, type Platform } from "~/schemas/catalogue-rules";

export type ItemLinks = { marketplace: string; agents: Array<{ name: string; url: string }> };

export type PastedView =
  | { kind: "found"; link: string; name: string; path: string }
  | { kind: "importable"; link: string; platform: Platform; itemId: string; links: ItemLinks }
  | { kind: "choose"; link: string; itemId: string; candidates: Platform[]; pages: Array<{ platform: Platform; url: string }> }
  | { kind: "error"; link: string; message: string };

/** The item on its marketplace and at the shopping agents: usable before (and without) importing it. */
function ItemLinksList({ view }: { view: Extract<PastedView, { kind: "importable" | "choose" }> }) {
  const pages = view.kind === "importable" ? [{ platform: view.platform, url: view.links.marketplace }] : view.pages;
  const agents = view.kind === "importable" ? view.links.agents : [];
  return (
    <ul className="import-panel__links">
      {pages.map((page) => (
        <li key={page.platform}>
          <a href={page.url} rel="nofollow noopener noreferrer" target="_blank">
            Open on {PLATFORM_LABELS[page.platform]}
          </a>
        </li>
      ))}
      {agents.map((agent) => (
        <li key={agent.name}>
          <a href={agent.url} rel="nofollow noopener noreferrer" target="_blank">
            Buy via {agent.name}
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
  if (view.kind === "found") {
    return (
      <div className="import-panel">
        <p>
          In the catalogue: <Link to={view.path}>{view.name}</Link>
        </p>
      </div>
    );
  }
  if (view.kind === "error") {
    return (
      <div className="import-panel" role="alert">
        <p className="notice notice--warning">{view.message}</p>
      </div>
    );
  }
  const back = `/import?link=${encodeURIComponent(view.link)}`;
  const where = view.kind === "importable" ? `${PLATFORM_LABELS[view.platform]} item ${view.itemId}` : `item ${view.itemId}`;
  return (
    <div className="import-panel">
      <p>
        <strong>{where}</strong> is not in the catalogue yet.
        {view.kind === "choose" ? " A number of 10 to 12 digits can be a Weidian or a 1688 item: choose its marketplace." : ""}
      </p>
      <ItemLinksList view={view} />
      {loggedIn ? (
        <Form method="post" action="/import" className="import-panel__form">
          <input type="hidden" name="link" value={view.link} />
          {view.kind === "importable" ? (
            <SubmitButton className="button" pendingText="Importing…">
              Import it from {PLATFORM_LABELS[view.platform]}
            </SubmitButton>
          ) : (
            view.candidates.map((platform) => (
              <SubmitButton key={platform} name="platform" value={platform} className="button button--secondary" pendingText="Importing…">
                Import it from {PLATFORM_LABELS[platform]}
              </SubmitButton>
            ))
          )}
        </Form>
      ) : (
        <p>
          <Link to={`/login?redirectTo=${encodeURIComponent(back)}`}>Log in</Link> or{" "}
          <Link to={`/register?redirectTo=${encodeURIComponent(back)}`}>register</Link> to import it: we fetch its details, photos and
          options from the marketplace and make it a product page.
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
