import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { addTexts, loadStorefrontCatalogue, loadStorefrontMessages, setMessageTranslator, setTextsPending } from "~/i18n/i18n";
import { asLanguage, isBackOfficePath, STOREFRONT_LANGUAGE, type Language } from "~/i18n/languages";
import type { PageTextsJson } from "~/i18n/page-texts";

// The page's language is the server's choice (<html lang>); it changes only with a new
// document (the language form is a plain form), and at the border of the back office: its
// layout's clientLoader loads its texts, and a back-office page whose storefront is in
// another language loads the storefront's texts too (decision 031).
const language = asLanguage(document.documentElement.lang) ?? STOREFRONT_LANGUAGE;
const storefrontLanguage = asLanguage(document.documentElement.dataset.storefrontLang ?? "");
const backOffice = isBackOfficePath(window.location.pathname);
// A storefront page came with the texts its render used: it hydrates with them at once,
// saying what the server said, and fetches its language's catalogue and message pairs once
// it is idle after that. A back-office page asked for its catalogues at once (its layout).
const pageTexts = backOffice ? null : readPageTexts();
const loadCatalogue = pageTexts ? startWithPageTexts(language, pageTexts) : null;

Promise.all([
  // (the back office's loader comes with its pages' code: the storefront's pages do not carry it)
  backOffice ? import("~/i18n/back-office-catalogue").then((m) => m.loadBackOfficeCatalogue(language)) : null,
  // a page without its texts (a build that did not render them) waits for the catalogue
  backOffice || pageTexts ? null : storefrontTexts(language),
  storefrontLanguage ? storefrontTexts(storefrontLanguage) : null,
]).then(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
  if (loadCatalogue) whenIdle(() => void loadCatalogue());
});

/** The texts the page came with (app/i18n/page-texts.tsx); none when it has none, or broken ones. */
function readPageTexts(): PageTextsJson | null {
  try {
    const json = document.getElementById("page-texts")?.textContent;
    const carried = json ? (JSON.parse(json) as Partial<PageTextsJson> | null) : null;
    return carried?.texts && carried.messages ? (carried as PageTextsJson) : null;
  } catch {
    return null;
  }
}

function storefrontTexts(of: Language): Promise<unknown> {
  return Promise.all([loadStorefrontCatalogue(of), loadStorefrontMessages(of)]);
}

/**
 * Until the catalogue comes, the page knows only its render's texts: a text it lacks shows
 * nothing (and its words once the catalogue is here), and a navigation or a fetcher waits
 * for the catalogue (fetched at once if it has not been), so the next page renders in the
 * reader's language with every text it needs. Remix's router is only reachable as
 * window.__remixRouter, which RemixBrowser sets when it creates it.
 */
function startWithPageTexts(of: Language, { texts, messages }: PageTextsJson): () => Promise<void> {
  addTexts(of, texts);
  const shown = new Map(Object.entries(messages));
  setMessageTranslator((to, text) => (to === of ? (shown.get(text) ?? text) : text));
  setTextsPending(true);
  let ready = false;
  const load = () =>
    storefrontTexts(of).then(
      () => {
        ready = true;
        setTextsPending(false);
      },
      // a catalogue that cannot come: the navigation goes on (its missing texts show nothing)
      () => undefined,
    );
  type Router = { navigate: (...args: unknown[]) => Promise<void>; fetch: (...args: unknown[]) => Promise<void> };
  let router: Router | undefined;
  Object.defineProperty(window, "__remixRouter", {
    configurable: true,
    get: () => router,
    set(created: Router) {
      router = created;
      const { navigate, fetch } = created;
      created.navigate = (...args) => (ready ? navigate.apply(created, args) : load().then(() => navigate.apply(created, args)));
      created.fetch = (...args) => (ready ? fetch.apply(created, args) : load().then(() => fetch.apply(created, args)));
    },
  });
  return load;
}

function whenIdle(run: () => void) {
  if ("requestIdleCallback" in window) window.requestIdleCallback(run, { timeout: 2_000 });
  else setTimeout(run, 200);
}
