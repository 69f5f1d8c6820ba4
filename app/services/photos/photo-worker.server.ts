/**
 * The photo worker thread's entry (compiled to build/server/photo-worker.js by
 * scripts/build-server.mjs; decision 050). It hashes and checks pictures the main thread
 * has decoded (sharp decodes in libuv's threads, off the event loop either way), so the
 * tens of milliseconds of JavaScript a picture takes never hold up a page:
 *
 *   main → worker  { id, type: "picture", gray }   a stored picture: hashes, checks, detail
 *                  { id, type: "query", gray }     a shopper's photo: hashes, every window's tries
 *   worker → main  { id, picture } | { id, query } | { id, error }
 *
 * It runs at the lowest priority (nice 19), so the site's thread gets the CPU first.
 */
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { pictureOfGray, queryPartsOfGray, type Gray, type PhotoHash, type StoredPicture } from "./fingerprint.server";

export type ToPhotoWorker = { id: number; type: "picture" | "query"; gray: Gray };
export type FromPhotoWorker =
  | { id: number; picture: StoredPicture }
  | { id: number; query: { hashes: PhotoHash[]; moved: Uint32Array[] } }
  | { id: number; error: string; plain?: boolean };

/** The worker's scheduling priority (nice): it gets the CPU the site leaves free. */
const WORKER_NICE = 19;

// only in the thread photo-thread.server.ts starts (a test runner's thread imports it too)
if (parentPort && (workerData as { photoWorker?: boolean } | null)?.photoWorker) {
  const port = parentPort;
  // on Linux a priority belongs to a thread: this lowers the worker's only
  if (process.platform === "linux") {
    try {
      os.setPriority(WORKER_NICE);
    } catch {
      // not allowed here: hashing at normal priority is still correct
    }
  }
  port.on("message", (message: ToPhotoWorker) => {
    // a Buffer arrives as a plain Uint8Array
    const gray = {
      ...message.gray,
      data: Buffer.from(message.gray.data.buffer, message.gray.data.byteOffset, message.gray.data.byteLength),
    };
    const answer =
      message.type === "picture"
        ? pictureOfGray(gray).then((picture): FromPhotoWorker => ({ id: message.id, picture }))
        : Promise.resolve((): FromPhotoWorker => ({ id: message.id, query: queryPartsOfGray(gray) })).then((make) => make());
    answer
      .catch((error: Error): FromPhotoWorker => ({ id: message.id, error: error.message, plain: error.name === "PhotoTooPlain" }))
      .then((reply) => port.postMessage(reply));
  });
}
