/**
 * CLI entry for the fake marketplace (Playwright starts it as a web server):
 *   FAKE_MARKETPLACE_PORT=4002 tsx tests/fakes/marketplace-server.ts
 * Start the app with MARKETPLACE_BASE_URL=http://127.0.0.1:<port>. Tests add items with
 * POST /__control/item {platform, itemId, state} and short links with /__control/short.
 */
import { startFakeMarketplace } from "./marketplace";

const port = Number(process.env.FAKE_MARKETPLACE_PORT ?? "0");
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`fake marketplace: FAKE_MARKETPLACE_PORT must be a port number (got ${process.env.FAKE_MARKETPLACE_PORT})`);
  process.exit(1);
}

const marketplace = await startFakeMarketplace(port);
console.log(`fake marketplace listening on ${marketplace.url}`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    void marketplace.close().then(() => process.exit(0));
  });
}
