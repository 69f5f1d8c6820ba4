/**
 * What a refused write says, on either engine: SQLite's error codes and messages
 * ("UNIQUE constraint failed: blog_posts.slug") and PostgreSQL's SQLSTATE codes with the
 * table and the key (23505 unique_violation, 23503 foreign_key_violation).
 */
type DatabaseError = { code?: unknown; message?: unknown; table?: unknown; detail?: unknown };

const fields = (error: unknown): DatabaseError => (error && typeof error === "object" ? (error as DatabaseError) : {});

/** A write refused because a UNIQUE key holds the value already; of `table`.`column` when given. */
export function isUniqueViolation(error: unknown, key?: { table: string; column: string }): boolean {
  const refused = uniqueKeyOf(error);
  return refused !== null && (!key || (refused.table === key.table && refused.column === key.column));
}

/**
 * The UNIQUE key that refused a write: its table and first column, as the engine names
 * them (PostgreSQL: the error's table and its detail "Key (email)=(…)" or, for a key over
 * an expression, "Key (lower(term))=(…)"; SQLite: "UNIQUE constraint failed: users.email",
 * or only the index's name for a key over an expression: then both are null). Null when
 * the error is not a UNIQUE key's.
 */
export function uniqueKeyOf(error: unknown): { table: string | null; column: string | null } | null {
  const { code, message, table, detail } = fields(error);
  if (code === "23505") {
    const column = /^Key \((?:\w+\()?(\w+)/.exec(String(detail ?? ""))?.[1] ?? null;
    return { table: typeof table === "string" ? table : null, column };
  }
  if (!String(code ?? "").startsWith("SQLITE_CONSTRAINT")) return null;
  const text = String(message ?? "");
  if (!/UNIQUE constraint failed/i.test(text)) return null;
  const named = /UNIQUE constraint failed: (\w+)\.(\w+)/i.exec(text);
  return named ? { table: named[1], column: named[2] } : { table: null, column: null };
}

/**
 * Runs a write whose rule ("the name is free") was checked by reading first: when another
 * request took the value in between (a double submit; on PostgreSQL, another instance or
 * connection), the table's UNIQUE key refuses the write, and the caller's conflict error
 * (a 409 naming the field) is thrown instead of the engine's. `conflict` gets the key's
 * column when the engine names it.
 */
export async function refusedAsDuplicate<T>(
  table: string,
  write: () => Promise<T>,
  conflict: (column: string | null) => Error,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const key = uniqueKeyOf(error);
    if (key && (key.table === null || key.table === table)) throw conflict(key.column);
    throw error;
  }
}

/** A delete or write refused because another row still points at the row (a foreign key). */
export function isForeignKeyViolation(error: unknown): boolean {
  const { code } = fields(error);
  return code === "23503" || code === "SQLITE_CONSTRAINT_FOREIGNKEY";
}
