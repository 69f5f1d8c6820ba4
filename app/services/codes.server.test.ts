import { describe, expect, it } from "vitest";
import { getDb } from "~/lib/db.server";
import { ApiError } from "~/lib/api.server";
import { issueCode, redeemCode } from "./codes.server";

const attempt = async (email: string, code: string) => {
  try {
    await redeemCode(email, "register", code);
    return "ok";
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).message;
  }
};

describe("e-mail codes", () => {
  it("are 6 digits, stored hashed, and work once", async () => {
    const code = await issueCode("once@example.com", "register");
    expect(code).toMatch(/^\d{6}$/);
    const row = await getDb()
      .selectFrom("verification_codes")
      .selectAll()
      .where("email", "=", "once@example.com")
      .executeTakeFirstOrThrow();
    expect(row.code_hash).not.toContain(code);
    expect(await attempt("once@example.com", code)).toBe("ok");
    expect(await attempt("once@example.com", code)).toBe("Invalid or expired verification code");
  });

  it("allow 5 attempts, then even the right code fails", async () => {
    const code = await issueCode("tries@example.com", "register");
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expect(await attempt("tries@example.com", wrong)).toBe("Invalid or expired verification code");
    expect(await attempt("tries@example.com", code)).toBe("Invalid or expired verification code");
  });

  it("give guesses sent at the same moment 5 tries between them, not 5 each", async () => {
    const code = await issueCode("burst@example.com", "reset_password");
    const wrong = code === "000000" ? "111111" : "000000";
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        redeemCode("burst@example.com", "reset_password", wrong).then(
          () => "ok",
          () => "refused",
        ),
      ),
    );
    expect(answers).toEqual(Array(12).fill("refused"));
    // every comparison takes a try first: 5 were compared, the other 7 refused unread
    const row = await getDb()
      .selectFrom("verification_codes")
      .select("attempts")
      .where("email", "=", "burst@example.com")
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(5);
    await expect(redeemCode("burst@example.com", "reset_password", code)).rejects.toThrow("Invalid or expired verification code");
  });

  it("expire after 10 minutes", async () => {
    const code = await issueCode("late@example.com", "register");
    await getDb()
      .updateTable("verification_codes")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("email", "=", "late@example.com")
      .execute();
    expect(await attempt("late@example.com", code)).toBe("Invalid or expired verification code");
  });

  it("are replaced by a newer code and bound to their purpose", async () => {
    const first = await issueCode("new@example.com", "register");
    const second = await issueCode("new@example.com", "register");
    if (first !== second) expect(await attempt("new@example.com", first)).toBe("Invalid or expired verification code");
    await expect(redeemCode("new@example.com", "reset_password", second)).rejects.toThrow("Invalid or expired verification code");
    expect(await attempt("new@example.com", second)).toBe("ok");
    const row = await getDb()
      .selectFrom("verification_codes")
      .select(({ fn }) => fn.countAll<number>().as("n"))
      .where("email", "=", "new@example.com")
      .where("consumed_at", "is", null)
      .executeTakeFirstOrThrow();
    expect(Number(row.n)).toBe(0);
  });
});
