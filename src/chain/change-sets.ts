import { forEachStateWrite, type PackedStateWrites, type StateWrites } from '../storage/chain-store.js';
import type { StateView } from './state-view.js';

/**
 * A block's change set (docs/storage.md "State history"): the value every key it writes held before
 * it (null: absent), as Erigon's change sets and reth's history tables keep them. The writer thread
 * puts it in the block's own batch (src/storage/block-batch.ts), so a block and its history are
 * durable together, and a read at a past block resolves each key to the value as of that block
 * (src/chain/state-history.ts).
 *
 * It is taken when the block is queued for writing (pipeline/write.ts), on the main thread: the
 * value before block N is the newest write of the blocks executed before it and not durable yet,
 * else the StateView's (which holds every durable block's writes and nothing after). Blocks land in
 * order, so this is exact. Host bookkeeping only: the core never sees it and the state root does
 * not depend on it.
 */
export class ChangeSetRecorder {
  /** blocks queued and not durable, oldest first: their writes, keys as latin1, and a map built on first need */
  private readonly inFlight: Array<{ writes: StateWrites; keys: string[]; values: Array<Uint8Array | null>; map?: Map<string, Uint8Array | null> }> = [];

  constructor(private readonly state: StateView) {}

  /**
   * The change set of a block queued for writing (blocks in order), packed as state writes are:
   * per key its length and the previous value's (-1: absent before the block).
   */
  record(writes: StateWrites): PackedStateWrites {
    const keys: string[] = [];
    const keyBytes: Uint8Array[] = [];
    const values: Array<Uint8Array | null> = [];
    const seen = Array.isArray(writes) ? new Set<string>() : undefined;
    forEachStateWrite(writes, (key, value) => {
      const k = Buffer.from(key.buffer, key.byteOffset, key.length).toString('latin1');
      // Writes as objects (tools) may name a key twice: its value before the block is taken once.
      if (seen) {
        if (seen.has(k)) return;
        seen.add(k);
      }
      keys.push(k);
      keyBytes.push(key);
      values.push(value);
    });
    const previous: Array<Uint8Array | undefined> = new Array(keys.length);
    let size = 0;
    for (let i = 0; i < keys.length; i++) {
      const before = this.before(keys[i]!);
      previous[i] = before;
      size += keyBytes[i]!.length + (before?.length ?? 0);
    }
    const bytes = new Uint8Array(size);
    const lengths = new Int32Array(keys.length * 2);
    let o = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keyBytes[i]!;
      bytes.set(key, o);
      o += key.length;
      lengths[2 * i] = key.length;
      const before = previous[i];
      if (before === undefined) lengths[2 * i + 1] = -1;
      else {
        bytes.set(before, o);
        o += before.length;
        lengths[2 * i + 1] = before.length;
      }
    }
    this.inFlight.push({ writes, keys, values });
    return { bytes, lengths };
  }

  /** A block is durable (blocks land in order): the StateView holds its writes now. */
  durable(writes: StateWrites): void {
    const at = this.inFlight.findIndex((entry) => entry.writes === writes);
    if (at >= 0) this.inFlight.splice(0, at + 1);
  }

  /** The value before the next block: the newest in-flight write of the key, else the StateView's. */
  private before(key: string): Uint8Array | undefined {
    for (let i = this.inFlight.length - 1; i >= 0; i--) {
      const entry = this.inFlight[i]!;
      if (entry.map === undefined) {
        entry.map = new Map();
        for (let j = 0; j < entry.keys.length; j++) entry.map.set(entry.keys[j]!, entry.values[j]!);
      }
      const value = entry.map.get(key);
      if (value !== undefined) return value ?? undefined;
    }
    return this.state.peekLatin1(key);
  }
}
