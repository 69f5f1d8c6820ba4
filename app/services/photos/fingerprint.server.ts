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
 *   any of its hashes and any of the picture's. A picture within CANDIDATE_DISTANCE is
 *   then checked in detail (checkedMatch, decision 050): the hashes alone let lucky
 *   pictures through once a catalogue has thousands.
 * - Global hashes of the whole alone found the right picture first for 79 % of the
 *   shoppers' photos (crops and screenshots defeat them); these windows, 99 %
 *   (decision 046).
 *
 * Reading is bounded like every upload (decision 034): the caller has checked the type,
 * size and pixel count; sharp is told the pixel limit again.
 */
// sharp is loaded when a picture is first decoded, not by the photo worker thread, which is
// handed decoded pictures only (photo-worker.server.ts)
const loadSharp = async () => (await import("sharp")).default;

/** Hashes are 64 bits, kept as two unsigned 32-bit halves (JSON- and SQL-friendly). */
export type PhotoHash = readonly [high: number, low: number];

/** A picture's fingerprint: one hash per window it is read in (fingerprintPhoto). */
export type PhotoFingerprint = PhotoHash[];

/**
 * Decision 046's rule: a query this close to a picture (bits of 64) was the same picture.
 * Measured on the 30 real photographs alone (tests/fixtures/photos), 93 % of shoppers'
 * photos landed within 12 bits of theirs and 99 % of strangers farther. Among thousands of
 * pictures, strangers find lucky ones this close (decision 050), so it now matches only
 * pictures fingerprinted before checks existed, and scales the score.
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
  return resample(gray, cut, side, side);
}

/** A window of the grey picture resampled to columns × rows by area averaging. */
function resample(gray: Gray, cut: Window, columns: number, rows: number): Uint8Array {
  const left = Math.floor(gray.width * cut.left);
  const top = Math.floor(gray.height * cut.top);
  const width = Math.max(1, gray.width - left - Math.floor(gray.width * cut.right));
  const height = Math.max(1, gray.height - top - Math.floor(gray.height * cut.bottom));
  const out = new Uint8Array(columns * rows);
  const { data } = gray;
  for (let oy = 0; oy < rows; oy++) {
    const y0 = top + (oy * height) / rows;
    const y1 = top + ((oy + 1) * height) / rows;
    for (let ox = 0; ox < columns; ox++) {
      const x0 = left + (ox * width) / columns;
      const x1 = left + ((ox + 1) * width) / columns;
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
      out[oy * columns + ox] = Math.round(sum / area);
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
  // rows across the whole width first; then the columns within those rows only (a card's
  // header and price line run across its margins, which are plain beside the picture);
  // then the rows again within those columns
  const firstRows = run(height, (y) => deviation((x) => data[y * width + x], width));
  const rowSpan = firstRows.to - firstRows.from;
  const columns = run(width, (x) => deviation((k) => data[(firstRows.from + k) * width + x], rowSpan));
  const columnSpan = columns.to - columns.from;
  const rows = run(height, (y) => deviation((k) => data[y * width + columns.from + k], columnSpan));
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
  return (await windowsOfGray(await grayOf(input))).hashes;
}

/** Lets waiting requests run: the windows are hashed in the serving process, a millisecond or two each. */
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A stored picture's hashes and checks, window by window (the content, then
 * STORED_WINDOWS): a plain window takes the content's hash and check (or the whole's).
 */
async function windowsOfGray(gray: Gray): Promise<{ hashes: PhotoFingerprint; checks: Uint32Array }> {
  const cuts = [contentBox(gray), ...STORED_WINDOWS];
  const hashes: Array<PhotoHash | null> = [];
  for (const cut of cuts) {
    await yieldToRequests();
    hashes.push(hashOf(windowOf(gray, cut), false));
  }
  const fallback = hashes[0] ? 0 : hashes[1] ? 1 : -1;
  if (fallback < 0) throw new PhotoTooPlain();
  await yieldToRequests();
  const small = checkGrayOf(gray);
  const own: Uint32Array[] = [];
  for (const cut of cuts) {
    // a few checks at a time: each is a fraction of a millisecond, all 19 together several
    if (own.length % 5 === 0) await yieldToRequests();
    own.push(checkOf(small, cut, false));
  }
  const checks = new Uint32Array(cuts.length * CHECK_WORDS);
  hashes.forEach((hash, i) => checks.set(own[hash ? i : fallback], i * CHECK_WORDS));
  return { hashes: hashes.map((hash) => hash ?? hashes[fallback]!), checks };
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

/** What a stored picture keeps: its fingerprint, its windows' checks and its detail hash. */
export type StoredPicture = { hashes: PhotoFingerprint; checks: Uint32Array; detail: string };

/** A stored picture's fingerprint, its checks and its detail hash, from one decoding. */
export async function fingerprintPicture(input: Buffer): Promise<StoredPicture> {
  return pictureOfGray(await grayOf(input));
}

/** The same from the decoded grey picture (what the photo worker thread is given: photo-thread.server.ts). */
export async function pictureOfGray(gray: Gray): Promise<StoredPicture> {
  const { hashes, checks } = await windowsOfGray(gray);
  await yieldToRequests();
  const detail = await detailHashOf(gray);
  return { hashes, checks, detail };
}

/** A query's hashes: its whole, its content and its centre, each as it is and mirrored; none for a plain picture. */
export async function queryHashes(input: Buffer): Promise<PhotoHash[]> {
  return queryViews(await grayOf(input)).map((view) => view.hash);
}

// ---------------------------------------------------------------- checking a match

/*
 * The 64-bit hashes see a picture's broad layout only, and as a catalogue grows some
 * unrelated picture comes within PHOTO_MATCH_MAX_DISTANCE of almost any photo by luck
 * (among 2,267 real photographs, half of the photos of other things found one). So a
 * match is checked (decision 050): each window also has a check, the signs of its 16 × 16
 * lowest frequencies at 32 px (256 bits, four times the detail of the hash), and a
 * candidate's closest pairs of windows must agree in it within PHOTO_CHECK_MAX bits. The
 * query's window is tried a little moved, scaled and turned (CHECK_SHIFTS, CHECK_TURNS)
 * since a shopper's crop or frame never lines up with a stored window exactly, and finer
 * detail moves faster than the broad layout when it is off. Among those 2,267 pictures:
 * the right picture first for 97.5 % of shoppers' photos, 96.9 % of strangers refused
 * (docs/performance.md, "Checked matches").
 */

/** Pairs of windows this close (bits of 64) are candidates to check. */
export const CANDIDATE_DISTANCE = 16;
/** A candidate pair whose checks agree within this many bits of 256 is a match. */
export const PHOTO_CHECK_MAX = 60;
/** The closest pairs of a candidate that are checked (the right one is nearly always among them). */
const PAIRS_CHECKED = 6;
/** Words (of 32 bits) in one window's check. */
export const CHECK_WORDS = 8;
const CHECK_SIDE = 32;
const CHECK_COSINES = cosinesFor(CHECK_SIDE, 16);
/** Checks are taken from a copy of the picture this size (long side): cheap to resample, and alike for stored pictures and queries. */
const CHECK_GRAY_SIDE = 128;
/** How a query's window is moved to meet a stored one: shares of its width and height. */
const CHECK_SHIFTS: ReadonlyArray<readonly [dx: number, dy: number, grow: number]> = [
  ...[-0.03, 0, 0.03].flatMap((dx) => [-0.03, 0, 0.03].map((dy) => [dx, dy, 0] as const)),
  [0, 0, -0.03],
  [0, 0, 0.03],
];
/** A query is also tried turned back by these angles (degrees; a photo taken a little askew), its window unmoved or trimmed. */
const CHECK_TURNS: readonly number[] = [-3, 3];
const CHECK_TURN_TRIMS: readonly number[] = [0, 0.04];

/** The grey picture turned by `degrees` about its centre (bilinear; what falls outside is white, as a turned photo's corners are). */
function turned(gray: Gray, degrees: number): Gray {
  const { width, height, data } = gray;
  const out = Buffer.alloc(width * height);
  const cos = Math.cos((degrees * Math.PI) / 180);
  const sin = Math.sin((degrees * Math.PI) / 180);
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sx = cos * (x - cx) + sin * (y - cy) + cx;
      const sy = -sin * (x - cx) + cos * (y - cy) + cy;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= width || y0 + 1 >= height) {
        out[y * width + x] = 255;
        continue;
      }
      const fx = sx - x0;
      const fy = sy - y0;
      const at = y0 * width + x0;
      const top = data[at] * (1 - fx) + data[at + 1] * fx;
      const bottom = data[at + width] * (1 - fx) + data[at + width + 1] * fx;
      out[y * width + x] = Math.round(top * (1 - fy) + bottom * fy);
    }
  }
  return { data: out, width, height };
}

function checkGrayOf(gray: Gray): Gray {
  const scale = Math.min(1, CHECK_GRAY_SIDE / Math.max(gray.width, gray.height));
  if (scale === 1) return gray;
  const width = Math.max(1, Math.round(gray.width * scale));
  const height = Math.max(1, Math.round(gray.height * scale));
  const data = Buffer.from(resample(gray, WHOLE, width, height));
  return { data, width, height };
}

/** A window's check: the signs of its 16 × 16 lowest frequencies at 32 px against their median. */
function checkOf(gray: Gray, cut: Window, mirrored: boolean): Uint32Array {
  const view = windowOf(gray, cut);
  const coefficients = lowFrequencies(mirrored ? mirror(view, SIDE) : view, CHECK_SIDE, CHECK_COSINES);
  const sorted = Array.from(coefficients.subarray(1)).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const words = new Uint32Array(CHECK_WORDS);
  for (let i = 0; i < coefficients.length; i++) if (coefficients[i] > median) words[i >>> 5] |= 1 << (31 - (i & 31));
  return words;
}

function checkDistanceOf(a: Uint32Array, aAt: number, b: Uint32Array, bAt: number): number {
  let distance = 0;
  for (let i = 0; i < CHECK_WORDS; i++) distance += popcount((a[aAt + i] ^ b[bAt + i]) >>> 0);
  return distance;
}

/** Checks as hex (64 digits a window), and back (null when malformed). */
export function hexOfChecks(checks: Uint32Array): string {
  return Array.from(checks, (word) => word.toString(16).padStart(8, "0")).join("");
}
export function checksOfHex(hex: string | null | undefined): Uint32Array | null {
  if (!hex || hex.length % (CHECK_WORDS * 8) !== 0 || !/^[0-9a-f]+$/.test(hex)) return null;
  return Uint32Array.from({ length: hex.length / 8 }, (_, i) => parseInt(hex.slice(i * 8, i * 8 + 8), 16) >>> 0);
}

/** What a search compares: its hashes, and how far one of them is, in detail, from a stored window's check. */
export type PhotoQuery = {
  hashes: PhotoHash[];
  /** a catalogue picture fingerprinted before checks: it matches on hashes alone, as such pictures do */
  unchecked?: boolean;
  /** bits of 256 between the query's window `index` (of hashes) and the stored check at `at` (a word offset) */
  checkDistance(index: number, stored: Uint32Array, at: number): number;
};

/** A shopper's photo as a query: its whole, its content and its centre, each as it is and mirrored (none for a plain picture). */
export async function photoQuery(input: Buffer): Promise<PhotoQuery> {
  return queryOfGray(await grayOf(input));
}

/** The query's views of the grey picture, each with its hash. */
function queryViews(gray: Gray): Array<{ cut: Window; mirrored: boolean; hash: PhotoHash }> {
  const views: Array<{ cut: Window; mirrored: boolean; hash: PhotoHash }> = [];
  for (const cut of [WHOLE, contentBox(gray), CENTRE_WINDOW]) {
    const view = windowOf(gray, cut);
    for (const mirrored of [false, true]) {
      const hash = hashOf(view, mirrored);
      if (hash) views.push({ cut, mirrored, hash });
    }
  }
  return views;
}

/**
 * A query's window checked every way it is tried (CHECK_SHIFTS, then each of CHECK_TURNS
 * by CHECK_TURN_TRIMS), one after the other: `turns` are the small picture turned by CHECK_TURNS.
 */
function movedChecksOf(small: Gray, turns: Gray[], cut: Window, mirrored: boolean): Uint32Array {
  const width = 1 - cut.left - cut.right;
  const height = 1 - cut.top - cut.bottom;
  const trimmed = (trim: number, dx = 0, dy = 0): Window => ({
    left: Math.max(0, cut.left + (dx + trim) * width),
    right: Math.max(0, cut.right + (trim - dx) * width),
    top: Math.max(0, cut.top + (dy + trim) * height),
    bottom: Math.max(0, cut.bottom + (trim - dy) * height),
  });
  const all: Uint32Array[] = CHECK_SHIFTS.map(([dx, dy, grow]) => checkOf(small, trimmed(-grow, dx, dy), mirrored));
  for (const turn of turns) for (const trim of CHECK_TURN_TRIMS) all.push(checkOf(turn, trimmed(trim), mirrored));
  const checks = new Uint32Array(all.length * CHECK_WORDS);
  all.forEach((check, n) => checks.set(check, n * CHECK_WORDS));
  return checks;
}

/** A query whose windows' tries are worked out when a candidate first needs them (in this thread). */
export function queryOfGray(gray: Gray): PhotoQuery {
  const views = queryViews(gray);
  const small = checkGrayOf(gray);
  let turns: Gray[] | null = null;
  const moved = new Map<number, Uint32Array>();
  return queryFrom(
    views.map((view) => view.hash),
    (index) => {
      let checks = moved.get(index);
      if (!checks) {
        turns ??= CHECK_TURNS.map((degrees) => turned(small, degrees));
        checks = movedChecksOf(small, turns, views[index].cut, views[index].mirrored);
        moved.set(index, checks);
      }
      return checks;
    },
  );
}

/** A query's hashes and every window's tries at once (the photo worker thread's answer: queryFrom rebuilds the query). */
export function queryPartsOfGray(gray: Gray): { hashes: PhotoHash[]; moved: Uint32Array[] } {
  const views = queryViews(gray);
  const small = checkGrayOf(gray);
  const turns = CHECK_TURNS.map((degrees) => turned(small, degrees));
  return { hashes: views.map((view) => view.hash), moved: views.map((view) => movedChecksOf(small, turns, view.cut, view.mirrored)) };
}

/** A query from its hashes and its windows' tries (`movedOf(index)`: every try of window `index`). */
export function queryFrom(hashes: PhotoHash[], movedOf: (index: number) => Uint32Array): PhotoQuery {
  return {
    hashes,
    checkDistance(index, stored, at) {
      const checks = movedOf(index);
      let best = 256;
      for (let n = 0; n < checks.length; n += CHECK_WORDS) best = Math.min(best, checkDistanceOf(checks, n, stored, at));
      return best;
    },
  };
}

/** A stored picture as a query ("find similar"): its own hashes and checks. */
export function storedQuery(hashes: PhotoHash[], checks: Uint32Array | null): PhotoQuery {
  if (!checks || checks.length !== hashes.length * CHECK_WORDS) return { hashes, unchecked: true, checkDistance: () => 256 };
  return { hashes, checkDistance: (index, stored, at) => checkDistanceOf(checks, index * CHECK_WORDS, stored, at) };
}

/**
 * Whether a stored picture matches a query, and how well: its closest pair of hashes
 * (`distance`) and the best agreement in detail of its closest pairs (`check`), or null.
 * A picture fingerprinted before checks existed (checks null, or such a picture as the
 * query) matches on its hashes alone, within PHOTO_MATCH_MAX_DISTANCE, until the sync
 * has read it again.
 */
export function checkedMatch(
  query: PhotoQuery,
  stored: PhotoFingerprint,
  checks: Uint32Array | null,
): { distance: number; check: number } | null {
  const pairs: Array<[distance: number, index: number, window: number]> = [];
  query.hashes.forEach((hash, index) =>
    stored.forEach((window, at) => {
      const distance = hashDistance(hash, window);
      if (distance <= CANDIDATE_DISTANCE) pairs.push([distance, index, at]);
    }),
  );
  if (!pairs.length) return null;
  pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  const distance = pairs[0][0];
  if (query.unchecked || !checks || checks.length !== stored.length * CHECK_WORDS) {
    return distance <= PHOTO_MATCH_MAX_DISTANCE ? { distance, check: PHOTO_CHECK_MAX } : null;
  }
  let check = 256;
  for (const [, index, at] of pairs.slice(0, PAIRS_CHECKED)) check = Math.min(check, query.checkDistance(index, checks, at * CHECK_WORDS));
  return check <= PHOTO_CHECK_MAX ? { distance, check } : null;
}

/** The query's distance to a stored picture: the closest pair of their hashes. */
export function photoDistance(query: readonly PhotoHash[], stored: PhotoFingerprint): number {
  let best = 64;
  for (const a of query) for (const b of stored) best = Math.min(best, hashDistance(a, b));
  return best;
}

/** The pictures that match a query (checkedMatch), best first: by their check, then their distance (ties keep their order). */
export function matchingPictures<T extends { fingerprint: PhotoFingerprint; checks: Uint32Array | null }>(
  query: PhotoQuery,
  pictures: readonly T[],
): Array<T & { distance: number; check: number }> {
  return pictures
    .flatMap((picture) => {
      const match = checkedMatch(query, picture.fingerprint, picture.checks);
      return match ? [{ ...picture, ...match }] : [];
    })
    .sort((a, b) => a.check - b.check || a.distance - b.distance);
}
