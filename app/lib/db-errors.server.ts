/**
 * What a refused write says, on either engine: SQLite's error codes and messages
 * ("UNIQUE constraint failed: blog_posts.slug") and PostgreSQL's SQLSTATE codes with the
 * table and the key (23505 unique_violation, 23503 foreign_key_violation).
 */
type DatabaseError = { code?: unknown; message?: unknown; table?: unknown; detail?: unknown };

const fields = (error: unknown): DatabaseError => (error && typeof error === "object" ? (error as DatabaseError) : {});

/** A write refused because a UNIQUE key holds the value already; of `table`.`column` when given. */
export function isUniqueViolation(error: unknown, key?: { table: string; column: string }): boolean {
  const { code, message, table, detail } = fields(error);
  if (code === "23505") return !key || (table === key.table && String(detail ?? "").startsWith(`Key (${key.column})=`));
  if (!String(code ?? "").startsWith("SQLITE_CONSTRAINT")) return false;
  const text = String(message ?? "");
  return /UNIQUE constraint failed/i.test(text) && (!key || text.includes(`${key.table}.${key.column}`));
}

/** A delete or write refused because another row still points at the row (a foreign key). */
export function isForeignKeyViolation(error: unknown): boolean {
  const { code } = fields(error);
  return code === "23503" || code === "SQLITE_CONSTRAINT_FOREIGNKEY";
}
