import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TMP_ROOT } from "../tests/setup/paths";
import { configFileOf, removeLeftovers, replicaConfig, writeConfig } from "./litestream";

describe("LITESTREAM_REPLICA_URL's forms", () => {
  it("reads a folder, a file URL and an S3-compatible bucket with its endpoint", () => {
    expect(replicaConfig("/backups/shop")).toEqual({ type: "file", path: "/backups/shop" });
    expect(replicaConfig("relative/replica")).toEqual({ type: "file", path: path.resolve("relative/replica") });
    expect(replicaConfig("file:///backups/shop%20two")).toEqual({ type: "file", path: "/backups/shop two" });
    expect(replicaConfig("s3://my-bucket/shop")).toEqual({ url: "s3://my-bucket/shop" });
    expect(replicaConfig("s3://my-bucket/shop/db?endpoint=http://127.0.0.1:9000&region=eu-west-1")).toEqual({
      url: "s3://my-bucket/shop/db",
      endpoint: "http://127.0.0.1:9000",
      region: "eu-west-1",
      "force-path-style": "true",
    });
    expect(replicaConfig("gcs://bucket/path")).toEqual({ url: "gcs://bucket/path" });
  });

  it("writes a configuration Litestream reads: the database, how often, the replica, its snapshots and retention", () => {
    const folder = fs.mkdtempSync(path.join(TMP_ROOT, "litestream-config-"));
    const file = writeConfig("/data/app.db", "s3://b/p?endpoint=https://s3.example&region=r1", path.join(folder, ".litestream.yml"));
    const text = fs.readFileSync(file, "utf8");
    expect(text).toContain('  - path: "/data/app.db"');
    expect(text).toContain("    monitor-interval: 250ms");
    expect(text).toContain(
      '      - url: "s3://b/p"\n        endpoint: "https://s3.example"\n        region: "r1"\n        force-path-style: "true"\n        sync-interval: "250ms"\n        snapshot-interval: "24h"\n        retention: "72h"',
    );
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // beside the database, rewritten at each start: nothing left in the system's temporary folder
    expect(configFileOf("/data/app.db")).toBe("/data/.litestream.yml");
  });

  it("removes what a killed restore left beside the database, and nothing else", () => {
    const folder = fs.mkdtempSync(path.join(TMP_ROOT, "litestream-leftovers-"));
    for (const name of ["app.db", "app.db-wal", "app.db.tmp-1234", "app.db.tmp", "secrets.json"])
      fs.writeFileSync(path.join(folder, name), "x");
    expect(removeLeftovers(path.join(folder, "app.db")).sort()).toEqual(["app.db.tmp", "app.db.tmp-1234"]);
    expect(fs.readdirSync(folder).sort()).toEqual(["app.db", "app.db-wal", "secrets.json"]);
  });
});
