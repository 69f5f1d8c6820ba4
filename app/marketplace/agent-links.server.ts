/**
 * The shopping agents' link forms at work (docs/marketplace-links.md): handed to the link
 * reader (app/marketplace/links.ts), so an agent's link pasted by a shopper is read back
 * to its marketplace item; the back office's "test a link"; and the "Buy via" links of a
 * product page, the shopper's preferred agent first. The agents themselves (the table, the
 * back office's writes, the list kept in memory) are app/services/agents.server.ts's.
 */
import { log } from "~/lib/log.server";
import type { Platform } from "~/schemas/catalogue-rules";
import { allAgents, type Agent } from "~/services/agents.server";
import {
  agentTemplateFor,
  buildAgentLink,
  findLinks,
  linkFormProblem,
  readAgentUrl,
  readMarketplaceInput,
  type AgentPattern,
  type LinkDecoder,
  type LinkReading,
} from "./links";
import { pandabuyDecoder } from "./pandabuy.server";

/** The link forms only code can read, which the server reads links with: Pandabuy's encrypted `url=`. */
export const LINK_DECODERS: readonly LinkDecoder[] = [pandabuyDecoder];

/** The broken link forms already logged (agent id and form): each is logged once a process. */
const loggedBroken = new Set<string>();

/**
 * A stored link form the reader cannot read back (the form refuses such forms on save, but
 * a row may come from before that, a script or the database shell): left out, alone, so
 * that agent's other forms and every other agent still read; logged once.
 */
function readable(agent: Agent, platform: Platform, template: string): boolean {
  const problem = linkFormProblem(template);
  if (!problem) return true;
  const key = `${agent.id}\n${platform}\n${template}`;
  if (!loggedBroken.has(key)) {
    loggedBroken.add(key);
    log.warn(
      `agent ${JSON.stringify(agent.name)} (id ${agent.id}): its ${platform} link form ${JSON.stringify(template)} cannot be read back ` +
        `(${problem}); links of that form are not recognised until it is fixed at /admin/agents/${agent.id}`,
    );
  }
  return false;
}

/** The patterns made of each list of agents read (made once, not at every pasted link). */
const patternsOf = new WeakMap<Agent[], AgentPattern[]>();

/** The agents' templates as the link reader takes them (disabled agents' links are still read; broken forms are not). */
export async function agentPatterns(): Promise<AgentPattern[]> {
  const agents = await allAgents();
  let patterns = patternsOf.get(agents);
  if (!patterns) patternsOf.set(agents, (patterns = agents.map(toPattern)));
  return patterns;
}

function toPattern(agent: Agent): AgentPattern {
  return {
    name: agent.name,
    templates: Object.fromEntries(
      Object.entries(agent.templates).filter(([platform, template]) => readable(agent, platform as Platform, template)),
    ),
    readOnly: agent.readPatterns.filter(({ platform, template }) => readable(agent, platform, template)),
  };
}

/** What a shopper pasted, read with every agent's templates and the server's decoders. */
export async function readPastedLink(text: string): Promise<LinkReading> {
  return readMarketplaceInput(text, await agentPatterns(), LINK_DECODERS);
}

export type LinkTest = { reading: LinkReading; agent: string | null };

/**
 * The back office's "test a link": how a pasted link is read, and which agent's forms
 * read it (null: a marketplace's own link, or a link carried inside another).
 */
export async function testLink(text: string): Promise<LinkTest> {
  const patterns = await agentPatterns();
  const reading = readMarketplaceInput(text, patterns, LINK_DECODERS);
  if (reading.kind !== "item" || reading.via !== "agent") return { reading, agent: null };
  // the agent whose own forms read one of the text's links to this item
  for (const link of findLinks(text)) {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      continue;
    }
    const by = patterns.find((agent) => readAgentUrl(url, [agent], [])?.itemId === reading.itemId);
    if (by) return { reading, agent: by.name };
  }
  return { reading, agent: null };
}

export type AgentLink = { id: number; name: string; url: string; preferred: boolean };

/** The enabled agents' links to an item, the preferred agent first (then the admin's order); none from a form that cannot be read back. */
export async function agentLinksFor(
  item: { platform: Platform | null; platformItemId: string | null },
  preferredId: number | null,
): Promise<AgentLink[]> {
  if (!item.platform || !item.platformItemId) return [];
  const target = { platform: item.platform, itemId: item.platformItemId };
  const links = (await allAgents()).flatMap((agent) => {
    const template = agent.enabled ? agentTemplateFor(agent.templates, item.platform!) : null;
    // a broken stored form gives no link (it would be a broken one), alone: the other agents' stay
    if (!template || !readable(agent, item.platform!, template)) return [];
    const referral = agent.referralParam && agent.referralCode ? `${agent.referralParam}=${encodeURIComponent(agent.referralCode)}` : null;
    return [{ id: agent.id, name: agent.name, url: buildAgentLink(template, target, referral), preferred: agent.id === preferredId }];
  });
  return [...links.filter((link) => link.preferred), ...links.filter((link) => !link.preferred)];
}
