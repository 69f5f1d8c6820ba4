/**
 * Photo fingerprints for search by photo (issue 38): perceptual hashes (64-bit DCT hashes,
 * "pHash") of several views of a picture, so that the photos shoppers bring (downscaled,
 * recompressed, cropped, framed like a phone screenshot, watermarked, mirrored, slightly
 * rotated) still land near the picture they came from.
 *
 * - A stored picture keeps one hash per window: its content (the longest runs of rows and
 *   columns not of one tone: what a screenshot's black screen, a reseller's card or a
 *   letterbox surround), the whole, its centre, and the parts a crop of 10 or 20 % off one
 *   or two edges leaves (19 hashes).
 * - A query is hashed in its whole, its content and its centre, each as it is and
 *   mirrored; its distance to a stored picture is the smallest Hamming distance between
 *   any of its hashes and any of the picture's.
 * - Global hashes of the whole alone found the right picture first for 79 % of the
 *   shoppers' photos (crops and screenshots defeat them); these windows, 99 %
 *   (decision 046).
 *
 * Reading is bounded like every upload (decision 034): the caller has checked the type,
 * size and pixel count; sharp is told the pixel limit again.
 */
import { loadSharp } from "~/services/uploads.server";

/** Hashes are 64 bits, kept as two unsigned 32-bit halves (JSON- and SQL-friendly). */
export type PhotoHash = readonly [high: number, low: number];

/** A picture's fingerprint: one hash per window it is read in (fingerprintPhoto). */
export type PhotoFingerprint = PhotoHash[];

/**
 * A query this close to a picture (bits of 64) is the same picture; farther, "nothing close
 * enough". Measured on real photographs (tests/fixtures/photos, decision 046): every
 * transformed query of a catalogue picture lands within 12 bits of it 93 % of the time,
 * while photos of other things stay 14 bits or more from every picture (99 % rejected).
 */
export const PHOTO_MATCH_MAX_DISTANCE = 12;

/** The pixels a picture may have to be read (as for uploads). */
export const PHOTO_MAX_PIXELS = 40_000_000;

const SIDE = 32;
const KEEP = 8;
/** cos((2x + 1) u π / 2N) for u < KEEP, x < SIDE */
const cosinesFor = (side: number, keep: number) =>
  Array.from({ length: keep }, (_, u) => Float64Array.from({ length: side }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * side))));
const COSINES = cosinesFor(SIDE, KEEP);
/** the share of each side the centre view keeps */
const CENTRE = 0.7;

/** The keep × keep lowest frequencies of the 2-D DCT of a side × side greyscale square (cosines: cosinesFor(side, keep)). */
function lowFrequencies(pixels: Uint8Array, side: number, cosines: Float64Array[]): Float64Array {
  const keep = cosines.length;
  const rows = new Float64Array(keep * side);
  for (let y = 0; y < side; y++) {
    for (let u = 0; u < keep; u++) {
      const cos = cosines[u];
      let sum = 0;
      for (let x = 0; x < side; x++) sum += pixels[y * side + x] * cos[x];
      rows[u * side + y] = sum;
    }
  }
  const coefficients = new Float64Array(keep * keep);
  for (let v = 0; v < keep; v++) {
    const cos = cosines[v];
    for (let u = 0; u < keep; u++) {
      let sum = 0;
      for (let y = 0; y < side; y++) sum += rows[u * side + y] * cos[y];
      coefficients[v * keep + u] = sum;
    }
  }
  return coefficients;
}

/** The 64-bit DCT hash of a SIDE × SIDE greyscale square. */
export function dctHash(pixels: Uint8Array): PhotoHash {
  const coefficients = lowFrequencies(pixels, SIDE, COSINES);
  // compared with the median of the frequencies but the mean (the first coefficient)
  const sorted = Array.from(coefficients.subarray(1)).sort((a, b) => a - b);
  const median = (sorted[31] + sorted[32]) / 2;
  let high = 0;
  let low = 0;
  for (let i = 0; i < 64; i++) {
    const bit = coefficients[i] > median ? 1 : 0;
    if (i < 32) high = ((high << 1) | bit) >>> 0;
    else low = ((low << 1) | bit) >>> 0;
  }
  return [high, low];
}

function popcount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** How many of the 64 bits differ. */
export function hashDistance(a: PhotoHash, b: PhotoHash): number {
  return popcount((a[0] ^ b[0]) >>> 0) + popcount((a[1] ^ b[1]) >>> 0);
}

/**
 * A view this plain (the standard deviation of its 32 × 32 grey pixels, of 255) has no
 * shape to hash: its bits would be rounding noise, alike for every plain picture (a white
 * background, one colour). Such a view is left out; a picture whose every view is plain
 * cannot be compared at all (PhotoTooPlain).
 */
export const PLAIN_SPREAD = 3;

/** A picture with nothing to compare by (one colour, or nearly). */
export class PhotoTooPlain extends Error {
  constructor() {
    super("the picture is too plain to compare (one colour or nearly)");
    this.name = "PhotoTooPlain";
  }
}

function spreadOf(pixels: Uint8Array): number {
  let sum = 0;
  let squares = 0;
  for (const value of pixels) {
    sum += value;
    squares += value * value;
  }
  const mean = sum / pixels.length;
  return Math.sqrt(Math.max(0, squares / pixels.length - mean * mean));
}

/** A view's hash, or null when the view is too plain to hash (PLAIN_SPREAD). */
function hashOf(pixels: Uint8Array, mirrored: boolean): PhotoHash | null {
  const view = mirrored ? mirror(pixels, SIDE) : pixels;
  return spreadOf(view) < PLAIN_SPREAD ? null : dctHash(view);
}

function mirror(pixels: Uint8Array, side: number): Uint8Array {
  const flipped = new Uint8Array(pixels.length);
  for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) flipped[y * side + x] = pixels[y * side + side - 1 - x];
  return flipped;
}

/** The raw greyscale pixels of a view. */
export type Gray = { data: Buffer; width: number; height: number };

/** A part of the picture: its share cut off each edge. */
export type Window = { left: number; right: number; top: number; bottom: number };

/**
 * A window of the grey picture resampled to side × side by area averaging (each output
 * pixel the mean of the input pixels it covers), in JavaScript: no image pipeline a window,
 * so fingerprinting a picture takes one decoding in sharp's threads and little else, and
 * never fills the thread pool that serving files and compressing answers share.
 */
function windowOf(gray: Gray, cut: Window, side = SIDE): Uint8Array {
  const left = Math.floor(gray.width * cut.left);
  const top = Math.floor(gray.height * cut.top);
  const width = Math.max(1, gray.width - left - Math.floor(gray.width * cut.right));
  const height = Math.max(1, gray.height - top - Math.floor(gray.height * cut.bottom));
  const out = new Uint8Array(side * side);
  const { data } = gray;
  for (let oy = 0; oy < side; oy++) {
    const y0 = top + (oy * height) / side;
    const y1 = top + ((oy + 1) * height) / side;
    for (let ox = 0; ox < side; ox++) {
      const x0 = left + (ox * width) / side;
      const x1 = left + ((ox + 1) * width) / side;
      let sum = 0;
      let area = 0;
      for (let y = Math.floor(y0); y < Math.ceil(y1); y++) {
        const wy = Math.min(y + 1, y1) - Math.max(y, y0);
        const row = y * gray.width;
        for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
          const weight = (Math.min(x + 1, x1) - Math.max(x, x0)) * wy;
          sum += data[row + x] * weight;
          area += weight;
        }
      }
      out[oy * side + ox] = Math.round(sum / area);
    }
  }
  return out;
}

/**
 * The picture's content: the longest run of rows, and of columns, that are not of one
 * tone (a screenshot's black screen and status bar, a reseller's card with its header and
 * price line, a letterbox). The whole picture when no run covers a fifth of it.
 */
export function contentBox(gray: Gray): Window {
  const run = (count: number, spread: (i: number) => number) => {
    let best = { from: 0, to: count };
    let bestLength = 0;
    let from = -1;
    for (let i = 0; i <= count; i++) {
      const content = i < count && spread(i) > 6;
      if (content && from === -1) from = i;
      if (!content && from !== -1) {
        if (i - from > bestLength) {
          bestLength = i - from;
          best = { from, to: i };
        }
        from = -1;
      }
    }
    return bestLength >= count * 0.2 ? best : { from: 0, to: count };
  };
  const { data, width, height } = gray;
  const deviation = (values: (k: number) => number, n: number) => {
    let sum = 0;
    let squares = 0;
    for (let k = 0; k < n; k++) {
      const v = values(k);
      sum += v;
      squares += v * v;
    }
    const mean = sum / n;
    return Math.sqrt(Math.max(0, squares / n - mean * mean));
  };
  const rows = run(height, (y) => deviation((x) => data[y * width + x], width));
  const columns = run(width, (x) => deviation((y) => data[y * width + x], height));
  return { left: columns.from / width, right: 1 - columns.to / width, top: rows.from / height, bottom: 1 - rows.to / height };
}

const WHOLE: Window = { left: 0, right: 0, top: 0, bottom: 0 };
const MARGIN = (1 - CENTRE) / 2;
const CENTRE_WINDOW: Window = { left: MARGIN, right: MARGIN, top: MARGIN, bottom: MARGIN };

/** The windows a stored picture is hashed in besides its content: the whole, its centre, and the parts a crop of one or two edges leaves. */
const STORED_WINDOWS: Window[] = [
  WHOLE,
  CENTRE_WINDOW,
  ...[0.1, 0.2].flatMap((cut) => [
    { ...WHOLE, left: cut },
    { ...WHOLE, right: cut },
    { ...WHOLE, top: cut },
    { ...WHOLE, bottom: cut },
    { ...WHOLE, left: cut, top: cut },
    { ...WHOLE, right: cut, top: cut },
    { ...WHOLE, left: cut, bottom: cut },
    { ...WHOLE, right: cut, bottom: cut },
  ]),
];

export async function grayOf(input: Buffer): Promise<Gray> {
  const sharp = await loadSharp();
  const { data, info } = await sharp(input, { limitInputPixels: PHOTO_MAX_PIXELS, failOn: "error" })
    .rotate()
    .flatten({ background: "#ffffff" })
    .greyscale()
    .resize(512, 512, { fit: "inside", withoutEnlargement: true })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * A stored picture's fingerprint: its content's hash, then a hash per window
 * (STORED_WINDOWS), always 19. A plain window (a crop of white background) takes the
 * content's hash instead of noise; a picture too plain in its content throws PhotoTooPlain.
 */
export async function fingerprintPhoto(input: Buffer): Promise<PhotoFingerprint> {
  return fingerprintOfGray(await grayOf(input));
}

/** Lets waiting requests run: the windows are hashed in the serving process, a millisecond or two each. */
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

async function fingerprintOfGray(gray: Gray): Promise<PhotoFingerprint> {
  const content = contentBox(gray);
  const hashes: Array<PhotoHash | null> = [];
  for (const cut of [content, ...STORED_WINDOWS]) {
    await yieldToRequests();
    hashes.push(hashOf(windowOf(gray, cut), false));
  }
  const fallback = hashes[0] ?? hashes[1];
  if (!fallback) throw new PhotoTooPlain();
  return hashes.map((hash) => hash ?? fallback);
}

const DETAIL_SIDE = 64;
const DETAIL_KEEP = 16;
const DETAIL_COSINES = cosinesFor(DETAIL_SIDE, DETAIL_KEEP);

/**
 * Two listings are the same item when their pictures are the same photograph: besides the
 * 64-bit hashes (which only see a picture's broad layout, alike for every "bright shape in
 * the middle": a product on white, a big word on a gradient), their detail hashes (256
 * bits: 16 × 16 frequencies of the content at 64 px) are at most this far apart. Measured
 * on the real photographs (decision 047): the same picture downscaled or recompressed
 * stays at 0–70 bits (p90 58), other photographs 104 and more, the demo catalogue's
 * initials on gradients 108 and more (p10).
 */
export const SAME_PICTURE_MAX_DETAIL = 48;

/**
 * Two listings' pictures (as stored, not as a shopper's photo) are the same photograph
 * within this many bits of 64: a copy downscaled or recompressed stays at 0–2 bits, while
 * the demo catalogue's different pictures come as close as 2–12 (decision 047).
 */
export const SAME_PICTURE_MAX_DISTANCE = 4;

/** The 256-bit detail hash of a picture's content (as hex, 64 digits). */
async function detailHashOf(gray: Gray): Promise<string> {
  const coefficients = lowFrequencies(windowOf(gray, contentBox(gray), DETAIL_SIDE), DETAIL_SIDE, DETAIL_COSINES);
  const sorted = Array.from(coefficients.subarray(1)).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  let hex = "";
  for (let nibble = 0; nibble < coefficients.length / 4; nibble++) {
    let value = 0;
    for (let bit = 0; bit < 4; bit++) value = (value << 1) | (coefficients[nibble * 4 + bit] > median ? 1 : 0);
    hex += value.toString(16);
  }
  return hex;
}

/** How many of two detail hashes' 256 bits differ. */
export function detailDistance(a: string, b: string): number {
  let distance = 0;
  for (let i = 0; i < a.length; i += 8)
    distance += hashDistance([parseInt(a.slice(i, i + 8), 16), 0], [parseInt(b.slice(i, i + 8), 16), 0]);
  return distance;
}

/** A stored picture's fingerprint and its detail hash, from one decoding. */
export async function fingerprintPicture(input: Buffer): Promise<{ hashes: PhotoFingerprint; detail: string }> {
  const gray = await grayOf(input);
  const hashes = await fingerprintOfGray(gray);
  await yieldToRequests();
  const detail = await detailHashOf(gray);
  return { hashes, detail };
}

/** A query's hashes: its whole, its content and its centre, each as it is and mirrored; none for a plain picture. */
export async function queryHashes(input: Buffer): Promise<PhotoHash[]> {
  const gray = await grayOf(input);
  const views = [WHOLE, contentBox(gray), CENTRE_WINDOW].map((cut) => windowOf(gray, cut));
  const hashes = views.flatMap((view) => [hashOf(view, false), hashOf(view, true)]);
  return hashes.filter((hash): hash is PhotoHash => hash !== null);
}

/** The query's distance to a stored picture: the closest pair of their hashes. */
export function photoDistance(query: readonly PhotoHash[], stored: PhotoFingerprint): number {
  let best = 64;
  for (const a of query) for (const b of stored) best = Math.min(best, hashDistance(a, b));
  return best;
}

/** Pictures by their distance to a query, closest first (ties keep their order). */
export function closestPictures<T extends { fingerprint: PhotoFingerprint }>(
  query: readonly PhotoHash[],
  pictures: readonly T[],
): Array<T & { distance: number }> {
  return pictures
    .map((picture) => ({ ...picture, distance: photoDistance(query, picture.fingerprint) }))
    .sort((a, b) => a.distance - b.distance);
}
