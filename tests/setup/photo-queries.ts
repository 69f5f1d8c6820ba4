/**
 * The photos shoppers bring, made from a catalogue picture (issue 38): what a chat app, a
 * screenshot or a reseller does to it. Used by the fingerprint tests and the bench's
 * evaluation; the pictures are real photographs (tests/fixtures/photos/SOURCES.md).
 */
import fs from "node:fs";
import path from "node:path";
import sharp, { type Sharp } from "sharp";

export const PHOTOS_DIR = path.join(process.cwd(), "tests", "fixtures", "photos");

/** The catalogue's pictures and the photos of things not in it, by name. */
export function fixturePhotos(set: "catalogue" | "elsewhere"): Array<{ name: string; file: string }> {
  const dir = path.join(PHOTOS_DIR, set);
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".jpg"))
    .sort()
    .map((name) => ({ name: name.replace(/\.jpg$/, ""), file: path.join(dir, name) }));
}

type Transform = (input: Buffer) => Promise<Buffer>;

const size = async (input: Buffer) => {
  const { width = 1, height = 1 } = await sharp(input).metadata();
  return { width, height };
};

const jpeg = (image: Sharp, quality = 80) => image.jpeg({ quality }).toBuffer();

/** 10–20 % off the given edges. */
const cropped =
  (edges: Partial<Record<"left" | "right" | "top" | "bottom", number>>): Transform =>
  async (input) => {
    const { width, height } = await size(input);
    const left = Math.round(width * (edges.left ?? 0));
    const top = Math.round(height * (edges.top ?? 0));
    const w = width - left - Math.round(width * (edges.right ?? 0));
    const h = height - top - Math.round(height * (edges.bottom ?? 0));
    return jpeg(sharp(input).extract({ left, top, width: w, height: h }));
  };

/** A phone screenshot of the picture in a chat: a black screen, a status bar, the picture across its width. */
const screenshot: Transform = async (input) => {
  const screen = { width: 720, height: 1560 };
  const picture = await sharp(input).resize(screen.width, undefined).toBuffer();
  const { height } = await size(picture);
  const bar = Buffer.from(
    `<svg width="${screen.width}" height="64"><rect width="100%" height="100%" fill="#111"/>` +
      `<text x="28" y="44" font-size="30" fill="#fff" font-family="sans-serif">9:41</text>` +
      `<rect x="620" y="22" width="56" height="24" rx="5" fill="none" stroke="#fff" stroke-width="3"/><rect x="624" y="26" width="40" height="16" fill="#fff"/></svg>`,
  );
  return jpeg(
    sharp({ create: { ...screen, channels: 3, background: "#000" } }).composite([
      { input: bar, top: 0, left: 0 },
      { input: picture, top: Math.round((screen.height - height) / 2), left: 0 },
    ]),
  );
};

/** A reseller's copy: the picture on a white card with a grey header and a price line under it. */
const framed: Transform = async (input) => {
  const picture = await sharp(input).resize(600, 600, { fit: "inside" }).toBuffer();
  const { width, height } = await size(picture);
  const card = { width: width + 80, height: height + 220 };
  const header = Buffer.from(
    `<svg width="${card.width}" height="90"><rect width="100%" height="100%" fill="#e8e8e8"/>` +
      `<text x="30" y="58" font-size="34" fill="#333" font-family="sans-serif">店铺 Shop 2024</text></svg>`,
  );
  const price = Buffer.from(
    `<svg width="${card.width}" height="90"><text x="40" y="60" font-size="40" fill="#e4393c" font-family="sans-serif">¥ 268.00</text></svg>`,
  );
  return jpeg(
    sharp({ create: { ...card, channels: 3, background: "#fff" } }).composite([
      { input: header, top: 0, left: 0 },
      { input: picture, top: 110, left: 40 },
      { input: price, top: 110 + height + 10, left: 0 },
    ]),
  );
};

/** A text watermark across the picture. */
const watermarked: Transform = async (input) => {
  const { width, height } = await size(input);
  const text = Buffer.from(
    `<svg width="${width}" height="${height}"><g transform="rotate(-20 ${width / 2} ${height / 2})" font-family="sans-serif" font-weight="bold" fill="#fff" fill-opacity="0.55" stroke="#000" stroke-opacity="0.25">` +
      `<text x="${width * 0.08}" y="${height * 0.45}" font-size="${Math.round(width / 9)}">@weidian 微店</text>` +
      `<text x="${width * 0.2}" y="${height * 0.7}" font-size="${Math.round(width / 14)}">QC 1:1 原单</text></g></svg>`,
  );
  return jpeg(sharp(input).composite([{ input: text, top: 0, left: 0 }]));
};

const downscaled: Transform = async (input) => {
  const { width } = await size(input);
  return jpeg(sharp(input).resize(Math.round(width * 0.4)), 80);
};
const lowQuality: Transform = (input) => jpeg(sharp(input), 35);
const mirrored: Transform = (input) => jpeg(sharp(input).flop());
const rotated: Transform = (input) => jpeg(sharp(input).rotate(3, { background: "#ffffff" }));
const both =
  (first: Transform, second: Transform): Transform =>
  async (input) =>
    second(await first(input));

/** Each way a shopper's photo arrives, by name. */
export const QUERY_TRANSFORMS: ReadonlyArray<[string, Transform]> = [
  ["downscaled to 40 %", downscaled],
  ["JPEG quality 35", lowQuality],
  ["15 % off the right", cropped({ right: 0.15 })],
  ["20 % off the top", cropped({ top: 0.2 })],
  ["10 % off the left and the bottom", cropped({ left: 0.1, bottom: 0.1 })],
  ["phone screenshot with a status bar", screenshot],
  ["framed on a reseller's card", framed],
  ["text watermark across", watermarked],
  ["mirrored", mirrored],
  ["rotated 3°", rotated],
  ["cropped and watermarked", both(cropped({ right: 0.12, top: 0.08 }), watermarked)],
  ["mirrored, downscaled and JPEG 35", both(mirrored, both(downscaled, lowQuality))],
];
