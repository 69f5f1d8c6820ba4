/**
 * The head's early inline script (app/lib/early-script.server.ts says what it does). The
 * server renders its text; the browser keeps the text the page came with, so hydration
 * finds what the server rendered without the pages' scripts carrying it.
 */
import { createContext, useContext, useState } from "react";

const ServerEarlyScript = createContext<string | null>(null);
export const EarlyScriptProvider = ServerEarlyScript.Provider;

export function EarlyScript({ nonce }: { nonce: string }) {
  const server = useContext(ServerEarlyScript);
  const [html] = useState(
    () => server ?? (typeof document === "undefined" ? "" : (document.getElementById("early-script")?.textContent ?? "")),
  );
  return <script id="early-script" nonce={nonce || undefined} dangerouslySetInnerHTML={{ __html: html }} />;
}
