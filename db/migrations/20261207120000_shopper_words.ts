import { sql, type Kysely } from "kysely";

// Frozen: never edit once landed, never import app code.
// The words shoppers type (issue 39, docs/decisions/048-shoppers-comparisons.md): aliases of
// several words, slang and model names in English and Chinese, each finding the others
// (both ways). Added beside the staff's own: a term staff already keep (any case) is left
// as they made it.

const WORDS: Array<[term: string, alternatives: string[]]> = [
  ["air jordan", ["aj", "jordan", "乔丹"]],
  ["aj1", ["jordan 1", "air jordan 1", "乔丹一代", "乔丹1"]],
  ["aj4", ["jordan 4", "air jordan 4", "乔丹4"]],
  ["air force 1", ["af1", "空军一号", "空军1"]],
  ["yeezy", ["yzy", "椰子"]],
  ["new balance", ["新百伦"]],
  ["the north face", ["north face", "北面", "tnf"]],
  ["louis vuitton", ["路易威登"]],
  ["timberland", ["tims", "大黄靴", "踢不烂"]],
  ["dr martens", ["dr. martens", "doc martens", "docs", "马丁靴"]],
  ["converse", ["匡威"]],
  ["asics", ["亚瑟士"]],
  ["arcteryx", ["arc'teryx", "始祖鸟"]],
  ["patagonia", ["巴塔哥尼亚"]],
  ["stussy", ["斯图西"]],
  ["carhartt", ["卡哈特"]],
  ["fear of god", ["fog essentials"]],
  ["li ning", ["li-ning", "lining", "李宁"]],
  ["g-shock", ["gshock", "g shock"]],
  ["casioak", ["ga-2100", "ga2100", "农家橡树"]],
  ["lululemon", ["lulu", "露露乐蒙"]],
  ["longchamp", ["珑骧"]],
  ["xiaomi", ["小米"]],
  ["hoodie", ["hoody", "卫衣", "连帽衫"]],
  ["tee", ["t-shirt", "t恤"]],
  ["sneakers", ["trainers", "kicks", "运动鞋", "球鞋"]],
  ["puffer", ["down jacket", "羽绒服"]],
  ["jeans", ["denim", "牛仔裤"]],
  ["trousers", ["pants", "裤子"]],
  ["shorts", ["短裤"]],
  ["boots", ["靴子", "靴"]],
  ["backpack", ["双肩包", "rucksack"]],
  ["belt", ["皮带", "腰带"]],
  ["watch", ["手表", "腕表"]],
  ["earbuds", ["earphones", "耳机"]],
  ["power bank", ["powerbank", "充电宝", "移动电源"]],
  ["charger", ["充电器"]],
  ["keyboard", ["键盘"]],
  ["necklace", ["项链"]],
  ["beanie", ["毛线帽", "针织帽"]],
  ["bucket hat", ["渔夫帽"]],
  ["baseball cap", ["棒球帽"]],
  ["vest", ["gilet", "马甲"]],
  ["fleece", ["摇粒绒", "加绒"]],
  ["shell jacket", ["冲锋衣", "windbreaker"]],
  ["smart band", ["手环", "fitness tracker"]],
  ["阿迪", ["adidas", "阿迪达斯"]],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [term, alternatives] of WORDS) {
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM search_aliases WHERE lower(term) = ${term.toLowerCase()}`.execute(
      db,
    );
    if (Number(rows[0]?.n ?? 0) > 0) continue;
    await db
      .insertInto("search_aliases")
      .values({ term, alternatives: JSON.stringify(alternatives), both_ways: 1 })
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [term] of WORDS) await db.deleteFrom("search_aliases").where("term", "=", term).execute();
}
