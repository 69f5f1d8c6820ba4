/**
 * What a page's texts travel with (decision 031).
 *
 * A storefront page carries the texts its render used, and the messages it translated, as
 * JSON at the end of its body (`<script type="application/json" id="page-texts">`): the
 * browser hydrates with them at once, and fetches the language's whole catalogue only after
 * (app/entry.client.tsx), for the pages it goes to next. The pages visitors read thus hydrate
 * without a catalogue's script, and say exactly what the server said.
 *
 * A page the same for every visitor leaves the element empty and its browser fills it with
 * the texts fetched after the first paint (decision 044, app/lib/scripts-after-paint.server.ts).
 *
 * The server renders it from the request; the browser keeps what the page came with, so
 * hydration finds what the server rendered. (A back-office page instead asks for its
 * area's catalogues at once: app/routes/admin.tsx.)
 */
import { createContext, useContext, useState } from "react";
import type { Language } from "./languages";

export type PageTextsJson = { texts: Record<string, string>; messages: Record<string, string> };
/** the script's id (app/entry.client.tsx reads it, without importing this module: only the root's code carries it) */
const PAGE_TEXTS_ID = "page-texts";

type Server = {
  /** the texts and messages of `language` the request's render has used so far */
  used: (language: Language) => PageTextsJson;
};
const ServerTexts = createContext<Server | null>(null);
export const PageTextsProvider = ServerTexts.Provider;

/**
 * At the end of a storefront page's body, rendered after everything that shows a text:
 * the texts and messages the render used, in the page's language. `<` is escaped, so no
 * text can end the script.
 */
export function PageTexts({ language }: { language: Language }) {
  const server = useContext(ServerTexts);
  const [json] = useState(() =>
    server
      ? JSON.stringify(server.used(language)).replace(/</g, "\\u003c")
      : typeof document === "undefined"
        ? ""
        : (document.getElementById(PAGE_TEXTS_ID)?.textContent ?? ""),
  );
  return <script type="application/json" id={PAGE_TEXTS_ID} dangerouslySetInnerHTML={{ __html: json }} />;
}
