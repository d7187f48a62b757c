import { forEachStateWrite, type PackedStateWrites, type StateWrites } from '../storage/chain-store.js';
import { toKey } from './state-view.js';

/** How a block's writes are looked up: by binary search of its sorted packed writes, or a map. */
type BlockLookup = (key: Uint8Array) => Uint8Array | null | undefined;

/**
 * `--elastic-state` (docs/operations.md "Elastic state", "Memory bound"): the writes of blocks the
 * core executed that are not durable yet, so that a core instance created while they are in flight
 * reads exactly what the instance it replaces would have (it held them in its cache), and the
 * replacement need not wait for the block writer.
 *
 * On the block's path this costs O(1) a block: `executed` keeps a reference to the block's writes
 * (packed, src/storage/block-batch.ts, which the block holds until it is durable anyway), `durable`
 * drops it. Only a replacement with blocks in flight (`coreReplaced`) makes an overlay of them, and
 * a block's lookup is built on the new instance's first read: the core's commit gives a block's
 * writes sorted by key (assembly/root.ts `commit_block`), so the lookup is the offsets of its keys
 * (one integer pass, no object per write) and a binary search; a block whose writes are not sorted
 * (writes as objects, from tools) gets a map instead. A read asks the overlay's blocks newest first,
 * skipping the durable ones (the tiers hold their values, or a newer block's): the newest in-flight
 * write of the key answers, a delete as absent. The overlay goes once its last block is durable. The
 * instance that executed a block holds its writes itself, so blocks executed after a replacement
 * never need the overlay; a later replacement makes a new one over every block then in flight.
 */
export class InFlightWrites {
  /** writes of the blocks executed and queued for writing, not durable yet, oldest first */
  private readonly blocks: StateWrites[] = [];
  /** blocks made durable since start: `blocks[i]` has sequence number `durableCount + 1 + i` */
  private durableCount = 0;
  /** the blocks in flight at the last replacement (oldest first, the first with `firstSeq`), until all are durable */
  private overlay: { blocks: StateWrites[]; firstSeq: number; lookups: Array<BlockLookup | undefined> } | undefined;

  /** Blocks executed and not durable yet. */
  get size(): number {
    return this.blocks.length;
  }

  /** Whether a core instance reads through the overlay (blocks it did not execute are still in flight). */
  get active(): boolean {
    return this.overlay !== undefined;
  }

  /** A block's writes were made by the core's commit and queued for writing (in block order). */
  executed(writes: StateWrites): void {
    this.blocks.push(writes);
  }

  /** A block is durable (blocks land in order): its writes are in the tiers now. */
  durable(writes: StateWrites): void {
    // Writes applied that were never executed here (genesis, tools) are not in flight. Blocks land
    // in order, so this is the oldest; were one ever skipped, it goes with the later one.
    const landed = this.blocks.indexOf(writes) + 1;
    if (landed === 0) return;
    this.blocks.splice(0, landed);
    this.durableCount += landed;
    const overlay = this.overlay;
    if (overlay !== undefined && this.durableCount >= overlay.firstSeq + overlay.blocks.length - 1) this.overlay = undefined;
  }

  /**
   * A new core instance replaces the one that executed the blocks in flight: its reads see their
   * writes until each is durable. The number of blocks in flight.
   */
  coreReplaced(): number {
    this.overlay = this.blocks.length === 0 ? undefined : { blocks: [...this.blocks], firstSeq: this.durableCount + 1, lookups: [] };
    return this.blocks.length;
  }

  /** The blocks in flight were abandoned (a core rebuilt over durable state): forget them. */
  clear(): void {
    this.durableCount += this.blocks.length;
    this.blocks.length = 0;
    this.overlay = undefined;
  }

  /**
   * The newest in-flight write of the key, for a core instance made while it was in flight: its
   * value, null when that block deleted it, undefined when no such block wrote it (read the tiers).
   */
  read(key: Uint8Array): Uint8Array | null | undefined {
    const overlay = this.overlay;
    if (overlay === undefined) return undefined;
    for (let i = overlay.blocks.length - 1; i >= 0 && overlay.firstSeq + i > this.durableCount; i--) {
      const lookup = (overlay.lookups[i] ??= blockLookup(overlay.blocks[i]!));
      const value = lookup(key);
      if (value !== undefined) return value;
    }
    return undefined;
  }
}

/** A lookup of one block's writes: binary search when they are packed and sorted by key, else a map. */
function blockLookup(writes: StateWrites): BlockLookup {
  if (!Array.isArray(writes)) {
    const search = sortedLookup(writes as PackedStateWrites);
    if (search !== undefined) return search;
  }
  const map = new Map<string, Uint8Array | null>();
  forEachStateWrite(writes, (key, value) => map.set(toKey(key), value));
  return (key) => map.get(toKey(key));
}

/** Binary search over packed writes whose keys are strictly increasing; undefined when they are not. */
function sortedLookup({ bytes, lengths }: PackedStateWrites): BlockLookup | undefined {
  // A Buffer view of the block's bytes: `compare` orders ranges of it natively (memcmp, shorter first on a tie).
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = lengths.length >> 1;
  const keyAt = new Int32Array(count);
  for (let i = 0, o = 0; i < count; i++) {
    keyAt[i] = o;
    o += lengths[2 * i]! + Math.max(lengths[2 * i + 1]!, 0);
    if (i > 0 && buf.compare(buf, keyAt[i]!, keyAt[i]! + lengths[2 * i]!, keyAt[i - 1]!, keyAt[i - 1]! + lengths[2 * i - 2]!) >= 0) return undefined;
  }
  return (key) => {
    let lo = 0;
    let hi = count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const order = buf.compare(key, 0, key.length, keyAt[mid]!, keyAt[mid]! + lengths[2 * mid]!);
      if (order < 0) lo = mid + 1;
      else if (order > 0) hi = mid - 1;
      else {
        const valueLength = lengths[2 * mid + 1]!;
        const at = keyAt[mid]! + lengths[2 * mid]!;
        return valueLength < 0 ? null : bytes.subarray(at, at + valueLength);
      }
    }
    return undefined;
  };
}
