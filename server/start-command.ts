/**
 * The node arguments and environment `npm start` runs the server with, read from
 * package.json's start script (`[NAME=${NAME:-default} …] exec node <flags>
 * server/start.mjs`), so the tests and the benchmark start it exactly as `npm start` does.
 * (`exec`: npm runs the script with `sh -c`; the shell becomes node instead of waiting for
 * it, so a signal npm passes on reaches the server.)
 */
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

/** `NAME=${NAME:-default}`: a variable the environment may set, else the default. */
const DEFAULTED = /^([A-Z][A-Z0-9_]*)=\$\{\1:-([^}\s]*)\}$/;

function startWords(): { assignments: string[]; words: string[] } {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } };
  const all = pkg.scripts.start.trim().split(/\s+/);
  const exec = all.indexOf("exec");
  const assignments = all.slice(0, Math.max(0, exec));
  const words = all.slice(exec);
  if (exec < 0 || words[1] !== "node" || words.at(-1) !== "server/start.mjs" || !assignments.every((word) => DEFAULTED.test(word))) {
    throw new Error(
      `package.json: expected the start script to be "[NAME=\${NAME:-value} …] exec node [flags] server/start.mjs", found "${pkg.scripts.start}"`,
    );
  }
  return { assignments, words };
}

export function startArgs(): string[] {
  const { words } = startWords();
  return [...words.slice(2, -1), path.join(ROOT, "server", "start.mjs")];
}

/**
 * The variables the start script sets for node (their defaults, unless `env` has them):
 * MALLOC_ARENA_MAX=2, glibc's allocator with two arenas instead of eight per core, about
 * 20 MB less RSS under load for the same throughput (docs/performance.md). The Dockerfile
 * sets the same with ENV (its CMD runs node directly).
 */
export function startEnv(env: Record<string, string | undefined> = process.env): Record<string, string> {
  return Object.fromEntries(
    startWords().assignments.map((word) => {
      const [, name, fallback] = DEFAULTED.exec(word)!;
      return [name, env[name] ?? fallback];
    }),
  );
}
