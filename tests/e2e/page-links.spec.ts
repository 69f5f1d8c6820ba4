/**
 * The storefront's links (app/components/ui/page-link.tsx): plain `<a href>` that the browser
 * follows without JavaScript, and that Remix's router follows in the page once it is
 * hydrated, as Remix's <Link> does, for a click the browser would follow in this tab; a
 * click with a modifier is left to the browser (a new tab or window).
 */
import { expect, test } from "./fixtures";

test.describe("links between the shop's pages", () => {
  test("a product card, the pages of a search and the way back, with or without JavaScript; a click with a modifier is the browser's", async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.goto("/search");
    // a mark the page's own document keeps: it survives only navigations made in the page
    await page.evaluate(() => ((window as unknown as { pageMark: string }).pageMark = "first document"));
    const mark = () => page.evaluate(() => (window as unknown as { pageMark?: string }).pageMark ?? "a new document");

    if (javaScriptEnabled) {
      // a click with a modifier is left to the browser (a new tab or window)
      const taken = await page.evaluate(() => {
        const link = document.querySelector<HTMLAnchorElement>(".product-card__link")!;
        // after the link's own handler (the bubbling reaches the document last): whether it took
        // the click, and then the browser is kept from following it
        let prevented: boolean | null = null;
        const after = (event: Event) => {
          prevented = event.defaultPrevented;
          event.preventDefault();
        };
        document.addEventListener("click", after);
        const tookClick = (init: MouseEventInit) => {
          prevented = null;
          link.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, ...init }));
          return prevented;
        };
        const taken = {
          ctrl: tookClick({ ctrlKey: true }),
          meta: tookClick({ metaKey: true }),
          shift: tookClick({ shiftKey: true }),
          alt: tookClick({ altKey: true }),
          middle: tookClick({ button: 1 }),
        };
        document.removeEventListener("click", after);
        return taken;
      });
      expect(taken).toMatchObject({ ctrl: false, meta: false, shift: false, alt: false, middle: false });
    }

    const card = page.locator(".product-card__link").first();
    const name = (await card.locator(".product-card__name").textContent())!.trim();
    const href = (await card.getAttribute("href"))!;
    await card.click();
    await expect(page).toHaveURL(new RegExp(`${href.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    expect(await mark()).toBe(javaScriptEnabled ? "first document" : "a new document");

    await page.goBack();
    await expect(page).toHaveURL(/\/search$/);
    await expect(page.locator(".product-card__link").first()).toBeVisible();

    // the pagination's links are made relative to the page (?page=2) and written out from its path
    const second = page.locator("nav.pagination").getByRole("link", { name: "2", exact: true });
    await expect(second).toHaveAttribute("href", "/search?page=2");
    await second.click();
    await expect(page).toHaveURL(/\/search\?page=2$/);
    await expect(page.locator(".product-card__link").first()).toBeVisible();
    expect(await mark()).toBe(javaScriptEnabled ? "first document" : "a new document");
  });
});
