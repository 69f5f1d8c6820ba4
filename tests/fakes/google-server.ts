/**
 * CLI entry for the fake Google provider (Playwright starts it as a web server):
 *   FAKE_GOOGLE_PORT=4001 FAKE_GOOGLE_CLIENT_ID=id FAKE_GOOGLE_CLIENT_SECRET=secret tsx tests/fakes/google-server.ts
 * Start the app with GOOGLE_OAUTH_BASE_URL=http://127.0.0.1:<port> and the same client
 * id/secret. POST /__control/next-profile chooses who the next sign-in is.
 */
import { startFakeGoogle } from "./google";

const port = Number(process.env.FAKE_GOOGLE_PORT ?? "0");
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`fake google: FAKE_GOOGLE_PORT must be a port number (got ${process.env.FAKE_GOOGLE_PORT})`);
  process.exit(1);
}

const google = await startFakeGoogle({
  clientId: process.env.FAKE_GOOGLE_CLIENT_ID ?? "fake-google-client-id",
  clientSecret: process.env.FAKE_GOOGLE_CLIENT_SECRET ?? "fake-google-client-secret",
  port,
});
console.log(`fake google listening on ${google.url}`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    void google.close().then(() => process.exit(0));
  });
}
