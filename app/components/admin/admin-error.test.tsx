import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AdminErrorPage } from "./admin-error";
// the catalogues, as the server has them (an English reader: no provider)
import "~/i18n/i18n.server";

describe("the admin crash screen", () => {
  it("has a Reload button that loads the same address again without JavaScript (a GET form with the query)", () => {
    const html = renderToStaticMarkup(
      <AdminErrorPage
        error={new Error("boom")}
        loadFailed="Loading failed"
        reloadTo="/admin/email-management/campaigns?page=2&status=sending"
      />,
    );
    expect(html).toContain('<h1 id="error-title">Loading failed</h1>');
    expect(html).toContain('<form method="get" action="/admin/email-management/campaigns"');
    expect(html).toContain('<input type="hidden" name="page" value="2"/>');
    expect(html).toContain('<input type="hidden" name="status" value="sending"/>');
    expect(html).toMatch(/<button type="submit" class="button">Reload<\/button>/);
    expect(html).not.toContain("boom");
  });

  it("has no Reload button when the page gives no address", () => {
    expect(renderToStaticMarkup(<AdminErrorPage error={new Error("boom")} loadFailed="Loading failed" />)).not.toContain("Reload");
  });
});
