import { forEachStateWrite, type StateWrites } from '../storage/chain-store.js';
import { toKey } from './state-view.js';

/** A key's newest write among the blocks in flight when the overlay was made, and that block's sequence number. */
interface OverlayEntry {
  value: Uint8Array | null;
  seq: number;
}

/**
 * `--elastic-state` (docs/operations.md "Elastic state", "Memory bound"): the writes of blocks the
 * core executed that are not durable yet, so that a core instance created while they are in flight
 * reads exactly what the instance it replaces would have (it held them in its cache), and the
 * replacement need not wait for the block writer.
 *
 * On the block's path this costs O(1) a block: `executed` keeps a reference to the block's writes
 * (packed: src/storage/block-batch.ts, already held by the block until it is durable), `durable`
 * drops it. Only a replacement with blocks in flight (`coreReplaced`) makes an overlay of them, and
 * its lookup map (one entry per write of those blocks, ~60 ms for a 10,000-transfer block here) is
 * built on the new instance's first read. A key's entry is its newest write among those blocks; it
 * answers only while the block that wrote it is not durable (after, the tiers hold that value or a
 * newer one), and the whole overlay goes once the last of its blocks is durable. The instance that
 * executed a block holds its writes itself, so blocks executed after the replacement never need
 * the overlay; a later replacement makes a new one over every block then in flight.
 */
export class InFlightWrites {
  /** writes of the blocks executed and queued for writing, not durable yet, oldest first */
  private readonly blocks: StateWrites[] = [];
  /** blocks made durable since start: `blocks[i]` has sequence number `durableCount + 1 + i` */
  private durableCount = 0;
  /** the overlay of the blocks in flight at the last replacement, until they are all durable */
  private overlay: { blocks: StateWrites[]; firstSeq: number; lastSeq: number; map?: Map<string, OverlayEntry> } | undefined;

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
    // Writes applied that were never executed here (genesis, tools) are not in flight.
    if (this.blocks[0] !== writes) return;
    this.blocks.shift();
    this.durableCount++;
    if (this.overlay !== undefined && this.durableCount >= this.overlay.lastSeq) this.overlay = undefined;
  }

  /**
   * A new core instance replaces the one that executed the blocks in flight: its reads see their
   * writes until each is durable. The number of blocks in flight.
   */
  coreReplaced(): number {
    if (this.blocks.length === 0) {
      this.overlay = undefined;
      return 0;
    }
    const firstSeq = this.durableCount + 1;
    this.overlay = { blocks: [...this.blocks], firstSeq, lastSeq: firstSeq + this.blocks.length - 1 };
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
    const entry = (overlay.map ??= this.build(overlay.blocks, overlay.firstSeq)).get(toKey(key));
    if (entry === undefined || entry.seq <= this.durableCount) return undefined;
    return entry.value;
  }

  private build(blocks: StateWrites[], firstSeq: number): Map<string, OverlayEntry> {
    const map = new Map<string, OverlayEntry>();
    blocks.forEach((writes, i) => {
      const seq = firstSeq + i;
      // oldest first: a newer block's write of a key replaces an older one's
      forEachStateWrite(writes, (key, value) => map.set(toKey(key), { value, seq }));
    });
    return map;
  }
}
