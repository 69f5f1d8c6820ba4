/**
 * Writes whose rule is checked by reading first, sent at the same moment: a double submit,
 * or on PostgreSQL two instances (or two connections of one). Each makes one thing and
 * refuses the others with the field's own 409 or form error, never a 500 and never a
 * second row (decision 030, "A check, then a write"). On SQLite the app's one connection
 * runs them one by one; on PostgreSQL they meet, which is what this file is for.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiLogin, TEST_ADMIN } from "../setup/api-client";
import { formLogin, postForm } from "../setup/page-client";
import { openServerDb, row, sql } from "../setup/server-db";
import { startTestServer, type TestServer } from "../setup/server";

let server: TestServer;
let admin: string;
let adminId: number;
let superCookie: string;
let counter = 0;

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter += 1)}`;
const call = (path: string, options: Parameters<typeof api>[2] = {}) => api(server.url, path, { token: admin, ...options });
const atOnce = <T>(count: number, send: (index: number) => Promise<T>) => Promise.all(Array.from({ length: count }, (_, i) => send(i)));
const statuses = (answers: Array<{ status: number }>) => answers.map((answer) => answer.status).sort();
const fieldsOf = (answers: Array<{ status: number; body: { errors?: Array<{ field: string }> } }>) =>
  answers.filter((answer) => answer.status === 409).map((answer) => answer.body.errors?.[0]?.field);

/** A new account (with `roleIds`), logged in through the API. */
async function person(roleIds: number[] = []): Promise<{ id: number; token: string }> {
  const username = unique("p");
  const made = await call("/api/admin/users", { body: { username, email: `${username}@example.com`, password: "person-pass-1", roleIds } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { id: made.body.data.id, token: (await apiLogin(server.url, `${username}@example.com`, "person-pass-1")).accessToken };
}

beforeAll(async () => {
  server = await startTestServer();
  const login = await apiLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
  admin = login.accessToken;
  adminId = login.user.id;
  superCookie = await formLogin(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
});

afterAll(async () => {
  await server?.stop();
});

describe("sent at the same moment", () => {
  it("six accounts of one username, then six of one address: one is made, five get the field's 409", async () => {
    const username = unique("twin");
    const byName = await atOnce(6, (i) =>
      call("/api/admin/users", { body: { username, email: `${unique("n")}${i}@example.com`, password: "twin-pass-1" } }),
    );
    expect(statuses(byName)).toEqual([201, 409, 409, 409, 409, 409]);
    expect(fieldsOf(byName)).toEqual(Array(5).fill("username"));

    const email = `${unique("same")}@example.com`;
    const byAddress = await atOnce(6, (i) =>
      call("/api/admin/users", { body: { username: unique(`m${i}`), email, password: "twin-pass-1" } }),
    );
    expect(statuses(byAddress)).toEqual([201, 409, 409, 409, 409, 409]);
    expect(fieldsOf(byAddress)).toEqual(Array(5).fill("email"));
    expect((await call(`/api/admin/users?q=${encodeURIComponent(email)}`)).body.totalItems).toBe(1);
    expect((await call(`/api/admin/users?q=${username}`)).body.totalItems).toBe(1);
  });

  it("twelve wrong passwords for one account at once: five are checked, seven told to solve the captcha first", async () => {
    const username = unique("guessed");
    await call("/api/admin/users", { body: { username, email: `${username}@example.com`, password: "right-pass-1" } });
    const guesses = await atOnce(12, (i) =>
      api(server.url, "/api/auth/login", { body: { email: `${username}@example.com`, password: `wrong-${i}` } }),
    );
    expect(statuses(guesses)).toEqual([...Array(7).fill(400), ...Array(5).fill(401)]);
    expect(guesses.filter((answer) => answer.status === 400).every((answer) => answer.body.requiresCaptcha === true)).toBe(true);
    // the five failures stand: the right password now needs the captcha too
    const right = await api(server.url, "/api/auth/login", { body: { email: `${username}@example.com`, password: "right-pass-1" } });
    expect(right.status).toBe(400);
    expect(right.body.requiresCaptcha).toBe(true);
  });

  it("six search aliases of one term: one is made, five get 409 on the term", async () => {
    const term = unique("tw").toLowerCase();
    const answers = await atOnce(6, () => call("/api/admin/search-aliases", { body: { term, alternatives: ["Twin Runner"] } }));
    expect(statuses(answers)).toEqual([201, 409, 409, 409, 409, 409]);
    expect(fieldsOf(answers)).toEqual(Array(5).fill("term"));
    const list = (await call("/api/admin/search-aliases")).body.data as Array<{ term: string }>;
    expect(list.filter((alias) => alias.term === term)).toHaveLength(1);
  });

  it("six shopping agents of one name from the form: one is added, five forms say the name is taken", async () => {
    const name = unique("Twin agent ");
    const answers = await atOnce(6, () =>
      postForm(server.url, "/admin/agents/new", superCookie, { name, template_weidian: "https://twin.example/{id}", enabled: "on" }),
    );
    // the refused forms come back with the conflict's own status (and the form as sent)
    expect(statuses(answers)).toEqual([302, 409, 409, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(await answer.text()).toContain("An agent with this name already exists.");
    }
  });

  it("six blog categories of one name each get their own slug; two crossing moves: one is refused", async () => {
    const name = unique("Twin topic ");
    const made = await atOnce(6, () => call("/api/blog/categories", { body: { name } }));
    expect(statuses(made)).toEqual(Array(6).fill(201));
    expect(new Set(made.map((answer) => answer.body.data.slug)).size).toBe(6);

    const [first, second] = made.map((answer) => answer.body.data.id as number);
    const moves = await Promise.all([
      call(`/api/blog/categories/${first}`, { method: "PUT", body: { parent_id: second } }),
      call(`/api/blog/categories/${second}`, { method: "PUT", body: { parent_id: first } }),
    ]);
    expect(statuses(moves)).toEqual([200, 400]);
  });

  it("a double click on like: liked, then taken back (never a 500); three quick comments: one posted, two told to wait", async () => {
    const reader = await person();
    const post = (await call("/api/blog/posts", { body: { title: unique("Liked twice "), content: "<p>Body.</p>", status: "published" } }))
      .body.data;
    const likes = await atOnce(2, () => call(`/api/blog/posts/${post.id}/like`, { token: reader.token, body: { type: "like" } }));
    expect(statuses(likes)).toEqual([200, 200]);
    expect(likes.map((answer) => answer.body.data.liked).sort()).toEqual([false, true]);
    expect((await call(`/api/blog/posts/id/${post.id}`)).body.data.like_count).toBe(0);

    const comments = await atOnce(3, (i) =>
      call(`/api/blog/posts/${post.id}/comments`, { token: reader.token, body: { content: `Quick ${i}` } }),
    );
    expect(statuses(comments)).toEqual([201, 429, 429]);
    expect((await call(`/api/blog/posts/${post.id}/comments`)).body.data).toHaveLength(1);
  });

  it("four posts saved at once with one new tag: all are saved, under one tag", async () => {
    const tag = unique("Twintag");
    const posts = await atOnce(4, (i) =>
      call("/api/blog/posts", { body: { title: unique(`Tagged twin ${i} `), content: "<p>Body.</p>", status: "published", tags: [tag] } }),
    );
    expect(statuses(posts)).toEqual(Array(4).fill(201));
    const tagSlugs = new Set(posts.map((answer) => (answer.body.data.tags as Array<{ slug: string }>).map((t) => t.slug).join()));
    expect(tagSlugs.size).toBe(1);
    const listed = await call(`/api/blog/posts/tag/${[...tagSlugs][0]}`);
    expect(listed.body.data.posts).toHaveLength(4);
  });

  it("a post saved with a tag while another post drops it (its last use): the tag is kept for the first", async () => {
    for (let round = 0; round < 6; round++) {
      const tag = unique("Handed");
      const holder = (await call("/api/blog/posts", { body: { title: unique("Holder "), content: "<p>Body.</p>", tags: [tag] } })).body
        .data;
      const [dropped, taken] = await Promise.all([
        call(`/api/blog/posts/${holder.id}`, { method: "PUT", body: { tags: [] } }),
        call("/api/blog/posts", { body: { title: unique("Taker "), content: "<p>Body.</p>", status: "published", tags: [tag] } }),
      ]);
      expect([dropped.status, taken.status], JSON.stringify(taken.body)).toEqual([200, 201]);
      expect((taken.body.data.tags as Array<{ name: string }>).map((t) => t.name)).toEqual([tag]);
      const read = await call(`/api/blog/posts/id/${taken.body.data.id}`);
      expect((read.body.data.tags as Array<{ name: string }>).map((t) => t.name)).toEqual([tag]);
    }
  });

  it("two presses of one category's 'move up' at once: both count, it rises two places", async () => {
    const make = async (name: string, sort_order: number) =>
      (await call("/api/admin/categories", { body: { name: unique(name), sort_order } })).body.data.id as number;
    const first = await make("Rung A ", 9001);
    const second = await make("Rung B ", 9002);
    const third = await make("Rung C ", 9003);
    const presses = await atOnce(2, () =>
      postForm(server.url, "/admin/categories?index", superCookie, { intent: "up", categoryId: String(third) }),
    );
    expect(statuses(presses)).toEqual([302, 302]);
    const orderOf = async (id: number) => (await call(`/api/admin/categories/${id}`)).body.data.sort_order as number;
    // each move read the list as the one before it left it: C above B, then above A
    expect([await orderOf(third), await orderOf(first), await orderOf(second)]).toEqual([9001, 9002, 9003]);
  });

  it("collecting a product that staff delete while the collect is under way: a 404, not a 500", async () => {
    const made = await call("/api/admin/products", { body: { name: unique("Going "), price_cny: 12 } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const productId = made.body.data.id as number;
    const shopper = await person();
    const db = openServerDb(server.dataDir);
    try {
      let collecting: ReturnType<typeof api> | undefined;
      await db.transaction().execute(async (trx) => {
        // the delete holds the product's row until it commits: the collect finds the
        // product, then its insert waits on that row, then the product is gone
        await sql`DELETE FROM products WHERE id = ${productId}`.execute(trx);
        collecting = api(server.url, "/api/users/collections/add", { token: shopper.token, body: { productId } });
        if (db.engine === "postgres") {
          await expect
            .poll(
              async () =>
                Number(
                  (
                    await row<{ n: number }>(
                      db,
                      sql`SELECT count(*) AS n FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock'`,
                    )
                  )?.n,
                ),
              { timeout: 5_000 },
            )
            .toBe(1);
        } else {
          // SQLite: the app's write waits for this one's lock (its busy timeout). SQLite shows
          // no waiting connection to poll for (no pg_stat_activity): a moment for the request
          // to reach the lock; the answer is a 404 either way
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
      });
      const answer = await collecting!;
      expect(answer.status, JSON.stringify(answer.body)).toBe(404);
      expect((await call(`/api/users/collections`, { token: shopper.token })).body.data).toEqual([]);
    } finally {
      await db.close();
    }
  });

  // last: it may take the super administrator role from the test's own admin
  it("two super administrators taking the role from each other at once: one keeps it", async () => {
    const roles = (await call("/api/admin/roles")).body.data as Array<{ id: number; name: string }>;
    const superRole = roles.find((role) => role.name === "super_admin")!.id;
    const other = await person([superRole]);
    const [fromOther, fromSelf] = await Promise.all([
      call(`/api/admin/users/${other.id}/roles/${superRole}`, { method: "DELETE" }),
      call(`/api/admin/users/${adminId}/roles/${superRole}`, { method: "DELETE", token: other.token }),
    ]);
    // the one refused was either told another must remain, or had lost the role already
    expect(statuses([fromOther, fromSelf])[0]).toBe(200);
    expect([400, 403]).toContain(statuses([fromOther, fromSelf])[1]);
    const survivor = fromOther.status === 200 ? admin : other.token;
    const holds = async (id: number) =>
      ((await call(`/api/admin/users/${id}/roles`, { token: survivor })).body.data as Array<{ name: string }>).some(
        (role) => role.name === "super_admin",
      );
    expect([await holds(adminId), await holds(other.id)].filter(Boolean)).toHaveLength(1);
  });
});
