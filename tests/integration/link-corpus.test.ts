/**
 * The link corpus (tests/fixtures/link-corpus.json): real item and non-item links gathered
 * from the test suites of public link-converter projects (each entry names its source),
 * read with the agents the database holds, as a shopper's paste is. Targets
 * (docs/marketplace-links.md): at least 95 % of the item links read, none read wrong, no
 * non-item link taken for an item. Links marked NEEDS-NETWORK are short links whose item
 * only the marketplace can tell: they must be named for the server to resolve.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readMarketplaceInput } from "~/marketplace/links";
import { agentPatterns, LINK_DECODERS } from "~/marketplace/agent-links.server";

type Entry = { link: string; expect: { platform: string; itemId: string } | null; source: string; note?: string };

const corpus: Entry[] = JSON.parse(fs.readFileSync(path.resolve("tests/fixtures/link-corpus.json"), "utf8"));
const needsNetwork = (entry: Entry) => (entry.note ?? "").startsWith("NEEDS-NETWORK");

describe("the link corpus", () => {
  it("holds at least 150 real item links and some that are not items", () => {
    expect(corpus.filter((entry) => entry.expect).length).toBeGreaterThanOrEqual(150);
    expect(corpus.filter((entry) => !entry.expect).length).toBeGreaterThanOrEqual(8);
  });

  it("reads at least 95 % of the item links, none wrong, and claims no non-item link", async () => {
    const agents = await agentPatterns();
    const missed: string[] = [];
    const wrong: string[] = [];
    const claimed: string[] = [];
    let items = 0;
    for (const entry of corpus) {
      const reading = readMarketplaceInput(entry.link, agents, LINK_DECODERS);
      if (needsNetwork(entry)) {
        expect(["short", "unresolvable"], entry.link).toContain(reading.kind);
        continue;
      }
      if (!entry.expect) {
        if (reading.kind === "item") claimed.push(`${entry.link} → ${reading.platform} ${reading.itemId}`);
        continue;
      }
      items += 1;
      if (reading.kind !== "item") missed.push(`${entry.link} (${entry.note ?? ""})`);
      else if (reading.itemId !== entry.expect.itemId || !samePlatform(reading.platform, entry.expect.platform))
        wrong.push(`${entry.link} → ${reading.platform} ${reading.itemId}, expected ${entry.expect.platform} ${entry.expect.itemId}`);
    }
    expect(wrong, "read wrong").toEqual([]);
    expect(claimed, "non-items taken for items").toEqual([]);
    const rate = (items - missed.length) / items;
    expect(rate, `missed ${missed.length} of ${items}:\n${missed.join("\n")}`).toBeGreaterThanOrEqual(0.95);
  });
});

/** Agents order Tmall items as Taobao ones: an agent's link may name either for the same id. */
function samePlatform(read: string, expected: string): boolean {
  return read === expected || (new Set([read, expected]).size === 2 && [read, expected].every((p) => p === "taobao" || p === "tmall"));
}
