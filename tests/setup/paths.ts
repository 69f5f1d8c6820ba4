import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
/** Scratch space for tests; removed and recreated by the global setup. */
export const TMP_ROOT = path.join(ROOT, ".tmp");
