/**
 * Where uploaded files live: a folder (UPLOADS_DIR, the default) or an S3-compatible
 * bucket (UPLOADS_S3_*, docs/decisions/029-upload-storage.md). A file's key is its path
 * relative to the folder (qc/2026-11/<uuid>.webp) in both, so moving from one to the
 * other is a plain copy (`npm run uploads:copy`). Plumbing only: the uploads service
 * decides what is stored and when, server/serve.ts answers /uploads/... from here.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { AwsClient } from "aws4fetch";
import { getEnv, type Env } from "./env.server";

/** A stored file opened for reading. */
export type StoredObject = { body: Readable; size: number; contentType: string; etag?: string; lastModified?: Date };

/** A stored file as a listing names it. */
export type ListedObject = { key: string; size: number };

type Storage = {
  readonly kind: "folder" | "bucket";
  /** "the folder /srv/uploads", "the bucket media at https://…": for messages */
  readonly description: string;
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The file, or null when there is none under that key. */
  get(key: string): Promise<StoredObject | null>;
  /** Deletes the file; a key with no file is fine (the wish is fulfilled). */
  remove(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Every stored file, in no promised order. */
  list(): AsyncIterable<ListedObject>;
};

// ---------------------------------------------------------------- keys

/**
 * Whether a key stays below the storage's root: a relative path of ordinary names. "..",
 * ".", empty segments, dot-files (hidden and temporary files), backslashes, NUL bytes,
 * absolute paths and drive letters are refused.
 */
function isSafeKey(key: string): boolean {
  if (key === "" || key.includes("\0") || key.includes("\\")) return false;
  if (path.isAbsolute(key) || key.startsWith("/") || /^[a-z]:/i.test(key)) return false;
  return key.split("/").every((segment) => segment !== "" && segment !== "." && segment !== ".." && !segment.startsWith("."));
}

function checkedKey(key: string): string {
  if (!isSafeKey(key)) throw new Error(`not an upload key: ${JSON.stringify(key)}`);
  return key;
}

/**
 * The key named by the part of a URL after /uploads/ (still percent-encoded), or null
 * when the request is malformed or tries to escape: "..", encoded "..", absolute paths,
 * backslashes, NUL bytes and dot-files are refused.
 */
export function uploadKeyOf(rawPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
    // a second decoding pass catches double-encoded traversal such as %252e%252e
    if (/%[0-9a-f]{2}/i.test(decoded)) decoded = decodeURIComponent(decoded);
  } catch {
    return null;
  }
  if (decoded.startsWith("//")) return null;
  const key = decoded.replace(/^\/+/, "");
  return isSafeKey(key) ? key : null;
}

/** The absolute path of a safe key inside `root`, or null should it land anywhere else. */
function pathInside(root: string, key: string): string | null {
  const resolvedRoot = path.resolve(root);
  const resolved = path.resolve(resolvedRoot, ...key.split("/"));
  return resolved.startsWith(resolvedRoot + path.sep) ? resolved : null;
}

/** Maps the part of a URL after /uploads/ to an absolute file path inside `root`, or null (see uploadKeyOf()). */
export function resolveUploadPath(root: string, rawPath: string): string | null {
  const key = uploadKeyOf(rawPath);
  return key === null ? null : pathInside(root, key);
}

/** The address of a key under a base URL (UPLOADS_PUBLIC_URL, a bucket): each name percent-encoded. */
export function urlOfKey(base: string, key: string): string {
  return `${base.replace(/\/+$/, "")}/${key.split("/").map(encodeURIComponent).join("/")}`;
}

const CONTENT_TYPES: Record<string, string> = {
  webp: "image/webp",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  avif: "image/avif",
  txt: "text/plain; charset=utf-8",
};

/** The type of a stored file, by its name (the server names every file it stores .webp). */
export function contentTypeOf(key: string): string {
  const extension = key.slice(key.lastIndexOf(".") + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? "application/octet-stream";
}

// ---------------------------------------------------------------- the folder

const isMissing = (error: unknown) => ["ENOENT", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "");

/** Files under a folder (UPLOADS_DIR), as the server has always kept them. */
export class FolderStorage implements Storage {
  readonly kind = "folder";

  constructor(readonly root: string) {}

  get description(): string {
    return `the folder ${this.root}`;
  }

  private fileOf(key: string): string {
    const file = pathInside(this.root, checkedKey(key));
    if (!file) throw new Error(`not an upload key: ${JSON.stringify(key)}`);
    return file;
  }

  /** The type is not kept: a file's name says it (contentTypeOf()). */
  async put(key: string, data: Buffer, _contentType?: string): Promise<void> {
    const file = this.fileOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // written under a temporary name, then renamed: a crash never leaves half a file
    await fs.writeFile(`${file}.part`, data);
    await fs.rename(`${file}.part`, file);
  }

  /** The file behind a key, when it is a file and (through any symlink) inside the folder. */
  private async existingFile(key: string): Promise<{ file: string; size: number; modified: Date } | null> {
    const file = this.fileOf(key);
    try {
      const realRoot = await fs.realpath(this.root);
      const real = await fs.realpath(file);
      if (!real.startsWith(realRoot + path.sep)) return null;
      const stat = await fs.stat(real);
      return stat.isFile() ? { file: real, size: stat.size, modified: stat.mtime } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    const found = await this.existingFile(key);
    if (!found) return null;
    return { body: createReadStream(found.file), size: found.size, contentType: contentTypeOf(key), lastModified: found.modified };
  }

  async remove(key: string): Promise<void> {
    await fs.unlink(this.fileOf(key)).catch((error: NodeJS.ErrnoException) => {
      if (!isMissing(error)) throw error;
    });
  }

  async exists(key: string): Promise<boolean> {
    return (await this.existingFile(key)) !== null;
  }

  /** Every file below the folder, leaving out dot-files and half-written `.part` files. */
  async *list(): AsyncIterable<ListedObject> {
    yield* this.listBelow([]);
  }

  private async *listBelow(segments: string[]): AsyncIterable<ListedObject> {
    const folder = path.join(this.root, ...segments);
    const entries = await fs.readdir(folder, { withFileTypes: true }).catch((error) => {
      if (isMissing(error)) return [];
      throw error;
    });
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name.endsWith(".part")) continue;
      if (entry.isDirectory()) yield* this.listBelow([...segments, entry.name]);
      else if (entry.isFile()) {
        const { size } = await fs.stat(path.join(folder, entry.name));
        yield { key: [...segments, entry.name].join("/"), size };
      }
    }
  }
}

// ---------------------------------------------------------------- the bucket

export type BucketConfig = NonNullable<Env["UPLOADS_S3"]>;

/** Stored files never change (every name is a fresh UUID): caches may keep them for good. */
export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable";

/** How long the bucket may take to start answering (the body may then take longer: a slow client reads it). */
const ANSWER_TIMEOUT_MS = 30_000;
/** aws4fetch retries a 5xx or 429 answer, waiting 50, 100, 200 ms at random at most: a brief hiccup, not an outage. */
const RETRIES = 3;
const LIST_PAGE_SIZE = 1000;

/** The statuses fetchObject() hands to its caller; anything else is a failure. */
const SERVED_STATUSES = new Set([200, 206, 304, 404, 416]);

const XML_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** The text of an XML element's content: entities decoded (keys may hold & or <). */
function xmlText(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return XML_ENTITIES[name.toLowerCase()];
  });
}

/** The first `<name>…</name>` in an XML text, decoded; S3's answers are simple enough for this. */
function xmlElement(xml: string, name: string): string | undefined {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml);
  return match ? xmlText(match[1]) : undefined;
}

/** One page of a ListObjectsV2 answer. */
export function parseListPage(xml: string): { objects: ListedObject[]; nextToken: string | null } {
  const objects = [...xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)].map(([, entry]) => ({
    key: xmlElement(entry, "Key") ?? "",
    size: Number(xmlElement(entry, "Size") ?? 0),
  }));
  if (xmlElement(xml, "IsTruncated") !== "true") return { objects, nextToken: null };
  const nextToken = xmlElement(xml, "NextContinuationToken");
  // a truncated page without a token would be asked for again and again
  if (!nextToken) throw new Error("the bucket's listing is cut short without a continuation token");
  return { objects, nextToken };
}

/**
 * Objects in an S3-compatible bucket, path-style (`${endpoint}/${bucket}/${key}`: MinIO,
 * Garage, R2 and the like all take it), signed with aws4fetch over the global fetch.
 */
export class BucketStorage implements Storage {
  readonly kind = "bucket";
  private readonly client: AwsClient;

  constructor(readonly config: BucketConfig) {
    const { accessKeyId, secretAccessKey, region } = config;
    this.client = new AwsClient({ accessKeyId, secretAccessKey, region, service: "s3", retries: RETRIES });
  }

  get description(): string {
    return `the bucket ${this.config.bucket} at ${this.config.endpoint}`;
  }

  private urlOf(key: string): string {
    return urlOfKey(`${this.config.endpoint.replace(/\/+$/, "")}/${encodeURIComponent(this.config.bucket)}`, checkedKey(key));
  }

  /** A signed request; the caller's `signal` (a client gone) and the answer timeout both abort it. */
  private async send(what: string, url: string, init: RequestInit = {}): Promise<Response> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`no answer in ${ANSWER_TIMEOUT_MS / 1000} s`)), ANSWER_TIMEOUT_MS);
    const stop = () => controller.abort(init.signal?.reason);
    init.signal?.addEventListener("abort", stop, { once: true });
    try {
      return await this.client.fetch(url, { ...init, signal: controller.signal });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      const reason = (error as Error).cause ?? error;
      throw new Error(`S3 ${what} in the bucket ${this.config.bucket} failed: ${(reason as Error).message ?? reason}`);
    } finally {
      clearTimeout(timer);
      init.signal?.removeEventListener("abort", stop);
    }
  }

  /** The error of an answer that is not the one wanted, with S3's own code and message when it sent them. */
  private async failure(what: string, response: Response): Promise<Error> {
    const text = await response.text().catch(() => "");
    const code = xmlElement(text, "Code");
    const message = xmlElement(text, "Message");
    const said = [code, message].filter(Boolean).join(": ");
    return new Error(`S3 ${what} in the bucket ${this.config.bucket} failed: ${response.status}${said ? ` (${said})` : ""}`);
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    const response = await this.send(`PutObject ${key}`, this.urlOf(key), {
      method: "PUT",
      body: data as unknown as BodyInit,
      headers: { "Content-Type": contentType, "Cache-Control": IMMUTABLE_CACHE_CONTROL },
    });
    if (!response.ok) throw await this.failure(`PutObject ${key}`, response);
    await response.body?.cancel();
  }

  async get(key: string): Promise<StoredObject | null> {
    const response = await this.send(`GetObject ${key}`, this.urlOf(key));
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok || !response.body) throw await this.failure(`GetObject ${key}`, response);
    const lastModified = response.headers.get("Last-Modified");
    return {
      body: Readable.fromWeb(response.body as NodeReadableStream),
      size: Number(response.headers.get("Content-Length")),
      contentType: response.headers.get("Content-Type") ?? contentTypeOf(key),
      etag: response.headers.get("ETag") ?? undefined,
      lastModified: lastModified ? new Date(lastModified) : undefined,
    };
  }

  async remove(key: string): Promise<void> {
    const response = await this.send(`DeleteObject ${key}`, this.urlOf(key), { method: "DELETE" });
    await response.body?.cancel();
    // S3 answers 204 for a key that is not there; a store that says 404 means the same
    if (!response.ok && response.status !== 404) throw await this.failure(`DeleteObject ${key}`, response);
  }

  async exists(key: string): Promise<boolean> {
    const response = await this.send(`HeadObject ${key}`, this.urlOf(key), { method: "HEAD" });
    if (response.status === 404) return false;
    if (!response.ok) throw await this.failure(`HeadObject ${key}`, response);
    return true;
  }

  async *list(): AsyncIterable<ListedObject> {
    let token: string | null = null;
    do {
      const query = new URLSearchParams({ "list-type": "2", "max-keys": String(LIST_PAGE_SIZE) });
      if (token) query.set("continuation-token", token);
      const url = `${this.config.endpoint.replace(/\/+$/, "")}/${encodeURIComponent(this.config.bucket)}?${query}`;
      const response = await this.send("ListObjectsV2", url);
      if (!response.ok) throw await this.failure("ListObjectsV2", response);
      const page = parseListPage(await response.text());
      yield* page.objects;
      token = page.nextToken;
    } while (token);
  }

  /**
   * The bucket's own answer to a GET or HEAD of `key`, the client's range and conditional
   * headers passed on, for the server to relay: 200, 206, 304, 404 or 416 (bodies of
   * anything but 200 and 206 are dropped). Any other answer throws.
   */
  async fetchObject(key: string, method: "GET" | "HEAD", headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
    const what = `${method === "HEAD" ? "HeadObject" : "GetObject"} ${key}`;
    const response = await this.send(what, this.urlOf(key), { method, headers, signal });
    if (!SERVED_STATUSES.has(response.status)) throw await this.failure(what, response);
    if (response.status !== 200 && response.status !== 206) await response.body?.cancel();
    return response;
  }
}

// ---------------------------------------------------------------- the one in use

export type UploadStorage = FolderStorage | BucketStorage;

/** The bucket when UPLOADS_S3 is configured, else the folder. */
export function uploadStorageFor(env: Pick<Env, "UPLOADS_DIR" | "UPLOADS_S3">): UploadStorage {
  return env.UPLOADS_S3 ? new BucketStorage(env.UPLOADS_S3) : new FolderStorage(env.UPLOADS_DIR);
}

let current: { env: Env; storage: UploadStorage } | undefined;

/** The storage of this process's configuration (made once). */
export function getUploadStorage(): UploadStorage {
  const env = getEnv();
  if (current?.env !== env) current = { env, storage: uploadStorageFor(env) };
  return current.storage;
}
