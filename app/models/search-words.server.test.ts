/**
 * The typo corrections' vocabulary is read in pages (issue 37): every Latin word of the
 * products, with how many products hold it, and nothing else, however many pages it takes.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "~/lib/db.server";
import { insertProduct } from "./product.server";
import { vocabulary } from "./search-words.server";

/** A word of letters only, different for each n ("ba", "bb", … in base 26). */
const wordOf = (n: number) => {
  let word = "";
  for (let rest = n + 26; rest > 0; rest = Math.floor(rest / 26)) word = String.fromCharCode(97 + (rest % 26)) + word;
  return `vocab${word}`;
};

describe("vocabulary", () => {
  it("reads every Latin word with its products across many pages, and no digits or Chinese", async () => {
    const db = getDb();
    const count = 2_600;
    await db.transaction().execute(async (trx) => {
      for (let n = 0; n < count; n++) await insertProduct(trx, { name: `${wordOf(n)} vocabcommon 连帽卫衣 A${n}7` }, [], null);
    });
    const words = await vocabulary(db);
    for (let n = 0; n < count; n++) expect(words.get(wordOf(n)), wordOf(n)).toBe(1);
    expect(words.get("vocabcommon")).toBe(count);
    expect([...words.keys()].every((word) => /^[a-z]+$/.test(word))).toBe(true);
  }, 60_000);
});
