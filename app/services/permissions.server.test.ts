/**
 * Every write service decides itself who may call it (docs/architecture.md, "Services
 * check"): called straight, with no route in front, it refuses an actor without the
 * permission (ForbiddenError, 403) before it reads or changes anything, and lets the
 * one holding it through. A page and its /api twin cannot drift, since both call these.
 */
import { describe, expect, it } from "vitest";
import { ForbiddenError } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { PERMISSIONS, type Access, type Permission } from "~/lib/permissions";
import { listCategories } from "~/models/category.server";
import type { User } from "~/models/user.server";
import { createAgent, deleteAgentByAdmin, moveAgent, setAgentEnabled, updateAgentByAdmin } from "./agents.server";
import {
  createBlogCategory,
  deleteBlogCategoryByAdmin,
  deletePostByAdmin,
  moderateComment,
  saveBlogSettings,
  setPostStatus,
  togglePublished,
  updateBlogCategoryByAdmin,
  updatePostByAdmin,
} from "./blog.server";
import {
  batchSortCategories,
  createCategory,
  createProduct,
  deleteCategoryByAdmin,
  deleteProductByAdmin,
  deleteProductsByAdmin,
  moveCategory,
  updateCategoryByAdmin,
  updateProductByAdmin,
} from "./catalogue.server";
import { forceRefreshRates, setManualRatesFromInput, switchToAutomaticRates } from "./currency.server";
import {
  createEmailCampaign,
  createEmailTemplate,
  deleteEmailCampaign,
  deleteEmailTemplate,
  executeEmailCampaign,
  pauseEmailCampaign,
  unscheduleEmailCampaign,
  updateEmailCampaign,
  updateEmailTemplate,
} from "./email.server";
import { assertMay, type Actor } from "./permissions.server";
import { generateSitemapReport, saveSettingsByAdmin, testRobotsTxt } from "./site-tools.server";
import { batchCreateUsers, createUserByAdmin, deleteUserByAdmin, resetPasswordByAdmin, updateUserByAdmin } from "./users.server";

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
const MISSING = 999_999;

/** Each guarded write, called as the route would call it (ids that do not exist: the refusal comes first). */
const writes: Array<[string, Permission | "super_admin" | "admin", (who: Actor) => Promise<unknown>]> = [
  ["createCategory", "product.create", (who) => createCategory({ name: "Refused", sort_order: 0 }, who)],
  ["updateCategoryByAdmin", "product.edit", (who) => updateCategoryByAdmin(MISSING, { name: "Refused" }, who)],
  ["deleteCategoryByAdmin", "product.delete", (who) => deleteCategoryByAdmin(MISSING, who)],
  ["batchSortCategories", "product.edit", (who) => batchSortCategories([{ id: MISSING, sort_order: 1 }], who)],
  ["moveCategory", "product.edit", (who) => moveCategory(MISSING, "up", "", who)],
  [
    "createProduct",
    "product.create",
    (who) => createProduct({ name: "Refused", main_images: [], skus: [] } as unknown as Parameters<typeof createProduct>[0], who),
  ],
  ["updateProductByAdmin", "product.edit", (who) => updateProductByAdmin(MISSING, { name: "Refused" }, who)],
  ["deleteProductByAdmin", "product.delete", (who) => deleteProductByAdmin(MISSING, who)],
  ["deleteProductsByAdmin", "product.delete", (who) => deleteProductsByAdmin([MISSING], who)],
  ["createAgent", "super_admin", (who) => createAgent({ name: "Refused" } as Parameters<typeof createAgent>[0], who)],
  [
    "updateAgentByAdmin",
    "super_admin",
    (who) => updateAgentByAdmin(MISSING, { name: "Refused" } as Parameters<typeof createAgent>[0], who),
  ],
  ["setAgentEnabled", "super_admin", (who) => setAgentEnabled(MISSING, false, who)],
  ["deleteAgentByAdmin", "super_admin", (who) => deleteAgentByAdmin(MISSING, who)],
  ["moveAgent", "super_admin", (who) => moveAgent(MISSING, "up", who)],
  ["forceRefreshRates", "super_admin", (who) => forceRefreshRates(who)],
  ["setManualRatesFromInput", "super_admin", (who) => setManualRatesFromInput({ USD: "7" }, who)],
  ["switchToAutomaticRates", "super_admin", (who) => switchToAutomaticRates(who)],
  ["saveSettingsByAdmin", "super_admin", (who) => saveSettingsByAdmin({ site_name: "Refused" }, who)],
  ["generateSitemapReport", "super_admin", (who) => generateSitemapReport(who)],
  ["testRobotsTxt", "super_admin", (who) => testRobotsTxt(who)],
  [
    "createUserByAdmin",
    "user.create",
    (who) => createUserByAdmin({ username: "refused", email: "refused@example.com", password: "secret1", roleIds: [] }, who),
  ],
  [
    "batchCreateUsers",
    "user.create",
    (who) => batchCreateUsers([{ username: "refused", email: "refused@example.com", password: "secret1", roleIds: [] }], who),
  ],
  ["updateUserByAdmin", "user.edit", (who) => updateUserByAdmin(MISSING, { username: "refused" }, who)],
  ["resetPasswordByAdmin", "user.edit", (who) => resetPasswordByAdmin(MISSING, "secret12", who)],
  ["deleteUserByAdmin", "user.delete", (who) => deleteUserByAdmin(MISSING, who)],
  [
    "saveBlogSettings",
    "blog.edit",
    (who) => saveBlogSettings({ comments_enabled: false, comment_moderation: false, posts_per_page: 5 }, who),
  ],
  ["updatePostByAdmin", "blog.edit", (who) => updatePostByAdmin(MISSING, { title: "Refused" }, who)],
  ["setPostStatus", "blog.publish", (who) => setPostStatus(MISSING, "published", undefined, who)],
  ["togglePublished", "blog.edit", (who) => togglePublished(MISSING, who)],
  ["deletePostByAdmin", "blog.delete", (who) => deletePostByAdmin(MISSING, who)],
  ["createBlogCategory", "blog.manage_categories", (who) => createBlogCategory({ name: "Refused", display_order: 0 }, who)],
  ["updateBlogCategoryByAdmin", "blog.manage_categories", (who) => updateBlogCategoryByAdmin(MISSING, { name: "Refused" }, who)],
  ["deleteBlogCategoryByAdmin", "blog.manage_categories", (who) => deleteBlogCategoryByAdmin(MISSING, who)],
  ["moderateComment", "blog.edit", (who) => moderateComment(MISSING, "approved", who)],
  [
    "createEmailTemplate",
    "admin",
    (who) =>
      createEmailTemplate({ name: "Refused", subject: "s", html_content: "<p>x</p>" } as Parameters<typeof createEmailTemplate>[0], who),
  ],
  [
    "updateEmailTemplate",
    "admin",
    (who) => updateEmailTemplate(MISSING, { name: "Refused" } as Parameters<typeof updateEmailTemplate>[1], who),
  ],
  ["deleteEmailTemplate", "admin", (who) => deleteEmailTemplate(MISSING, who)],
  ["createEmailCampaign", "admin", (who) => createEmailCampaign({ name: "Refused" } as Parameters<typeof createEmailCampaign>[0], who)],
  [
    "updateEmailCampaign",
    "admin",
    (who) => updateEmailCampaign(MISSING, { name: "Refused" } as Parameters<typeof updateEmailCampaign>[1], who),
  ],
  ["deleteEmailCampaign", "admin", (who) => deleteEmailCampaign(MISSING, who)],
  ["executeEmailCampaign", "admin", (who) => executeEmailCampaign(MISSING, who)],
  ["pauseEmailCampaign", "admin", (who) => pauseEmailCampaign(MISSING, who)],
  ["unscheduleEmailCampaign", "admin", (who) => unscheduleEmailCampaign(MISSING, who)],
];

/** Who lacks the permission: a shopper always; an admin without it, where one can lack it. */
const refusedFor = (needs: Permission | "super_admin" | "admin"): Actor[] => (needs === "admin" ? [shopper] : [shopper, plainAdmin]);

/** Who holds exactly what is needed, and nothing else. */
const allowedFor = (needs: Permission | "super_admin" | "admin"): Actor =>
  needs === "super_admin" ? actor("super_admin") : needs === "admin" ? plainAdmin : actor("admin", [needs]);

describe("write services check the actor themselves", () => {
  it.each(writes)("%s refuses an actor without %s (403, before anything is read)", async (_name, needs, call) => {
    for (const who of refusedFor(needs)) {
      const refusal = await call(who).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(ForbiddenError);
      expect(refusal).toMatchObject({ status: 403, code: "FORBIDDEN", message: "权限不足，需要管理员权限" });
    }
  });

  // the two that reach out over HTTP (the rate source, the site's own robots.txt) are let
  // through in the integration tests, against the local fakes
  const REACHES_OUT = new Set(["forceRefreshRates", "testRobotsTxt"]);
  it.each(writes.filter(([name]) => !REACHES_OUT.has(name)))(
    "%s lets an actor with %s through to its own rules",
    async (_name, needs, call) => {
      // past the check, the service's own answer (a 404 for the missing id, a validation error,
      // or success): anything but the refusal
      const outcome = await call(allowedFor(needs)).then(
        () => null,
        (error: unknown) => error,
      );
      expect(outcome).not.toBeInstanceOf(ForbiddenError);
    },
  );

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
