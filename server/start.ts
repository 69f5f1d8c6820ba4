/**
 * `npm start`: build when there is no build, create the data folder, migrate, seed an
 * empty database, then serve. Safe to run again on the same data.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { envOrExit, fail } from "./lib";

// The environment is parsed (and NODE_ENV set, production unless given) before anything
// that imports React, express or Remix: they choose their production code on import.
const env = envOrExit();

const { closeDb, getDb, whileStartingAlone } = await import("../app/lib/db.server");
const { adoptSecrets, secretsGiven } = await import("../app/lib/env.server");
const { sharedSecrets } = await import("../app/models/instance-secrets.server");
const { log } = await import("../app/lib/log.server");
const { migrateToLatest } = await import("../db/migrate");
const { deleteExpired } = await import("../app/models/session.server");
const { ensureSuperAdmin } = await import("../app/services/auth.server");
const { closeMail } = await import("../app/services/mailer.server");
const { sweepUploads } = await import("../app/services/uploads.server");
const { flushViews } = await import("../app/services/view-counts.server");
const { flushSearchCounts } = await import("../app/services/search.server");
const { reactServerBuild, ROOT, SERVER_BUILD_PATH, startServer } = await import("./serve");
const { removeLeftovers, restoreFromReplica, startReplication } = await import("./litestream");
type Replication = import("./litestream").Replication;

if (!fs.existsSync(SERVER_BUILD_PATH)) {
  log.info("no build found: running `remix build` once");
  const build = () =>
    spawnSync("npx", ["remix", "build"], {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, VITE_CJS_IGNORE_WARNING: "true" },
    }).status;
  // esbuild (inside the Remix compiler) now and then crashes after a finished build: one retry
  if (build() !== 0 && build() !== 0) fail("build failed: see the output above");
}

fs.mkdirSync(env.DATA_DIR, { recursive: true });
// with a bucket (UPLOADS_S3_*) nothing is kept in the folder
if (!env.UPLOADS_S3) fs.mkdirSync(env.UPLOADS_DIR, { recursive: true });

// a restore a kill interrupted leaves its half-written file: never read, removed
if (!env.DATABASE_URL) for (const name of removeLeftovers(env.DATABASE_PATH)) log.info(`removed ${name}, left by a stop that never came`);

// continuous backup (LITESTREAM_REPLICA_URL): a machine with no database yet starts from the replica
if (env.LITESTREAM_REPLICA_URL && !fs.existsSync(env.DATABASE_PATH)) {
  try {
    const { restored } = restoreFromReplica(env.LITESTREAM_REPLICA_URL, env.DATABASE_PATH, { ifReplicaExists: true });
    log.info(
      restored
        ? `database restored from the replica ${env.LITESTREAM_REPLICA_URL}`
        : `the replica ${env.LITESTREAM_REPLICA_URL} holds nothing yet: a new database`,
    );
  } catch (error) {
    fail(`restoring the database from ${env.LITESTREAM_REPLICA_URL} failed: ${(error as Error).message}`);
  }
}

const db = getDb();
// instances that start together (PostgreSQL) migrate, seed and make the first admin one at a time
await whileStartingAlone(async () => {
  try {
    const applied = await migrateToLatest(db);
    if (applied.length) log.info(`migrations applied: ${applied.join(", ")}`);
  } catch (error) {
    fail(`database migration failed: ${(error as Error).message}`);
  }

  // the signing secrets are the database's (unless the environment gives them): instances
  // on one PostgreSQL database share them, and a SQLite file restored on a new machine
  // (a backup, Litestream's replica) brings them along, so sessions, tokens and the
  // unsubscribe links of mail already sent go on working. The first start stores what
  // $DATA_DIR/secrets.json holds (decision 036).
  if (!secretsGiven()) {
    const kept = await sharedSecrets(db, { SESSION_SECRET: env.SESSION_SECRET, JWT_SECRET: env.JWT_SECRET });
    if (kept.SESSION_SECRET !== env.SESSION_SECRET || kept.JWT_SECRET !== env.JWT_SECRET)
      log.info("signing secrets: the database's (kept with it, restored with it), not those of secrets.json");
    adoptSecrets(kept);
  }

  if (env.SEED_DEMO) {
    // the demo data (and sharp, which makes its images) only when it is asked for
    const { seedDatabase } = await import("./demo/seed");
    const seeded = await seedDatabase(db);
    if (seeded) log.info("demo data seeded into the empty database");
  }

  const admin = await ensureSuperAdmin({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD });
  if (admin?.created) {
    log.info(`first super admin created: ${admin.email} (username ${admin.username})`);
    if (admin.generatedPassword) {
      // printed once, on purpose: there is no other way to learn it
      console.log(
        `\n  Super admin password (shown only now): ${admin.generatedPassword}\n  Log in at ${env.PUBLIC_URL}/login and change it on your profile page.\n`,
      );
    }
  } else if (admin?.promoted) {
    log.info(`existing user ${admin.email} made super admin`);
  }
});

// Litestream ships every change of the database from now on (it also checkpoints the WAL)
let replication: Replication | null = null;
try {
  replication = env.LITESTREAM_REPLICA_URL ? startReplication(env.DATABASE_PATH, env.LITESTREAM_REPLICA_URL, log) : null;
} catch (error) {
  fail((error as Error).message);
}

// hourly housekeeping: expired sessions, tokens, codes, captchas and counters; unused
// avatar uploads and stale temporary upload folders
const houseKeep = () =>
  Promise.all([deleteExpired(db), sweepUploads()]).catch((error) => log.warn(`housekeeping failed: ${(error as Error).message}`));
const housekeeping = setInterval(houseKeep, 60 * 60_000);
housekeeping.unref();
await houseKeep();

let backgroundStopped: Promise<void> | undefined;
/** Stops the background work once (at the signal, alongside closing the server). */
const stopBackground = () => (backgroundStopped ??= running.background.stop());
const running = await startServer(env, {
  onClose: async () => {
    clearInterval(housekeeping);
    // running jobs finish their step in hand (the rest stays queued for the next start),
    // and account mail handed to the queue before the stop still goes out
    await stopBackground();
    await closeMail();
    // views and searches counted in the last seconds are written before the database closes
    await flushViews();
    await flushSearchCounts();
    await closeDb();
    // then the replica gets the last of the WAL
    await replication?.stop();
  },
});
// serving now: a stop is graceful from here on (before, SIGTERM's default ended it at
// once); one that comes while the background work starts waits for the start first
const backgroundStarted = running.background.start();
let stopping = false;
// `on`, not `once`: a stop to the process group (Ctrl-C, systemd) reaches the server twice,
// from the terminal and again from npm passing it on; a second signal with no listener
// would end the process at once, in the middle of its stop
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: finishing requests and jobs, then closing the database`);
    await backgroundStarted.catch(() => {});
    await Promise.all([stopBackground(), running.close()]);
    process.exit(0);
  });
}
await backgroundStarted;
log.info(
  `listening on http://${env.HOST}:${env.PORT} (public URL ${env.PUBLIC_URL}, data in ${env.DATA_DIR}; ` +
    `NODE_ENV ${process.env.NODE_ENV}, React ${reactServerBuild()} build)`,
);
