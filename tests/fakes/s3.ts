/**
 * A real S3 API on 127.0.0.1 for tests: s3rver (objects kept as files in a temporary
 * folder), started in-process with its buckets made. It takes any signature made with
 * its access key (S3RVER / S3RVER), so the app's own signing client runs unchanged.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import S3rver from "s3rver";
import { TMP_ROOT } from "../setup/paths";

type Cipher = (algorithm: string, key: Buffer, iv: Buffer) => crypto.Cipher;

/**
 * s3rver makes ListObjectsV2 continuation tokens with single DES, which OpenSSL 3 (Node
 * 17 and later) no longer offers: a listing longer than one page answered 500. Triple DES
 * with the same key three times is the same cipher, and is still offered; only "des"
 * (s3rver's call) is mapped, every other cipher is left alone.
 */
function offerSingleDes() {
  const mapped = (original: Cipher): Cipher => {
    const call = (algorithm: string, key: Buffer, iv: Buffer) =>
      algorithm === "des" ? original("des-ede3-cbc", Buffer.concat([key, key, key]), iv) : original(algorithm, key, iv);
    return Object.assign(call, { offersSingleDes: true });
  };
  const api = crypto as unknown as Record<"createCipheriv" | "createDecipheriv", Cipher & { offersSingleDes?: boolean }>;
  if (api.createCipheriv.offersSingleDes) return;
  api.createCipheriv = mapped(api.createCipheriv.bind(crypto));
  api.createDecipheriv = mapped(api.createDecipheriv.bind(crypto));
}

export type FakeS3 = {
  /** http://127.0.0.1:<port>, for UPLOADS_S3_ENDPOINT */
  endpoint: string;
  /** The app's UPLOADS_S3_* variables for one of the buckets (the first by default). */
  env: (bucket?: string) => Record<string, string>;
  /** The same as the parsed configuration (getEnv().UPLOADS_S3) takes it. */
  config: (bucket?: string) => { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string };
  close: () => Promise<void>;
};

export const FAKE_S3_KEY = "S3RVER";

export async function startFakeS3(options: { buckets?: string[] } = {}): Promise<FakeS3> {
  offerSingleDes();
  const buckets = options.buckets ?? ["bucket"];
  fs.mkdirSync(TMP_ROOT, { recursive: true });
  const directory = fs.mkdtempSync(path.join(TMP_ROOT, "s3-"));
  // port 0: the system picks a free port, read back once listening (no race with another test)
  const s3 = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
  const { port } = await s3.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const config = (bucket = buckets[0]) => ({
    endpoint,
    bucket,
    region: "us-east-1",
    accessKeyId: FAKE_S3_KEY,
    secretAccessKey: FAKE_S3_KEY,
  });
  return {
    endpoint,
    config,
    env: (bucket = buckets[0]) => ({
      UPLOADS_S3_ENDPOINT: endpoint,
      UPLOADS_S3_BUCKET: bucket,
      UPLOADS_S3_ACCESS_KEY_ID: FAKE_S3_KEY,
      UPLOADS_S3_SECRET_ACCESS_KEY: FAKE_S3_KEY,
    }),
    close: async () => {
      await s3.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
