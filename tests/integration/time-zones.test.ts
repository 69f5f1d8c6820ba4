/**
 * Scheduled times in the admin's time zone (issue 39): typed and shown in the zone the
 * form names (the browser's `tz` cookie, else the site's `time_zone` setting), stored in
 * UTC; the /api keeps reading a time without a zone as UTC.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { formLogin, getPage, postForm } from "../setup/page-client";
import { startTestServer, type TestServer } from "../setup/server";

let server: TestServer;
let token: string;
let cookie: string;
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter += 1)}`;

/** Tomorrow, as a datetime-local value (minutes). */
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

async function setZone(zone: string) {
  const saved = await api(server.url, "/api/site-settings/admin/settings", {
    method: "PUT",
    token,
    body: { settings: { time_zone: zone } },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

async function savePost(fields: Record<string, string>, extraCookie = "") {
  const saved = await postForm(server.url, "/admin/blog/posts/new", `${cookie}${extraCookie}`, {
    intent: "save",
    title: unique("Zoned post "),
    content: "<p>Goes live later.</p>",
    status: "published",
    ...fields,
  });
  expect(saved.status, await saved.clone().text()).toBe(302);
  const id = Number(/\/admin\/blog\/posts\/(\d+)\/edit/.exec(saved.headers.get("location")!)![1]);
  return { id, post: (await api(server.url, `/api/blog/posts/id/${id}`, { token })).body.data as { published_at: string; status: string } };
}

beforeAll(async () => {
  server = await startTestServer();
  token = (await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password)).accessToken;
  cookie = await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
});

afterAll(async () => {
  await server?.stop();
});

describe("the site's time zone", () => {
  it("is a setting that takes IANA names only", async () => {
    const bad = await api(server.url, "/api/site-settings/admin/settings", {
      method: "PUT",
      token,
      body: { settings: { time_zone: "Mars/Olympus" } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: "time_zone", message: "Enter a time zone such as Asia/Shanghai, Europe/Paris or UTC" }]);
    await setZone("Asia/Shanghai");
    const settings = (await api(server.url, "/api/site-settings/admin/settings", { token })).body.data;
    expect(JSON.stringify(settings)).toContain("Asia/Shanghai");
    await setZone("UTC");
  });
});

describe("a post's publishing time", () => {
  it("is typed in the zone the form names and stored in UTC; the editor shows it back in that zone, named", async () => {
    const day = tomorrow();
    const { id, post } = await savePost({ published_at: `${day}T14:10`, time_zone: "Asia/Shanghai" });
    expect(post).toMatchObject({ status: "scheduled", published_at: `${day}T06:10:00.000Z` });
    // the editor, in the admin's zone from the browser (the tz cookie)
    const editor = await (await getPage(server.url, `/admin/blog/posts/${id}/edit`, `${cookie}; tz=Asia/Shanghai`)).text();
    expect(editor).toContain("Publish at (Asia/Shanghai, UTC+8)");
    expect(editor).toContain(`value="${day}T14:10"`);
    expect(editor).toContain('name="time_zone" value="Asia/Shanghai"');
    // in another zone the same instant reads otherwise
    const paris = await (await getPage(server.url, `/admin/blog/posts/${id}/edit`, `${cookie}; tz=Europe/Paris`)).text();
    expect(paris).toContain(`value="${day}T07:10"`);
    // the list says when, in the zone
    const list = await (await getPage(server.url, "/admin/blog/posts", `${cookie}; tz=Asia/Shanghai`)).text();
    expect(list).toContain(`${day} 14:10 Asia/Shanghai`);
  });

  it("without a zone in the form or the browser, is read in the site's zone (the form without JavaScript)", async () => {
    await setZone("America/New_York");
    try {
      const editor = await (await getPage(server.url, "/admin/blog/posts/new", cookie)).text();
      expect(editor).toMatch(/Publish at \(America\/New_York, UTC−[45]\)/);
      const day = tomorrow();
      const { post } = await savePost({ published_at: `${day}T09:00` });
      expect(post.published_at).toMatch(new RegExp(`^${day}T1[34]:00:00.000Z$`));
      // a browser's zone (the cookie) comes before the site's
      const { post: fromBrowser } = await savePost({ published_at: `${day}T09:00` }, "; tz=Asia/Tokyo");
      expect(fromBrowser.published_at).toBe(`${day}T00:00:00.000Z`);
    } finally {
      await setZone("UTC");
    }
  });

  it("keeps a time the form could not take as it was typed", async () => {
    const answer = await postForm(server.url, "/admin/blog/posts/new", cookie, {
      intent: "save",
      title: "",
      content: "",
      status: "published",
      published_at: "2026-12-24T18:30",
      time_zone: "Asia/Shanghai",
    });
    expect(answer.status).toBeLessThan(500);
    const html = await answer.text();
    expect(html).toContain("The title and the content are required.");
    expect(html).toContain('value="2026-12-24T18:30"');
  });
});

describe("a campaign's scheduled time", () => {
  it("is typed in the zone the form names and stored in UTC; the campaign page says it in the admin's zone", async () => {
    const day = tomorrow();
    const created = await postForm(server.url, "/admin/email-management/campaigns", cookie, {
      intent: "create",
      name: unique("Zoned campaign "),
      subject: "Hello",
      html_content: "<p>Hello</p>",
      recipient_type: "all",
      schedule_type: "scheduled",
      scheduled_at: `${day}T14:10`,
      time_zone: "Asia/Shanghai",
    });
    expect(created.status, await created.clone().text()).toBe(302);
    const id = Number(/campaigns\/(\d+)/.exec(created.headers.get("location")!)![1]);
    const campaign = (await api(server.url, `/api/email/campaigns/${id}`, { token })).body.data;
    expect(campaign.scheduled_at).toBe(`${day}T06:10:00.000Z`);
    const detail = await (await getPage(server.url, `/admin/email-management/campaigns/${id}`, `${cookie}; tz=Asia/Shanghai`)).text();
    expect(detail).toContain(`${day} 14:10 Asia/Shanghai`);
    // the /api still reads a time without a zone as UTC (the contract)
    const viaApi = await api(server.url, "/api/email/campaigns", {
      token,
      body: {
        name: unique("Api campaign "),
        subject: "Hi",
        html_content: "<p>Hi</p>",
        schedule_type: "scheduled",
        scheduled_at: `${day}T14:10`,
      },
    });
    expect(viaApi.body.data.scheduled_at).toBe(`${day}T14:10:00.000Z`);
  });
});
