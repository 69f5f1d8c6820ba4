/** Shopping agents: their link templates per marketplace, order and referral (queries only). */
import type { DB } from "~/lib/db.server";
import type { Platform } from "../../db/schema";

export type Agent = {
  id: number;
  name: string;
  templates: Partial<Record<Platform, string>>;
  /** older link forms, only read back */
  readPatterns: Array<{ platform: Platform; template: string }>;
  referralParam: string | null;
  referralCode: string | null;
  enabled: boolean;
  sortOrder: number;
  createdAt: string;
  updatedAt: string;
};

type Row = {
  id: number;
  name: string;
  template_weidian: string | null;
  template_taobao: string | null;
  template_tmall: string | null;
  template_1688: string | null;
  read_patterns: string;
  referral_param: string | null;
  referral_code: string | null;
  enabled: number;
  sort_order: number;
  created_at: string;
  updated_at: string;
};

const PLATFORMS: readonly Platform[] = ["weidian", "taobao", "tmall", "1688"];

function toAgent(row: Row): Agent {
  const templates: Partial<Record<Platform, string>> = {};
  if (row.template_weidian) templates.weidian = row.template_weidian;
  if (row.template_taobao) templates.taobao = row.template_taobao;
  if (row.template_tmall) templates.tmall = row.template_tmall;
  if (row.template_1688) templates["1688"] = row.template_1688;
  const readPatterns = row.read_patterns
    .split("\n")
    .map((line) => line.trim())
    .flatMap((line) => {
      const [platform, template] = line.split(/\s+/, 2);
      return PLATFORMS.includes(platform as Platform) && template ? [{ platform: platform as Platform, template }] : [];
    });
  return {
    id: row.id,
    name: row.name,
    templates,
    readPatterns,
    referralParam: row.referral_param,
    referralCode: row.referral_code,
    enabled: row.enabled === 1,
    sortOrder: row.sort_order,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type AgentInput = {
  name: string;
  templates: Partial<Record<Platform, string | null>>;
  readPatterns: string;
  referralParam: string | null;
  referralCode: string | null;
  enabled: boolean;
  sortOrder?: number;
};

function toValues(input: AgentInput) {
  return {
    name: input.name,
    template_weidian: input.templates.weidian ?? null,
    template_taobao: input.templates.taobao ?? null,
    template_tmall: input.templates.tmall ?? null,
    template_1688: input.templates["1688"] ?? null,
    read_patterns: input.readPatterns,
    referral_param: input.referralParam,
    referral_code: input.referralCode,
    enabled: input.enabled ? 1 : 0,
  };
}

/** Every agent, in their order (smaller sort_order first). */
export async function listAgents(db: DB): Promise<Agent[]> {
  const rows = await db.selectFrom("agents").selectAll().orderBy("sort_order").orderBy("id").execute();
  return rows.map(toAgent);
}

export async function findAgent(db: DB, id: number): Promise<Agent | undefined> {
  const row = await db.selectFrom("agents").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toAgent(row);
}

export async function findAgentByName(db: DB, name: string): Promise<Agent | undefined> {
  const row = await db.selectFrom("agents").selectAll().where("name", "=", name).executeTakeFirst();
  return row && toAgent(row);
}

export async function insertAgent(db: DB, input: AgentInput): Promise<Agent> {
  const last = await db
    .selectFrom("agents")
    .select((eb) => eb.fn.max("sort_order").as("max"))
    .executeTakeFirst();
  const row = await db
    .insertInto("agents")
    .values({ ...toValues(input), sort_order: input.sortOrder ?? Number(last?.max ?? 0) + 10 })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toAgent(row);
}

export async function updateAgent(db: DB, id: number, input: AgentInput): Promise<Agent | undefined> {
  const row = await db
    .updateTable("agents")
    .set({
      ...toValues(input),
      ...(input.sortOrder !== undefined ? { sort_order: input.sortOrder } : {}),
      updated_at: new Date().toISOString(),
    })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  return row && toAgent(row);
}

/** Shows or hides an agent, its other fields as they are now (not as a page read them). */
export async function setAgentShown(db: DB, id: number, enabled: boolean): Promise<Agent | undefined> {
  const row = await db
    .updateTable("agents")
    .set({ enabled: enabled ? 1 : 0, updated_at: new Date().toISOString() })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  return row && toAgent(row);
}

export async function setAgentOrders(db: DB, orders: Array<{ id: number; sortOrder: number }>): Promise<void> {
  for (const { id, sortOrder } of orders) await db.updateTable("agents").set({ sort_order: sortOrder }).where("id", "=", id).execute();
}

export async function deleteAgent(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom("agents").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
