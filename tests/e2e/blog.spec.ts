/**
 * The blog in a browser, with JavaScript on and off: writing and publishing a post (the
 * rich-text editor with JavaScript, the plain textarea without), categories in their
 * dialogs, the publish toggle, deleting with a confirmation, settings; reading a post
 * (also reached by a client-side navigation), liking, commenting, replying, deleting
 * one's comment; moderation; and a 360 px phone.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { adminToken, createUserViaApi, uniqueName } from "./admin-helpers";
import { E2E_ADMIN, loginViaForm, logoutViaMenu } from "./auth-helpers";
import { expect, test } from "./fixtures";

const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });

/** A word no other post or category has (letters only). */
function word(): string {
  return Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");
}

async function asAdmin(request: APIRequestContext, method: "POST" | "PUT", path: string, data: unknown) {
  const response = await request.fetch(path, { method, headers: { Authorization: `Bearer ${await adminToken(request)}` }, data });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return (await response.json()).data;
}

test.describe("blog", () => {
  test("an admin files a category, writes and publishes a post, unpublishes and republishes it, deletes both, and saves the settings", async ({
    page,
    request,
  }, testInfo) => {
    const tag = word();
    const js = testInfo.project.name === "js";
    const categoryName = `Guides ${tag} ${testInfo.project.name}`;
    const title = `E2E post ${tag} ${testInfo.project.name}`;
    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/blog");

    // a category, made and edited in dialogs chosen by the address
    await page.getByRole("link", { name: "Add category" }).click();
    const create = page.getByRole("dialog", { name: "Add blog category" });
    await create.getByRole("button", { name: "Create category" }).click();
    await expect(create.getByText("Category name is required")).toBeVisible();
    await create.getByLabel("Name").fill(categoryName);
    await create.getByRole("button", { name: "Create category" }).click();
    await expect(toast(page, `Category created: ${categoryName}`)).toBeVisible();
    await page.getByRole("link", { name: `Edit ${categoryName}` }).click();
    const edit = page.getByRole("dialog", { name: `Edit ${categoryName}` });
    await expect(edit.getByLabel("Slug")).toHaveValue(`guides-${tag}-${testInfo.project.name}`);
    await edit.getByLabel("Display order").fill("7");
    await edit.getByRole("button", { name: "Save category" }).click();
    await expect(toast(page, `Category saved: ${categoryName}`)).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: categoryName })).toContainText("7");

    // the post: the editor with JavaScript, the textarea without
    await page.goto("/admin/blog/posts");
    await page.getByRole("link", { name: "New post" }).click();
    await expect(page.getByRole("heading", { name: "New post" })).toBeVisible();
    await page.getByRole("button", { name: "Publish now" }).click();
    // once beside each field it concerns (it was shown three times)
    await expect(page.getByText("The title and the content are required.")).toHaveCount(2);
    await page.getByLabel("Title", { exact: true }).fill(title);
    if (js) {
      await expect(page.getByRole("toolbar", { name: "Formatting" })).toBeVisible();
      const editor = page.getByRole("textbox", { name: "Content" });
      await editor.click();
      await page.getByLabel("Text style").selectOption("2");
      await page.keyboard.type("Why QC photos matter");
      await page.keyboard.press("Enter");
      await page.keyboard.type("Check the stitching and the ");
      await page.getByRole("button", { name: "Bold" }).click();
      await page.keyboard.type("measurements");
      await expect(editor.locator("h2")).toHaveText("Why QC photos matter");
      await expect(editor.locator("strong")).toHaveText("measurements");
    } else {
      await page
        .getByLabel("Content")
        .fill("<h2>Why QC photos matter</h2><p>Check the stitching and the <strong>measurements</strong></p>");
    }
    await page.getByLabel("Category", { exact: true }).selectOption({ label: categoryName });
    await page.getByLabel("Tags", { exact: true }).fill(`e2e, ${tag}`);
    await page.getByRole("button", { name: "Publish now" }).click();
    await expect(toast(page, `Published: ${title}`)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Edit post" })).toBeVisible();
    await expect(page.getByLabel("Slug")).toHaveValue(slug);

    await page.goto(`/blog/${slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    const body = page.locator("#post-body");
    await expect(body.getByRole("heading", { level: 2 })).toHaveText("Why QC photos matter");
    await expect(body.locator("strong")).toHaveText("measurements");
    await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: categoryName })).toBeVisible();
    await expect(page.getByRole("list", { name: "Tags" })).toContainText(`#${tag}`);

    // the list's one-click toggle: published → draft → published
    await page.goto(`/admin/blog/posts?search=${tag}`);
    await page.getByRole("button", { name: `Unpublish ${title}` }).click();
    await expect(toast(page, `Back to draft: ${title}`)).toBeVisible();
    expect((await request.get(`/blog/${slug}`)).status()).toBe(404);
    await page.getByRole("button", { name: `Publish ${title}` }).click();
    await expect(toast(page, `Published: ${title}`)).toBeVisible();
    expect((await request.get(`/blog/${slug}`)).status()).toBe(200);

    // deleting takes a confirmation
    await page.getByRole("link", { name: `Delete ${title}` }).click();
    await page.getByRole("dialog", { name: "Delete post" }).getByRole("button", { name: "Delete post" }).click();
    await expect(toast(page, `Post deleted: ${title}`)).toBeVisible();
    expect((await request.get(`/blog/${slug}`)).status()).toBe(404);
    await page.goto("/admin/blog");
    await page.getByRole("link", { name: `Delete ${categoryName}` }).click();
    await page.getByRole("dialog", { name: "Delete blog category" }).getByRole("button", { name: "Delete category" }).click();
    await expect(toast(page, `Category deleted: ${categoryName}`)).toBeVisible();

    await page.goto("/admin/blog/settings");
    await page.getByLabel("Posts per page").fill("9");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(toast(page, "Blog settings saved")).toBeVisible();
    await expect(page.getByLabel("Posts per page")).toHaveValue("9");
    await page.getByLabel("Posts per page").fill("10");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(toast(page, "Blog settings saved")).toBeVisible();
  });

  test("readers like a post, comment, reply, like a comment and delete their own comment", async ({ page, request }, testInfo) => {
    const tag = word();
    const post = await asAdmin(request, "POST", "/api/blog/posts", {
      title: `Readable ${tag} ${testInfo.project.name}`,
      content: `<p>A post about ${tag}.</p><h2>Second part</h2><p>More words.</p>`,
      status: "published",
    });
    const first = await createUserViaApi(request, uniqueName(testInfo, "reader"));
    const second = await createUserViaApi(request, uniqueName(testInfo, "replier"));
    const path = `/blog/${post.slug}`;

    if (testInfo.project.name === "js") {
      // reached by a client-side navigation: the body comes without a page load
      await page.goto(`/blog?q=${tag}`);
      await page.getByRole("link", { name: post.title }).first().click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.locator("#post-body")).toContainText(`A post about ${tag}.`);
    }
    await page.goto(path);
    await expect(page.locator("#post-body")).toContainText(`A post about ${tag}.`);
    await page.getByRole("link", { name: "Log in to like this post" }).click();
    await page.getByLabel("Email or username").fill(first.username);
    await page.getByLabel("Password", { exact: true }).fill(first.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(new RegExp(`${path}#likes$`));

    await page.getByRole("button", { name: "♡ Like" }).click();
    await expect(page.getByRole("button", { name: "♥ Liked" })).toBeVisible();
    await expect(page.locator(".blog-like__count")).toHaveText("1 like");

    await page.getByLabel(`Your comment as ${first.username}`).fill(`Very useful, thanks! ${tag}`);
    await page.getByRole("button", { name: "Post comment" }).click();
    await expect(toast(page, "Comment posted")).toBeVisible();
    const comment = page
      .locator(".blog-comment")
      .filter({ hasText: `Very useful, thanks! ${tag}` })
      .first();
    await expect(comment).toContainText(first.username);
    await comment.getByRole("button", { name: `Like the comment by ${first.username}` }).click();
    await expect(page.getByRole("button", { name: `Unlike the comment by ${first.username}` })).toContainText("1");

    await logoutViaMenu(page);
    await loginViaForm(page, second.username, second.password, path);
    await page.getByRole("link", { name: "Reply" }).first().click();
    await expect(page.getByRole("heading", { name: `Reply to ${first.username}` })).toBeVisible();
    await page.getByLabel(`Your comment as ${second.username}`).fill(`Agreed ${tag}`);
    await page.getByRole("button", { name: "Post reply" }).click();
    await expect(toast(page, "Comment posted")).toBeVisible();
    const replies = page.getByRole("list", { name: `Replies to ${first.username}` });
    await expect(replies).toContainText(`Agreed ${tag}`);
    await replies.getByRole("link", { name: "Delete" }).click();
    await replies.getByRole("button", { name: "Delete comment" }).click();
    await expect(toast(page, "Comment deleted")).toBeVisible();
    await expect(page.getByText(`Agreed ${tag}`)).toHaveCount(0);
    await expect(page.getByText(`Very useful, thanks! ${tag}`)).toBeVisible();
  });

  test("with moderation on, a comment awaits moderation until an editor approves it in the queue", async ({ page, request }, testInfo) => {
    const tag = word();
    const post = await asAdmin(request, "POST", "/api/blog/posts", {
      title: `Moderated ${tag} ${testInfo.project.name}`,
      content: "<p>Moderated post.</p>",
      status: "published",
    });
    const reader = await createUserViaApi(request, uniqueName(testInfo, "waiting"));
    const path = `/blog/${post.slug}`;
    await asAdmin(request, "PUT", "/api/blog/settings", { comment_moderation: true });
    try {
      await loginViaForm(page, reader.username, reader.password, path);
      await expect(page.getByText("Comments are reviewed before they appear.")).toBeVisible();
      await page.getByLabel(`Your comment as ${reader.username}`).fill(`Held comment ${tag}`);
      await page.getByRole("button", { name: "Post comment" }).click();
      await expect(toast(page, "Thanks! Your comment is awaiting moderation")).toBeVisible();
      await expect(page.locator(".blog-comment").filter({ hasText: `Held comment ${tag}` })).toContainText("Awaiting moderation");
      expect(await (await request.get(path)).text()).not.toContain(`Held comment ${tag}`);

      await logoutViaMenu(page);
      await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/blog/comments");
      const card = page.locator(".admin-comment").filter({ hasText: `Held comment ${tag}` });
      await card.getByRole("button", { name: `Approve: comment by ${reader.username}` }).click();
      await expect(toast(page, "Comment marked: Approved")).toBeVisible();
      expect(await (await request.get(path)).text()).toContain(`Held comment ${tag}`);

      await page.getByRole("link", { name: /^Approved/ }).click();
      await page
        .locator(".admin-comment")
        .filter({ hasText: `Held comment ${tag}` })
        .getByRole("link", { name: `Delete the comment by ${reader.username}` })
        .click();
      await page.getByRole("dialog", { name: "Delete comment" }).getByRole("button", { name: "Delete comment" }).click();
      await expect(toast(page, "Comment deleted")).toBeVisible();
      expect(await (await request.get(path)).text()).not.toContain(`Held comment ${tag}`);
    } finally {
      await asAdmin(request, "PUT", "/api/blog/settings", { comment_moderation: false });
    }
  });

  test("the blog and the post editor fit a 360 px phone", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto("/blog");
    await expect(page.getByRole("heading", { name: "Blog", exact: true })).toBeVisible();
    const post = page.locator(".blog-list a[href^='/blog/']").first();
    const href = await post.getAttribute("href");
    await page.goto(href!);
    await expect(page.locator("#post-body")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await loginViaForm(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/blog/posts/new");
    for (const selector of ["form.blog-post-form", "#new-post-content", ".blog-post-form__actions"]) {
      const box = await page.locator(selector).first().boundingBox();
      if (box) expect(box.x + box.width, selector).toBeLessThanOrEqual(360);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
