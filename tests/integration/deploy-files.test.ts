/**
 * The compose files a self-hoster copies (deploy/): what they must hold, read as text
 * (no Docker engine here; the image itself, Litestream's replica drill included, is built
 * and run by .ci/container-check.sh). No default passwords, HTTPS with its certificates on a
 * volume, the data on volumes, backups. And the environment the server starts with, from
 * `npm start` and in the image.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startEnv } from "../../server/start-command";
import { ROOT } from "../setup/paths";

const read = (name: string) => fs.readFileSync(path.join(ROOT, "deploy", name), "utf8");

/** The values of keys that name a secret (PASSWORD, SECRET, KEY): each must come from the environment, required. */
function secretValues(compose: string): Array<[string, string]> {
  return [...compose.matchAll(/^\s*([A-Z_]*(?:PASSWORD|SECRET)[A-Z_]*):\s*(.+)$/gm)].map((match) => [match[1], match[2].trim()]);
}

describe("deploy/compose.one-box.yml (SQLite, Litestream, Caddy)", () => {
  const compose = read("compose.one-box.yml");
  const caddy = read("Caddyfile.one-box");

  it("asks for every password and the domain instead of shipping defaults", () => {
    const secrets = secretValues(compose);
    expect(secrets.length).toBeGreaterThan(0);
    for (const [name, value] of secrets) expect(value, name).toMatch(/^\$\{[A-Z_]+:[?-]/);
    expect(compose).toContain("ADMIN_PASSWORD: ${ADMIN_PASSWORD:?");
    expect(compose).toContain("PUBLIC_URL: https://${SITE_DOMAIN:?");
  });

  it("serves HTTPS with Caddy, its certificates on a volume, the app behind it trusting one proxy", () => {
    expect(compose).toMatch(/ports: \["80:80", "443:443", "443:443\/udp"\]/);
    expect(compose).toContain("caddy-data:/data");
    expect(compose).toContain("caddy-config:/config");
    expect(compose).toContain('TRUST_PROXY: "1"');
    expect(caddy).toMatch(/^\{\$SITE_DOMAIN\} \{/m);
    expect(caddy).toContain("reverse_proxy app:3000");
    expect(caddy).toContain("max_size 101MB");
  });

  it("keeps the database, the uploads and the replica on volumes, replicates continuously and stops in time", () => {
    for (const mount of ["data:/data", "uploads:/uploads", "replica:/replica"]) expect(compose).toContain(`- ${mount}`);
    expect(compose).toContain("UPLOADS_DIR: /uploads");
    expect(compose).toContain("LITESTREAM_REPLICA_URL: ${LITESTREAM_REPLICA_URL:-/replica}");
    expect(Number(/stop_grace_period: (\d+)s/.exec(compose)?.[1])).toBeGreaterThanOrEqual(15);
    // the image makes the mount points the node user's (a new volume takes their ownership)
    expect(read("../Dockerfile")).toMatch(/mkdir -p \/data \/uploads \/replica && chown node:node \/data \/uploads \/replica/);
  });
});

describe("deploy/compose.yml (instances, PostgreSQL, a bucket, Caddy)", () => {
  const compose = read("compose.yml");

  it("asks for every password and the domain instead of shipping defaults", () => {
    expect(compose).not.toMatch(/change-me/);
    for (const [name, value] of secretValues(compose)) expect(value, name).toMatch(/\$\{[A-Z_]+:\?/);
    expect(compose).toContain("DATABASE_URL: postgres://shop:${POSTGRES_PASSWORD:?");
  });

  it("backs up: a nightly pg_dump kept 14 days, written whole or not at all; a versioned bucket", () => {
    expect(compose).toMatch(/pg-backup:\n\s+image: postgres:16/);
    expect(compose).toContain('pg_dump -h postgres -U shop -d shop -Fc -f "$$name.part" && mv "$$name.part" "$$name"');
    expect(compose).toContain("-mtime +14 -delete");
    expect(compose).toContain("mc version enable store/uploads");
    expect(compose).toContain("pg-backups:/backups");
  });

  it("serves HTTPS with Caddy, its certificates on a volume", () => {
    expect(compose).toMatch(/ports: \["80:80", "443:443", "443:443\/udp"\]/);
    expect(compose).toContain("caddy-data:/data");
    expect(read("Caddyfile")).toMatch(/^\{\$SITE_DOMAIN\} \{/m);
  });
});

describe("the server's environment from the start script (server/start-command.ts)", () => {
  const startScript = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }).scripts
    .start;
  /** What the shell gives node when npm runs the start script (`sh -c`), node replaced by `env`. */
  const environmentOfStart = (extra: Record<string, string>) =>
    execFileSync("sh", ["-c", startScript.replace(/exec node .*$/, "exec env")], {
      env: { NODE_ENV: "production", PATH: process.env.PATH, ...extra },
      encoding: "utf8",
    });

  it("starts node with MALLOC_ARENA_MAX=2 unless the environment says otherwise, and so does the image", () => {
    expect(startEnv({})).toEqual({ MALLOC_ARENA_MAX: "2" });
    expect(environmentOfStart({})).toMatch(/^MALLOC_ARENA_MAX=2$/m);
    expect(environmentOfStart({ MALLOC_ARENA_MAX: "8" })).toMatch(/^MALLOC_ARENA_MAX=8$/m);
    expect(startEnv({ MALLOC_ARENA_MAX: "8" })).toEqual({ MALLOC_ARENA_MAX: "8" });
    // the image's CMD runs node directly: its ENV carries the same defaults
    const dockerfile = fs.readFileSync(path.join(ROOT, "Dockerfile"), "utf8");
    const runtimeEnv = dockerfile.slice(dockerfile.indexOf("AS runtime\n"));
    const runtimeWords = runtimeEnv.split(/[\s\\]+/);
    for (const [name, value] of Object.entries(startEnv({}))) expect(runtimeWords).toContain(`${name}=${value}`);
  });
});
