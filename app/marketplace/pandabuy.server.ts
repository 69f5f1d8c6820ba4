/**
 * Pandabuy's encrypted item links (`pandabuy.com/product?url=PJ…`; docs/marketplace-links.md):
 * the public link converters read them this way. "PJ", a digit d, one letter, then the
 * URL-encoded base64 of a DES-CBC (PKCS#7) ciphertext with one byte inserted at index d;
 * the digit also picks the key and IV. Single DES is triple DES with one key three times
 * (OpenSSL 3 keeps single DES in its legacy provider only). The server reads links with
 * it through LINK_DECODERS (app/marketplace/agent-links.server.ts).
 */
import crypto from "node:crypto";
import type { LinkDecoder } from "./links";

/** The key and IV for each digit, as Pandabuy's own page uses them. */
const KEYS: ReadonlyArray<{ key: string; iv: string }> = [
  { key: "kj098765", iv: "a12sdcft" },
  { key: "plk;9uhj", iv: "mbio986h" },
  { key: ".1asxz4t", iv: "09ydnlp;" },
  { key: "1qasdr56", iv: "0om,.;0s" },
  { key: "1wdfgu8i", iv: "1dafmdl0" },
  { key: "12zxcvbn", iv: "90oikjhg" },
  { key: "1jnbop9g", iv: "lkjuy678" },
  { key: "378ujhgr", iv: "1whsnxk9" },
  { key: "chguikl0", iv: "1was;09n" },
  { key: "09jnbgft", iv: "12sdfghy" },
];

/** The link inside an encrypted value, or null when it is not one. */
export function decryptPandabuy(value: string): string | null {
  const match = /^PJ(\d)[a-zA-Z](.+)$/.exec(value.trim());
  if (!match) return null;
  const digit = Number(match[1]);
  let bytes: Buffer;
  try {
    bytes = Buffer.from(decodeURIComponent(match[2]), "base64");
  } catch {
    return null;
  }
  if (bytes.length <= digit + 8) return null;
  const ciphertext = Buffer.concat([bytes.subarray(0, digit), bytes.subarray(digit + 1)]);
  if (ciphertext.length % 8 !== 0) return null;
  const { key, iv } = KEYS[digit];
  const keyBytes = Buffer.from(key, "latin1");
  const decipher = crypto.createDecipheriv("des-ede3-cbc", Buffer.concat([keyBytes, keyBytes, keyBytes]), Buffer.from(iv, "latin1"));
  try {
    const text = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
    return /^https?:\/\//i.test(text) ? text : null;
  } catch {
    return null;
  }
}

/** pandabuy.com (and its subdomains) with an encrypted `url=`. */
export const pandabuyDecoder: LinkDecoder = (url) => {
  const host = url.hostname.toLowerCase();
  if (host !== "pandabuy.com" && !host.endsWith(".pandabuy.com")) return null;
  const value = url.searchParams.get("url");
  return value ? decryptPandabuy(value) : null;
};
