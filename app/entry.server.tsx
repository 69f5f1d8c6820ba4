import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { isPayloadTooLarge } from "./lib/body-limits.server";
import { DocumentEndLast } from "./lib/document-end.server";
import { ScriptsAfterFirstPaint, type PageScripts } from "./lib/scripts-after-paint.server";
import { asksForPageData } from "./lib/request-scope.server";
import { sharingOf } from "./lib/shared-answers.server";
import { ServerHtmlProvider } from "./lib/html-slot";
import { providedHtml } from "./lib/html-slot.server";
import { NonceProvider } from "./lib/nonce";
import { EarlyScriptProvider } from "./lib/early-script";
import { EARLY_SCRIPT } from "./lib/early-script.server";
import { forgetUsedInThisRequest, usedInThisRequest } from "./i18n/i18n.server";
import { PageTextsProvider } from "./i18n/page-texts";
import { jobDefinitions } from "./services/job-handlers.server";
import { closeCampaignWorker } from "./services/campaign-sender.server";
import { closeMail } from "./services/mailer.server";
import { startJobRunner, type JobRunner } from "./services/jobs.server";

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = typeof loadContext.cspNonce === "string" ? loadContext.cspNonce : "";
  // Every client gets the whole document at once: loaders have read everything before the
  // render (no deferred data), so waiting costs nothing, and the HTML is then the same for
  // every client and every timing. Streamed from the shell, single fetch's data arrives
  // inline or in a later chunk as the race falls out, and a page stored by the server's
  // front for one client would differ from what another is rendered
  // (docs/decisions/022-front-rules.md).

  // the page carries the texts its render uses (app/i18n/page-texts.tsx)
  forgetUsedInThisRequest();
  return new Promise((resolve, reject) => {
    let documentReady = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerHtmlProvider value={providedHtml()}>
          <PageTextsProvider value={{ used: usedInThisRequest }}>
            <EarlyScriptProvider value={EARLY_SCRIPT}>
              <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
            </EarlyScriptProvider>
          </PageTextsProvider>
        </ServerHtmlProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          documentReady = true;
          // single fetch's data scripts inside the body, not after </html> (document-end.server.ts),
          // and the page's scripts loaded after its first paint (scripts-after-paint.server.ts)
          const scripts = pageScripts(request, responseStatusCode, responseHeaders);
          const body = new DocumentEndLast();
          const stream = createReadableStreamFromReadable(body.pipe(new ScriptsAfterFirstPaint(scripts)));
          responseHeaders.set("Content-Type", scripts === "data" ? "application/json; charset=utf-8" : "text/html; charset=utf-8");
          // the page's language may come from Accept-Language (decision 031)
          responseHeaders.append("Vary", "Accept-Language");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the document is ready are reported by onShellError.
          if (documentReady) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

/**
 * How the page carries what it hydrates with (decision 044): the answer to a page-data
 * request is that data; a page the same for every visitor it may be given to (the front may
 * keep it) has its browser fetch it; any other page carries it.
 */
function pageScripts(request: Request, status: number, headers: Headers): PageScripts {
  if (asksForPageData()) return "data";
  const reading = request.method === "GET" || request.method === "HEAD";
  // sharingOf on a copy: it rewrites the Cache-Control of an answer that read a visitor's own state
  return reading && status === 200 && sharingOf(new Headers(headers)) ? "fetched" : "inline";
}

export function handleError(error: unknown, { request }: { request: Request }) {
  // an aborted request, or a body over its limit (the server answers that one with a 413)
  if (request.signal.aborted || isPayloadTooLarge(error)) return;
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
}

let jobRunner: JobRunner | undefined;

/**
 * Starts the background jobs (called by server/start.ts once the server listens). They
 * run inside this build so that they share module state (caches, the mail pool) with the
 * routes; the server reaches these functions through `build.entry.module`.
 */
export async function startBackgroundWork(): Promise<void> {
  jobRunner ??= await startJobRunner({ definitions: jobDefinitions() });
}

/**
 * A graceful stop of what runs in the background of this build: running jobs finish the
 * step in hand (the rest stays queued for the next start), the campaign worker thread
 * closes, then the mail the routes queued goes out.
 */
export async function stopBackgroundWork(): Promise<void> {
  await jobRunner?.stop();
  jobRunner = undefined;
  // campaign sends have finished their wave and are recorded: the worker thread closes
  await closeCampaignWorker();
  await closeMail();
}
