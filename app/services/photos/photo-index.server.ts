/**
 * The nearest-neighbour index of photo fingerprints (docs/decisions/047-photo-index.md):
 * every readable fingerprint's hashes in one typed array, and multi-index hashing over
 * them: each 64-bit hash is four 16-bit chunks, and each chunk position has a table from
 * the chunk's value to the pictures holding it. Two hashes within 11 bits share at least
 * one chunk within 2 bits (pigeonhole), so probing each query chunk's 137 neighbours of 2
 * bits or less finds every picture within 11 bits (and most at 12) without reading the
 * others (a large index probes 1 bit: WIDE_PROBE_MAX); the candidates are then measured
 * with all their hashes.
 *
 * The index is the same on SQLite and PostgreSQL: it is built from the photo_fingerprints
 * table and follows it (new rows by id, deletions by the removals a trigger records) before
 * each use: two reads of an index's end, usually finding nothing, so an instance searches
 * what another one stored a moment before.
 */
import type { DB } from "~/lib/db.server";
import { getDb } from "~/lib/db.server";
import { lastRemovalId, readableFingerprintsAfter, removalsAfter, type FingerprintRow } from "~/models/photo.server";
import { onPostgres } from "~/models/sql-dialect.server";
import type { PhotoHash } from "./fingerprint.server";

/** Hashes a stored fingerprint holds (fingerprintPhoto()). */
export const STORED_HASHES = 19;
const WORDS = STORED_HASHES * 2;
const CHUNK_VALUES = 65_536;
/** Probes per query chunk: the masks of 0 and 1 bit of 16, then those of 2 bits. */
const PROBE_MASKS: number[] = (() => {
  const masks = [0];
  for (let a = 0; a < 16; a++) masks.push(1 << a);
  for (let a = 0; a < 16; a++) for (let b = a + 1; b < 16; b++) masks.push((1 << a) | (1 << b));
  return masks;
})();
const RADIUS_1_PROBES = 17;
/**
 * Up to this many pictures a query probes its chunks' neighbours within 2 bits (every
 * picture within 11 bits found); beyond, within 1 bit (7 bits guaranteed, most matches
 * still found: 91 % of shoppers' photos first instead of 93 %), five times fewer candidates:
 * at 500,000 pictures the 2-bit probes make most of the index candidates (p50 185 ms), the
 * 1-bit ones a tenth (p50 29 ms). Measured in docs/performance.md.
 */
export const WIDE_PROBE_MAX = 100_000;
/** Removals older than this may be pruned: an index that slept longer loads everything again. */
export const REMOVALS_KEPT_MS = 24 * 60 * 60_000;
const LOAD_BATCH = 5_000;

/** The set bits of every 16-bit value (a table is faster than counting in the hot loop). */
const BITS = (() => {
  const bits = new Uint8Array(CHUNK_VALUES);
  for (let value = 1; value < CHUNK_VALUES; value++) bits[value] = (value & 1) + bits[value >>> 1];
  return bits;
})();

/** 19 hashes as hex (16 digits each) → 38 words; null when malformed. */
export function wordsOfHex(hex: string): Uint32Array | null {
  if (hex.length !== STORED_HASHES * 16 || !/^[0-9a-f]+$/.test(hex)) return null;
  const words = new Uint32Array(WORDS);
  for (let i = 0; i < WORDS; i++) words[i] = parseInt(hex.slice(i * 8, i * 8 + 8), 16) >>> 0;
  return words;
}

export function hexOfHashes(hashes: readonly PhotoHash[]): string {
  return hashes.map(([high, low]) => high.toString(16).padStart(8, "0") + low.toString(16).padStart(8, "0")).join("");
}

export function hashesOfHex(hex: string): PhotoHash[] {
  const words = wordsOfHex(hex);
  if (!words) return [];
  return Array.from({ length: STORED_HASHES }, (_, i) => [words[2 * i], words[2 * i + 1]] as const);
}

/** A picture found near a query. */
export type PictureMatch = { fingerprintId: number; productId: number; imageUrl: string; qcImageId: number | null; distance: number };

type Bucket = { items: Int32Array; length: number };

export class PhotoIndex {
  /** @param wideProbeMax up to how many pictures the 2-bit probes are used (tests lower it) */
  constructor(private readonly wideProbeMax = WIDE_PROBE_MAX) {}

  private capacity = 0;
  private used = 0;
  private dead = 0;
  private words = new Uint32Array(0);
  private productOf = new Int32Array(0);
  private fingerprintOf = new Int32Array(0);
  private qcOf = new Int32Array(0);
  private urls: string[] = [];
  private slotOf = new Map<number, number>();
  /** [position × 65536 + chunk value] → slots */
  private buckets: Array<Bucket | undefined> = new Array(4 * CHUNK_VALUES);
  private stamp = new Uint32Array(0);
  private stampValue = 0;

  /** Pictures in the index. */
  get size(): number {
    return this.slotOf.size;
  }

  /** Bytes the index holds in typed arrays (hashes, slots, postings): the bench reports it. */
  bytes(): number {
    let postings = 0;
    for (const bucket of this.buckets) if (bucket) postings += bucket.items.byteLength + 32;
    return this.words.byteLength + this.productOf.byteLength * 4 + postings + this.size * 48;
  }

  private grow(): void {
    const capacity = Math.max(1024, this.capacity * 2);
    const grown = <T extends Uint32Array | Int32Array>(old: T, make: (n: number) => T, per: number) => {
      const next = make(capacity * per);
      next.set(old);
      return next;
    };
    this.words = grown(this.words, (n) => new Uint32Array(n), WORDS);
    this.productOf = grown(this.productOf, (n) => new Int32Array(n), 1);
    this.fingerprintOf = grown(this.fingerprintOf, (n) => new Int32Array(n), 1);
    this.qcOf = grown(this.qcOf, (n) => new Int32Array(n), 1);
    this.stamp = grown(this.stamp, (n) => new Uint32Array(n), 1);
    this.capacity = capacity;
  }

  add(row: FingerprintRow): void {
    if (row.hashes === null || this.slotOf.has(row.id)) return;
    const words = wordsOfHex(row.hashes);
    if (!words) return;
    if (this.used === this.capacity) this.grow();
    const slot = this.used++;
    this.words.set(words, slot * WORDS);
    this.productOf[slot] = row.productId;
    this.fingerprintOf[slot] = row.id;
    this.qcOf[slot] = row.qcImageId ?? 0;
    this.urls[slot] = row.imageUrl;
    this.slotOf.set(row.id, slot);
    const seen = new Set<number>();
    for (let h = 0; h < STORED_HASHES; h++) {
      for (let position = 0; position < 4; position++) {
        const word = words[2 * h + (position >> 1)];
        const chunk = position & 1 ? word & 0xffff : word >>> 16;
        const key = position * CHUNK_VALUES + chunk;
        if (seen.has(key)) continue;
        seen.add(key);
        let bucket = this.buckets[key];
        if (!bucket) bucket = this.buckets[key] = { items: new Int32Array(4), length: 0 };
        if (bucket.length === bucket.items.length) {
          const items = new Int32Array(bucket.items.length * 2);
          items.set(bucket.items);
          bucket.items = items;
        }
        bucket.items[bucket.length++] = slot;
      }
    }
  }

  remove(fingerprintId: number): void {
    const slot = this.slotOf.get(fingerprintId);
    if (slot === undefined) return;
    this.slotOf.delete(fingerprintId);
    this.productOf[slot] = -1;
    this.urls[slot] = "";
    this.dead += 1;
    if (this.dead > 1000 && this.dead > this.used / 4) this.compact();
  }

  /** Builds the tables again without the removed pictures. */
  private compact(): void {
    const live: FingerprintRow[] = [];
    for (let slot = 0; slot < this.used; slot++) {
      if (this.productOf[slot] < 0) continue;
      const words = this.words.subarray(slot * WORDS, (slot + 1) * WORDS);
      live.push({
        id: this.fingerprintOf[slot],
        productId: this.productOf[slot],
        qcImageId: this.qcOf[slot] || null,
        imageUrl: this.urls[slot],
        hashes: Array.from(words, (word) => word.toString(16).padStart(8, "0")).join(""),
      });
    }
    const fresh = new PhotoIndex(this.wideProbeMax);
    for (const row of live) fresh.add(row);
    Object.assign(this, fresh);
  }

  /**
   * Pictures whose distance to the query (the closest pair of a query hash and one of the
   * picture's) is at most `maxDistance`, closest first; at most `limit`.
   */
  nearest(query: readonly PhotoHash[], maxDistance: number, limit: number, skipProduct = -1): PictureMatch[] {
    this.stampValue = (this.stampValue + 1) >>> 0;
    if (this.stampValue === 0) {
      this.stamp.fill(0);
      this.stampValue = 1;
    }
    const stamp = this.stampValue;
    const found: PictureMatch[] = [];
    const probes = this.size <= this.wideProbeMax ? PROBE_MASKS.length : RADIUS_1_PROBES;
    for (const [high, low] of query) {
      for (let position = 0; position < 4; position++) {
        const word = position < 2 ? high : low;
        const chunk = position & 1 ? word & 0xffff : word >>> 16;
        for (let m = 0; m < probes; m++) {
          const bucket = this.buckets[position * CHUNK_VALUES + (chunk ^ PROBE_MASKS[m])];
          if (!bucket) continue;
          const { items, length } = bucket;
          for (let i = 0; i < length; i++) {
            const slot = items[i];
            if (this.stamp[slot] === stamp) continue;
            this.stamp[slot] = stamp;
            const product = this.productOf[slot];
            if (product < 0 || product === skipProduct) continue;
            const distance = this.distanceOf(query, slot);
            if (distance <= maxDistance) {
              found.push({
                fingerprintId: this.fingerprintOf[slot],
                productId: product,
                imageUrl: this.urls[slot],
                qcImageId: this.qcOf[slot] || null,
                distance,
              });
            }
          }
        }
      }
    }
    return found.sort((a, b) => a.distance - b.distance || a.fingerprintId - b.fingerprintId).slice(0, limit);
  }

  private distanceOf(query: readonly PhotoHash[], slot: number): number {
    const words = this.words;
    const base = slot * WORDS;
    let best = 64;
    for (let q = 0; q < query.length; q++) {
      const high = query[q][0];
      const low = query[q][1];
      for (let at = base; at < base + WORDS; at += 2) {
        const x = (words[at] ^ high) >>> 0;
        const y = (words[at + 1] ^ low) >>> 0;
        const distance = BITS[x >>> 16] + BITS[x & 0xffff] + BITS[y >>> 16] + BITS[y & 0xffff];
        if (distance < best) best = distance;
      }
    }
    return best;
  }

  /** The stored hashes of a fingerprint in the index (to search from a catalogue picture), or null. */
  hashesOf(fingerprintId: number): PhotoHash[] | null {
    const slot = this.slotOf.get(fingerprintId);
    if (slot === undefined) return null;
    const base = slot * WORDS;
    return Array.from({ length: STORED_HASHES }, (_, i) => [this.words[base + 2 * i], this.words[base + 2 * i + 1]] as const);
  }
}

/** An index that follows the database. */
export class FollowedPhotoIndex {
  index = new PhotoIndex();
  private lastId = 0;
  private lastRemoval = 0;
  private followedAt = 0;
  private following: Promise<boolean> | null = null;

  constructor(private readonly db: () => DB = getDb) {}

  /** Reads what changed since the last look (callers at the same moment share one reading). Answers whether anything did. */
  follow(): Promise<boolean> {
    this.following ??= this.read().finally(() => {
      this.following = null;
    });
    return this.following;
  }

  private async read(): Promise<boolean> {
    const db = this.db();
    const startedAt = Date.now();
    let changed = false;
    if (this.followedAt && startedAt - this.followedAt > REMOVALS_KEPT_MS / 2) {
      // asleep longer than the removals are kept: start again
      this.index = new PhotoIndex();
      this.lastId = 0;
      this.lastRemoval = 0;
      this.followedAt = 0;
    }
    if (this.followedAt === 0) this.lastRemoval = await lastRemovalId(db);
    // on PostgreSQL a row may commit after one with a higher id: a margin below the last
    // id reads such a latecomer (SQLite's one writer commits in id order)
    let after = onPostgres(db) ? Math.max(0, this.lastId - 64) : this.lastId;
    for (;;) {
      const rows = await readableFingerprintsAfter(db, after, LOAD_BATCH);
      for (const row of rows) {
        if (this.index.hashesOf(row.id) === null) {
          this.index.add(row);
          changed = true;
        }
      }
      if (rows.length) after = rows[rows.length - 1].id;
      this.lastId = Math.max(this.lastId, after);
      if (rows.length < LOAD_BATCH) break;
      // a long first load lets requests in between its batches
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const removal of await removalsAfter(db, this.lastRemoval)) {
      if (this.index.hashesOf(removal.fingerprintId) !== null) changed = true;
      this.index.remove(removal.fingerprintId);
      this.lastRemoval = removal.id;
    }
    this.followedAt = startedAt;
    return changed;
  }
}

declare global {
  var __photoIndex: FollowedPhotoIndex | undefined;
}

/** The process's index (kept on globalThis: the server and the Remix build share it). */
export function photoIndex(): FollowedPhotoIndex {
  return (globalThis.__photoIndex ??= new FollowedPhotoIndex());
}
