/**
 * The one reader of process.env. Every variable of docs/runtime.md is parsed here with zod,
 * defaults are applied, and the signing secrets are generated once into
 * $DATA_DIR/secrets.json when they are not given.
 *
 * A bad value stops the start with one line naming the variable (ConfigError).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

export class ConfigError extends Error {
  constructor(
    public variable: string,
    detail: string,
  ) {
    super(`Invalid configuration: ${variable} ${detail}`);
    this.name = "ConfigError";
  }
}

/** MAIL_FROM when none is set (CONTRACT.md): "Site" stands for the site's name (app/services/mailer.server.ts). */
export const DEFAULT_MAIL_FROM = "Site <no-reply@localhost>";
const DEFAULT_RATES_URL = "https://cdn.jsdelivr.net/npm/@fawazahmed0/currency-api@latest/v1/currencies/cny.json";
const DEFAULT_RATES_BACKUP_URL = "https://latest.currency-api.pages.dev/v1/currencies/cny.json";

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

const optionalString = z.preprocess(blankToUndefined, z.string().optional());

const httpUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an http(s) URL")
  .transform((value) => value.replace(/\/+$/, ""));

const integer = (min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === "string" ? value.trim() : value),
    z
      .string()
      .regex(/^-?\d+$/, `must be a whole number`)
      .transform(Number)
      .refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`),
  );

const positiveSeconds = integer(1, 10 * 365 * 24 * 3600);

const rawSchema = z.object({
  NODE_ENV: z.preprocess(blankToUndefined, z.enum(["development", "production", "test"]).default("production")),
  PORT: z.preprocess(blankToUndefined, integer(0, 65535).default(3000)),
  REFERENCE_PORT: z.preprocess(blankToUndefined, integer(1, 65535).optional()),
  HOST: z.preprocess(blankToUndefined, z.string().default("0.0.0.0")),
  DATA_DIR: z.preprocess(blankToUndefined, z.string().default("./data")),
  DATABASE_PATH: optionalString,
  UPLOADS_DIR: optionalString,
  SESSION_SECRET: z.preprocess(blankToUndefined, z.string().min(16, "must be at least 16 characters").optional()),
  JWT_SECRET: z.preprocess(blankToUndefined, z.string().min(16, "must be at least 16 characters").optional()),
  ADMIN_EMAIL: z.preprocess(blankToUndefined, z.email("must be an e-mail address").optional()),
  ADMIN_PASSWORD: z.preprocess(blankToUndefined, z.string().min(6, "must be at least 6 characters").optional()),
  SEED_DEMO: z.preprocess(
    blankToUndefined,
    z
      .enum(["0", "1", "true", "false"], "must be 0 or 1")
      .default("1")
      .transform((v) => v === "1" || v === "true"),
  ),
  SMTP_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine((value) => {
        try {
          return ["smtp:", "smtps:"].includes(new URL(value).protocol);
        } catch {
          return false;
        }
      }, "must be an smtp:// or smtps:// URL")
      .optional(),
  ),
  MAIL_FROM: z.preprocess(blankToUndefined, z.string().default(DEFAULT_MAIL_FROM)),
  EMAIL_SEND_RATE: z.preprocess(blankToUndefined, integer(1, 100_000).default(50)),
  EMAIL_CONNECTIONS: z.preprocess(blankToUndefined, integer(1, 50).default(5)),
  EMAIL_RETRY_DELAY_MS: z.preprocess(blankToUndefined, integer(10, 24 * 3600_000).default(30_000)),
  EMAIL_WORKER_IDLE_MS: z.preprocess(blankToUndefined, integer(100, 24 * 3600_000).default(30_000)),
  PUBLIC_URL: z.preprocess(blankToUndefined, httpUrl.optional()),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GOOGLE_OAUTH_BASE_URL: z.preprocess(blankToUndefined, httpUrl.optional()),
  RATES_URL: z.preprocess(blankToUndefined, httpUrl.default(DEFAULT_RATES_URL)),
  RATES_BACKUP_URL: z.preprocess(blankToUndefined, httpUrl.default(DEFAULT_RATES_BACKUP_URL)),
  MARKETPLACE_BASE_URL: z.preprocess(blankToUndefined, httpUrl.optional()),
  MARKETPLACE_TIMEOUT_MS: z.preprocess(blankToUndefined, integer(100, 60_000).default(8000)),
  LISTING_CHECKS_PER_HOUR: z.preprocess(blankToUndefined, integer(0, 360_000).default(120)),
  LISTING_RECHECK_HOURS: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d+(\.\d+)?$/, "must be a number of hours")
      .transform(Number)
      .refine((hours) => hours > 0 && hours <= 24 * 365, "must be more than 0 hours and at most a year")
      .default(24),
  ),
  ACCESS_TOKEN_TTL: z.preprocess(blankToUndefined, positiveSeconds.default(3600)),
  REFRESH_MAX_AGE_ADMIN: z.preprocess(blankToUndefined, positiveSeconds.default(18000)),
  REFRESH_MAX_AGE_USER: z.preprocess(blankToUndefined, positiveSeconds.default(86400)),
  TRUST_PROXY: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^(\d+|true|false)$/, "must be a hop count (1, 2, ...) or true/false")
      .transform((v) => (v === "true" ? 1 : v === "false" ? 0 : Number(v)))
      .optional(),
  ),
  LITESTREAM_REPLICA_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .refine((value) => {
        if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return true;
        try {
          new URL(value);
          return true;
        } catch {
          return false;
        }
      }, "must be a folder, file:///folder or s3://bucket/path")
      .optional(),
  ),
  DATABASE_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .refine((value) => {
        try {
          return ["postgres:", "postgresql:"].includes(new URL(value).protocol);
        } catch {
          return false;
        }
      }, "must be a postgres://user:password@host:5432/database URL")
      .optional(),
  ),
  UPLOADS_S3_ENDPOINT: z.preprocess(blankToUndefined, httpUrl.optional()),
  UPLOADS_S3_BUCKET: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name (3-63 lowercase letters, digits, dots and hyphens)")
      .optional(),
  ),
  UPLOADS_S3_REGION: z.preprocess(blankToUndefined, z.string().trim().default("us-east-1")),
  UPLOADS_S3_ACCESS_KEY_ID: optionalString,
  UPLOADS_S3_SECRET_ACCESS_KEY: optionalString,
  UPLOADS_PUBLIC_URL: z.preprocess(blankToUndefined, httpUrl.optional()),
  LOG_LEVEL: z.preprocess(
    blankToUndefined,
    z.enum(["silent", "error", "warn", "info", "debug"], "must be one of silent, error, warn, info, debug").default("info"),
  ),
});

export type Env = {
  NODE_ENV: "development" | "production" | "test";
  PORT: number;
  /**
   * A second port (on HOST) where every request goes through express and Remix, never
   * the front's stored pages or kept answers: what the app renders, to compare the front
   * with (tests/integration/front-differential.test.ts; docs/decisions/022-front-rules.md).
   */
  REFERENCE_PORT?: number;
  HOST: string;
  DATA_DIR: string;
  DATABASE_PATH: string;
  UPLOADS_DIR: string;
  OUTBOX_DIR: string;
  SESSION_SECRET: string;
  JWT_SECRET: string;
  ADMIN_EMAIL?: string;
  ADMIN_PASSWORD?: string;
  SEED_DEMO: boolean;
  SMTP_URL?: string;
  MAIL_FROM: string;
  /** campaign mail: messages per second at most (all campaigns together) */
  EMAIL_SEND_RATE: number;
  /** campaign mail: SMTP connections, and so messages in flight at once */
  EMAIL_CONNECTIONS: number;
  /** campaign mail: first wait after a temporary failure (doubling), and after a relay outage */
  EMAIL_RETRY_DELAY_MS: number;
  /** campaign mail: the sending thread closes after this long without a step (its memory goes back) */
  EMAIL_WORKER_IDLE_MS: number;
  PUBLIC_URL: string;
  GOOGLE_CLIENT_ID?: string;
  GOOGLE_CLIENT_SECRET?: string;
  GOOGLE_OAUTH_BASE_URL?: string;
  RATES_URL: string;
  RATES_BACKUP_URL: string;
  MARKETPLACE_BASE_URL?: string;
  /** each marketplace request's time limit */
  MARKETPLACE_TIMEOUT_MS: number;
  /** external products re-checked per hour by the listing watch (0: off) */
  LISTING_CHECKS_PER_HOUR: number;
  /** a listing is checked at most once in this many hours */
  LISTING_RECHECK_HOURS: number;
  ACCESS_TOKEN_TTL: number;
  REFRESH_MAX_AGE_ADMIN: number;
  REFRESH_MAX_AGE_USER: number;
  /** Number of reverse-proxy hops to trust; 0 = none (use the socket address). */
  TRUST_PROXY: number;
  /** whether TRUST_PROXY was given at all (0 given: "no proxy", said; unset: the server says what it means) */
  TRUST_PROXY_SET: boolean;
  /** continuous backup of the database with Litestream to this folder or bucket (server/litestream.ts) */
  LITESTREAM_REPLICA_URL?: string;
  /** PostgreSQL instead of the SQLite file (docs/self-hosting.md); many instances may share it */
  DATABASE_URL?: string;
  /** uploads in an S3-compatible bucket instead of UPLOADS_DIR (all four set, or none) */
  UPLOADS_S3?: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string };
  /** where browsers fetch uploads from directly (a CDN or the bucket); /uploads/... then redirects there */
  UPLOADS_PUBLIC_URL?: string;
  LOG_LEVEL: "silent" | "error" | "warn" | "info" | "debug";
};

type Secrets = { SESSION_SECRET: string; JWT_SECRET: string };

/**
 * Reads $DATA_DIR/secrets.json, creating it (mode 600) with fresh random secrets the
 * first time. The write goes through a temporary file and a hard link so that two
 * processes starting together agree on one set of secrets.
 */
function loadOrCreateSecrets(dataDir: string): Secrets {
  const file = path.join(dataDir, "secrets.json");
  const read = (): Secrets | undefined => {
    if (!fs.existsSync(file)) return undefined;
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Secrets>;
    if (typeof parsed.SESSION_SECRET !== "string" || typeof parsed.JWT_SECRET !== "string") {
      throw new ConfigError("SESSION_SECRET", `is missing from ${file}; delete the file to regenerate it`);
    }
    return parsed as Secrets;
  };
  const existing = read();
  if (existing) return existing;

  const fresh: Secrets = {
    SESSION_SECRET: crypto.randomBytes(32).toString("hex"),
    JWT_SECRET: crypto.randomBytes(32).toString("hex"),
  };
  const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}`;
  fs.writeFileSync(temp, JSON.stringify(fresh, null, 2) + "\n", { mode: 0o600 });
  try {
    fs.linkSync(temp, file); // fails if another process won the race
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    fs.unlinkSync(temp);
  }
  return read()!;
}

/** Parses a raw environment. Exported for tests; the app uses `env` below. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = rawSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0];
    const variable = String(issue.path[0] ?? "environment");
    const raw = source[variable];
    const shown = raw === undefined ? "" : ` (got ${JSON.stringify(raw.length > 60 ? raw.slice(0, 60) + "…" : raw)})`;
    throw new ConfigError(variable, `${issue.message}${shown}`);
  }
  const raw = result.data;
  const dataDir = path.resolve(raw.DATA_DIR);
  try {
    fs.mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw new ConfigError("DATA_DIR", `cannot be created: ${(error as Error).message}`);
  }
  const uploadsDir = path.resolve(raw.UPLOADS_DIR ?? path.join(dataDir, "uploads"));
  const databasePath = path.resolve(raw.DATABASE_PATH ?? path.join(dataDir, "app.db"));

  const s3Variables = {
    UPLOADS_S3_ENDPOINT: raw.UPLOADS_S3_ENDPOINT,
    UPLOADS_S3_BUCKET: raw.UPLOADS_S3_BUCKET,
    UPLOADS_S3_ACCESS_KEY_ID: raw.UPLOADS_S3_ACCESS_KEY_ID,
    UPLOADS_S3_SECRET_ACCESS_KEY: raw.UPLOADS_S3_SECRET_ACCESS_KEY,
  };
  const s3Given = Object.values(s3Variables).some((value) => value !== undefined);
  if (s3Given) {
    const missing = Object.entries(s3Variables).find(([, value]) => value === undefined);
    if (missing) throw new ConfigError(missing[0], "must be set too when uploads go to S3 (UPLOADS_S3_ENDPOINT and the others are set)");
  }

  if (raw.DATABASE_URL && raw.LITESTREAM_REPLICA_URL) {
    throw new ConfigError(
      "LITESTREAM_REPLICA_URL",
      "replicates the SQLite file and cannot be used with DATABASE_URL (back PostgreSQL up with its own tools)",
    );
  }

  let secrets: Secrets | undefined;
  const needSecrets = !raw.SESSION_SECRET || !raw.JWT_SECRET;
  if (needSecrets) {
    try {
      secrets = loadOrCreateSecrets(dataDir);
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      throw new ConfigError("DATA_DIR", `cannot hold secrets.json: ${(error as Error).message}`);
    }
  }

  return {
    NODE_ENV: raw.NODE_ENV,
    PORT: raw.PORT,
    REFERENCE_PORT: raw.REFERENCE_PORT,
    HOST: raw.HOST,
    DATA_DIR: dataDir,
    DATABASE_PATH: databasePath,
    UPLOADS_DIR: uploadsDir,
    OUTBOX_DIR: path.join(dataDir, "outbox"),
    SESSION_SECRET: raw.SESSION_SECRET ?? secrets!.SESSION_SECRET,
    JWT_SECRET: raw.JWT_SECRET ?? secrets!.JWT_SECRET,
    ADMIN_EMAIL: raw.ADMIN_EMAIL,
    ADMIN_PASSWORD: raw.ADMIN_PASSWORD,
    SEED_DEMO: raw.SEED_DEMO,
    SMTP_URL: raw.SMTP_URL,
    MAIL_FROM: raw.MAIL_FROM,
    EMAIL_SEND_RATE: raw.EMAIL_SEND_RATE,
    EMAIL_CONNECTIONS: raw.EMAIL_CONNECTIONS,
    EMAIL_RETRY_DELAY_MS: raw.EMAIL_RETRY_DELAY_MS,
    EMAIL_WORKER_IDLE_MS: raw.EMAIL_WORKER_IDLE_MS,
    PUBLIC_URL: raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`,
    GOOGLE_CLIENT_ID: raw.GOOGLE_CLIENT_ID,
    GOOGLE_CLIENT_SECRET: raw.GOOGLE_CLIENT_SECRET,
    GOOGLE_OAUTH_BASE_URL: raw.GOOGLE_OAUTH_BASE_URL,
    RATES_URL: raw.RATES_URL,
    RATES_BACKUP_URL: raw.RATES_BACKUP_URL,
    MARKETPLACE_BASE_URL: raw.MARKETPLACE_BASE_URL,
    MARKETPLACE_TIMEOUT_MS: raw.MARKETPLACE_TIMEOUT_MS,
    LISTING_CHECKS_PER_HOUR: raw.LISTING_CHECKS_PER_HOUR,
    LISTING_RECHECK_HOURS: raw.LISTING_RECHECK_HOURS,
    ACCESS_TOKEN_TTL: raw.ACCESS_TOKEN_TTL,
    REFRESH_MAX_AGE_ADMIN: raw.REFRESH_MAX_AGE_ADMIN,
    REFRESH_MAX_AGE_USER: raw.REFRESH_MAX_AGE_USER,
    TRUST_PROXY: raw.TRUST_PROXY ?? 0,
    TRUST_PROXY_SET: raw.TRUST_PROXY !== undefined,
    LITESTREAM_REPLICA_URL: raw.LITESTREAM_REPLICA_URL,
    DATABASE_URL: raw.DATABASE_URL,
    UPLOADS_S3: s3Given
      ? {
          endpoint: raw.UPLOADS_S3_ENDPOINT!,
          bucket: raw.UPLOADS_S3_BUCKET!,
          region: raw.UPLOADS_S3_REGION,
          accessKeyId: raw.UPLOADS_S3_ACCESS_KEY_ID!,
          secretAccessKey: raw.UPLOADS_S3_SECRET_ACCESS_KEY!,
        }
      : undefined,
    UPLOADS_PUBLIC_URL: raw.UPLOADS_PUBLIC_URL,
    LOG_LEVEL: raw.LOG_LEVEL,
  };
}

let cached: Env | undefined;

/**
 * Secrets given in the environment (SESSION_SECRET, JWT_SECRET): those win over any kept
 * in $DATA_DIR/secrets.json or shared through the database.
 */
export function secretsGiven(): boolean {
  return Boolean(blankToUndefined(process.env.SESSION_SECRET) && blankToUndefined(process.env.JWT_SECRET));
}

/**
 * Uses these signing secrets from now on, in this module and in every copy of it that
 * parses the environment later (the Remix build holds its own): the instances on one
 * PostgreSQL database share theirs (app/models/instance-secrets.server.ts).
 */
export function adoptSecrets(secrets: { SESSION_SECRET: string; JWT_SECRET: string }): void {
  process.env.SESSION_SECRET = secrets.SESSION_SECRET;
  process.env.JWT_SECRET = secrets.JWT_SECRET;
  if (cached) cached = { ...cached, ...secrets };
}

/**
 * The parsed configuration of this process (parsed on first use). The parsed NODE_ENV
 * (production unless set) is written back to the process environment: React, express and
 * Remix pick their production or development code from it when they are first imported,
 * so callers parse the environment before importing them (server/start.ts does).
 */
export function getEnv(): Env {
  if (!cached) {
    cached = parseEnv(process.env);
    process.env.NODE_ENV = cached.NODE_ENV;
  }
  return cached;
}
