/**
 * Short links (docs/marketplace-links.md, "Short links"): opened on the server through the
 * fetch guard (fetch.server.ts), and the item they lead to read from where they lead.
 */
import { decodeEntities } from "~/lib/text";
import type { Platform } from "~/schemas/catalogue-rules";
import { allAgents } from "~/services/agents.server";
import { agentPatterns } from "./agent-links.server";
import { followRedirects } from "./fetch.server";
import { readAgentUrl, readMarketplaceUrl } from "./links";

/** The agents' sites, which short links may pass through on their way to an item. */
async function agentDomains(): Promise<string[]> {
  const domains = new Set<string>();
  for (const agent of await allAgents()) {
    for (const template of [...Object.values(agent.templates), ...agent.readPatterns.map((pattern) => pattern.template)]) {
      try {
        domains.add(new URL(template.replace(/\{(id|url|url2)\}/g, "1")).hostname.replace(/^www\./, ""));
      } catch {
        // a template that is not a URL names no site
      }
    }
  }
  return [...domains];
}

const LINKS_IN_PAGE = /https?:(?:\/\/|\\\/\\\/)[^\s"'<>]+/g;

/**
 * Opens a short link on the server (allowlisted hosts only, each redirect checked, no
 * private addresses) and reads the item it leads to: from a redirect (to a marketplace
 * or an agent), or from the page (m.tb.cn answers a page whose script sends the browser on).
 */
export async function resolveShortLink(url: string): Promise<{ platform: Platform; itemId: string } | null> {
  const patterns = await agentPatterns();
  const itemOf = (candidate: URL) => readMarketplaceUrl(candidate) ?? readAgentUrl(candidate, patterns);
  return followRedirects(
    url,
    (candidate, answer) => {
      const direct = itemOf(candidate);
      if (direct) return direct;
      if (!answer || answer.status !== 200) return null;
      for (const match of answer.body.match(LINKS_IN_PAGE) ?? []) {
        try {
          const inPage = itemOf(new URL(decodeEntities(match.replace(/\\\//g, "/"))));
          if (inPage) return inPage;
        } catch {
          // not a URL after all
        }
      }
      return null;
    },
    { extraDomains: await agentDomains() },
  );
}
