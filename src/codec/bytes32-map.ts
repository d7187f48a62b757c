/**
 * A map keyed by 32-byte values (accounts, mints) that builds no string per lookup. Receipts look
 * up thousands of addresses per block, and a `Buffer.from(bytes).toString(...)` key for each was a
 * visible share of a synced block's time (docs/p2p.md "Sync"). Keys hash to a small integer from
 * their first and last words (accounts are SHA-256 output; system accounts and mints that start
 * with zeros differ in their last bytes); keys with equal hashes are told apart by their bytes.
 */
export class Bytes32Map<V> {
  private readonly buckets = new Map<number, Array<{ key: Uint8Array; value: V }>>();
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
    const bucket = this.buckets.get(hash32(bytes, at));
    if (bucket) for (const entry of bucket) if (equal32(entry.key, bytes, at)) return entry.value;
    return undefined;
  }

  /** The key is copied: callers may pass views into buffers that are reused. */
  set(key: Uint8Array, value: V): void {
    checkLength(key);
    this.setAt(key, 0, value);
  }

  /** Set the value of the 32 bytes at `bytes[at]` (copied). */
  setAt(bytes: Uint8Array, at: number, value: V): void {
    const hash = hash32(bytes, at);
    const bucket = this.buckets.get(hash);
    const entry = bucket?.find((e) => equal32(e.key, bytes, at));
    if (entry) {
      entry.value = value;
      return;
    }
    const added = { key: bytes.slice(at, at + 32), value };
    if (bucket) bucket.push(added);
    else this.buckets.set(hash, [added]);
    this.count++;
  }

  delete(key: Uint8Array): boolean {
    checkLength(key);
    const hash = hash32(key, 0);
    const bucket = this.buckets.get(hash);
    const index = bucket?.findIndex((e) => equal32(e.key, key, 0)) ?? -1;
    if (index < 0) return false;
    bucket!.splice(index, 1);
    if (bucket!.length === 0) this.buckets.delete(hash);
    this.count--;
    return true;
  }

  clear(): void {
    this.buckets.clear();
    this.count = 0;
  }

  *values(): IterableIterator<V> {
    for (const bucket of this.buckets.values()) for (const entry of bucket) yield entry.value;
  }
}

function checkLength(key: Uint8Array): void {
  if (key.length !== 32) throw new RangeError(`a 32-byte key was expected, got ${key.length} bytes`);
}

/** 30 bits of b[at, at+32), so the Map key stays a small integer (no heap number per lookup). */
function hash32(b: Uint8Array, at: number): number {
  const first = b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24);
  const last = b[at + 28]! | (b[at + 29]! << 8) | (b[at + 30]! << 16) | (b[at + 31]! << 24);
  return (first ^ Math.imul(last, 0x9e3779b1)) & 0x3fffffff;
}

/** Whether `key` equals b[at, at+32). */
function equal32(key: Uint8Array, b: Uint8Array, at: number): boolean {
  for (let i = 31; i >= 0; i--) if (key[i] !== b[at + i]) return false;
  return true;
}
