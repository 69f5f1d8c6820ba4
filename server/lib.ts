/** Shared by the server's start and the command-line scripts: configuration errors end the process in one line. */
import { ConfigError, getEnv, type Env } from "../app/lib/env.server";

export function envOrExit(): Env {
  try {
    return getEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
