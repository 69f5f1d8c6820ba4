/**
 * Where a pasted link or id leads when the item is not in the catalogue yet: an import
 * button for logged-in shoppers (one per marketplace when a bare number could be either),
 * a way to log in for visitors, or what is wrong with the link. Plain forms: works
 * without JavaScript.
 */
import { Form, Link } from "@remix-run/react";
import { SubmitButton } from "~/components/ui/submit-button";
import { PLATFORM_LABELS, type Platform } from "~/schemas/catalogue-rules";

export type PastedView =
  | { kind: "importable"; link: string; platform: Platform; itemId: string }
  | { kind: "choose"; link: string; itemId: string; candidates: Platform[] }
  | { kind: "error"; link: string; message: string };

export function ImportPanel({ view, loggedIn }: { view: PastedView; loggedIn: boolean }) {
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
