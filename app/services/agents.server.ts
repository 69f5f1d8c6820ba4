/**
 * Shopping agents (docs/decisions/020-marketplace-links.md): "Buy via" links on product
 * pages, the shopper's preferred agent first; the back office's agent list; and the agents'
 * link templates handed to the link reader, so agent links pasted by shoppers are read
 * back to marketplace items. Kept in memory until an agent changes (or another process
 * writes the database).
 */
import { ApiError } from "~/lib/api.server";
import { refusedAsDuplicate } from "~/lib/db-errors.server";
import { lockedTransaction } from "~/models/sql-dialect.server";
// registers the decoder of Pandabuy's encrypted links with the link reader
import "~/marketplace/pandabuy.server";
import { contentVersion } from "~/lib/content-version.server";
import { dataVersion, getDb } from "~/lib/db.server";
import {
  agentTemplateFor,
  buildAgentLink,
  readMarketplaceInput,
  type AgentPattern,
  type LinkReading,
  findLinks,
  linkFormProblem,
  readAgentUrl,
} from "~/marketplace/links";
import { log } from "~/lib/log.server";
import {
  deleteAgent,
  findAgent,
  findAgentByName,
  insertAgent,
  listAgents,
  setAgentOrders,
  setAgentShown,
  updateAgent,
  type Agent,
  type AgentInput,
} from "~/models/agent.server";
import type { Platform } from "~/schemas/catalogue-rules";
import { AGENT_MESSAGES as M, type AgentBody } from "~/schemas/marketplace";
import type { Actor } from "./permissions.server";
import { staffWrite } from "./writes.server";

export type { Agent };

let cached: { content: number; data: number; agents: Promise<Agent[]> } | undefined;

/** Every agent, in order (kept in memory until one changes). */
export function allAgents(): Promise<Agent[]> {
  const content = contentVersion();
  const data = dataVersion();
  if (!cached || cached.content !== content || cached.data !== data) {
    const agents = listAgents(getDb());
    cached = { content, data, agents };
    agents.catch(() => {
      if (cached?.agents === agents) cached = undefined;
    });
  }
  return cached.agents;
}

/** After a write (staffWrite then makes the stored pages stale: product pages show the agents' links). */
function changed() {
  cached = undefined;
}

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

/** What a shopper pasted, read with every agent's templates. */
export async function readPastedLink(text: string): Promise<LinkReading> {
  return readMarketplaceInput(text, await agentPatterns());
}

export type LinkTest = { reading: LinkReading; agent: string | null };

/**
 * The back office's "test a link": how a pasted link is read, and which agent's forms
 * read it (null: a marketplace's own link, or a link carried inside another).
 */
export async function testLink(text: string): Promise<LinkTest> {
  const patterns = await agentPatterns();
  const reading = readMarketplaceInput(text, patterns);
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

/** Enabled agents to choose from (the preference form). */
export async function enabledAgents(): Promise<Array<{ id: number; name: string }>> {
  return (await allAgents()).filter((agent) => agent.enabled).map(({ id, name }) => ({ id, name }));
}

export async function enabledAgent(id: number): Promise<Agent | null> {
  const agent = (await allAgents()).find((candidate) => candidate.id === id);
  return agent?.enabled ? agent : null;
}

// ---------------------------------------------------------------- the back office

function toInput(body: AgentBody, sortOrder?: number): AgentInput {
  return {
    name: body.name,
    templates: {
      weidian: body.template_weidian ?? null,
      taobao: body.template_taobao ?? null,
      tmall: body.template_tmall ?? null,
      "1688": body.template_1688 ?? null,
    },
    readPatterns: (body.read_patterns ?? "")
      .split("\n")
      .map((line) => line.trim().replace(/\s+/, " "))
      .filter(Boolean)
      .join("\n"),
    referralParam: body.referral_param ?? null,
    referralCode: body.referral_code ?? null,
    enabled: body.enabled ?? false,
    sortOrder,
  };
}

const nameTaken = () => new ApiError(409, M.nameTaken, "CONFLICT", [{ field: "name", message: M.nameTaken }]);
const notFound = () => new ApiError(404, M.notFound, "NOT_FOUND");

/** The agents' table is the super administrator's (docs/product/admin.md). */
export const MANAGE_AGENTS = { superAdmin: true } as const;

export async function getAgent(id: number): Promise<Agent> {
  const agent = await findAgent(getDb(), id);
  if (!agent) throw notFound();
  return agent;
}

export const createAgent = staffWrite(
  { requires: MANAGE_AGENTS, stales: ["shop"] },
  async (body: AgentBody, _actor: Actor): Promise<Agent> => {
    if (await findAgentByName(getDb(), body.name)) throw nameTaken();
    const agent = await refusedAsDuplicate("agents", () => insertAgent(getDb(), toInput(body)), nameTaken);
    changed();
    return agent;
  },
);

export const updateAgentByAdmin = staffWrite(
  { requires: MANAGE_AGENTS, stales: ["shop"] },
  async (id: number, body: AgentBody, _actor: Actor): Promise<Agent> => {
    const current = await getAgent(id);
    const other = await findAgentByName(getDb(), body.name);
    if (other && other.id !== id) throw nameTaken();
    const agent = await refusedAsDuplicate("agents", () => updateAgent(getDb(), id, toInput(body, current.sortOrder)), nameTaken);
    if (!agent) throw notFound();
    changed();
    return agent;
  },
);

/** Shows or hides an agent's links on product pages. */
export const setAgentEnabled = staffWrite(
  { requires: MANAGE_AGENTS, stales: ["shop"] },
  async (id: number, enabled: boolean, _actor: Actor): Promise<Agent> => {
    const saved = await setAgentShown(getDb(), id, enabled);
    if (!saved) throw notFound();
    changed();
    return saved;
  },
);

export const deleteAgentByAdmin = staffWrite(
  { requires: MANAGE_AGENTS, stales: ["shop"] },
  async (id: number, _actor: Actor): Promise<Agent> => {
    const agent = await getAgent(id);
    await deleteAgent(getDb(), id);
    changed();
    return agent;
  },
);

/** Moves an agent one place up or down (numbers the list again in steps of 10). */
export const moveAgent = staffWrite(
  { requires: MANAGE_AGENTS, stales: ["shop"], changedWhen: (moved) => moved },
  async (id: number, direction: "up" | "down", _actor: Actor): Promise<boolean> => {
    // the list is read and numbered again in one turn (decision 030): two moves made at
    // the same moment both count, neither numbers the list from what the other changed
    const moved = await lockedTransaction(getDb(), "agents-order", async (trx) => {
      const agents = await listAgents(trx);
      const index = agents.findIndex((agent) => agent.id === id);
      if (index === -1) throw notFound();
      const other = direction === "up" ? index - 1 : index + 1;
      if (other < 0 || other >= agents.length) return false;
      [agents[index], agents[other]] = [agents[other], agents[index]];
      await setAgentOrders(
        trx,
        agents.map((agent, position) => ({ id: agent.id, sortOrder: (position + 1) * 10 })),
      );
      return true;
    });
    if (moved) changed();
    return moved;
  },
);

export function agentJson(agent: Agent) {
  return {
    id: agent.id,
    name: agent.name,
    template_weidian: agent.templates.weidian ?? null,
    template_taobao: agent.templates.taobao ?? null,
    template_tmall: agent.templates.tmall ?? null,
    template_1688: agent.templates["1688"] ?? null,
    read_patterns: agent.readPatterns.map((pattern) => `${pattern.platform} ${pattern.template}`).join("\n"),
    referral_param: agent.referralParam,
    referral_code: agent.referralCode,
    enabled: agent.enabled,
    sort_order: agent.sortOrder,
    created_at: agent.createdAt,
    updated_at: agent.updatedAt,
  };
}
