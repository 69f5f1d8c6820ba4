/** Minimal levelled logger honouring LOG_LEVEL; one line per event. */
import { getEnv } from "./env.server";

const order = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 } as const;
type Level = Exclude<keyof typeof order, "silent">;

function enabled(level: Level): boolean {
  let configured: keyof typeof order = "info";
  try {
    configured = getEnv().LOG_LEVEL;
  } catch {
    // configuration errors are reported by the start script
  }
  return order[level] <= order[configured];
}

function write(level: Level, message: string) {
  if (!enabled(level)) return;
  const line = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${message}`;
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

export const log = {
  error: (message: string) => write("error", message),
  warn: (message: string) => write("warn", message),
  info: (message: string) => write("info", message),
  debug: (message: string) => write("debug", message),
};
