import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { Fragment, options, type ComponentChildren, type VNode } from "preact";
import { addTexts, lacked, loadStorefrontCatalogue, loadStorefrontMessages, setMessageTranslator, setTextsPending } from "~/i18n/i18n";
import { asLanguage, isBackOfficePath, STOREFRONT_LANGUAGE, type Language } from "~/i18n/languages";
import type { PageTextsJson } from "~/i18n/page-texts";

// In the browser, `react` and `react-dom` are Preact's compatible layer (remix.config.js
// browserAlias, docs/decisions/042-preact-in-the-browser.md); the server renders with React.
renderHtmlAsTheDocumentElement();

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
  routerStateDecoded(),
])
  // Preact hydrates in one task: what can run before it (the router state's decoding) runs
  // in a task of its own, with the main thread free between them for a tap (each long task
  // counts against the page's responsiveness, docs/performance.md "Lighthouse after issue
  // 39"); counts and plural forms need no Intl data (app/i18n/i18n.tsx)
  .then(nextTask)
  .then(() => {
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
  setMessageTranslator((to, text) => (to === of ? (shown.get(text) ?? lacked(text)) : text));
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

/** A promise that settles in a task of its own (after what is queued, input included). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function whenIdle(run: () => void) {
  if ("requestIdleCallback" in window) window.requestIdleCallback(run, { timeout: 2_000 });
  else setTimeout(run, 200);
}

/**
 * RemixBrowser suspends on its first render until it has decoded the page's router state
 * (single fetch). React lets the root suspend while it hydrates; Preact has no root to
 * suspend to, so the decoding starts here and the page hydrates once it is done: this first
 * call throws the decoding promise before it does anything else.
 */
async function routerStateDecoded() {
  try {
    (RemixBrowser as (props: object) => unknown)({});
  } catch (thrown) {
    if (thrown instanceof Promise) await thrown;
  }
}

/**
 * Preact renders a document into its <html> (preactjs/preact#3794), where React renders into
 * the document: the root's <html> becomes the element that is there (a Fragment of its head
 * and body), with the render's attributes (lang, data-storefront-lang) set on it.
 */
function renderHtmlAsTheDocumentElement() {
  const previousHook = options.vnode;
  let shown = new Set<string>();
  options.vnode = (vnode: VNode) => {
    if (vnode.type === "html") {
      const { children, ...attributes } = vnode.props as Record<string, unknown> & { children?: ComponentChildren };
      const html = document.documentElement;
      const now = new Set<string>();
      for (const [name, value] of Object.entries(attributes)) {
        if (value == null || value === false) continue;
        const attribute = name === "className" ? "class" : name;
        html.setAttribute(attribute, String(value));
        now.add(attribute);
      }
      for (const attribute of shown) if (!now.has(attribute)) html.removeAttribute(attribute);
      shown = now;
      (vnode as { type: unknown }).type = Fragment;
      vnode.props = { children };
    }
    previousHook?.(vnode);
  };
}
