/** Hashing and random values used by accounts. */
import crypto from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { getEnv } from "~/lib/env.server";

// OWASP's argon2id baseline (19 MiB, 2 passes): safe and fast enough on 2 cores.
// algorithm 2 = Argon2id (the package exports it as a const enum, unusable with isolatedModules)
const ARGON2 = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Spends the time of a real check when there is no account, so timing tells nothing. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword(crypto.randomBytes(16).toString("hex"));
  await verifyPassword(await dummyHash, password);
}

export const sha256 = (value: string) => crypto.createHash("sha256").update(value).digest("hex");

const derivedKeys = new Map<string, { secret: string; key: Buffer }>();

/**
 * A key for one purpose, derived from JWT_SECRET (HKDF-SHA256 with the purpose as its
 * label), so the token-signing key itself never signs or hashes anything else and no two
 * purposes share a key.
 */
export function derivedKey(label: string): Buffer {
  const secret = getEnv().JWT_SECRET;
  let entry = derivedKeys.get(label);
  if (entry?.secret !== secret) {
    entry = { secret, key: Buffer.from(crypto.hkdfSync("sha256", secret, "", label, 32)) };
    derivedKeys.set(label, entry);
  }
  return entry.key;
}

/** Keyed hash for short secrets (codes, captcha answers): useless without the derived key. */
export const keyedHash = (value: string) =>
  crypto.createHmac("sha256", derivedKey("keyed-hash: codes and captchas")).update(value).digest("hex");

export const randomToken = (bytes = 32) => crypto.randomBytes(bytes).toString("base64url");

export function randomDigits(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += crypto.randomInt(0, 10).toString();
  return out;
}

/** 128 bits of an id token's HMAC, base64url. */
const ID_TOKEN_MAC_CHARS = 22;
const ID_TOKEN = /^(\d{1,15})\.([A-Za-z0-9_-]{22})$/;

/**
 * Tokens that name one row by its id for a link in an e-mail (unsubscribe, stop a price
 * alert): `<id>.<HMAC of "<purpose>:<id>">` under a key of their own derived from the app's
 * secret. They cannot be guessed or altered, never expire, and name that one row only.
 */
export function idTokens(keyLabel: string, purpose: string) {
  const mac = (id: number) =>
    crypto.createHmac("sha256", derivedKey(keyLabel)).update(`${purpose}:${id}`).digest("base64url").slice(0, ID_TOKEN_MAC_CHARS);
  return {
    sign: (id: number): string => `${id}.${mac(id)}`,
    /** The id a token names, or null when it is not one of ours. */
    read(token: string | null | undefined): number | null {
      const match = ID_TOKEN.exec(token?.trim() ?? "");
      if (!match) return null;
      const id = Number(match[1]);
      return id > 0 && safeEqual(match[2], mac(id)) ? id : null;
    },
  };
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
