/**
 * A map keyed by 32-byte values (accounts, mints) that builds no string per lookup. Receipts look
 * up thousands of addresses per block, and a `Buffer.from(bytes).toString(...)` key for each was a
 * visible share of a synced block's time (docs/p2p.md "Sync"). Keys hash to a slot from their first
 * and last words (accounts are SHA-256 output; system accounts and mints that start with zeros
 * differ in their last bytes); keys with equal hashes are told apart by their bytes.
 *
 * Open addressing with linear probing: the keys are copied side by side into one array, the slots
 * hold entry numbers, and deleting moves the last entry into the hole and shifts the probe run
 * back, so no tombstones build up. A lookup allocates nothing; an earlier version kept a Map of
 * buckets of `{ key, value }` objects, and its lookups were the block writer thread's largest item
 * after the put calls (the address history of a synced block, src/storage/block-index.ts).
 */
export class Bytes32Map<V> {
  /** entry number + 1 per slot; 0 is empty */
  private slots = new Int32Array(16);
  private shift = 32 - 4;
  /** entry i's key at keys[32 i, 32 i + 32) */
  private keys = new Uint8Array(8 * 32);
  private vals: V[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(key: Uint8Array): V | undefined {
    checkLength(key);
    return this.getAt(key, 0);
  }

  /** The value of the 32 bytes at `bytes[at]` (no view made: the indexer looks up thousands a block). */
  getAt(bytes: Uint8Array, at: number): V | undefined {
    const entry = this.find(bytes, at);
    return entry < 0 ? undefined : this.vals[entry];
  }

  /** The key is copied: callers may pass views into buffers that are reused. */
  set(key: Uint8Array, value: V): void {
    checkLength(key);
    this.setAt(key, 0, value);
  }

  /** Set the value of the 32 bytes at `bytes[at]` (copied). */
  setAt(bytes: Uint8Array, at: number, value: V): void {
    const entry = this.find(bytes, at);
    if (entry >= 0) {
      this.vals[entry] = value;
      return;
    }
    if ((this.count + 1) * 2 > this.slots.length) this.grow();
    const index = this.count++;
    if (index * 32 >= this.keys.length) {
      const keys = new Uint8Array(this.keys.length * 2);
      keys.set(this.keys);
      this.keys = keys;
    }
    for (let i = 0; i < 32; i++) this.keys[index * 32 + i] = bytes[at + i]!;
    this.vals[index] = value;
    this.place(index);
  }

  delete(key: Uint8Array): boolean {
    checkLength(key);
    const mask = this.slots.length - 1;
    let s = this.hash(key, 0);
    for (;;) {
      const e = this.slots[s]! - 1;
      if (e < 0) return false;
      if (this.keyEquals(e, key, 0)) break;
      s = (s + 1) & mask;
    }
    const entry = this.slots[s]! - 1;
    this.removeSlot(s);
    // The last entry moves into the hole, so entries stay dense.
    const last = this.count - 1;
    if (entry !== last) {
      this.slots[this.slotOf(last)] = entry + 1;
      this.keys.copyWithin(entry * 32, last * 32, last * 32 + 32);
      this.vals[entry] = this.vals[last]!;
    }
    this.vals.length = last;
    this.count = last;
    return true;
  }

  clear(): void {
    this.slots.fill(0);
    this.vals = [];
    this.count = 0;
  }

  *values(): IterableIterator<V> {
    for (let i = 0; i < this.count; i++) yield this.vals[i]!;
  }

  /** The entry of the 32 bytes at `bytes[at]`, or -1. */
  private find(bytes: Uint8Array, at: number): number {
    const mask = this.slots.length - 1;
    for (let s = this.hash(bytes, at); ; s = (s + 1) & mask) {
      const e = this.slots[s]! - 1;
      if (e < 0 || this.keyEquals(e, bytes, at)) return e;
    }
  }

  private keyEquals(entry: number, b: Uint8Array, at: number): boolean {
    const keys = this.keys;
    const k = entry * 32;
    // From the end: keys that share a prefix (system accounts, mints) differ last.
    for (let i = 31; i >= 0; i--) if (keys[k + i] !== b[at + i]) return false;
    return true;
  }

  /** The slot that holds `entry` (which is in the map). */
  private slotOf(entry: number): number {
    const mask = this.slots.length - 1;
    let s = this.hash(this.keys, entry * 32);
    while (this.slots[s] !== entry + 1) s = (s + 1) & mask;
    return s;
  }

  private place(entry: number): void {
    const mask = this.slots.length - 1;
    let s = this.hash(this.keys, entry * 32);
    while (this.slots[s] !== 0) s = (s + 1) & mask;
    this.slots[s] = entry + 1;
  }

  /** Empty slot `s` and shift back the entries after it whose probe run passed through it. */
  private removeSlot(s: number): void {
    const slots = this.slots;
    const mask = slots.length - 1;
    let hole = s;
    for (let j = (s + 1) & mask; slots[j] !== 0; j = (j + 1) & mask) {
      const home = this.hash(this.keys, (slots[j]! - 1) * 32);
      // j's entry may fill the hole when its home is not in (hole, j], cyclically.
      if (hole <= j ? home <= hole || home > j : home <= hole && home > j) {
        slots[hole] = slots[j]!;
        hole = j;
      }
    }
    slots[hole] = 0;
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    this.shift--;
    for (let i = 0; i < this.count; i++) this.place(i);
  }

  /** The slot of a key: the high bits of a multiplicative hash of its first and last words. */
  private hash(b: Uint8Array, at: number): number {
    const first = b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24);
    const last = b[at + 28]! | (b[at + 29]! << 8) | (b[at + 30]! << 16) | (b[at + 31]! << 24);
    return Math.imul(first ^ Math.imul(last, 0x9e3779b1), 0x85ebca6b) >>> this.shift;
  }
}

function checkLength(key: Uint8Array): void {
  if (key.length !== 32) throw new RangeError(`a 32-byte key was expected, got ${key.length} bytes`);
}
