/**
 * The StateView's keys, held outside V8's heap (docs/performance.md "Cost against state size"): a
 * hash table from a state key (its latin1 string, as the read paths build it) to the value's slot
 * in the ValueTable (./value-table.ts), in typed arrays. A `Map<string, number>` of 5,000,000 keys
 * was a 690 MB heap of strings and entries that every full collection marked (17 of them, 9.4 s, in a
 * 100 s run at 5 million accounts); here the heap holds a few arrays whatever the state's size.
 *
 * Open addressing with linear probing over a power-of-two table of entry numbers, at most half full;
 * a deletion shifts the entries behind it back (no tombstones). A key's bytes live in 16 MiB chunks
 * (a chunk never splits a key); a deleted key's bytes are left where they are and counted, and the
 * chunks are rewritten once that waste passes half of them.
 */

const CHUNK_BYTES = 16 * 1024 * 1024;
/** entry numbers start at 1: 0 in the table is an empty place */
const EMPTY = 0;
const INITIAL_TABLE = 1024;
/** A key no longer than this (the u16 the entry keeps); the history index caps keys the same way. */
const MAX_KEY = 0xffff;

export class KeyTable {
  /** entry number (1-based) at each place, EMPTY where none */
  private table = new Int32Array(INITIAL_TABLE);
  private mask = INITIAL_TABLE - 1;
  /** per entry (index = number − 1): its key's hash, chunk, offset in it, length, and the value's slot */
  private hashes = new Int32Array(INITIAL_TABLE >> 1);
  private chunkOf = new Uint16Array(INITIAL_TABLE >> 1);
  private offsets = new Int32Array(INITIAL_TABLE >> 1);
  private lengths = new Uint16Array(INITIAL_TABLE >> 1);
  private slots = new Int32Array(INITIAL_TABLE >> 1);
  /** entries ever made (live and freed); freed ones are numbered in `free` */
  private top = 0;
  private free: number[] = [];
  private chunks: Uint8Array[] = [new Uint8Array(CHUNK_BYTES)];
  /** the next free byte of the last chunk */
  private used = 0;
  /** bytes of deleted keys still in the chunks */
  private wasted = 0;
  private count = 0;
  /** the bytes of the live keys */
  keyBytes = 0;

  get size(): number {
    return this.count;
  }

  /** The slot of `key`, or -1. */
  get(key: string): number {
    const at = this.find(key, hashOf(key));
    return at < 0 ? -1 : this.slots[this.table[at]! - 1]!;
  }

  /** Maps `key` to `slot`, adding the key when it is new. */
  set(key: string, slot: number): void {
    const hash = hashOf(key);
    const at = this.find(key, hash);
    if (at >= 0) {
      this.slots[this.table[at]! - 1] = slot;
      return;
    }
    if (key.length > MAX_KEY) throw new RangeError(`a state key of ${key.length} bytes is longer than ${MAX_KEY}`);
    if ((this.count + 1) * 2 > this.table.length) this.rehash(this.table.length * 2);
    const entry = this.newEntry(key, hash, slot);
    let place = hash & this.mask;
    while (this.table[place] !== EMPTY) place = (place + 1) & this.mask;
    this.table[place] = entry + 1;
    this.count++;
    this.keyBytes += key.length;
  }

  /** Removes `key`; whether it was there. */
  delete(key: string): boolean {
    let at = this.find(key, hashOf(key));
    if (at < 0) return false;
    const entry = this.table[at]! - 1;
    this.wasted += this.lengths[entry]!;
    this.keyBytes -= this.lengths[entry]!;
    this.free.push(entry);
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
    if (this.wasted > CHUNK_BYTES && this.wasted * 2 > this.chunks.length * CHUNK_BYTES) this.compact();
    return true;
  }

  /** Every key (latin1) with its slot, in no order. The table must not change during the visit. */
  forEach(visit: (key: string, slot: number) => void): void {
    for (let place = 0; place < this.table.length; place++) {
      const number = this.table[place]!;
      if (number === EMPTY) continue;
      visit(this.keyOf(number - 1), this.slots[number - 1]!);
    }
  }

  private keyOf(entry: number): string {
    const chunk = this.chunks[this.chunkOf[entry]!]!;
    const at = this.offsets[entry]!;
    return Buffer.from(chunk.buffer, chunk.byteOffset + at, this.lengths[entry]!).toString('latin1');
  }

  /** The place holding `key`, or -1. */
  private find(key: string, hash: number): number {
    const length = key.length;
    let place = hash & this.mask;
    for (;;) {
      const number = this.table[place]!;
      if (number === EMPTY) return -1;
      const entry = number - 1;
      if (this.hashes[entry] === hash && this.lengths[entry] === length && this.sameKey(entry, key)) return place;
      place = (place + 1) & this.mask;
    }
  }

  private sameKey(entry: number, key: string): boolean {
    const chunk = this.chunks[this.chunkOf[entry]!]!;
    const at = this.offsets[entry]!;
    for (let i = 0; i < key.length; i++) if (chunk[at + i] !== key.charCodeAt(i)) return false;
    return true;
  }

  private newEntry(key: string, hash: number, slot: number): number {
    const entry = this.free.length > 0 ? this.free.pop()! : this.top++;
    if (entry >= this.hashes.length) this.growEntries();
    if (this.used + key.length > CHUNK_BYTES) {
      this.chunks.push(new Uint8Array(CHUNK_BYTES));
      this.used = 0;
    }
    const chunk = this.chunks[this.chunks.length - 1]!;
    for (let i = 0; i < key.length; i++) chunk[this.used + i] = key.charCodeAt(i);
    this.hashes[entry] = hash;
    this.chunkOf[entry] = this.chunks.length - 1;
    this.offsets[entry] = this.used;
    this.lengths[entry] = key.length;
    this.slots[entry] = slot;
    this.used += key.length;
    return entry;
  }

  private growEntries(): void {
    const n = this.hashes.length * 2;
    this.hashes = grown(this.hashes, new Int32Array(n));
    this.chunkOf = grown(this.chunkOf, new Uint16Array(n));
    this.offsets = grown(this.offsets, new Int32Array(n));
    this.lengths = grown(this.lengths, new Uint16Array(n));
    this.slots = grown(this.slots, new Int32Array(n));
  }

  private rehash(size: number): void {
    const old = this.table;
    this.table = new Int32Array(size);
    this.mask = size - 1;
    for (let place = 0; place < old.length; place++) {
      const number = old[place]!;
      if (number === EMPTY) continue;
      let at = this.hashes[number - 1]! & this.mask;
      while (this.table[at] !== EMPTY) at = (at + 1) & this.mask;
      this.table[at] = number;
    }
  }

  /** Rewrites the live keys into fresh chunks, dropping the deleted keys' bytes (entries keep their numbers). */
  private compact(): void {
    const chunks: Uint8Array[] = [new Uint8Array(CHUNK_BYTES)];
    let used = 0;
    for (let place = 0; place < this.table.length; place++) {
      const number = this.table[place]!;
      if (number === EMPTY) continue;
      const entry = number - 1;
      const length = this.lengths[entry]!;
      if (used + length > CHUNK_BYTES) {
        chunks.push(new Uint8Array(CHUNK_BYTES));
        used = 0;
      }
      const from = this.chunks[this.chunkOf[entry]!]!;
      const at = this.offsets[entry]!;
      chunks[chunks.length - 1]!.set(from.subarray(at, at + length), used);
      this.chunkOf[entry] = chunks.length - 1;
      this.offsets[entry] = used;
      used += length;
    }
    this.chunks = chunks;
    this.used = used;
    this.wasted = 0;
  }
}

function grown<T extends Int32Array | Uint16Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/**
 * FNV-1a over the key's bytes (its latin1 char codes), then murmur3's finaliser so the low bits the
 * table masks by depend on every byte. The keys are mostly hashes and addresses, already spread.
 */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
