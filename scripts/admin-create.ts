/**
 * `npm run admin:create -- --email E --password P [--username U]`: creates a super admin,
 * or makes the existing user with that e-mail one (and sets the password).
 */
import { parseArgs } from "node:util";
import { closeDb, getDb } from "../app/lib/db.server";
import { adminCreateUserSchema } from "../app/schemas/admin-users";
import { ensureSuperAdmin } from "../app/services/auth.server";
import { migrateToLatest } from "../db/migrate";
import { envOrExit, fail } from "../server/lib";

const { values } = parseArgs({
  options: { email: { type: "string" }, password: { type: "string" }, username: { type: "string" } },
  allowPositionals: false,
});
if (!values.email || !values.password) fail("usage: npm run admin:create -- --email E --password P [--username U]");

const check = adminCreateUserSchema.pick({ email: true, password: true }).safeParse({ email: values.email, password: values.password });
if (!check.success) fail(`${String(check.error.issues[0].path[0])}: ${check.error.issues[0].message}`);

envOrExit();
try {
  await migrateToLatest(getDb());
  const result = await ensureSuperAdmin(
    { email: check.data.email, password: check.data.password, username: values.username },
    { force: true },
  );
  console.log(
    result?.created
      ? `super admin created: ${result.email} (username ${result.username})`
      : `${result?.email} is now a super admin (password updated)`,
  );
} catch (error) {
  fail(`admin:create failed: ${(error as Error).message}`);
} finally {
  await closeDb();
}
