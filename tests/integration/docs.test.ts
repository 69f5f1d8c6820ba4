/**
 * The docs kept in step with themselves (issue 36, item 6): every decision record is
 * listed in docs/README.md and says when it was taken and whether it stands; every page of
 * docs/ is reachable from the index; every link of the index and of docs/architecture.md
 * leads to a file that exists; decisions name the constants they describe rather than
 * quote values the code may change.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../setup/paths";

const DOCS = path.join(ROOT, "docs");
const index = fs.readFileSync(path.join(DOCS, "README.md"), "utf8");
const decisions = fs.readdirSync(path.join(DOCS, "decisions")).filter((file) => file.endsWith(".md"));
const linksOf = (markdown: string) =>
  [...markdown.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1]).filter((link) => !/^[a-z]+:/.test(link));

describe("docs/", () => {
  it("lists every decision record in the index, in order, each with a date and a status", () => {
    const listed = [...index.matchAll(/\(decisions\/(\d{3}-[^)]+\.md)\)/g)].map((match) => match[1]);
    expect(listed).toEqual([...decisions].sort());
    for (const file of decisions) {
      const head = fs
        .readFileSync(path.join(DOCS, "decisions", file), "utf8")
        .split("\n")
        .slice(0, 8)
        .join("\n");
      expect(head, `${file}: a "- Date: YYYY-MM-DD" line under its title`).toMatch(/^- Date: \d{4}-\d{2}-\d{2}$/m);
      expect(head, `${file}: a "- Status: …" line under its title`).toMatch(/^- Status: \S/m);
    }
  });

  it("links every page of docs/ from the index", () => {
    const pages = fs.readdirSync(DOCS).filter((file) => file.endsWith(".md") && file !== "README.md");
    const product = fs.readdirSync(path.join(DOCS, "product")).map((file) => `product/${file}`);
    for (const page of [...pages, ...product]) expect(linksOf(index), page).toContain(page);
  });

  it("has no link in the index or the architecture page to a file that is not there", () => {
    for (const [page, from] of [
      ["README.md", DOCS],
      ["architecture.md", DOCS],
    ] as const) {
      const markdown = fs.readFileSync(path.join(DOCS, page), "utf8");
      for (const link of linksOf(markdown)) expect(fs.existsSync(path.resolve(from, link)), `${page} → ${link}`).toBe(true);
    }
  });

  it("names the stored answers' limits by their constants, not by values that drift, and each named constant exists", () => {
    for (const file of ["012-page-cache.md", "013-fast-lane.md", "041-one-store-in-front.md"]) {
      const text = fs.readFileSync(path.join(DOCS, "decisions", file), "utf8");
      expect(text, file).not.toMatch(/\b\d+ MB in all\b|\banswers and \d+ MB\b/);
    }
    const store = fs.readFileSync(path.join(ROOT, "server", "stored-answers.ts"), "utf8");
    const current = fs.readFileSync(path.join(DOCS, "stored-pages.md"), "utf8");
    const named = [...current.matchAll(/`([A-Z][A-Z0-9_]{3,})`/g)].map((match) => match[1]);
    expect(named).toEqual(expect.arrayContaining(["STORE_MAX_ANSWERS", "STORE_MAX_BYTES", "ANSWER_MAX_BYTES"]));
    const code = [
      "server/stored-answers.ts",
      "server/front.ts",
      "server/front-rules.ts",
      "app/services/hit-counters.server.ts",
      "app/lib/shared-answers.server.ts",
      "app/lib/env.server.ts",
    ]
      .map((file) => fs.readFileSync(path.join(ROOT, file), "utf8"))
      .join("\n");
    for (const name of named)
      expect(code, `docs/stored-pages.md names ${name}`).toMatch(new RegExp(`\\b(?:const|let) ${name}\\b|^\\s+${name}:`, "m"));
    for (const name of ["STORE_MAX_ANSWERS", "STORE_MAX_BYTES", "ANSWER_MAX_BYTES"]) expect(store).toMatch(new RegExp(`const ${name} =`));
  });
});
