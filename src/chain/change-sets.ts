import { forEachStateWrite, type PackedChangeSet, type PackedStateWrites, type StateWrites } from '../storage/chain-store.js';
import type { StateView } from './state-view.js';

/**
 * A block's change set (docs/storage.md "State history"): the value every key it writes held before
 * it (null: absent), as Erigon's change sets and reth's history tables keep them. The writer thread
 * puts it in the block's own batch (src/storage/block-batch.ts), so a block and its history are
 * durable together, and a read at a past block resolves each key to the value as of that block
 * (src/chain/state-history.ts).
 *
 * It is taken when the block is queued for writing (pipeline/4-write.ts), on the main thread: the
 * value before block N is the newest write of the blocks executed before it and not durable yet,
 * else the StateView's (which holds every durable block's writes and nothing after). Blocks land in
 * order, so this is exact. Host bookkeeping only: the core never sees it and the state root does
 * not depend on it.
 */
export class ChangeSetRecorder {
  /**
   * Blocks queued and not durable, oldest first: their packed writes, each key's latin1 and where its
   * value lies (offset, length; -1 deleted), and a map from key to write built on first need.
   */
  private readonly inFlight: InFlightBlock[] = [];

  constructor(private readonly state: StateView) {}

  /**
   * The change set of a block queued for writing (blocks in order): per write its key's length and
   * the previous value's (-1: absent before the block), and the previous values back to back. For
   * packed writes the keys are not copied (`valuesOnly`): they are the block's own writes', in the
   * same order, and the writer thread takes them from there when it builds the record
   * (storage/state-history.ts `encodeChangeSet`). Writes as objects are packed with a key named
   * twice taken once, so theirs carry the keys. ~61,000 writes in a 10,000-transfer block: keys are
   * read by offset from the packed bytes, one latin1 string each (the StateView's own key form).
   */
  record(writes: StateWrites): PackedChangeSet {
    const block = packedBlock(writes);
    const { bytes, keys, at } = block;
    const count = keys.length;
    const withKeys = Array.isArray(writes);
    const previous: Array<Uint8Array | undefined> = new Array(count);
    const lengths = new Int32Array(count * 2);
    let size = 0;
    for (let i = 0; i < count; i++) {
      const before = this.before(keys[i]!);
      previous[i] = before;
      const keyLength = at[3 * i + 1]!;
      lengths[2 * i] = keyLength;
      lengths[2 * i + 1] = before === undefined ? -1 : before.length;
      size += (withKeys ? keyLength : 0) + (before?.length ?? 0);
    }
    const out = new Uint8Array(size);
    let o = 0;
    for (let i = 0; i < count; i++) {
      if (withKeys) {
        const keyAt = at[3 * i]!;
        const keyLength = at[3 * i + 1]!;
        out.set(bytes.subarray(keyAt, keyAt + keyLength), o);
        o += keyLength;
      }
      const before = previous[i];
      if (before !== undefined) {
        out.set(before, o);
        o += before.length;
      }
    }
    block.writes = writes;
    this.inFlight.push(block);
    return withKeys ? { bytes: out, lengths } : { bytes: out, lengths, valuesOnly: true };
  }

  /**
   * The keys of the block `record` took last, as latin1 in its writes' order, when `writes` are its
   * packed writes (else undefined): the holder index reads its balance writes by the same strings.
   */
  keysOf(writes: StateWrites): readonly string[] | undefined {
    const last = this.inFlight[this.inFlight.length - 1];
    return last !== undefined && last.writes === writes && !Array.isArray(writes) ? last.keys : undefined;
  }

  /**
   * A block is durable (blocks land in order): the StateView takes its writes now. Returns, for
   * packed writes, each write's key as the latin1 string `record` made of it, in the writes' order:
   * StateView.apply looks the same keys up, and a string already hashed by this recorder's lookups
   * costs a quarter of a fresh one (docs/performance.md "2026-12-07, eighth round").
   */
  durable(writes: StateWrites): readonly string[] | undefined {
    const index = this.inFlight.findIndex((entry) => entry.writes === writes);
    if (index < 0) return undefined;
    const { keys } = this.inFlight[index]!;
    this.inFlight.splice(0, index + 1);
    // writes as objects were packed with a key named twice taken once: their keys do not line up
    return Array.isArray(writes) ? undefined : keys;
  }

  /** The value before the next block: the newest in-flight write of the key, else the StateView's. */
  private before(key: string): Uint8Array | undefined {
    for (let i = this.inFlight.length - 1; i >= 0; i--) {
      const entry = this.inFlight[i]!;
      if (entry.map === undefined) {
        entry.map = new Map();
        for (let j = 0; j < entry.keys.length; j++) entry.map.set(entry.keys[j]!, j);
      }
      const j = entry.map.get(key);
      if (j === undefined) continue;
      const valueLength = entry.at[3 * j + 2]!;
      if (valueLength < 0) return undefined;
      const valueAt = entry.at[3 * j]! + entry.at[3 * j + 1]!;
      return entry.bytes.subarray(valueAt, valueAt + valueLength);
    }
    return this.state.peekLatin1(key);
  }
}

interface InFlightBlock {
  writes?: StateWrites;
  /** the keys and values back to back, as packed writes hold them */
  bytes: Uint8Array;
  /** each write's key as latin1, distinct */
  keys: string[];
  /** per write: its key's offset in `bytes`, the key's length, the value's length (-1: deleted; the value follows the key) */
  at: Int32Array;
  /** key → write index, built when a later block first asks */
  map?: Map<string, number>;
}

/** A block's writes as one byte array with offsets; writes as objects (tools) are packed first, a key named twice taken once. */
function packedBlock(writes: StateWrites): InFlightBlock {
  let packed: PackedStateWrites;
  if (Array.isArray(writes)) {
    const seen = new Set<string>();
    const list: Array<{ key: Uint8Array; value: Uint8Array | null }> = [];
    forEachStateWrite(writes, (key, value) => {
      const k = Buffer.from(key.buffer, key.byteOffset, key.length).toString('latin1');
      if (seen.has(k)) return;
      seen.add(k);
      list.push({ key, value });
    });
    let size = 0;
    for (const { key, value } of list) size += key.length + (value?.length ?? 0);
    const bytes = new Uint8Array(size);
    const lengths = new Int32Array(list.length * 2);
    let o = 0;
    list.forEach(({ key, value }, i) => {
      bytes.set(key, o);
      o += key.length;
      lengths[2 * i] = key.length;
      lengths[2 * i + 1] = value === null ? -1 : value.length;
      if (value !== null) {
        bytes.set(value, o);
        o += value.length;
      }
    });
    packed = { bytes, lengths };
  } else packed = writes as PackedStateWrites;
  const { bytes, lengths } = packed;
  const count = lengths.length >> 1;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const keys: string[] = new Array(count);
  const at = new Int32Array(count * 3);
  for (let i = 0, o = 0; i < count; i++) {
    const keyLength = lengths[2 * i]!;
    const valueLength = lengths[2 * i + 1]!;
    keys[i] = text.toString('latin1', o, o + keyLength);
    at[3 * i] = o;
    at[3 * i + 1] = keyLength;
    at[3 * i + 2] = valueLength;
    o += keyLength + Math.max(0, valueLength);
  }
  return { bytes, keys, at };
}
