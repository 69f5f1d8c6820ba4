/**
 * Hashing and checking pictures off the thread that answers the site (decision 050): the
 * main thread decodes (sharp, in libuv's threads), the photo worker thread
 * (photo-worker.server.ts, compiled to build/server/photo-worker.js) does the tens of
 * milliseconds of JavaScript a picture takes. The worker starts on first use and closes
 * after PHOTO_WORKER_IDLE_MS without work (its memory goes back). Without a compiled worker
 * (`npm run dev` before any build, unit tests), or if it fails, the work is done in this
 * thread, as before: a picture is never recorded unreadable because a thread went away.
 */
import { Worker } from "node:worker_threads";
import { log } from "~/lib/log.server";
import { compiledWorkerFile } from "~/lib/worker-file.server";
import {
  grayOf,
  pictureOfGray,
  PhotoTooPlain,
  queryFrom,
  queryOfGray,
  type Gray,
  type PhotoQuery,
  type StoredPicture,
} from "./fingerprint.server";
import type { FromPhotoWorker, ToPhotoWorker } from "./photo-worker.server";

/** A worker with no work this long closes. */
export const PHOTO_WORKER_IDLE_MS = 30_000;

type Pending = { resolve: (reply: FromPhotoWorker) => void; reject: (error: Error) => void };
type Handle = { worker: Worker; pending: Map<number, Pending>; idleTimer?: NodeJS.Timeout };

declare global {
  var __photoWorker: Handle | undefined;
  /** tests: "off" keeps the work in this thread */
  var __photoWorkerMode: "off" | undefined;
}

let asks = 0;

function photoWorker(): Handle | null {
  if (globalThis.__photoWorkerMode === "off") return null;
  if (globalThis.__photoWorker) return globalThis.__photoWorker;
  const file = compiledWorkerFile("photo-worker");
  if (!file) return null;
  // no inherited flags (V8 heap flags are refused in a worker); a small young generation
  const worker = new Worker(file, { execArgv: [], workerData: { photoWorker: true }, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
  const handle: Handle = { worker, pending: new Map() };
  const failAll = (error: Error) => {
    for (const entry of handle.pending.values()) entry.reject(error);
    handle.pending.clear();
  };
  worker.on("message", (reply: FromPhotoWorker) => {
    const entry = handle.pending.get(reply.id);
    if (!entry) return;
    handle.pending.delete(reply.id);
    entry.resolve(reply);
  });
  worker.on("error", (error) => {
    log.warn(`photos: the photo worker failed: ${error.message}`);
    failAll(error);
  });
  worker.once("exit", (code) => {
    if (globalThis.__photoWorker === handle) globalThis.__photoWorker = undefined;
    failAll(new Error(`the photo worker exited (code ${code})`));
  });
  // an idle worker never keeps the process running
  worker.unref();
  globalThis.__photoWorker = handle;
  return handle;
}

/** Closes the worker (the server's stop; tests). Work waiting on it is done in this thread. */
export async function closePhotoWorker(): Promise<void> {
  const handle = globalThis.__photoWorker;
  if (!handle) return;
  globalThis.__photoWorker = undefined;
  clearTimeout(handle.idleTimer);
  await handle.worker.terminate();
}

/** Asks the worker; null when there is none or it failed (the caller works in this thread). */
async function ask(type: ToPhotoWorker["type"], gray: Gray): Promise<FromPhotoWorker | null> {
  const handle = photoWorker();
  if (!handle) return null;
  clearTimeout(handle.idleTimer);
  // while it has work, the worker keeps the process running (a script waiting on it)
  handle.worker.ref();
  const id = ++asks;
  try {
    return await new Promise<FromPhotoWorker>((resolve, reject) => {
      handle.pending.set(id, { resolve, reject });
      handle.worker.postMessage({ id, type, gray } satisfies ToPhotoWorker);
    });
  } catch {
    return null;
  } finally {
    if (!handle.pending.size) handle.worker.unref();
    if (!handle.pending.size && globalThis.__photoWorker === handle) {
      handle.idleTimer = setTimeout(() => void closeIdle(handle), PHOTO_WORKER_IDLE_MS);
      handle.idleTimer.unref();
    }
  }
}

async function closeIdle(handle: Handle): Promise<void> {
  if (globalThis.__photoWorker !== handle || handle.pending.size) return;
  await closePhotoWorker();
}

/** A stored picture's fingerprint, checks and detail (fingerprintPicture), hashed off this thread. */
export async function fingerprintPictureOffThread(input: Buffer): Promise<StoredPicture> {
  const gray = await grayOf(input);
  const reply = await ask("picture", gray);
  if (reply && "picture" in reply) return reply.picture;
  if (reply && "error" in reply && reply.plain) throw new PhotoTooPlain();
  return pictureOfGray(gray);
}

/** A shopper's photo as a query (photoQuery), hashed and checked every way off this thread. */
export async function photoQueryOffThread(input: Buffer): Promise<PhotoQuery> {
  const gray = await grayOf(input);
  const reply = await ask("query", gray);
  if (reply && "query" in reply) {
    const { hashes, moved } = reply.query;
    return queryFrom(hashes, (index) => moved[index]);
  }
  return queryOfGray(gray);
}
