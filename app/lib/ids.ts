/** Ids read from addresses and forms (docs/architecture.md "Conventions"). Client-safe. */

/** A positive whole number that fits a JavaScript number exactly, from "12" or 12; else null. */
export function idOf(value: unknown): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) && value > 0 ? value : null;
  if (typeof value !== "string" || !/^\d{1,16}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
