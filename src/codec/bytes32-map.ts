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
    const bucket = this.buckets.get(hash32(key));
    if (bucket) for (const entry of bucket) if (equal32(entry.key, key)) return entry.value;
    return undefined;
  }

  /** The key is copied: callers may pass views into buffers that are reused. */
  set(key: Uint8Array, value: V): void {
    const hash = hash32(key);
    const bucket = this.buckets.get(hash);
    const entry = bucket?.find((e) => equal32(e.key, key));
    if (entry) {
      entry.value = value;
      return;
    }
    const added = { key: key.slice(0, 32), value };
    if (bucket) bucket.push(added);
    else this.buckets.set(hash, [added]);
    this.count++;
  }

  delete(key: Uint8Array): boolean {
    const hash = hash32(key);
    const bucket = this.buckets.get(hash);
    const index = bucket?.findIndex((e) => equal32(e.key, key)) ?? -1;
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

/** 30 bits, so the Map key stays a small integer (no heap number per lookup). */
function hash32(b: Uint8Array): number {
  if (b.length !== 32) throw new RangeError(`a 32-byte key was expected, got ${b.length} bytes`);
  const first = b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24);
  const last = b[28]! | (b[29]! << 8) | (b[30]! << 16) | (b[31]! << 24);
  return (first ^ Math.imul(last, 0x9e3779b1)) & 0x3fffffff;
}

function equal32(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) if (a[i] !== b[i]) return false;
  return true;
}
