/**
 * The StateView's keys, held outside V8's heap (docs/performance.md "2026-12-07, ninth round"): a
 * hash table from a state key (its latin1 string, as the read paths build it) to the value's slot
 * in the ValueTable (./value-table.ts), in typed arrays. A `Map<string, number>` of 5,000,000 keys
 * was a 690 MB heap of strings and entries that every full collection marked (17 of them, 9.4 s, in a
 * 100 s run at 5 million accounts); here the heap holds a few arrays whatever the state's size.
 *
 * - Open addressing with linear probing over a power-of-two table of entry numbers, at most half
 *   full; a deletion shifts the entries behind it back (no tombstones).
 * - Entries are numbered in the order their keys were added and visited in that order, as a Map's
 *   are: the readers that watch a prefix (src/domains/<name>/reader.ts) see the loaded records in
 *   the order they always did. A deleted key's entry and bytes stay until they are half of the table,
 *   then the entries and the 16 MiB chunks of key bytes are rewritten in order.
 * - A key is copied into a scratch array padded with zeros to whole 32-bit words, and stored
 *   4-byte aligned and padded the same way, so the hash and the comparison go a word at a time: per
 *   byte (charCodeAt) a 65-byte balance key cost ~120 ns to hash alone, against ~60 for V8's hash
 *   of a fresh string (`Map.get`).
 * - The hash is seeded per table at random, and a probe longer than MAX_PROBE re-seeds it: keys a
 *   user chooses (names) cannot be made to collide, as V8 seeds its own string hashes. Host
 *   bookkeeping only: nothing of it reaches the core or a root.
 */

const CHUNK_BYTES = 16 * 1024 * 1024;
/** entry numbers start at 1: 0 in the table is an empty place */
const EMPTY = 0;
const INITIAL_TABLE = 1024;
/** A key no longer than this (the u16 the entry keeps); the history index caps keys the same way. */
const MAX_KEY = 0xffff;
/** A set that probes this far re-seeds the hash (at half load a probe averages under 3 places). */
const MAX_PROBE = 512;

/** The key being looked up, as bytes padded with zeros to whole words (`prepare`). */
const SCRATCH = new ArrayBuffer(MAX_KEY + 1);
const SCRATCH8 = new Uint8Array(SCRATCH);
const SCRATCH32 = new Uint32Array(SCRATCH);

export class KeyTable {
  /** entry number (1-based) at each place, EMPTY where none */
  private table = new Int32Array(INITIAL_TABLE);
  private mask = INITIAL_TABLE - 1;
  private seed: number;
  private readonly maxProbe: number;
  private readonly chunkBytes: number;
  /** per entry (index = number − 1): its key's hash, chunk, offset in it, length, value's slot, and whether it is live */
  private hashes = new Int32Array(INITIAL_TABLE >> 1);
  private chunkOf = new Uint16Array(INITIAL_TABLE >> 1);
  private offsets = new Int32Array(INITIAL_TABLE >> 1);
  private lengths = new Uint16Array(INITIAL_TABLE >> 1);
  private slots = new Int32Array(INITIAL_TABLE >> 1);
  private live = new Uint8Array(INITIAL_TABLE >> 1);
  /** entries made, live and deleted */
  private top = 0;
  private chunks: Uint8Array[];
  /** the same chunks as words (keys start on a word) */
  private chunks32: Uint32Array[];
  /** the next free byte of the last chunk (a multiple of 4) */
  private used = 0;
  private count = 0;
  /** the bytes of the live keys */
  keyBytes = 0;

  /** `seed`, `maxProbe` and `chunkBytes` for tests (test/unit/key-table.test.ts); a table is seeded at random. */
  constructor(options: { seed?: number; maxProbe?: number; chunkBytes?: number } = {}) {
    this.seed = options.seed ?? randomSeed();
    this.maxProbe = options.maxProbe ?? MAX_PROBE;
    this.chunkBytes = Math.max(options.chunkBytes ?? CHUNK_BYTES, MAX_KEY + 1) & ~3;
    this.chunks = [];
    this.chunks32 = [];
    this.addChunk(this.chunks, this.chunks32);
  }

  get size(): number {
    return this.count;
  }

  /** The slot of `key`, or -1. */
  get(key: string): number {
    if (key.length > MAX_KEY) return -1;
    const at = this.find(key.length, prepare(key, this.seed));
    return at < 0 ? -1 : this.slots[this.table[at]! - 1]!;
  }

  /** Maps `key` to `slot`, adding the key when it is new. */
  set(key: string, slot: number): void {
    if (key.length > MAX_KEY) throw new RangeError(`a state key of ${key.length} bytes is longer than ${MAX_KEY}`);
    const hash = prepare(key, this.seed);
    const at = this.find(key.length, hash);
    if (at >= 0) {
      this.slots[this.table[at]! - 1] = slot;
      return;
    }
    if ((this.count + 1) * 2 > this.table.length) this.rebuild(this.table.length * 2);
    const entry = this.newEntry(key.length, hash, slot);
    if (this.place(entry + 1, hash) > this.maxProbe) this.rebuild(this.table.length, randomSeed());
    this.count++;
    this.keyBytes += key.length;
  }

  /** Removes `key`; whether it was there. */
  delete(key: string): boolean {
    if (key.length > MAX_KEY) return false;
    let at = this.find(key.length, prepare(key, this.seed));
    if (at < 0) return false;
    const entry = this.table[at]! - 1;
    this.live[entry] = 0;
    this.keyBytes -= this.lengths[entry]!;
    this.count--;
    // Backward shift: an entry after the hole moves into it unless its home place lies in between.
    let next = (at + 1) & this.mask;
    while (this.table[next] !== EMPTY) {
      const home = this.hashes[this.table[next]! - 1]! & this.mask;
      if (((next - home) & this.mask) >= ((next - at) & this.mask)) {
        this.table[at] = this.table[next]!;
        at = next;
      }
      next = (next + 1) & this.mask;
    }
    this.table[at] = EMPTY;
    if (this.top > INITIAL_TABLE && this.count * 2 < this.top) this.compact();
    return true;
  }

  /** Every key (latin1) with its slot, in the order the keys were added. The table must not change during the visit. */
  forEach(visit: (key: string, slot: number) => void): void {
    for (let entry = 0; entry < this.top; entry++) {
      if (this.live[entry] === 1) visit(this.keyOf(entry), this.slots[entry]!);
    }
  }

  private keyOf(entry: number): string {
    const chunk = this.chunks[this.chunkOf[entry]!]!;
    return Buffer.from(chunk.buffer, chunk.byteOffset + this.offsets[entry]!, this.lengths[entry]!).toString('latin1');
  }

  /** The place holding the key in SCRATCH (`prepare`), of `length` bytes, or -1. */
  private find(length: number, hash: number): number {
    let place = hash & this.mask;
    for (;;) {
      const number = this.table[place]!;
      if (number === EMPTY) return -1;
      const entry = number - 1;
      if (this.hashes[entry] === hash && this.lengths[entry] === length && this.sameKey(entry, length)) return place;
      place = (place + 1) & this.mask;
    }
  }

  /** Puts entry `number` at the first empty place from its home; how far it probed. */
  private place(number: number, hash: number): number {
    let place = hash & this.mask;
    let probe = 0;
    while (this.table[place] !== EMPTY) {
      place = (place + 1) & this.mask;
      probe++;
    }
    this.table[place] = number;
    return probe;
  }

  /** Whether the entry's key is the one in SCRATCH, of `length` bytes: compared a word at a time (both padded with zeros). */
  private sameKey(entry: number, length: number): boolean {
    const words = this.chunks32[this.chunkOf[entry]!]!;
    const at = this.offsets[entry]! >>> 2;
    const n = (length + 3) >>> 2;
    for (let i = 0; i < n; i++) if (words[at + i] !== SCRATCH32[i]) return false;
    return true;
  }

  /** A new entry for the key in SCRATCH, its bytes copied (with their padding) to a word boundary of the last chunk. */
  private newEntry(length: number, hash: number, slot: number): number {
    const entry = this.top++;
    if (entry >= this.hashes.length) this.growEntries(this.hashes.length * 2);
    const padded = (length + 3) & ~3;
    if (this.used + padded > this.chunkBytes) {
      this.addChunk(this.chunks, this.chunks32);
      this.used = 0;
    }
    this.chunks[this.chunks.length - 1]!.set(SCRATCH8.subarray(0, padded), this.used);
    this.hashes[entry] = hash;
    this.chunkOf[entry] = this.chunks.length - 1;
    this.offsets[entry] = this.used;
    this.lengths[entry] = length;
    this.slots[entry] = slot;
    this.live[entry] = 1;
    this.used += padded;
    return entry;
  }

  private addChunk(chunks: Uint8Array[], chunks32: Uint32Array[]): void {
    const buffer = new ArrayBuffer(this.chunkBytes);
    chunks.push(new Uint8Array(buffer));
    chunks32.push(new Uint32Array(buffer));
  }

  private growEntries(n: number): void {
    this.hashes = grown(this.hashes, new Int32Array(n));
    this.chunkOf = grown(this.chunkOf, new Uint16Array(n));
    this.offsets = grown(this.offsets, new Int32Array(n));
    this.lengths = grown(this.lengths, new Uint16Array(n));
    this.slots = grown(this.slots, new Int32Array(n));
    this.live = grown(this.live, new Uint8Array(n));
  }

  /** The table again at `size` places; with a new seed, every live key hashed again. */
  private rebuild(size: number, seed?: number): void {
    this.table = new Int32Array(size);
    this.mask = size - 1;
    if (seed !== undefined) this.seed = seed;
    for (let entry = 0; entry < this.top; entry++) {
      if (this.live[entry] !== 1) continue;
      if (seed !== undefined) {
        this.hashes[entry] = hashWords(this.chunks32[this.chunkOf[entry]!]!, this.offsets[entry]! >>> 2, (this.lengths[entry]! + 3) >>> 2, seed);
      }
      this.place(entry + 1, this.hashes[entry]!);
    }
  }

  /** The live entries renumbered in order and their keys rewritten into fresh chunks; the deleted ones dropped. */
  private compact(): void {
    const chunks: Uint8Array[] = [];
    const chunks32: Uint32Array[] = [];
    this.addChunk(chunks, chunks32);
    let used = 0;
    let to = 0;
    for (let entry = 0; entry < this.top; entry++) {
      if (this.live[entry] !== 1) continue;
      const length = this.lengths[entry]!;
      const padded = (length + 3) & ~3;
      if (used + padded > this.chunkBytes) {
        this.addChunk(chunks, chunks32);
        used = 0;
      }
      const from = this.chunks[this.chunkOf[entry]!]!;
      const at = this.offsets[entry]!;
      chunks[chunks.length - 1]!.set(from.subarray(at, at + padded), used);
      this.hashes[to] = this.hashes[entry]!;
      this.chunkOf[to] = chunks.length - 1;
      this.offsets[to] = used;
      this.lengths[to] = length;
      this.slots[to] = this.slots[entry]!;
      this.live[to] = 1;
      used += padded;
      to++;
    }
    this.live.fill(0, to, this.top);
    this.top = to;
    this.chunks = chunks;
    this.chunks32 = chunks32;
    this.used = used;
    this.rebuild(this.table.length);
  }
}

function grown<T extends Int32Array | Uint16Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** Web Crypto's generator: the same in Node and in the browser build (light embedders hold a StateView too). */
function randomSeed(): number {
  return globalThis.crypto.getRandomValues(new Int32Array(1))[0]!;
}

/**
 * Copies `key` (latin1, at most MAX_KEY) into SCRATCH, zero-padded to whole words, and returns its
 * hash (`hashWords`). The copy is a loop of independent stores; the hash's chain has one step a word.
 */
function prepare(key: string, seed: number): number {
  const length = key.length;
  const words = (length + 3) >>> 2;
  SCRATCH32[words - 1] = 0;
  for (let i = 0; i < length; i++) SCRATCH8[i] = key.charCodeAt(i);
  return hashWords(SCRATCH32, 0, words, seed);
}

/**
 * A word-at-a-time FNV-1a from a seeded start (xor a 32-bit word, multiply by the FNV prime), then
 * murmur3's finaliser so that the low bits the table masks by depend on every word. Each step is a
 * bijection of the state for a given word, so two keys of one length meet only through the seed.
 */
function hashWords(words: Uint32Array, from: number, n: number, seed: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = from; i < from + n; i++) h = Math.imul(h ^ words[i]!, 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** The hash a table of `seed` gives `key` (tests make keys collide with it). */
export function hashOf(key: string, seed: number): number {
  return prepare(key, seed);
}
