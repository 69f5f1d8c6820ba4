/**
 * The one write path (app/services/writes.server.ts): what a write makes stale moves after
 * it, not before; a refusal keeps the stored answers, a failure part-way drops them; the
 * actor is checked before the write runs at all.
 */
import { describe, expect, it } from "vitest";
import { ApiError, ForbiddenError } from "~/lib/api.server";
import { blogVersion, contentVersion } from "~/lib/content-version.server";
import { PERMISSIONS, type Access } from "~/lib/permissions";
import type { User } from "~/models/user.server";
import type { Actor } from "./permissions.server";
import { contentWrite, staffWrite, staffWrites } from "./writes.server";

const actor = (allPermissions: string[], hasAdminAccess = true): Actor => ({
  user: { id: 7, username: "staff" } as User,
  access: { userType: hasAdminAccess ? "admin" : "user", roles: [], directPermissions: [], allPermissions, hasAdminAccess } as Access,
});

describe("contentWrite", () => {
  it("makes stale what it declares, after the write (a page rendered during it is not kept as current)", async () => {
    const shopBefore = contentVersion();
    const blogBefore = blogVersion();
    let seenDuring = -1;
    const write = contentWrite({ stales: ["shop"] }, async () => {
      seenDuring = contentVersion();
      return "done";
    });
    expect(await write()).toBe("done");
    expect(seenDuring).toBe(shopBefore);
    expect(contentVersion()).toBe(shopBefore + 1);
    expect(blogVersion()).toBe(blogBefore);
  });

  it("keeps the stored answers after a refusal, drops them after a failure that may have written part", async () => {
    const before = blogVersion();
    const refused = contentWrite({ stales: ["blog"] }, async () => {
      throw new ApiError(404, "Not found", "NOT_FOUND");
    });
    await expect(refused()).rejects.toThrow("Not found");
    expect(blogVersion()).toBe(before);
    const broken = contentWrite({ stales: ["blog"] }, async () => {
      throw new Error("disk full");
    });
    await expect(broken()).rejects.toThrow("disk full");
    expect(blogVersion()).toBe(before + 1);
  });

  it("keeps them when the write says it changed nothing", async () => {
    const before = contentVersion();
    const move = contentWrite({ stales: ["shop"], changedWhen: (moved: boolean) => moved }, async (moved: boolean) => moved);
    await move(false);
    expect(contentVersion()).toBe(before);
    await move(true);
    expect(contentVersion()).toBe(before + 1);
  });
});

describe("staffWrite", () => {
  it("checks the actor before the write runs, and lists itself", async () => {
    let ran = 0;
    const write = staffWrite({ requires: { permission: "product.edit" }, stales: [] }, async (id: number, _actor: Actor) => {
      ran += 1;
      return id;
    });
    expect(staffWrites()).toContain(write);
    expect(write.arity).toBe(2);
    await expect(write(1, actor(["product.create"]))).rejects.toBeInstanceOf(ForbiddenError);
    await expect(write(1, actor([...PERMISSIONS], false))).rejects.toBeInstanceOf(ForbiddenError);
    expect(ran).toBe(0);
    expect(await write(5, actor(["product.edit"]))).toBe(5);
    expect(ran).toBe(1);
  });

  it("answers a refusal in the spec's own words where the rule gives them", async () => {
    const write = staffWrite({ requires: { superAdmin: true }, refusal: "Only a super admin may", stales: [] }, async (_actor: Actor) => 1);
    await expect(write(actor([...PERMISSIONS]))).rejects.toMatchObject({
      status: 403,
      code: "FORBIDDEN",
      message: "Only a super admin may",
    });
  });
});
