/** s3rver 3.7 (a fake S3 for tests, tests/fakes/s3.ts): only what the tests call. */
declare module "s3rver" {
  import type { AddressInfo } from "node:net";

  export default class S3rver {
    constructor(options: {
      port?: number;
      address?: string;
      silent?: boolean;
      /** where the buckets' files are kept */
      directory: string;
      configureBuckets?: Array<{ name: string }>;
    });
    /** Creates the configured buckets, then listens. */
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
