/**
 * `npm test`: every check the project has, in order: typecheck, lint (ESLint with the
 * layer rules, and Prettier's check), build, vitest (unit and integration) on SQLite and,
 * with TEST_DATABASE_URL, on PostgreSQL, Playwright (projects js and no-js). Ends with
 * one plain line `N passed, N failed` totalling every
 * test run (the typecheck and the lint count as one each).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const TMP = path.join(ROOT, ".tmp");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

let passed = 0;
let failed = 0;
// what failed, named again in the last lines: a CI log is often read from its tail only
const failures: string[] = [];

function run(command: string, args: string[], env: Record<string, string> = {}): number {
  console.log(`\n$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, {
    cwd: ROOT,
    stdio: "inherit",
    // CI=1: a stray .only fails the run (vitest and Playwright both refuse it then)
    env: { ...process.env, CI: "1", VITE_CJS_IGNORE_WARNING: "true", ...env },
  });
  return result.status ?? 1;
}

function finish(): never {
  if (failures.length > 0) console.log(`\nFailed:\n${failures.map((name) => `  ${name}`).join("\n")}`);
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) {
    console.error(`Chromium is missing at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium) or run as root.`);
    failed += 1;
    finish();
  }
  console.log("Chromium is missing: installing Debian's chromium package");
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  const ok =
    run("apt-get", ["update", "-qq"], env) === 0 &&
    run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium"], env) === 0;
  if (!ok || !fs.existsSync(CHROMIUM)) {
    console.error("Installing chromium with apt-get failed.");
    failed += 1;
    finish();
  }
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: { name: string; status: string; message?: string; assertionResults: { fullName: string; status: string }[] }[];
}

interface PlaywrightSuite {
  title: string;
  file?: string;
  suites?: PlaywrightSuite[];
  specs?: { title: string; file: string; line: number; tests: { projectName: string; status: string }[] }[];
}

function firstLine(text: string | undefined): string {
  return (text ?? "").trim().split("\n")[0]!.slice(0, 200);
}

/** The Playwright tests that failed even on a retry ("unexpected"), by project, file:line and title. */
function playwrightFailures(suites: PlaywrightSuite[] = [], titles: string[] = []): string[] {
  return suites.flatMap((suite) => {
    const path = suite.file && suite.title === suite.file ? titles : [...titles, suite.title];
    return [
      ...(suite.specs ?? []).flatMap((spec) =>
        spec.tests
          .filter((test) => test.status === "unexpected")
          .map((test) => `playwright [${test.projectName}] ${spec.file}:${spec.line} › ${[...path, spec.title].join(" › ")}`),
      ),
      ...playwrightFailures(suite.suites, path),
    ];
  });
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

fs.mkdirSync(TMP, { recursive: true });
ensureChromium();

// 1. typecheck
if (run("npx", ["tsc", "--noEmit"]) === 0) passed += 1;
else {
  failed += 1;
  failures.push("typecheck (tsc --noEmit)");
}

// 1b. lint: ESLint (the layers of docs/architecture.md among its rules) and Prettier
if (run("npm", ["run", "--silent", "lint"]) === 0) passed += 1;
else {
  failed += 1;
  failures.push("lint (npm run lint)");
}

// 2. build (integration and e2e tests run the built server, as `npm start` does), through
// scripts/build.mjs as `npm run build` does (it retries esbuild's occasional crash)
if (run("node", ["scripts/build.mjs"]) !== 0) {
  console.error("npm run build failed: the server tests cannot run.");
  failed += 1;
  failures.push("build (scripts/build.mjs)");
  finish();
}

// 3. vitest, on SQLite; then, with TEST_DATABASE_URL, the model, service and API tests again
// on PostgreSQL (vitest.config.ts says which files each engine runs)
function vitestRun(engine: "sqlite" | "postgres") {
  const report = path.join(TMP, `vitest-report-${engine}.json`);
  fs.rmSync(report, { force: true });
  const status = run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], {
    TEST_DATABASE_URL: engine === "postgres" ? process.env.TEST_DATABASE_URL! : "",
  });
  const result = readJson<VitestReport>(report);
  if (result) {
    passed += result.numPassedTests;
    failed += result.numFailedTests;
    for (const file of result.testResults) {
      const name = path.relative(ROOT, file.name);
      const failedTests = file.assertionResults.filter((test) => test.status === "failed");
      for (const test of failedTests) failures.push(`vitest ${engine}: ${name} › ${test.fullName}`);
      // a file that failed with no failed test: it crashed before or between its tests
      if (file.status === "failed" && failedTests.length === 0) failures.push(`vitest ${engine}: ${name} (${firstLine(file.message)})`);
    }
    // a suite that crashed before its tests ran still fails the run
    if (status !== 0 && result.numFailedTests === 0) {
      failed += 1;
      if (!failures.some((name) => name.startsWith(`vitest ${engine}:`))) failures.push(`vitest ${engine}: exit ${status}`);
    }
  } else {
    failed += 1;
    failures.push(`vitest ${engine}: no report (exit ${status})`);
  }
}
vitestRun("sqlite");
if (process.env.TEST_DATABASE_URL) vitestRun("postgres");
else console.log("\nPostgreSQL: not tested here (set TEST_DATABASE_URL to a role that may create databases; .ci/run does)");

// 4. Playwright
const playwrightReport = path.join(TMP, "playwright-report.json");
fs.rmSync(playwrightReport, { force: true });
const playwrightStatus = run("npx", ["playwright", "test"]);
const playwright = readJson<{
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  suites?: PlaywrightSuite[];
  errors?: { message?: string }[];
}>(playwrightReport);
if (playwright) {
  passed += playwright.stats.expected + playwright.stats.flaky;
  failed += playwright.stats.unexpected;
  failures.push(...playwrightFailures(playwright.suites));
  if (playwrightStatus !== 0 && playwright.stats.unexpected === 0) {
    failed += 1;
    failures.push(`playwright: exit ${playwrightStatus} (${firstLine(playwright.errors?.[0]?.message)})`);
  }
} else {
  failed += 1;
  failures.push(`playwright: no report (exit ${playwrightStatus})`);
}

finish();
