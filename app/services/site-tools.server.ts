/**
 * The admin side of site settings: validating and saving changes (page and API share
 * it), the two SEO tools (generate sitemap, test robots.txt) and the system status of
 * the settings hub.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ApiError, type FieldError } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { getEnv } from "~/lib/env.server";
import { getSettingEntries, type SiteSettingEntry } from "~/models/site-settings.server";
import { countUsers } from "~/models/user.server";
import { SETTINGS_MESSAGES, URL_SETTING_KEYS } from "~/schemas/admin-site-settings";
import { isTimeZone } from "~/lib/time-zones";
import { BOOLEAN_SETTING_KEYS, SITE_SETTING_KEYS, type SiteSettingKey } from "~/schemas/site-settings";
import { saveSiteSettings } from "./site-settings.server";
import { buildSitemap } from "./sitemap.server";
import type { Actor } from "./permissions.server";
import { staffWrite } from "./writes.server";

/** Multi-line settings keep their line breaks and may be long. */
const MULTILINE_KEYS: readonly SiteSettingKey[] = ["robots_txt", "google_analytics_code", "site_description"];
const MAX_LENGTH = { multiline: 20_000, single: 1_000 };

const isKnownKey = (key: string): key is SiteSettingKey => (SITE_SETTING_KEYS as readonly string[]).includes(key);

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * Checks a key → value map of settings changes and normalises the values. Unknown keys,
 * non-text values, booleans other than 'true'/'false' and partial URLs answer 400 with
 * one error per field.
 */
export function validateSettingsChanges(input: unknown): Partial<Record<SiteSettingKey, string>> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new ApiError(400, SETTINGS_MESSAGES.noSettings, "VALIDATION_ERROR", [
      { field: "settings", message: SETTINGS_MESSAGES.noSettings },
    ]);
  }
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length === 0) {
    throw new ApiError(400, SETTINGS_MESSAGES.noSettings, "VALIDATION_ERROR", [
      { field: "settings", message: SETTINGS_MESSAGES.noSettings },
    ]);
  }
  const errors: FieldError[] = [];
  const values: Partial<Record<SiteSettingKey, string>> = {};
  for (const [key, raw] of entries) {
    if (!isKnownKey(key)) {
      errors.push({ field: key, message: SETTINGS_MESSAGES.unknownSetting(key) });
      continue;
    }
    if (BOOLEAN_SETTING_KEYS.includes(key)) {
      const text = typeof raw === "boolean" ? String(raw) : typeof raw === "string" ? raw.trim().toLowerCase() : "";
      if (text !== "true" && text !== "false") errors.push({ field: key, message: SETTINGS_MESSAGES.booleanValue(key) });
      else values[key] = text;
      continue;
    }
    if (raw !== null && typeof raw !== "string") {
      errors.push({ field: key, message: SETTINGS_MESSAGES.notText(key) });
      continue;
    }
    const multiline = MULTILINE_KEYS.includes(key);
    const text = multiline ? (raw ?? "").replace(/\r\n?/g, "\n") : (raw ?? "").trim();
    const max = multiline ? MAX_LENGTH.multiline : MAX_LENGTH.single;
    if (text.length > max) {
      errors.push({ field: key, message: SETTINGS_MESSAGES.tooLong(key, max) });
      continue;
    }
    if (URL_SETTING_KEYS.includes(key) && text !== "" && !isHttpUrl(text)) {
      errors.push({ field: key, message: SETTINGS_MESSAGES.invalidUrl });
      continue;
    }
    if (key === "time_zone" && text !== "" && !isTimeZone(text)) {
      errors.push({ field: key, message: SETTINGS_MESSAGES.invalidTimeZone });
      continue;
    }
    values[key] = text;
  }
  if (errors.length > 0) {
    throw new ApiError(400, errors[0].message, "VALIDATION_ERROR", errors);
  }
  return values;
}

/** The site's settings are the super administrator's (docs/product/admin.md). */
export const MANAGE_SETTINGS = { superAdmin: true } as const;

export async function getSettingsForAdmin(): Promise<Record<string, SiteSettingEntry>> {
  return getSettingEntries(getDb());
}

/** Validates and saves in one transaction; nothing is saved when any value is wrong. */
export const saveSettingsByAdmin = staffWrite(
  { requires: MANAGE_SETTINGS, stales: ["shop"] },
  async (input: unknown, _actor: Actor): Promise<Record<string, SiteSettingEntry>> => {
    const values = validateSettingsChanges(input);
    await saveSiteSettings(values);
    return getSettingEntries(getDb());
  },
);

// ---------------------------------------------------------------- tools

export type SitemapReport = { urlCount: number; files: number; bytes: number; durationMs: number; generatedAt: string };

/** Builds the sitemap exactly as /sitemap.xml serves it and reports its size and time. */
export const generateSitemapReport = staffWrite(
  { requires: MANAGE_SETTINGS, stales: [] },
  async (_actor: Actor): Promise<SitemapReport> => {
    const started = performance.now();
    const sitemap = await buildSitemap();
    return {
      urlCount: sitemap.urlCount,
      files: sitemap.files,
      bytes: sitemap.bytes,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      generatedAt: sitemap.generatedAt,
    };
  },
);

const ROBOTS_DIRECTIVES = new Set(["user-agent", "allow", "disallow", "sitemap", "crawl-delay", "host", "clean-param"]);

export type RobotsAnalysis = {
  lineCount: number;
  userAgents: string[];
  ruleCount: number;
  sitemaps: string[];
  /** things that make the file wrong */
  problems: string[];
  /** things worth knowing that do not break it */
  warnings: string[];
};

/** Reads robots.txt the way crawlers do: known directives, groups, Sitemap lines. */
export function analyseRobotsTxt(text: string): RobotsAnalysis {
  const result: RobotsAnalysis = { lineCount: 0, userAgents: [], ruleCount: 0, sitemaps: [], problems: [], warnings: [] };
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  lines.forEach((rawLine, index) => {
    const line = rawLine.replace(/#.*$/, "").trim();
    if (!line) return;
    result.lineCount += 1;
    const colon = line.indexOf(":");
    if (colon <= 0) {
      result.problems.push(`line ${index + 1}: not a "Directive: value" line`);
      return;
    }
    const directive = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (!ROBOTS_DIRECTIVES.has(directive)) {
      result.problems.push(`line ${index + 1}: unknown directive "${line.slice(0, colon).trim()}"`);
      return;
    }
    if (directive === "user-agent") {
      if (!value) result.problems.push(`line ${index + 1}: User-agent without a value`);
      else result.userAgents.push(value);
    } else if (directive === "allow" || directive === "disallow") {
      if (result.userAgents.length === 0) result.problems.push(`line ${index + 1}: ${line.slice(0, colon).trim()} before any User-agent`);
      else result.ruleCount += 1;
    } else if (directive === "sitemap") {
      if (!isHttpUrl(value)) result.problems.push(`line ${index + 1}: the Sitemap must be a full URL`);
      else result.sitemaps.push(value);
    }
  });
  if (result.userAgents.length === 0) result.problems.push("no User-agent line");
  if (result.sitemaps.length === 0) result.warnings.push("no Sitemap line: crawlers will not find /sitemap.xml from here");
  return result;
}

export type RobotsReport = RobotsAnalysis & { ok: boolean; url: string; status: number; durationMs: number };

const ROBOTS_TIMEOUT_MS = 5_000;

/**
 * Fetches the site's own robots.txt over HTTP (what a crawler gets, not what the code
 * would build) and analyses it. A network failure or timeout throws.
 */
export const testRobotsTxt = staffWrite({ requires: MANAGE_SETTINGS, stales: [] }, async (_actor: Actor): Promise<RobotsReport> => {
  const url = `http://127.0.0.1:${getEnv().PORT}/robots.txt`;
  const started = performance.now();
  const response = await fetch(url, { signal: AbortSignal.timeout(ROBOTS_TIMEOUT_MS), redirect: "manual" });
  const text = await response.text();
  const analysis = analyseRobotsTxt(response.ok ? text : "");
  if (!response.ok) analysis.problems.unshift(`the server answered HTTP ${response.status}`);
  return {
    ...analysis,
    ok: response.ok && analysis.problems.length === 0,
    url,
    status: response.status,
    durationMs: Math.round(performance.now() - started),
  };
});

// ---------------------------------------------------------------- system status

let cachedVersion: string | undefined;

/** The version field of package.json (read once; the server runs from the project folder). */
export function getAppVersion(): string {
  if (cachedVersion) return cachedVersion;
  const candidates = [path.join(process.cwd(), "package.json")];
  try {
    // the server build sits in build/, one level below package.json
    candidates.push(path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "package.json"));
  } catch {
    // import.meta.url is not a file URL (bundled elsewhere): cwd only
  }
  for (const file of candidates) {
    try {
      const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as { version?: unknown };
      if (typeof parsed.version === "string") return (cachedVersion = parsed.version);
    } catch {
      // try the next place
    }
  }
  return "unknown";
}

export type SystemStatus = {
  database: { ok: boolean; detail: string };
  version: string;
  cache: string;
  lastMaintenance: string;
};

export async function getSystemStatus(): Promise<SystemStatus> {
  let database: SystemStatus["database"];
  const started = performance.now();
  try {
    const users = await countUsers(getDb());
    const ms = Math.round((performance.now() - started) * 10) / 10;
    database = { ok: true, detail: `normal: answered in ${ms} ms (${users} ${users === 1 ? "user" : "users"})` };
  } catch (error) {
    database = { ok: false, detail: `not answering: ${(error as Error).message}` };
  }
  return {
    database,
    version: getAppVersion(),
    cache: "running normally",
    lastMaintenance: new Date().toISOString().slice(0, 10),
  };
}
