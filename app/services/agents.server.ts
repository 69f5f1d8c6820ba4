/**
 * Shopping agents (docs/decisions/020-marketplace-links.md): the agents' table as the
 * back office edits it (super admin), the shopper's choice of agent, and every agent in
 * memory until one changes (or another process writes the database). What the agents'
 * link forms read and write (links pasted by shoppers read back to items, "Buy via" links
 * built) is the marketplace folder's: app/marketplace/agent-links.server.ts.
 */
import { ApiError } from "~/lib/api.server";
import { refusedAsDuplicate } from "~/lib/db-errors.server";
import { lockedTransaction } from "~/models/sql-dialect.server";
import { contentVersion } from "~/lib/content-version.server";
import { dataVersion, getDb } from "~/lib/db.server";
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
