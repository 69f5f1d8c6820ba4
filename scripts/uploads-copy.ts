/**
 * `npm run uploads:copy [-- --from FOLDER]`: copies the uploads folder (UPLOADS_DIR, or
 * FOLDER) into the bucket of UPLOADS_S3_* (docs/decisions/029-upload-storage.md), then
 * checks that every upload the database records is in the bucket. Keys are the files'
 * paths below the folder, as the server names them in the bucket: a plain copy. Objects
 * already there with the same size are skipped, so it can run again (before the switch,
 * then once more after the last write to the folder). Exits 1 when any recorded upload
 * has no object: the server would show it as a broken image.
 */
import fs from "node:fs";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { closeDb, getDb } from "../app/lib/db.server";
import { BucketStorage, FolderStorage, type ListedObject } from "../app/lib/upload-storage.server";
import { envOrExit, fail } from "../server/lib";

/** Files copied at once: enough to keep a remote bucket busy, few enough for a small box. */
const PARALLEL_COPIES = 8;

function sourceFolder(args: string[], uploadsDir: string): string {
  const at = args.indexOf("--from");
  if (at === -1) return uploadsDir;
  const folder = args[at + 1];
  if (!folder || folder.startsWith("--")) fail("usage: npm run uploads:copy [-- --from <uploads folder>]");
  return path.resolve(folder);
}

async function sizesIn(bucket: BucketStorage): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for await (const { key, size } of bucket.list()) sizes.set(key, size);
  return sizes;
}

async function listed(folder: FolderStorage): Promise<ListedObject[]> {
  const files: ListedObject[] = [];
  for await (const file of folder.list()) files.push(file);
  return files;
}

/** Copies the files the bucket lacks (or holds at another size); returns how many went and how many were there. */
async function copyFolder(folder: FolderStorage, bucket: BucketStorage): Promise<{ copied: number; alreadyThere: number }> {
  const inBucket = await sizesIn(bucket);
  const files = await listed(folder);
  const toCopy = files.filter(({ key, size }) => inBucket.get(key) !== size);
  let next = 0;
  const worker = async () => {
    while (next < toCopy.length) {
      const { key } = toCopy[next++];
      const file = await folder.get(key);
      // gone since the listing (the server's housekeeping): nothing to copy
      if (!file) continue;
      await bucket.put(key, await buffer(file.body), file.contentType);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_COPIES }, worker));
  return { copied: toCopy.length, alreadyThere: files.length - toCopy.length };
}

/** The recorded uploads the bucket does not hold (read anew from the bucket, not from what was copied). */
async function missingUploads(bucket: BucketStorage): Promise<string[]> {
  const rows = await getDb().selectFrom("uploads").select("path").orderBy("path").execute();
  const inBucket = await sizesIn(bucket);
  return rows.map((row) => row.path).filter((key) => !inBucket.has(key));
}

const env = envOrExit();
if (!env.UPLOADS_S3) {
  fail(
    "uploads:copy needs the bucket: set UPLOADS_S3_ENDPOINT, UPLOADS_S3_BUCKET, UPLOADS_S3_ACCESS_KEY_ID and UPLOADS_S3_SECRET_ACCESS_KEY",
  );
}
const from = sourceFolder(process.argv.slice(2), env.UPLOADS_DIR);
if (!fs.statSync(from, { throwIfNoEntry: false })?.isDirectory()) fail(`no uploads folder at ${from}`);

const folder = new FolderStorage(from);
const bucket = new BucketStorage(env.UPLOADS_S3);
try {
  console.log(`copying ${folder.description} into ${bucket.description}`);
  const { copied, alreadyThere } = await copyFolder(folder, bucket);
  const missing = await missingUploads(bucket);
  console.log(`copied ${copied}, already there ${alreadyThere}, missing ${missing.length}`);
  if (missing.length) {
    console.error(`recorded uploads with no object in the bucket (broken images once the server reads the bucket):`);
    for (const key of missing) console.error(`  ${key}`);
    process.exitCode = 1;
  }
} catch (error) {
  fail(`uploads:copy failed: ${(error as Error).message}`);
} finally {
  await closeDb();
}
