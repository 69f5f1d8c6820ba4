/// <reference types="vite/client" />
/**
 * Every staff write decides itself who may call it (docs/architecture.md, "One write path"):
 * called straight, with no route in front, it refuses an actor without the permission
 * (ForbiddenError, 403) before it reads or changes anything, and lets the one holding it
 * through. A page and its /api twin cannot drift, since both call these.
 *
 * The writes are not listed here: every service module (app/services, and the server
 * modules of the marketplace feature folder, app/marketplace) is imported and every staff
 * write it exports (staffWrite registers them) is tried with the requirement it declares;
 * and their sources are read for an exported function that takes an actor without being a
 * staff write, so a new write without a requirement fails this file.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ForbiddenError } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { PERMISSIONS, type Access, type Permission } from "~/lib/permissions";
import { listCategories } from "~/models/category.server";
import type { User } from "~/models/user.server";
import { createCategory } from "./catalogue/categories.server";
import { assertMay, type Actor, type Requirement } from "./permissions.server";
import { staffWrites, type StaffWrite } from "./writes.server";

// every service module, so that every staff write is defined (the campaign worker is a
// thread's entry, not a module of writes); the marketplace folder's too (its import writes)
const modules = import.meta.glob<Record<string, unknown>>(
  ["./**/*.server.ts", "../marketplace/*.server.ts", "!./**/*.test.ts", "!../marketplace/*.test.ts", "!./campaign-worker.server.ts"],
  { eager: true },
);

/** The folders whose modules are read: the services (and their subfolders), the marketplace feature folder. */
const FOLDERS = ["./", "../marketplace/"] as const;

/** A module's name as this file lists it: "qc", "blog/posts" (app/services/…), "marketplace/import" (app/marketplace/…). */
const moduleName = (file: string) => file.replace(/^\.\.?\//, "").replace(/\.server\.ts$/, "");

function actor(userType: Access["userType"], permissions: readonly Permission[] = []): Actor {
  return {
    user: { id: 1, username: "someone", isAdmin: userType !== "user" } as User,
    access: {
      userType,
      roles: [],
      directPermissions: [],
      allPermissions: userType === "super_admin" ? [...PERMISSIONS] : [...permissions],
      hasAdminAccess: userType !== "user",
    },
  };
}

const shopper = actor("user", PERMISSIONS);
const plainAdmin = actor("admin");

type Write = StaffWrite<never[], unknown>;

/** The staff writes the services export, by name. */
const registered = new Set<unknown>(staffWrites());
const exported: Array<[string, Write]> = Object.entries(modules).flatMap(([file, exports]) =>
  Object.entries(exports)
    .filter(([, value]) => registered.has(value))
    .map(([name, value]): [string, Write] => [`${moduleName(file)}.${name}`, value as Write]),
);

/** Called as a route would call it, the actor last; the other arguments do not matter to the refusal, which comes first. */
const callAs = (write: Write, who: Actor) =>
  (write as unknown as (...args: unknown[]) => Promise<unknown>)(...Array(write.arity - 1).fill(undefined), who);

/** Who lacks what a requirement asks for: a shopper always; an admin without it, where one can lack it. */
function refusedFor(requirement: Requirement): Actor[] {
  if ("adminAccess" in requirement) return [shopper];
  // a super admin's write is refused to an admin holding every permission
  if ("superAdmin" in requirement) return [shopper, actor("admin", PERMISSIONS)];
  return [shopper, plainAdmin];
}

/** Who holds exactly what is needed, and nothing else (each of the permissions of an anyOf). */
function allowedFor(requirement: Requirement): Actor[] {
  if ("adminAccess" in requirement) return [plainAdmin];
  if ("superAdmin" in requirement) return [actor("super_admin")];
  if ("permission" in requirement) return [actor("admin", [requirement.permission])];
  return requirement.anyOf.map((permission) => actor("admin", [permission]));
}

const refusal = (call: Promise<unknown>) =>
  call.then(
    () => null,
    (error: unknown) => error,
  );

describe("write services check the actor themselves", () => {
  it("finds the staff writes of every service", () => {
    const services = new Set(exported.map(([name]) => name.split(/[./]/)[0]));
    for (const service of ["catalogue", "blog", "qc", "users", "email", "agents", "currency", "search", "site-tools", "bulk-import"])
      expect(services, service).toContain(service);
    expect(exported.length).toBeGreaterThan(50);
  });

  it.each(exported)("%s refuses an actor without what it requires (403, before anything is read)", async (_name, write) => {
    for (const who of refusedFor(write.rule.requires)) {
      const refused = await refusal(callAs(write, who));
      // the spec's own words where it has them (a form error), else the page's 403
      if (write.rule.refusal) expect(refused).toMatchObject({ status: 403, code: "FORBIDDEN", message: write.rule.refusal });
      else {
        expect(refused).toBeInstanceOf(ForbiddenError);
        expect(refused).toMatchObject({ status: 403, code: "FORBIDDEN", message: "权限不足，需要管理员权限" });
      }
    }
  });

  // the two that reach out over HTTP (the rate source, the site's own robots.txt) are let
  // through in the integration tests, against the local fakes
  const REACHES_OUT = new Set(["currency.forceRefreshRates", "site-tools.testRobotsTxt"]);
  it.each(exported.filter(([name]) => !REACHES_OUT.has(name)))(
    "%s lets an actor holding what it requires through",
    async (_name, write) => {
      for (const who of allowedFor(write.rule.requires)) {
        // past the check, the service's own answer (a 404, a validation error, a failure on
        // the missing arguments, or success): anything but the refusal
        const outcome = await refusal(callAs(write, who));
        expect(outcome).not.toBeInstanceOf(ForbiddenError);
        if (write.rule.refusal) expect(outcome).not.toMatchObject({ message: write.rule.refusal });
      }
    },
  );

  it("says who may make each write and what it makes stale, in one place (a change here is a change of who may)", () => {
    const who = (requirement: Requirement) =>
      "permission" in requirement
        ? requirement.permission
        : "anyOf" in requirement
          ? requirement.anyOf.join(" or ")
          : "superAdmin" in requirement
            ? "super admin"
            : "back office";
    const rules = Object.fromEntries(
      exported.map(([name, write]) => [name, `${who(write.rule.requires)}; stale: ${write.rule.stales.join(", ") || "nothing"}`]),
    );
    expect(rules).toMatchInlineSnapshot(`
      {
        "agents.createAgent": "super admin; stale: shop",
        "agents.deleteAgentByAdmin": "super admin; stale: shop",
        "agents.moveAgent": "super admin; stale: shop",
        "agents.setAgentEnabled": "super admin; stale: shop",
        "agents.updateAgentByAdmin": "super admin; stale: shop",
        "blog/categories.createBlogCategory": "blog.manage_categories; stale: blog",
        "blog/categories.deleteBlogCategoryByAdmin": "blog.manage_categories; stale: blog",
        "blog/categories.updateBlogCategoryByAdmin": "blog.manage_categories; stale: blog",
        "blog/comments.moderateComment": "blog.edit; stale: blog",
        "blog/posts.createPost": "blog.create; stale: blog",
        "blog/posts.deletePostByAdmin": "blog.delete; stale: blog",
        "blog/posts.setPostStatus": "blog.publish; stale: blog",
        "blog/posts.togglePublished": "blog.edit or blog.publish; stale: blog",
        "blog/posts.updatePostByAdmin": "blog.edit; stale: blog",
        "blog/settings.saveBlogSettings": "blog.edit; stale: blog",
        "bulk-import.retryFailedRows": "product.create; stale: nothing",
        "bulk-import.startImport": "product.create; stale: nothing",
        "catalogue/categories.batchSortCategories": "product.edit; stale: shop",
        "catalogue/categories.createCategory": "product.create; stale: shop",
        "catalogue/categories.deleteCategoryByAdmin": "product.delete; stale: shop",
        "catalogue/categories.moveCategory": "product.edit; stale: shop",
        "catalogue/categories.updateCategoryByAdmin": "product.edit; stale: shop",
        "catalogue/products.createProduct": "product.create; stale: shop",
        "catalogue/products.deleteProductByAdmin": "product.delete; stale: shop",
        "catalogue/products.deleteProductsByAdmin": "product.delete; stale: shop",
        "catalogue/products.updateProductByAdmin": "product.edit; stale: shop",
        "catalogue/same-item.decideSameItemByAdmin": "product.edit; stale: shop",
        "currency.forceRefreshRates": "super admin; stale: shop",
        "currency.setManualRatesFromInput": "super admin; stale: shop",
        "currency.switchToAutomaticRates": "super admin; stale: shop",
        "email.createEmailCampaign": "back office; stale: nothing",
        "email.createEmailTemplate": "back office; stale: nothing",
        "email.deleteEmailCampaign": "back office; stale: nothing",
        "email.deleteEmailTemplate": "back office; stale: nothing",
        "email.executeEmailCampaign": "back office; stale: nothing",
        "email.pauseEmailCampaign": "back office; stale: nothing",
        "email.sendTemplateTest": "back office; stale: nothing",
        "email.unscheduleEmailCampaign": "back office; stale: nothing",
        "email.updateEmailCampaign": "back office; stale: nothing",
        "email.updateEmailTemplate": "back office; stale: nothing",
        "qc.deleteQcImage": "qc.delete or qc.manage; stale: shop",
        "qc.deleteQcImages": "qc.delete or qc.manage; stale: shop",
        "qc.reviewQcImage": "qc.review or qc.approve or qc.reject or qc.manage; stale: shop",
        "qc.reviewQcImages": "qc.review or qc.approve or qc.reject or qc.manage; stale: shop",
        "search.createSearchAlias": "product.edit; stale: shop",
        "search.deleteSearchAlias": "product.edit; stale: shop",
        "search.updateSearchAlias": "product.edit; stale: shop",
        "site-tools.generateSitemapReport": "super admin; stale: nothing",
        "site-tools.saveSettingsByAdmin": "super admin; stale: shop",
        "site-tools.testRobotsTxt": "super admin; stale: nothing",
        "users.assignRoleToUser": "super admin; stale: nothing",
        "users.batchCreateUsers": "user.create; stale: nothing",
        "users.createUserByAdmin": "user.create; stale: nothing",
        "users.deleteUserByAdmin": "user.delete; stale: nothing",
        "users.grantPermissionToUser": "super admin; stale: nothing",
        "users.resetPasswordByAdmin": "user.edit; stale: nothing",
        "users.revokePermissionFromUser": "super admin; stale: nothing",
        "users.revokeRoleFromUser": "super admin; stale: nothing",
        "users.updateUserByAdmin": "user.edit; stale: nothing",
      }
    `);
  });

  it("refuses a call without an actor in last place: a staff write never runs unchecked", async () => {
    const [, write] = exported.find(([name]) => name === "catalogue/categories.createCategory")!;
    const misplaced = (write as unknown as (...args: unknown[]) => Promise<unknown>)(plainAdmin, { name: "Misplaced" });
    await expect(misplaced).rejects.toThrow(/without an actor in last place/);
  });

  it("changes nothing when it refuses", async () => {
    const before = (await listCategories(getDb())).length;
    await expect(createCategory({ name: "Never made", sort_order: 0 }, plainAdmin)).rejects.toBeInstanceOf(ForbiddenError);
    expect((await listCategories(getDb())).length).toBe(before);
    await createCategory({ name: "Made by an editor", sort_order: 0 }, actor("admin", ["product.create"]));
    expect((await listCategories(getDb())).length).toBe(before + 1);
  });

  it("asks for back-office access as well as the permission", () => {
    expect(() => assertMay(shopper, { permission: "product.create" })).toThrow(ForbiddenError);
    expect(() => assertMay(actor("admin", ["product.create"]), { permission: "product.create" })).not.toThrow();
    expect(() => assertMay(actor("admin", ["product.create"]), { superAdmin: true })).toThrow(ForbiddenError);
  });
});

/**
 * Exported service functions (app/services, app/marketplace) that take an actor and are
 * not staff writes, each with why.
 * Any other such function fails the test below: a write is declared with staffWrite.
 */
const NOT_STAFF_WRITES: Record<string, string> = {
  "blog/common.has": "a check, not a write: whether the actor holds a permission",
  "blog/comments.listComments": "a read: the viewer's own comments awaiting approval are shown to them",
  "email.previewDefaults": "a read: the admin's own name in a preview (the page requires the e-mail section)",
  "email.campaignPreview": "a read: a campaign as a recipient sees it, with the admin's name",
  "email.previewHtmlTemplate": "a read: a template as a recipient sees it, with the admin's name",
  "catalogue/products.syncExternalProduct":
    "a shopper's import as well as an editor's: its rules inside (an editor's sync updates, anyone else's only creates)",
  "marketplace/import.syncExternal": "open to every signed-in user: a shopper names an item, staff give its data",
  "marketplace/import.importItem": "open to every signed-in user: the item as the marketplace gives it, counted against their limit",
  "qc.receiveQcUpload": "open to every signed-in user: a shopper's photos wait for review, staff's are published (qc.upload)",
};

/** Whether a parameter's declared type is an actor (the Actor type, or its shape written out). */
const ACTOR_TYPE = /\bActor\b|\{ user: User; access: Access \}|\{ access: Access \}/;

describe("no write outside the write path", () => {
  it("every exported service function that takes an actor is a staff write, or said here why not", () => {
    const outside: string[] = [];
    const here = path.dirname(new URL(import.meta.url).pathname);
    const files = FOLDERS.flatMap((folder) =>
      (fs.readdirSync(path.join(here, folder), { recursive: folder === "./" }) as string[])
        .filter((file) => file.endsWith(".server.ts") && !["permissions.server.ts", "writes.server.ts"].includes(file))
        .map((file) => `${folder}${file}`),
    );
    expect(
      files.filter((file) => file.startsWith("../marketplace/")),
      "the marketplace folder's modules are read too",
    ).not.toEqual([]);
    for (const file of files) {
      const source = ts.createSourceFile(file, fs.readFileSync(path.join(here, file), "utf8"), ts.ScriptTarget.Latest, true);
      for (const statement of source.statements) {
        if (
          !ts.canHaveModifiers(statement) ||
          !ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
        )
          continue;
        const functions: Array<[string, ts.NodeArray<ts.ParameterDeclaration>]> = [];
        if (ts.isFunctionDeclaration(statement) && statement.name) functions.push([statement.name.text, statement.parameters]);
        if (ts.isVariableStatement(statement))
          for (const declaration of statement.declarationList.declarations)
            if (
              declaration.initializer &&
              (ts.isArrowFunction(declaration.initializer) || ts.isFunctionExpression(declaration.initializer))
            )
              functions.push([declaration.name.getText(source), declaration.initializer.parameters]);
        for (const [name, parameters] of functions) {
          const qualified = `${moduleName(file)}.${name}`;
          if (parameters.some((parameter) => ACTOR_TYPE.test(parameter.type?.getText(source) ?? "")) && !(qualified in NOT_STAFF_WRITES))
            outside.push(qualified);
        }
      }
    }
    expect(outside, "declare these with staffWrite (app/services/writes.server.ts), or say here why they are not writes").toEqual([]);
  });

  it("every function said not to be a staff write still exists", () => {
    const names = new Set(
      Object.entries(modules).flatMap(([file, exports]) => Object.keys(exports).map((name) => `${moduleName(file)}.${name}`)),
    );
    for (const name of Object.keys(NOT_STAFF_WRITES)) expect(names, name).toContain(name);
  });
});
