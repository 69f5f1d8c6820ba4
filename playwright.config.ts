import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { startArgs, startEnv } from "./server/start-command";

const port = Number(process.env.E2E_PORT ?? 3457);
// one data folder per port, so two runs on different ports never share a database
const dataDir = path.join(import.meta.dirname, ".tmp", `e2e-data-${port}`);
// read by tests/e2e/fixtures.ts in the worker processes
process.env.E2E_DATA_DIR = dataDir;

const googlePort = port + 1;
process.env.E2E_GOOGLE_URL = `http://127.0.0.1:${googlePort}`;
const marketplacePort = port + 2;
process.env.E2E_MARKETPLACE_URL = `http://127.0.0.1:${marketplacePort}`;
const E2E_GOOGLE = { clientId: "e2e-google-client", clientSecret: "e2e-google-secret" };

/** The first super admin of the e2e server (tests log in with it). */
export const E2E_ADMIN = { email: "admin@example.com", password: "admin-password-e2e", username: "admin" };

const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  forbidOnly: !!process.env.CI,
  reporter: [["list"], ["json", { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT ?? ".tmp/playwright-report.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // the browser asks for English (Accept-Language): the back office, Chinese by default,
    // answers it in English, as the tests read it; tests/e2e/languages.spec.ts switches
    locale: "en-US",
    trace: "off",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: chromiumArgs },
  },
  projects: [
    { name: "js", use: { ...devices["Desktop Chrome"], javaScriptEnabled: true } },
    { name: "no-js", use: { ...devices["Desktop Chrome"], javaScriptEnabled: false } },
  ],
  webServer: [
    {
      // a fake Google (OAuth, userinfo, JWKS) on 127.0.0.1 for the sign-in tests
      command: "node --import tsx tests/fakes/google-server.ts",
      url: `http://127.0.0.1:${googlePort}/oauth2/v3/certs`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        FAKE_GOOGLE_PORT: String(googlePort),
        FAKE_GOOGLE_CLIENT_ID: E2E_GOOGLE.clientId,
        FAKE_GOOGLE_CLIENT_SECRET: E2E_GOOGLE.clientSecret,
      },
    },
    {
      // a fake of the marketplaces and short-link services (tests/fakes/marketplace.ts)
      command: "node --import tsx tests/fakes/marketplace-server.ts",
      url: `http://127.0.0.1:${marketplacePort}/__control/hits?platform=weidian&itemId=0`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
      env: { FAKE_MARKETPLACE_PORT: String(marketplacePort) },
    },
    {
      // the same start script as `npm start`, on a fresh data folder
      command: `rm -rf "${dataDir}" && node ${startArgs().join(" ")}`,
      url: `http://127.0.0.1:${port}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        ...startEnv(),
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        SEED_DEMO: "1",
        // tests that fail logins on purpose send their own X-Forwarded-For address
        TRUST_PROXY: "1",
        ADMIN_EMAIL: E2E_ADMIN.email,
        ADMIN_PASSWORD: E2E_ADMIN.password,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        GOOGLE_CLIENT_ID: E2E_GOOGLE.clientId,
        GOOGLE_CLIENT_SECRET: E2E_GOOGLE.clientSecret,
        GOOGLE_OAUTH_BASE_URL: `http://127.0.0.1:${googlePort}`,
        // no outside service is reached from a test (port 9: nothing listens)
        RATES_URL: "http://127.0.0.1:9/closed.json",
        RATES_BACKUP_URL: "http://127.0.0.1:9/closed.json",
        MARKETPLACE_BASE_URL: `http://127.0.0.1:${marketplacePort}`,
        LISTING_CHECKS_PER_HOUR: "0",
      },
    },
  ],
});
