/**
 * The demo catalogue seeded into an empty database: bilingual categories (one level of
 * parents) and products from the four marketplaces, local and external, with SKUs and
 * images drawn here with sharp (a coloured square with the product's initials in a pixel
 * font: no fonts, no network, the same picture on every machine).
 *
 * Some products get QC photos as a shopper's agent would take them (the item on a
 * warehouse table beside a ruler): approved sets in the gallery, and one shopper's upload
 * waiting for review.
 *
 * Deterministic: every choice comes from a seeded pseudo-random generator, so the demo
 * looks the same on every start. Images are stored (storeImage, which records uploads
 * through the app's connection) in `prepare`, before the seeding transaction opens.
 */
import type { Kysely } from "kysely";
import sharp from "sharp";
import { insertCategory } from "../../app/models/category.server";
import { insertProduct, type SkuInput } from "../../app/models/product.server";
import { marketplaceUrl, PLATFORMS } from "../../app/schemas/catalogue-rules";
import { insertQcImages, type NewQcImage } from "../../app/models/qc.server";
import { removeUpload, storeImage, storeImageWithThumbnail, type StoredUpload } from "../../app/services/uploads.server";
import type { Database, Platform } from "../../db/schema";
import type { Seeder } from "./seed";

// ---------------------------------------------------------------- pseudo-random

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = 20261123;

const pick = <T>(rng: () => number, list: readonly T[]): T => list[Math.floor(rng() * list.length)];
const between = (rng: () => number, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));

// ---------------------------------------------------------------- the catalogue

type CategorySeed = { key: string; name: string; description: string; parent?: string };

export const DEMO_CATEGORIES: readonly CategorySeed[] = [
  { key: "shoes", name: "鞋类 Shoes", description: "运动鞋、靴子和休闲鞋 Sneakers, boots and casual shoes" },
  { key: "sneakers", name: "运动鞋 Sneakers", description: "篮球鞋、跑鞋、板鞋 Basketball, running and skate shoes", parent: "shoes" },
  { key: "boots", name: "靴子 Boots", description: "马丁靴、工装靴、切尔西靴 Work boots and Chelsea boots", parent: "shoes" },
  { key: "clothing", name: "服装 Clothing", description: "上衣、外套和裤子 Tops, outerwear and bottoms" },
  { key: "hoodies", name: "卫衣 Hoodies & sweatshirts", description: "连帽卫衣和圆领卫衣 Hoodies and crewnecks", parent: "clothing" },
  {
    key: "jackets",
    name: "外套 Jackets & coats",
    description: "羽绒服、冲锋衣、夹克 Down jackets, shells and work jackets",
    parent: "clothing",
  },
  { key: "tees", name: "T恤 T-shirts", description: "短袖T恤和Polo衫 Tees and polo shirts", parent: "clothing" },
  { key: "pants", name: "裤子 Pants", description: "牛仔裤、工装裤、短裤 Jeans, cargos and shorts", parent: "clothing" },
  { key: "bags", name: "包袋 Bags", description: "双肩包、托特包、斜挎包 Backpacks, totes and crossbody bags" },
  { key: "accessories", name: "配饰 Accessories", description: "手表、帽子、首饰和皮带 Watches, hats, jewellery and belts" },
  { key: "watches", name: "手表 Watches", description: "石英表和机械表 Quartz and automatic watches", parent: "accessories" },
  { key: "hats", name: "帽子 Hats", description: "棒球帽、毛线帽、渔夫帽 Caps, beanies and bucket hats", parent: "accessories" },
  { key: "electronics", name: "数码 Electronics", description: "耳机、充电器和小配件 Earbuds, chargers and gadgets" },
];

type SkuKind = "shoe" | "apparel" | "colour" | "edition" | "one";

type ProductSeed = { name: string; description: string; price: number; category: string; skus: SkuKind };

export const DEMO_PRODUCTS: readonly ProductSeed[] = [
  {
    name: "Nike Air Force 1 耐克空军一号 白色",
    description: "经典低帮板鞋，全白皮革鞋面。The classic low-top in all-white leather.",
    price: 699,
    category: "sneakers",
    skus: "shoe",
  },
  {
    name: "Nike Dunk Low 耐克熊猫配色 Panda",
    description: "黑白熊猫配色，日常百搭。Black and white Panda colourway for every day.",
    price: 799,
    category: "sneakers",
    skus: "shoe",
  },
  {
    name: "Adidas Samba OG 阿迪达斯德训鞋",
    description: "翻毛皮鞋头，生胶大底。Suede toe overlay on a gum rubber sole.",
    price: 759,
    category: "sneakers",
    skus: "shoe",
  },
  {
    name: "New Balance 550 新百伦复古篮球鞋",
    description: "八十年代篮球鞋复刻。A reissue of the 1989 basketball shoe.",
    price: 649,
    category: "sneakers",
    skus: "shoe",
  },
  {
    name: "Asics Gel-Kayano 14 亚瑟士跑鞋 银色",
    description: "千禧年跑鞋设计，GEL缓震。Millennium running style with GEL cushioning.",
    price: 899,
    category: "sneakers",
    skus: "shoe",
  },
  {
    name: "Converse Chuck 70 匡威高帮帆布鞋",
    description: "加厚帆布与复古鞋头。Heavier canvas and a vintage toe cap.",
    price: 569,
    category: "sneakers",
    skus: "shoe",
  },
  {
    name: "Jordan 1 Retro High 乔丹一代 芝加哥",
    description: "红白黑芝加哥配色高帮。High-top in the Chicago red, white and black.",
    price: 1299,
    category: "sneakers",
    skus: "shoe",
  },
  {
    name: "Li-Ning Way of Wade 李宁韦德之道 篮球鞋",
    description: "䨻科技中底，轻量回弹。Boom foam midsole, light and springy.",
    price: 1099,
    category: "sneakers",
    skus: "shoe",
  },
  {
    name: "Dr. Martens 1460 马丁靴 8孔 黑色",
    description: "八孔光面皮，黄色缝线。Eight-eyelet smooth leather with yellow stitching.",
    price: 1399,
    category: "boots",
    skus: "shoe",
  },
  {
    name: "Timberland 6-Inch 大黄靴 Yellow boot",
    description: "防水磨砂皮工装靴。Waterproof nubuck work boot.",
    price: 1290,
    category: "boots",
    skus: "shoe",
  },
  {
    name: "切尔西靴 Chelsea boots 真皮",
    description: "头层牛皮，松紧侧边，一脚蹬。Full-grain leather with elastic side panels.",
    price: 459,
    category: "boots",
    skus: "shoe",
  },
  {
    name: "加绒连帽卫衣 Fleece hoodie",
    description: "内里加绒，秋冬保暖，宽松版型。Brushed fleece inside, relaxed fit for cold days.",
    price: 189,
    category: "hoodies",
    skus: "apparel",
  },
  {
    name: "Essentials 连帽卫衣 Oversized hoodie 灰色",
    description: "落肩宽松，胸前硅胶标。Dropped shoulders and a rubberised chest logo.",
    price: 329,
    category: "hoodies",
    skus: "apparel",
  },
  {
    name: "Carhartt WIP 圆领卫衣 Crewneck sweatshirt",
    description: "厚实棉质，经典小标。Heavy cotton with the small square label.",
    price: 599,
    category: "hoodies",
    skus: "apparel",
  },
  {
    name: "华夫格半拉链卫衣 Waffle half-zip sweatshirt",
    description: "华夫格面料，立领半拉链。Waffle knit with a stand collar and half zip.",
    price: 159,
    category: "hoodies",
    skus: "apparel",
  },
  {
    name: "Stussy 字母印花连帽卫衣 Logo hoodie",
    description: "胸前签名字母印花。Signature script print on the chest.",
    price: 699,
    category: "hoodies",
    skus: "apparel",
  },
  {
    name: "The North Face 1996 Nuptse 北面羽绒服 Down jacket",
    description: "700蓬鹅绒填充，可收纳帽。700-fill goose down with a stowable hood.",
    price: 1899,
    category: "jackets",
    skus: "apparel",
  },
  {
    name: "Arcteryx Beta 始祖鸟冲锋衣 Shell jacket 防水",
    description: "三层防水面料，轻量全能。Three-layer waterproof shell, light and versatile.",
    price: 2999,
    category: "jackets",
    skus: "apparel",
  },
  {
    name: "复古工装夹克 Workwear chore jacket",
    description: "帆布面料，四口袋设计。Cotton canvas with four patch pockets.",
    price: 269,
    category: "jackets",
    skus: "apparel",
  },
  {
    name: "轻薄羽绒马甲 Lightweight down vest",
    description: "90%白鸭绒，可收纳。90% white duck down, packs into its pocket.",
    price: 239,
    category: "jackets",
    skus: "apparel",
  },
  {
    name: "Patagonia Retro-X 巴塔哥尼亚摇粒绒外套 Fleece jacket",
    description: "防风摇粒绒，复古撞色。Windproof pile fleece with contrast trims.",
    price: 1499,
    category: "jackets",
    skus: "apparel",
  },
  {
    name: "纯棉重磅短袖T恤 Heavyweight cotton tee",
    description: "260克重磅纯棉，不易变形。260 gsm cotton that keeps its shape.",
    price: 79,
    category: "tees",
    skus: "apparel",
  },
  {
    name: "Fear of God Essentials 短袖T恤 tee",
    description: "宽松落肩，背部字母印花。Boxy fit with a back logo print.",
    price: 259,
    category: "tees",
    skus: "apparel",
  },
  {
    name: "印花图案T恤 Graphic print tee 夏季",
    description: "复古图案印花，夏季透气。Vintage graphic print, breathable for summer.",
    price: 99,
    category: "tees",
    skus: "apparel",
  },
  {
    name: "Polo衫 Pique polo shirt 商务休闲",
    description: "珠地网眼面料，商务休闲两用。Cotton piqué for the office and the weekend.",
    price: 149,
    category: "tees",
    skus: "apparel",
  },
  {
    name: "直筒牛仔裤 Straight-leg jeans 水洗蓝",
    description: "水洗做旧，直筒版型。Stone-washed denim in a straight cut.",
    price: 229,
    category: "pants",
    skus: "apparel",
  },
  {
    name: "工装束脚裤 Cargo jogger pants",
    description: "多口袋工装设计，束脚收口。Cargo pockets and cuffed ankles.",
    price: 179,
    category: "pants",
    skus: "apparel",
  },
  {
    name: "Lululemon ABC 休闲裤 Slim pants",
    description: "弹力面料，久坐不皱。Stretch fabric that resists creasing.",
    price: 850,
    category: "pants",
    skus: "apparel",
  },
  {
    name: "运动短裤 Mesh basketball shorts",
    description: "网眼透气，松紧腰头。Breathable mesh with an elastic waist.",
    price: 69,
    category: "pants",
    skus: "apparel",
  },
  {
    name: "帆布托特包 Canvas tote bag",
    description: "12安加厚帆布，大容量。Heavy 12 oz canvas with plenty of room.",
    price: 59,
    category: "bags",
    skus: "colour",
  },
  {
    name: "Herschel 双肩包 Backpack 大容量",
    description: "独立电脑隔层，容量25升。Padded laptop sleeve, 25 litres.",
    price: 459,
    category: "bags",
    skus: "colour",
  },
  {
    name: "Longchamp 珑骧饺子包 Le Pliage tote",
    description: "可折叠尼龙托特包。The foldable nylon tote.",
    price: 690,
    category: "bags",
    skus: "colour",
  },
  {
    name: "斜挎胸包 Crossbody sling bag",
    description: "防泼水面料，多隔层。Water-repellent with several compartments.",
    price: 89,
    category: "bags",
    skus: "colour",
  },
  {
    name: "Casio G-Shock GA-2100 卡西欧农家橡树",
    description: "八角形表圈，碳核心防护。Octagonal bezel with carbon core guard.",
    price: 799,
    category: "watches",
    skus: "colour",
  },
  {
    name: "Seiko 5 Sports 精工机械表",
    description: "自动上链机芯，100米防水。Automatic movement, 100 m water resistance.",
    price: 1650,
    category: "watches",
    skus: "colour",
  },
  {
    name: "极简石英手表 Minimalist quartz watch",
    description: "超薄表盘，真皮表带。Slim dial on a leather strap.",
    price: 199,
    category: "watches",
    skus: "colour",
  },
  {
    name: "New Era 9FORTY 棒球帽 Baseball cap",
    description: "可调节后扣，刺绣标志。Adjustable strap and an embroidered logo.",
    price: 229,
    category: "hats",
    skus: "colour",
  },
  {
    name: "针织毛线帽 Knit beanie 冬季保暖",
    description: "罗纹针织，双层保暖。Ribbed knit, double layer for warmth.",
    price: 39,
    category: "hats",
    skus: "colour",
  },
  {
    name: "渔夫帽 Bucket hat 防晒",
    description: "纯棉斜纹，宽帽檐防晒。Cotton twill with a wide brim for the sun.",
    price: 49,
    category: "hats",
    skus: "colour",
  },
  {
    name: "925银项链 Sterling silver chain necklace",
    description: "925纯银古巴链。Solid 925 silver Cuban link chain.",
    price: 168,
    category: "accessories",
    skus: "edition",
  },
  {
    name: "真皮皮带 Leather belt 自动扣",
    description: "头层牛皮，合金自动扣。Full-grain leather with an automatic buckle.",
    price: 129,
    category: "accessories",
    skus: "edition",
  },
  {
    name: "蓝牙耳机 Wireless earbuds 降噪",
    description: "主动降噪，续航30小时。Active noise cancelling, 30 hours with the case.",
    price: 299,
    category: "electronics",
    skus: "edition",
  },
  {
    name: "20000mAh 充电宝 Power bank 快充",
    description: "双向快充，可上飞机。Fast charging both ways, cabin-safe.",
    price: 129,
    category: "electronics",
    skus: "edition",
  },
  {
    name: "机械键盘 Mechanical keyboard 87键",
    description: "热插拔轴体，RGB背光。Hot-swap switches with RGB backlight.",
    price: 349,
    category: "electronics",
    skus: "edition",
  },
  {
    name: "Xiaomi 小米手环 Smart Band 8",
    description: "AMOLED屏幕，16天续航。AMOLED screen and 16-day battery.",
    price: 239,
    category: "electronics",
    skus: "one",
  },
  {
    name: "Anker 65W 氮化镓充电器 GaN charger",
    description: "三口快充，小巧便携。Three ports in a pocket-sized charger.",
    price: 169,
    category: "electronics",
    skus: "one",
  },
];

const SKU_CHOICES: Record<Exclude<SkuKind, "one">, readonly string[]> = {
  shoe: ["EU 39", "EU 40", "EU 41", "EU 42", "EU 43", "EU 44", "EU 45"],
  apparel: ["S", "M", "L", "XL", "XXL", "黑色 Black / M", "白色 White / L", "灰色 Grey / XL"],
  colour: ["黑色 Black", "白色 White", "卡其 Khaki", "藏青 Navy", "军绿 Olive", "酒红 Burgundy"],
  edition: ["标准版 Standard", "升级版 Plus", "礼盒装 Gift box", "Pro"],
};

const SHOPS: Record<Platform, readonly string[]> = {
  weidian: ["潮流鞋铺 Trend Kicks", "Ace Studio 工作室", "阿杰严选 AJ Select", "老顾客店 Repeat Buyers"],
  taobao: ["优衣工坊 Uniwork", "北街古着 North Street Vintage", "大码男装铺 Big & Tall", "数码小站 Gadget Hut"],
  tmall: [
    "潮牌集合旗舰店 Streetwear Hub",
    "运动户外旗舰店 Sport & Outdoor",
    "男装官方旗舰店 Menswear Official",
    "数码配件旗舰店 Digital Accessories",
  ],
  "1688": [
    "广州服装厂 Guangzhou Garment Factory",
    "义乌小商品批发 Yiwu Wholesale",
    "莆田鞋业 Putian Footwear",
    "深圳电子厂 Shenzhen Electronics",
  ],
};

/** Item ids shaped like the real ones: weidian 10 digits, the others 12. */
function itemIdFor(rng: () => number, platform: Platform): string {
  const digits = platform === "weidian" ? 10 : 12;
  let id = String(between(rng, 6, 7));
  while (id.length < digits) id += String(Math.floor(rng() * 10));
  return id;
}

/** Initials for the picture: the first letters of the first two Latin words. */
export function initialsOf(name: string): string {
  const words = name.match(/[A-Za-z0-9]+/g) ?? [];
  const letters = words
    .slice(0, 2)
    .map((word) => word[0].toUpperCase())
    .join("");
  return letters || "QC";
}

// ---------------------------------------------------------------- the plan

export type PlannedProduct = {
  seed: ProductSeed;
  platform: Platform;
  itemId: string;
  isExternal: boolean;
  shopName: string | null;
  viewCount: number;
  imageCount: number;
  hue: number;
  skus: SkuInput[];
};

/** Every random choice, made once from the fixed seed (prepare and run see the same plan). */
export function planCatalogue(): PlannedProduct[] {
  const rng = seededRandom(SEED);
  return DEMO_PRODUCTS.map((seed, index) => {
    // every platform and both kinds are guaranteed by the rotation; the rest is drawn
    const platform = PLATFORMS[index % PLATFORMS.length];
    const isExternal = index % 3 !== 0;
    const itemId = itemIdFor(rng, platform);
    const shopName = isExternal ? pick(rng, SHOPS[platform]) : null;
    const viewCount = rng() < 0.35 ? between(rng, 12, 4800) : 0;
    const imageCount = between(rng, 1, 3);
    const hue = Math.floor(rng() * 360);
    let skus: SkuInput[];
    if (seed.skus === "one") {
      skus = [{ name: "默认 Default", priceCny: seed.price, stock: between(rng, 0, 300) }];
    } else {
      const choices = SKU_CHOICES[seed.skus];
      const count = between(rng, 1, 4);
      const start = between(rng, 0, choices.length - count);
      skus = choices.slice(start, start + count).map((name, position) => ({
        name,
        // larger sizes and upgraded editions cost a little more
        priceCny: Math.round((seed.price + position * (seed.skus === "edition" ? 40 : 5)) * 100) / 100,
        stock: rng() < 0.1 ? 0 : between(rng, 3, 480),
      }));
    }
    return { seed, platform, itemId, isExternal, shopName, viewCount, imageCount, hue, skus };
  });
}

// ---------------------------------------------------------------- pictures

/** 5×7 pixel glyphs (rows of 5 bits, top to bottom). */
const GLYPHS: Record<string, readonly number[]> = {
  A: [0b01110, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001],
  B: [0b11110, 0b10001, 0b10001, 0b11110, 0b10001, 0b10001, 0b11110],
  C: [0b01110, 0b10001, 0b10000, 0b10000, 0b10000, 0b10001, 0b01110],
  D: [0b11100, 0b10010, 0b10001, 0b10001, 0b10001, 0b10010, 0b11100],
  E: [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b11111],
  F: [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b10000],
  G: [0b01110, 0b10001, 0b10000, 0b10111, 0b10001, 0b10001, 0b01111],
  H: [0b10001, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001],
  I: [0b01110, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],
  J: [0b00111, 0b00010, 0b00010, 0b00010, 0b00010, 0b10010, 0b01100],
  K: [0b10001, 0b10010, 0b10100, 0b11000, 0b10100, 0b10010, 0b10001],
  L: [0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b11111],
  M: [0b10001, 0b11011, 0b10101, 0b10101, 0b10001, 0b10001, 0b10001],
  N: [0b10001, 0b10001, 0b11001, 0b10101, 0b10011, 0b10001, 0b10001],
  O: [0b01110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110],
  P: [0b11110, 0b10001, 0b10001, 0b11110, 0b10000, 0b10000, 0b10000],
  Q: [0b01110, 0b10001, 0b10001, 0b10001, 0b10101, 0b10010, 0b01101],
  R: [0b11110, 0b10001, 0b10001, 0b11110, 0b10100, 0b10010, 0b10001],
  S: [0b01111, 0b10000, 0b10000, 0b01110, 0b00001, 0b00001, 0b11110],
  T: [0b11111, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100],
  U: [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110],
  V: [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01010, 0b00100],
  W: [0b10001, 0b10001, 0b10001, 0b10101, 0b10101, 0b10101, 0b01010],
  X: [0b10001, 0b10001, 0b01010, 0b00100, 0b01010, 0b10001, 0b10001],
  Y: [0b10001, 0b10001, 0b10001, 0b01010, 0b00100, 0b00100, 0b00100],
  Z: [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0b11111],
  "0": [0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110],
  "1": [0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],
  "2": [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111],
  "3": [0b11111, 0b00010, 0b00100, 0b00010, 0b00001, 0b10001, 0b01110],
  "4": [0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010],
  "5": [0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110],
  "6": [0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110],
  "7": [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000],
  "8": [0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110],
  "9": [0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100],
};

export const IMAGE_SIZE = 480;

/** The initials as SVG rects (one per horizontal run of pixels), centred at (cx, cy). */
function pixelText(text: string, cx: number, cy: number, cell: number, fill: string): string {
  const chars = Array.from(text).filter((c) => GLYPHS[c]);
  const width = chars.length * 6 - 1;
  const left = Math.round(cx - (width * cell) / 2);
  const top = Math.round(cy - (7 * cell) / 2);
  const rects: string[] = [];
  chars.forEach((char, n) => {
    GLYPHS[char].forEach((bits, row) => {
      let col = 0;
      while (col < 5) {
        if (!(bits & (1 << (4 - col)))) {
          col++;
          continue;
        }
        let end = col;
        while (end < 5 && bits & (1 << (4 - end))) end++;
        rects.push(`<rect x="${left + (n * 6 + col) * cell}" y="${top + row * cell}" width="${(end - col) * cell}" height="${cell}"/>`);
        col = end;
      }
    });
  });
  return `<g fill="${fill}" shape-rendering="crispEdges">${rects.join("")}</g>`;
}

/**
 * One picture of a product: view n (0, 1, 2) shifts the colour and the decoration. The
 * gradient runs in a direction of the product's own (from its hue and initials), so that two products'
 * pictures differ in their light and shade too, not only in their colour and initials:
 * search by photo reads pictures in grey, where two initials alone are a small difference
 * (decision 047).
 */
export function productSvg(initials: string, hue: number, view: number): string {
  const size = IMAGE_SIZE;
  const h = (hue + view * 40) % 360;
  const turn = (((hue * 7 + initials.charCodeAt(0) * 53 + (initials.charCodeAt(1) || 0) * 97) % 360) * Math.PI) / 180;
  const [x2, y2] = [0.5 + 0.5 * Math.cos(turn), 0.5 + 0.5 * Math.sin(turn)].map((v) => v.toFixed(3));
  const [x1, y1] = [1 - Number(x2), 1 - Number(y2)].map((v) => v.toFixed(3));
  const decoration = [
    `<circle cx="${size * 0.8}" cy="${size * 0.18}" r="${size * 0.3}" fill="#fff" fill-opacity="0.12"/>`,
    `<rect x="${-size * 0.2}" y="${size * 0.62}" width="${size * 1.4}" height="${size * 0.16}" fill="#fff" fill-opacity="0.12" transform="rotate(-12 ${size / 2} ${size / 2})"/>`,
    `<circle cx="${size * 0.15}" cy="${size * 0.85}" r="${size * 0.28}" fill="#000" fill-opacity="0.1"/>`,
  ][view % 3];
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `<defs><linearGradient id="g" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">` +
    `<stop offset="0" stop-color="hsl(${h}, 55%, 52%)"/><stop offset="1" stop-color="hsl(${(h + 30) % 360}, 60%, 32%)"/>` +
    `</linearGradient></defs>` +
    `<rect width="${size}" height="${size}" fill="url(#g)"/>${decoration}` +
    pixelText(initials, size / 2, size / 2, 22, "#fff") +
    `</svg>`
  );
}

/** A PNG of the picture (storeImage re-encodes it as WebP like any upload). */
export async function renderProductImage(initials: string, hue: number, view: number): Promise<Buffer> {
  return sharp(Buffer.from(productSvg(initials, hue, view)))
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/**
 * A QC photo: the product's picture lying on a grey warehouse table, turned a little,
 * with a ruler beside it (4:3, like a phone photo).
 */
export function qcPhotoSvg(initials: string, hue: number, shot: number): string {
  const width = 800;
  const height = 600;
  const angle = ((shot * 37) % 24) - 12;
  const item = 340;
  const ticks = Array.from({ length: 31 }, (_, i) => {
    const x = 60 + i * 22;
    const long = i % 5 === 0;
    return `<rect x="${x}" y="520" width="2" height="${long ? 26 : 14}" fill="#333"/>`;
  }).join("");
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="${width}" height="${height}" fill="hsl(30, 6%, ${58 + (shot % 3) * 6}%)"/>` +
    `<rect x="0" y="${height * 0.72}" width="${width}" height="${height * 0.28}" fill="#000" fill-opacity="0.08"/>` +
    `<g transform="rotate(${angle} ${width / 2} ${height / 2 - 30})">` +
    `<rect x="${width / 2 - item / 2 + 10}" y="${height / 2 - 30 - item / 2 + 12}" width="${item}" height="${item}" fill="#000" fill-opacity="0.25"/>` +
    `<svg x="${width / 2 - item / 2}" y="${height / 2 - 30 - item / 2}" width="${item}" height="${item}" viewBox="0 0 ${IMAGE_SIZE} ${IMAGE_SIZE}">` +
    productSvg(initials, hue, shot).replace(/^<svg[^>]*>|<\/svg>$/g, "") +
    `</svg></g>` +
    `<rect x="50" y="510" width="700" height="50" rx="4" fill="#f2d34f"/>${ticks}` +
    pixelText("QC", 720, 60, 6, "#fff") +
    `</svg>`
  );
}

export async function renderQcPhoto(initials: string, hue: number, shot: number): Promise<Buffer> {
  return sharp(Buffer.from(qcPhotoSvg(initials, hue, shot)))
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** Which demo products get QC photos: sets of 2–4 approved photos, and one pending upload. */
export type PlannedQcSet = { product: number; photos: number; status: "approved" | "pending"; daysAgo: number };

export function planQcSets(productCount: number): PlannedQcSet[] {
  const rng = seededRandom(SEED + 1);
  const sets: PlannedQcSet[] = [];
  Array.from({ length: productCount }).forEach((_, index) => {
    if (index % 4 !== 0) return;
    const count = index % 8 === 0 ? 2 : 1;
    for (let n = 0; n < count; n++)
      sets.push({ product: index, photos: between(rng, 2, 4), status: "approved", daysAgo: between(rng, 1, 40) + n * 20 });
  });
  sets.push({ product: 1, photos: 2, status: "pending", daysAgo: 0 });
  return sets;
}

/** The shopper whose upload waits for review: no password, so nobody can log in as them. */
const DEMO_SHOPPER = { username: "demo_shopper", email: "demo-shopper@example.invalid" };

// ---------------------------------------------------------------- the seeder

const IMAGE_MESSAGES = { notImage: "demo image could not be read", tooLarge: "demo image too large" };
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** pictures drawn and stored at once (sharp works on its own threads) */
const IMAGE_CONCURRENCY = 4;

type StoredQcPhoto = { image: StoredUpload; thumb: StoredUpload };
export type PreparedCatalogue = { plan: PlannedProduct[]; images: StoredUpload[][]; qc: StoredQcPhoto[][] };

const QC_THUMBNAIL = { maxEdge: 400, quality: 70 };

async function prepare(): Promise<PreparedCatalogue> {
  const plan = planCatalogue();
  const jobs = plan.flatMap((product, p) => Array.from({ length: product.imageCount }, (_, view) => ({ p, view })));
  const images: StoredUpload[][] = plan.map(() => []);
  const stored: StoredUpload[] = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const { p, view } = jobs[next++];
      const png = await renderProductImage(initialsOf(plan[p].seed.name), plan[p].hue, view);
      const upload = await storeImage(
        new Blob([new Uint8Array(png)], { type: "image/png" }),
        "products",
        null,
        IMAGE_MESSAGES,
        IMAGE_MAX_BYTES,
      );
      stored.push(upload);
      images[p][view] = upload;
    }
  };
  const sets = planQcSets(plan.length);
  const qc: StoredQcPhoto[][] = sets.map(() => []);
  const qcJobs = sets.flatMap((set, n) => Array.from({ length: set.photos }, (_, shot) => ({ n, shot })));
  let nextQc = 0;
  const qcWorker = async () => {
    while (nextQc < qcJobs.length) {
      const { n, shot } = qcJobs[nextQc++];
      const product = plan[sets[n].product];
      const jpeg = await renderQcPhoto(initialsOf(product.seed.name), product.hue, shot + n);
      const photo = await storeImageWithThumbnail(
        new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }),
        "qc",
        null,
        IMAGE_MESSAGES,
        IMAGE_MAX_BYTES,
        QC_THUMBNAIL,
      );
      stored.push(photo.image, photo.thumb);
      qc[n][shot] = photo;
    }
  };
  try {
    await Promise.all(Array.from({ length: IMAGE_CONCURRENCY }, worker));
    await Promise.all(Array.from({ length: IMAGE_CONCURRENCY }, qcWorker));
  } catch (error) {
    await discard({ plan, images: [stored], qc: [] });
    throw error;
  }
  return { plan, images, qc };
}

async function discard(prepared: PreparedCatalogue): Promise<void> {
  const uploads = [...prepared.images.flat(), ...prepared.qc.flat().flatMap((photo) => [photo.image, photo.thumb])];
  for (const upload of uploads) await removeUpload(upload).catch(() => undefined);
}

async function run(db: Kysely<Database>, { plan, images, qc }: PreparedCatalogue): Promise<void> {
  const productIds: number[] = [];
  const categoryIds = new Map<string, number>();
  let sortOrder = 0;
  for (const category of DEMO_CATEGORIES) {
    // parents come first in the list, so their ids are known
    const parentId = category.parent ? (categoryIds.get(category.parent) ?? null) : null;
    const row = await insertCategory(db, { name: category.name, description: category.description, parentId, sortOrder: sortOrder++ });
    categoryIds.set(category.key, row.id);
  }
  for (const [p, product] of plan.entries()) {
    const created = await insertProduct(
      db,
      {
        name: product.seed.name,
        description: product.seed.description,
        priceCny: product.seed.price,
        categoryId: categoryIds.get(product.seed.category) ?? null,
        images: images[p].map((upload) => upload.url),
        platform: product.platform,
        platformItemId: product.itemId,
        originalUrl: marketplaceUrl(product.platform, product.itemId),
        shopName: product.shopName,
        isExternal: product.isExternal,
        showInListing: true,
      },
      product.skus,
      null,
    );
    if (product.viewCount) await db.updateTable("products").set({ view_count: product.viewCount }).where("id", "=", created.id).execute();
    productIds.push(created.id);
  }
  await seedQcPhotos(db, productIds, qc);
}

async function seedQcPhotos(db: Kysely<Database>, productIds: number[], qc: StoredQcPhoto[][]): Promise<void> {
  const sets = planQcSets(productIds.length);
  let shopperId: number | null = null;
  if (sets.some((set) => set.status === "pending")) {
    const existing = await db.selectFrom("users").select("id").where("username", "=", DEMO_SHOPPER.username).executeTakeFirst();
    shopperId =
      existing?.id ??
      (
        await db
          .insertInto("users")
          .values({ username: DEMO_SHOPPER.username, email: DEMO_SHOPPER.email, password_hash: null })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
  }
  const day = 24 * 60 * 60_000;
  for (const [n, set] of sets.entries()) {
    const rows: NewQcImage[] = qc[n].map((photo) => ({
      productId: productIds[set.product],
      status: set.status,
      imageUrl: photo.image.url,
      thumbUrl: photo.thumb.url,
      width: photo.image.width ?? 0,
      height: photo.image.height ?? 0,
      thumbWidth: photo.thumb.width ?? 0,
      thumbHeight: photo.thumb.height ?? 0,
      bytes: photo.image.bytes,
      setKey: `demo-${n}`,
      uploadedBy: set.status === "pending" ? shopperId : null,
    }));
    const ids = await insertQcImages(db, rows);
    const at = new Date(Date.now() - set.daysAgo * day).toISOString();
    await db
      .updateTable("qc_images")
      .set({ created_at: at, ...(set.status === "approved" ? { reviewed_at: at } : {}) })
      .where("id", "in", ids)
      .execute();
  }
}

async function hasData(db: Kysely<Database>): Promise<boolean> {
  const [category, product] = await Promise.all([
    db.selectFrom("categories").select("id").limit(1).executeTakeFirst(),
    db.selectFrom("products").select("id").limit(1).executeTakeFirst(),
  ]);
  return Boolean(category || product);
}

export const catalogueSeeder: Seeder<PreparedCatalogue> = { name: "catalogue", hasData, prepare, run, discard };
