import { beforeAll, describe, expect, it } from "vitest";
import { listAgents } from "~/models/agent.server";
import { getDb } from "~/lib/db.server";
import {
  agentTemplateFor,
  buildAgentLink,
  findLink,
  findLinks,
  linkFormProblem,
  readMarketplaceInput,
  readMarketplaceInputs,
  type AgentPattern,
  type Marketplace,
} from "~/marketplace/links";

let agents: AgentPattern[];

// the link reading of app/marketplace/links.ts with the agents the migration stores
beforeAll(async () => {
  // the agents the migration seeds from docs/marketplace-links.md
  agents = (await listAgents(getDb())).map((agent) => ({ name: agent.name, templates: agent.templates, readOnly: agent.readPatterns }));
});

const read = (text: string) => readMarketplaceInput(text, agents);
const item = (platform: Marketplace, itemId: string, via: "link" | "agent" = "link") => ({ kind: "item", platform, itemId, via });

describe("marketplace links", () => {
  it.each([
    ["https://weidian.com/item.html?itemID=7231234567", "weidian", "7231234567"],
    ["https://weidian.com/item.html?itemId=7231234567&spider_token=abc", "weidian", "7231234567"],
    ["https://shop1234567.v.weidian.com/item.html?itemID=7231234567", "weidian", "7231234567"],
    ["https://h5.weidian.com/m/item.html?itemID=7231234567&wfr=wx", "weidian", "7231234567"],
    ["weidian.com/item.html?itemID=7231234567", "weidian", "7231234567"],
    ["https://item.taobao.com/item.htm?id=623456789012", "taobao", "623456789012"],
    ["https://item.taobao.com/item.htm?spm=a21n57.1.0.0&id=623456789012&ns=1&abbucket=11", "taobao", "623456789012"],
    ["https://h5.m.taobao.com/awp/core/detail.htm?id=623456789012", "taobao", "623456789012"],
    ["https://world.taobao.com/item/623456789012.htm", "taobao", "623456789012"],
    ["https://m.intl.taobao.com/detail/detail.html?id=623456789012", "taobao", "623456789012"],
    ["https://www.taobao.com/list/item/623456789012.htm", "taobao", "623456789012"],
    ["https://a.m.taobao.com/i623456789012.htm", "taobao", "623456789012"],
    ["https://detail.tmall.com/item.htm?id=623456789012", "tmall", "623456789012"],
    ["https://detail.m.tmall.com/item.htm?id=623456789012", "tmall", "623456789012"],
    ["https://detail.tmall.com/item_o.htm?id=623456789012", "tmall", "623456789012"],
    ["https://chaoshi.detail.tmall.com/item.htm?id=623456789012", "tmall", "623456789012"],
    ["https://detail.tmall.hk/hk/item.htm?id=623456789012", "tmall", "623456789012"],
    ["https://detail.1688.com/offer/645678901234.html", "1688", "645678901234"],
    ["https://m.1688.com/offer/645678901234.html?spm=a26g8", "1688", "645678901234"],
    ["https://detail.m.1688.com/page/index.html?offerId=645678901234", "1688", "645678901234"],
    ["HTTPS://ITEM.TAOBAO.COM/item.htm?id=623456789012", "taobao", "623456789012"],
  ] as const)("reads %s", (text, platform, itemId) => {
    expect(read(text)).toEqual(item(platform, itemId));
  });

  it("reads the link inside an app's share text", () => {
    expect(read("【淘宝】https://item.taobao.com/item.htm?id=623456789012 「耐克 Air Force 1 空军一号」点击链接直接打开")).toEqual(
      item("taobao", "623456789012"),
    );
    expect(read("看看这个 https://weidian.com/item.html?itemID=7231234567，很好看")).toEqual(item("weidian", "7231234567"));
    expect(read("【淘宝】https://m.tb.cn/h.5Ds9aXy?tk=fjW1W8sE7aQ CZ0001 「Nike 卫衣」点击链接直接打开")).toEqual({
      kind: "short",
      url: "https://m.tb.cn/h.5Ds9aXy?tk=fjW1W8sE7aQ",
    });
    expect(findLink("(https://detail.1688.com/offer/645678901234.html)")).toBe("https://detail.1688.com/offer/645678901234.html");
  });

  it("reads a link glued to the words of a share text (links are ASCII; the Chinese around them is not part of them)", () => {
    expect(read("复制这条信息https://item.taobao.com/item.htm?id=623456789012打开手机淘宝")).toEqual(item("taobao", "623456789012"));
    expect(read("【淘宝】https://m.tb.cn/h.5Ds9aXy?tk=fjW1W8sE7aQ复制本条「Nike 卫衣」")).toEqual({
      kind: "short",
      url: "https://m.tb.cn/h.5Ds9aXy?tk=fjW1W8sE7aQ",
    });
    expect(read("【微店】好物推荐https://weidian.com/item.html?itemID=7231234567&wfr=c，快来看看")).toEqual(item("weidian", "7231234567"));
    expect(read("1688商品：detail.1688.com/offer/645678901234.html，复制打开")).toEqual(item("1688", "645678901234"));
    expect(read("【天猫】https://detail.tmall.com/item.htm?id=623456789012 「title」")).toEqual(item("tmall", "623456789012"));
  });

  it.each([
    ["https://m.weidian.com/item.html?itemID=7231234567", "weidian", "7231234567"],
    ["https://weidian.com/item.html?itemID=7231234567#/", "weidian", "7231234567"],
    ["https://item.taobao.com/item.htm?id=623456789012#detail", "taobao", "623456789012"],
    ["https://item.taobao.com/item.htm?skuId=5123456789&id=623456789012", "taobao", "623456789012"],
    ["https://h5.m.taobao.com/awp/core/detail.htm?ft=t&id=623456789012", "taobao", "623456789012"],
    ["https://detail.tmall.com/item.htm?abbucket=3&id=623456789012&skuId=5123456789", "tmall", "623456789012"],
    ["https://detail.1688.com/offer/645678901234.html?spm=a2615", "1688", "645678901234"],
  ] as const)("reads %s (mobile forms, fragments, SKU parameters)", (text, platform, itemId) => {
    expect(read(text)).toEqual(item(platform, itemId));
  });

  it("reads bare numbers: 13–15 digits are Weidian; 10–12 may be Weidian or 1688; other lengths are refused", () => {
    expect(read("7231234567")).toEqual({ kind: "number", itemId: "7231234567", candidates: ["weidian", "1688"] });
    expect(read(" 645678901234 ")).toEqual({ kind: "number", itemId: "645678901234", candidates: ["weidian", "1688"] });
    expect(read("7231234567123")).toEqual({ kind: "number", itemId: "7231234567123", candidates: ["weidian"] });
    expect(read("723123456712345")).toEqual({ kind: "number", itemId: "723123456712345", candidates: ["weidian"] });
    for (const text of ["723123456", "7231234567123456", "12345"]) expect(read(text), text).toEqual({ kind: "unsupported" });
  });

  it.each([
    "https://m.tb.cn/h.5Ds9aXy",
    "https://weidian.info/abc123",
    "https://k.youshop10.com/xYz12",
    "https://tinyurl.com/qc12345",
    "https://hoobuy.cc/aB12",
    "https://l.acbuy.com/x1",
    "https://oopbuy.cc/q9",
    "https://pandabuy.page.link/abc",
  ])("names the short link %s for the server to open", (text) => {
    expect(read(text)).toEqual({ kind: "short", url: new URL(text).href });
  });

  it("says a 1688 QR link cannot be read", () => {
    expect(read("https://qr.1688.com/s/abc123")).toEqual({ kind: "unresolvable", url: "https://qr.1688.com/s/abc123" });
  });

  it.each([
    "",
    "   ",
    "hoodie",
    "https://www.amazon.com/dp/B00X4WHP5E",
    "https://item.taobao.com/item.htm",
    "https://item.taobao.com/item.htm?id=abc",
    "https://weidian.com.evil.example/item.html?itemID=7231234567",
    "https://notweidian.com/item.html?itemID=7231234567",
    "javascript:alert(1)//https://item.taobao.com/item.htm?id=623456789012x",
    "ftp://weidian.com/item.html?itemID=7231234567",
    "https://evil.example/?u=https://item.taobao.com/item.htm",
    "https://www.kakobuy.com/item/details?url=https%3A%2F%2Fevil.example%2F",
    "https://www.hoobuy.com/product/9/623456789012",
  ])("refuses %j", (text) => {
    expect(["unsupported", "empty"]).toContain(read(text).kind);
  });
});

describe("agent links", () => {
  it("seeds every agent of the reference, each with templates for the marketplaces, then the converters' further agents", () => {
    const reference = [
      "CNFans",
      "Mulebuy",
      "Kakobuy",
      "Hoobuy",
      "Superbuy",
      "AllChinaBuy",
      "Sugargoo",
      "CSSBuy",
      "Oopbuy",
      "ACBuy",
      "Joyabuy",
      "OrientDig",
      "Hipobuy",
      "GTBuy",
      "USFans",
    ];
    const further = [
      "LoveGoBuy",
      "Basetao",
      "HubbuyCN",
      "Joyagoo",
      "Ponybuy",
      "Loongbuy",
      "CNShopper",
      "OOTDBuy",
      "Litbuy",
      "Fansbuy",
      "BBDBuy",
      "Panglobalbuy",
      "Sifubuy",
      "Wegobuy",
    ];
    expect(agents.map((agent) => agent.name)).toEqual([...reference, ...further]);
    for (const agent of agents.filter((one) => reference.includes(one.name)))
      for (const platform of ["weidian", "taobao", "1688"] as const)
        expect(agent.templates[platform], `${agent.name} ${platform}`).toBeTruthy();
    // the further agents: the marketplaces their link forms are known for (two at least)
    for (const agent of agents.filter((one) => further.includes(one.name)))
      expect(Object.values(agent.templates).filter(Boolean).length, agent.name).toBeGreaterThanOrEqual(2);
  });

  it("builds each agent's link for each marketplace as the reference writes it", () => {
    const hoobuy = agents.find((agent) => agent.name === "Hoobuy")!;
    expect(buildAgentLink(agentTemplateFor(hoobuy.templates, "1688")!, { platform: "1688", itemId: "645678901234" })).toBe(
      "https://www.hoobuy.com/product/0/645678901234",
    );
    expect(
      buildAgentLink(agentTemplateFor(hoobuy.templates, "tmall")!, { platform: "tmall", itemId: "623456789012" }, "inviteCode=QC1"),
    ).toBe("https://www.hoobuy.com/product/1/623456789012?inviteCode=QC1");
    const cnfans = agents.find((agent) => agent.name === "CNFans")!;
    expect(buildAgentLink(cnfans.templates.weidian!, { platform: "weidian", itemId: "7231234567" }, "ref=123")).toBe(
      "https://cnfans.com/product?id=7231234567&platform=WEIDIAN&ref=123",
    );
    const kakobuy = agents.find((agent) => agent.name === "Kakobuy")!;
    expect(buildAgentLink(kakobuy.templates.taobao!, { platform: "taobao", itemId: "623456789012" })).toBe(
      "https://www.kakobuy.com/item/details?url=https%3A%2F%2Fitem.taobao.com%2Fitem.htm%3Fid%3D623456789012",
    );
    const sugargoo = agents.find((agent) => agent.name === "Sugargoo")!;
    expect(buildAgentLink(sugargoo.templates.weidian!, { platform: "weidian", itemId: "7231234567" }, "memberId=9")).toBe(
      "https://www.sugargoo.com/#/home/productDetail?productLink=https%253A%252F%252Fweidian.com%252Fitem.html%253FitemID%253D7231234567&memberId=9",
    );
    const cssbuy = agents.find((agent) => agent.name === "CSSBuy")!;
    expect(buildAgentLink(cssbuy.templates.weidian!, { platform: "weidian", itemId: "7231234567" }, "promotionCode=abc")).toBe(
      "https://www.cssbuy.com/item-micro-7231234567.html?promotionCode=abc",
    );
  });

  it("reads every agent's link back to the item, referral or not (Tmall through a Taobao-only template reads as Taobao)", () => {
    const items = [
      { platform: "weidian", itemId: "7231234567" },
      { platform: "taobao", itemId: "623456789012" },
      { platform: "tmall", itemId: "623456789013" },
      { platform: "1688", itemId: "645678901234" },
    ] as const;
    for (const agent of agents) {
      for (const target of items) {
        const template = agentTemplateFor(agent.templates, target.platform);
        if (!template) continue;
        const expected = target.platform === "tmall" && !template.includes("{url") && !agent.templates.tmall ? "taobao" : target.platform;
        for (const referral of [null, "ref=SITE42"]) {
          const link = buildAgentLink(template, target, referral);
          expect(read(link), `${agent.name} ${target.platform} ${link}`).toEqual(item(expected, target.itemId, "agent"));
        }
      }
    }
  });

  it("reads agent links whose marketplace link is a parameter, whatever the rest of the agent's URL holds", () => {
    const encoded = encodeURIComponent("https://item.taobao.com/item.htm?id=623456789012");
    // parameters that come and go, a language prefix, a trailing slash, a page before the hash route
    expect(read(`https://www.superbuy.com/en/page/buy?url=${encoded}`)).toEqual(item("taobao", "623456789012", "agent"));
    expect(read(`https://www.superbuy.com/zh/page/buy?from=search-input&url=${encoded}`)).toEqual(item("taobao", "623456789012", "agent"));
    expect(
      read(`https://www.superbuy.com/en/page/buy/?nTag=Home-search&from=search-input&_search=url&url=${encoded}&partnercode=abc`),
    ).toEqual(item("taobao", "623456789012", "agent"));
    expect(
      read(`https://www.allchinabuy.com/en/page/buy/?url=${encodeURIComponent("https://detail.1688.com/offer/645678901234.html")}`),
    ).toEqual(item("1688", "645678901234", "agent"));
    expect(
      read(`https://www.kakobuy.com/item/details/?url=${encodeURIComponent("https://weidian.com/item.html?itemID=7231234567")}&affcode=x`),
    ).toEqual(item("weidian", "7231234567", "agent"));
    expect(read(`https://www.sugargoo.com/index.html#/home/productDetail?productLink=${encodeURIComponent(encoded)}`)).toEqual(
      item("taobao", "623456789012", "agent"),
    );
    // the parameter must still hold a marketplace link
    expect(
      read(`https://www.superbuy.com/en/page/buy?url=${encodeURIComponent("https://evil.example/item.htm?id=623456789012")}`).kind,
    ).toBe("unsupported");
    expect(read("https://www.superbuy.com/en/page/buy?q=623456789012").kind).toBe("unsupported");
  });

  it("reads agent links on the agent's mobile subdomain, not on look-alike domains", () => {
    expect(read("https://m.cnfans.com/product?id=623456789012&platform=TAOBAO")).toEqual(item("taobao", "623456789012", "agent"));
    expect(read("https://m.hoobuy.com/product/2/7231234567")).toEqual(item("weidian", "7231234567", "agent"));
    // a look-alike host is not the agent: its numbered forms mean nothing there
    expect(read("https://m.hoobuy.com.evil.example/product/2/7231234567").kind).toBe("unsupported");
    expect(read("https://nothoobuy.com/product/2/7231234567").kind).toBe("unsupported");
  });

  it("reads the older CNFans link form and agent links inside share text", () => {
    expect(read("https://cnfans.com/product/?shop_type=ali_1688&id=645678901234")).toEqual(item("1688", "645678901234", "agent"));
    expect(read("https://mulebuy.com/product/?shop_type=weidian&id=7231234567&ref=abc")).toEqual(item("weidian", "7231234567", "agent"));
    expect(read("look: https://www.cssbuy.com/item-1688-645678901234.html!")).toEqual(item("1688", "645678901234", "agent"));
    expect(read("https://www.superbuy.com/en/page/buy?from=search-input&url=https://detail.tmall.com/item.htm?id=623456789012")).toEqual(
      item("tmall", "623456789012", "agent"),
    );
  });
});

describe("the forms shoppers really paste", () => {
  it.each([
    // a language before the agent's path
    ["https://www.hoobuy.com/fr/product/2/7231234567", item("weidian", "7231234567", "agent")],
    ["https://www.ponybuy.com/en-gb/goods?product_id=7231234567&platform=weidian", item("weidian", "7231234567", "agent")],
    // a page's ending left out
    ["https://www.cssbuy.com/item-623456789012", item("taobao", "623456789012", "agent")],
    // "&inviteCode" glued onto the path
    ["https://litbuy.com/product/0/645678901234&inviteCode=ABC", item("1688", "645678901234", "agent")],
    // an "=" encoded by a pasted redirect
    ["https://weidian.com/item.html?itemID%3D7231234567&sa=D", item("weidian", "7231234567")],
    // a redirect carrying the link
    ["https://www.google.com/url?q=https://item.taobao.com/item.htm%3Fid%3D623456789012&sa=D", item("taobao", "623456789012", "agent")],
    // an unknown site carrying the link in a parameter, encoded twice
    [
      "https://agent.example/item?productUrl=https%253A%252F%252Fweidian.com%252Fitem.html%253FitemID%253D7231234567",
      item("weidian", "7231234567", "agent"),
    ],
    // an agent's link inside another agent's link
    [
      `https://www.kakobuy.com/item/details?url=${encodeURIComponent("https://www.hoobuy.com/product/1/623456789012")}`,
      item("taobao", "623456789012", "agent"),
    ],
    // the app's own schemes, and the share page naming the item targetId
    ["taobao://item.taobao.com/item.htm?id=623456789012", item("taobao", "623456789012")],
    ["https://market.m.taobao.com/app/share.html?targetId=623456789012&type=item", item("taobao", "623456789012")],
    // junk glued after the id of a nested link
    [
      "https://www.hubbuycn.com/product/item?url=https://weidian.com/item.html?itemID=7231234567=product_link&x=1",
      item("weidian", "7231234567", "agent"),
    ],
  ])("reads %s", (link, expected) => {
    expect(read(link)).toEqual(expected);
  });

  it("reads an agent the table does not know when its link names the marketplace and the item plainly", () => {
    expect(read("https://newagent.example/goods/detail?id=623456789012&platform=TAOBAO&ref=x")).toEqual(
      item("taobao", "623456789012", "agent"),
    );
    expect(read("https://newagent.example/item?shop_type=ali_1688&goodsId=645678901234")).toEqual(item("1688", "645678901234", "agent"));
    expect(read("https://newagent.example/#/detail?channel=weidian&id=7231234567")).toEqual(item("weidian", "7231234567", "agent"));
    expect(read("https://newagent.example/en/product/weidian/7231234567.html")).toEqual(item("weidian", "7231234567", "agent"));
    // shops, searches and numbered marketplaces are not read without the agent's data
    for (const link of [
      "https://newagent.example/shop?platform=taobao&id=623456789012",
      "https://newagent.example/shopdetail?t=wd&id=1625671124",
      "https://newagent.example/search?platform=taobao&id=623456789012",
      "https://newagent.example/product/2/7231234567",
      "https://newagent.example/weidian/7231234567/reviews",
      "https://newagent.example/item?platform=ebay&id=623456789012",
    ])
      expect(read(link).kind, link).not.toBe("item");
  });

  it("is not fooled by pages that are not items", () => {
    for (const link of [
      "https://hoobuy.com/shop/1/676198570",
      "https://weidian.com/?userid=1234567890",
      "https://shop123456.taobao.com/",
      "https://s.taobao.com/search?q=623456789012",
      "https://www.google.com/url?q=https://weidian.com/?userid=1234567890",
      "https://agent.example/item?url=https://weidian.com/some/other/page",
      "https://1688.com.evil.example/offer/645678901234.html",
    ])
      expect(read(link).kind, link).not.toBe("item");
  });

  it("takes only real language codes for a language prefix: an agent's own two-letter words stay its own", () => {
    const own: AgentPattern[] = [
      { name: "Two", templates: { taobao: "https://two.example/tb/{id}", weidian: "https://two.example/wd/{id}" } },
    ];
    expect(readMarketplaceInput("https://two.example/wd/7231234567", own)).toEqual(item("weidian", "7231234567", "agent"));
    expect(readMarketplaceInput("https://two.example/en/tb/623456789012", own)).toEqual(item("taobao", "623456789012", "agent"));
  });

  it("lets a good second link win over an unknown first one", () => {
    expect(read("https://example.com/finds then https://weidian.com/item.html?itemID=7231234567")).toEqual(item("weidian", "7231234567"));
  });

  it("reads every link of a text in the order pasted, the same item once, unknown links kept", () => {
    const text = [
      "my finds:",
      "https://weidian.com/item.html?itemID=7231234567 and https://item.taobao.com/item.htm?id=623456789012",
      "https://www.hoobuy.com/product/2/7231234567",
      "https://example.com/not-an-item",
      "645678901234",
    ].join("\n");
    expect(
      readMarketplaceInputs(text, agents).map(({ link, reading }) => [link, reading.kind === "item" ? reading.itemId : reading.kind]),
    ).toEqual([
      ["https://weidian.com/item.html?itemID=7231234567", "7231234567"],
      ["https://item.taobao.com/item.htm?id=623456789012", "623456789012"],
      ["https://example.com/not-an-item", "unsupported"],
      ["645678901234", "number"],
    ]);
    // Taobao and Tmall share item numbers: one listing, listed once
    expect(
      readMarketplaceInputs("https://item.taobao.com/item.htm?id=623456789012\nhttps://detail.tmall.com/item.htm?id=623456789012", agents),
    ).toHaveLength(1);
    expect(findLinks("a https://a.example/x, b weidian.com/item.html?itemID=7231234567.")).toEqual([
      "https://a.example/x",
      "https://weidian.com/item.html?itemID=7231234567",
    ]);
  });
});

describe("link forms compiled", () => {
  it("reads back every seeded form", () => {
    for (const agent of agents)
      for (const template of [...Object.values(agent.templates), ...(agent.readOnly ?? []).map((form) => form.template)])
        expect(linkFormProblem(template!), `${agent.name}: ${template}`).toBeNull();
  });

  it("names what makes a form unreadable: not a link, no placeholder, a placeholder off the path and values, two in one piece", () => {
    expect(linkFormProblem("not a link {id}")).toBe("notLink");
    expect(linkFormProblem("ftp://files.example/{id}")).toBe("notLink");
    expect(linkFormProblem("https://a.example/item")).toBe("noPlaceholder");
    expect(linkFormProblem("https://{id}.a.example/item")).toBe("misplaced");
    expect(linkFormProblem("https://a.example/item?{id}=1")).toBe("misplaced");
    expect(linkFormProblem("https://a.example/p/{url}{url2}")).toBe("twoInOnePiece");
    expect(linkFormProblem("https://a.example/p/{id}-{id}")).toBe("twoInOnePiece");
    expect(linkFormProblem("https://a.example/#/p?u={url}{id}")).toBe("twoInOnePiece");
    expect(linkFormProblem("https://a.example/p/{id}/{url}?x={url2}#/r/{id}")).toBeNull();
  });

  it("reads a link through the other forms when one form is broken, and takes the form's text as text (no pattern made of it)", () => {
    const mixed: AgentPattern[] = [
      { name: "Broken", templates: { taobao: "https://b.example/p/{url}{url2}", weidian: "https://b.example/w.+/{id}.html" } },
      { name: "Good", templates: { taobao: "https://b.example/p/{id}" } },
    ];
    expect(readMarketplaceInput("https://b.example/p/623456789012", mixed)).toEqual(item("taobao", "623456789012", "agent"));
    // "w.+" is the form's own text, not a pattern ("wxyz" is not it)
    expect(readMarketplaceInput("https://b.example/w.+/7231234567.html", mixed)).toEqual(item("weidian", "7231234567", "agent"));
    expect(readMarketplaceInput("https://b.example/wxyz/7231234567.html", mixed).kind).toBe("unsupported");
  });
});
