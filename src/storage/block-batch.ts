import { toLatin1 } from '../codec/hash.js';
import { encodeLocation, type BlockAppender } from './block-files.js';
import { encodeOutcome } from './outcome-wasm.js';
import { blockKey, changeSetKey, FORMAT, HEAD, localKey, Prefix, prefixed, STATE_HISTORY_INDEXED, STATE_HISTORY_MARKER, STORAGE_FORMAT, TREE_KEY_FIRST, TREE_MARKER, u64 } from './keys.js';
import { encodeChangeSet } from './state-history.js';

/**
 * What one block writes (docs/storage.md), and how a group of blocks becomes one level batch. The
 * batch is built on the block writer's thread (block-writer-worker.ts); the main thread only hands
 * the writes over (block-writer.ts).
 */

export interface StateWrite {
  key: Uint8Array;
  /** null deletes the key */
  value: Uint8Array | null;
}

export type IndexOp = { type: 'put'; key: Uint8Array; value: Uint8Array } | { type: 'del'; key: Uint8Array };

export interface BlockWrite {
  height: number;
  hash: Uint8Array;
  block: Uint8Array;
  /**
   * The block's execution result in block order (BlockResultView bytes, src/core/block-result.ts):
   * receipts are built from it and the block when read. Absent for the genesis block.
   */
  outcome?: Uint8Array;
  /**
   * the bundle hashes in block order: each gets its position record. Either one hash per item, or
   * all of them side by side in one array (an imported block's, from the core's scan).
   */
  bundleHashes: readonly Uint8Array[] | Uint8Array;
  /** as objects, or already packed (the core's commit output, src/core/core.ts commitBlockPacked) */
  state: StateWrites;
  local?: Array<{ key: string; value: Uint8Array }>;
  /** explorer index records (src/chain/indexer.ts), keys built with `IndexKeys` */
  indexes?: IndexOp[];
  /**
   * The writer thread adds the index records the block derives from itself and its outcome
   * (src/storage/block-index.ts): the bundle list, address history, token transfers.
   */
  deriveIndexes?: boolean;
  /** the finality certificate (src/consensus/certificate.ts), stored next to the block */
  certificate?: Uint8Array;
  /**
   * The block's change set (src/chain/change-sets.ts, docs/storage.md "State history"): per key it
   * writes, the value before the block (length -1: absent). Put in the block's own batch.
   */
  history?: PackedChangeSet;
}

/**
 * A block's change set as ChangeSetRecorder.record gives it: per write its key's length and its
 * previous value's (-1: absent), and in `bytes` each key and previous value back to back, or, with
 * `valuesOnly`, the previous values alone: the keys are then the block's own packed state writes'
 * (same order), read from them when the record is built, not copied on the main thread first.
 */
export interface PackedChangeSet extends PackedStateWrites {
  valuesOnly?: boolean;
}

/**
 * A BlockWrite as it crosses to the writer's thread: the bundle hashes in one array, 32 bytes each,
 * and every byte array (block, execution result, hashes, state writes, hash, certificate) copied
 * once into views of one buffer of its own, which is transferred, not cloned. A structured clone
 * copied each of them twice (into the message and out of it): posting a full block took ~1.0 ms of
 * the main thread, ~0.6 ms with the transfer of five buffers; one buffer also saves four allocations
 * a block. Cloning a view into a larger buffer, such as a network frame holding ten blocks, would
 * also copy all of that buffer.
 */
export interface PackedBlockWrite extends Omit<BlockWrite, 'bundleHashes' | 'state'> {
  bundleHashes: Uint8Array;
  state: PackedStateWrites;
}

/**
 * State writes in two arrays: every key and value back to back in `bytes`, and per write its key's
 * length and its value's (-1 deletes). A full block has ~350 state writes; cloned as objects, each
 * key and value was a typed array of its own for the message to copy twice.
 */
export interface PackedStateWrites {
  bytes: Uint8Array;
  lengths: Int32Array;
}

/** A block's state writes: objects (tools, genesis, replay) or packed (a block executed by the node). */
export type StateWrites = readonly StateWrite[] | PackedStateWrites;

function isPacked(writes: StateWrites): writes is PackedStateWrites {
  return !Array.isArray(writes);
}

/** How many state writes. */
export function stateWriteCount(writes: StateWrites): number {
  return isPacked(writes) ? writes.lengths.length >> 1 : (writes as readonly StateWrite[]).length;
}

/** Each state write in order, as its key and value (null deletes); packed ones as views into their bytes. */
export function forEachStateWrite(writes: StateWrites, visit: (key: Uint8Array, value: Uint8Array | null) => void): void {
  if (isPacked(writes)) eachStateWrite(writes, visit);
  else for (const { key, value } of writes as readonly StateWrite[]) visit(key, value);
}

/** The writes as objects (readers off the hot path). */
export function stateWriteList(writes: StateWrites): readonly StateWrite[] {
  if (!isPacked(writes)) return writes as readonly StateWrite[];
  const out: StateWrite[] = [];
  eachStateWrite(writes, (key, value) => out.push({ key, value }));
  return out;
}

/**
 * One block's write as one transferable buffer. `allocate` hands out the buffer, of at least the
 * size asked: the block writer's spare buffers, which the writer thread gives back once nothing it
 * keeps views them (docs/storage.md "The writer thread"), so a block's bytes go into memory already
 * paged in rather than a fresh allocation every block (docs/performance.md "Fresh buffers").
 */
export function packBlockWrite(write: BlockWrite, allocate: (bytes: number) => ArrayBuffer = (bytes) => new ArrayBuffer(bytes)): { packed: PackedBlockWrite; transfer: ArrayBuffer[] } {
  const { bundleHashes, state: writes } = write;
  const count = stateWriteCount(writes);
  let stateSize = 0;
  if (isPacked(writes)) stateSize = writes.bytes.length;
  else for (const { key, value } of writes as readonly StateWrite[]) stateSize += key.length + (value?.length ?? 0);
  // One buffer for the whole message, one transfer: the write lengths first (4-byte aligned).
  const history = write.history;
  const sizes = [count * 8, history?.lengths.byteLength ?? 0, write.block.length, write.outcome?.length ?? 0, packedLength(bundleHashes), stateSize, 32, write.certificate?.length ?? 0, history?.bytes.length ?? 0];
  const total = sizes.reduce((a, b) => a + b, 0);
  const buffer = allocate(total);
  if (buffer.byteLength < total) throw new RangeError(`a block write of ${total} bytes was given a buffer of ${buffer.byteLength}`);
  let at = 0;
  const take = (i: number) => {
    const view = new Uint8Array(buffer, at, sizes[i]!);
    at += sizes[i]!;
    return view;
  };
  const lengths = new Int32Array(buffer, take(0).byteOffset, count * 2);
  // the change set's lengths second: both Int32Arrays start 4-byte aligned
  const historyLengths = new Int32Array(buffer, take(1).byteOffset, (history?.lengths.length ?? 0));
  if (history) historyLengths.set(history.lengths);
  const block = take(2);
  block.set(write.block);
  const outcome = take(3);
  if (write.outcome) outcome.set(write.outcome);
  const hashes = take(4);
  packHashesInto(bundleHashes, hashes);
  const bytes = take(5);
  if (isPacked(writes)) {
    // Already packed (the core's output): two copies, no per-write work.
    lengths.set(writes.lengths);
    bytes.set(writes.bytes);
  } else packState(writes as readonly StateWrite[], bytes, lengths);
  const hash = take(6);
  hash.set(write.hash);
  const certificate = take(7);
  if (write.certificate) certificate.set(write.certificate);
  const historyBytes = take(8);
  if (history) historyBytes.set(history.bytes);
  const packed: PackedBlockWrite = {
    ...write,
    hash,
    block,
    ...(write.outcome ? { outcome } : {}),
    ...(write.certificate ? { certificate } : {}),
    ...(history ? { history: { bytes: historyBytes, lengths: historyLengths, ...(history.valuesOnly ? { valuesOnly: true } : {}) } } : {}),
    bundleHashes: hashes,
    state: { bytes, lengths },
  };
  return { packed, transfer: [buffer] };
}

function packState(writes: readonly StateWrite[], bytes: Uint8Array, lengths: Int32Array): void {
  let o = 0;
  for (let i = 0; i < writes.length; i++) {
    const { key, value } = writes[i]!;
    bytes.set(key, o);
    o += key.length;
    lengths[2 * i] = key.length;
    if (value === null) lengths[2 * i + 1] = -1;
    else {
      // A value that is not bytes (a caller's bug) must fail the write, as the batch's put would.
      if (!(value instanceof Uint8Array)) throw new TypeError(`state write ${i}: the value is not bytes`);
      bytes.set(value, o);
      o += value.length;
      lengths[2 * i + 1] = value.length;
    }
  }
}

/**
 * 32-byte hashes in one array of its own, in order: the packed form, and the value of the `t` index
 * record. An imported block's hashes are already side by side in one array (the core's scan,
 * src/core/scan.ts), given as that array or as views into it: that run is copied in one piece.
 */
export function packHashes(hashes: readonly Uint8Array[] | Uint8Array): Uint8Array {
  const out = new Uint8Array(packedLength(hashes));
  packHashesInto(hashes, out);
  return out;
}

/** The bytes the hashes take packed; hashes already side by side must be whole 32-byte hashes. */
function packedLength(hashes: readonly Uint8Array[] | Uint8Array): number {
  if (!(hashes instanceof Uint8Array)) return hashes.length * 32;
  if (hashes.length % 32 !== 0) throw new RangeError(`bundle hashes of ${hashes.length} bytes: not a whole number of 32-byte hashes`);
  return hashes.length;
}

/** packHashes into `out`, which holds exactly the hashes. */
function packHashesInto(hashes: readonly Uint8Array[] | Uint8Array, out: Uint8Array): void {
  if (hashes instanceof Uint8Array) {
    out.set(hashes);
    return;
  }
  const n = hashes.length;
  if (n > 0) {
    const first = hashes[0]!;
    let adjacent = first.length === 32;
    for (let i = 1; i < n && adjacent; i++) {
      const h = hashes[i]!;
      adjacent = h.buffer === first.buffer && h.byteOffset === first.byteOffset + 32 * i && h.length === 32;
    }
    if (adjacent) {
      out.set(new Uint8Array(first.buffer, first.byteOffset, n * 32));
      return;
    }
  }
  for (let i = 0; i < n; i++) out.set(hashes[i]!, i * 32);
}

/**
 * Where a group's records go: a level chained batch. A sink reads `key` and `value` during the call
 * only (classic-level's `put` copies both into its native batch at once), so a caller may pass the
 * same array again with other bytes: the state records' keys do (`StateKeys`).
 */
export interface BatchSink {
  put(key: Uint8Array, value: Uint8Array): unknown;
  del(key: Uint8Array): unknown;
}

/**
 * The records that close a group's batch: its merged state writes and the head set to the group's
 * last block (docs/storage.md). The blocks' own records went in with `putBlock` as each block
 * arrived. Their position records are not in it: they follow the durable batch, with the address
 * history (docs/storage.md "The transaction lookup index").
 */
export function sealGroup(batch: BatchSink, writes: readonly PackedBlockWrite[], state: GroupState, tree?: TreePending, keep?: () => () => void): void {
  state.putInto(batch, tree, keep);
  const last = u64(writes[writes.length - 1]!.height);
  // no pending tree: its records went into this batch, so the stored tree is at this group's head
  if (!tree) batch.put(TREE_MARKER, last);
  batch.put(HEAD, last);
}

/**
 * A group's state writes, merged: a key that several of its blocks write is put once, with the
 * last block's value. The group is one atomic batch and its head is its last block, so storage
 * never holds the state between its blocks: the merged batch leaves the same records as putting
 * every write in order. During a catch-up a group holds ~8 full blocks writing the same ~320 keys
 * (the senders' and recipients' balances and the state tree's paths): ~2,600 native `put`s and
 * memtable inserts become ~330 (docs/storage.md "The writer thread").
 *
 * A group of one block (a live block, written at once) is put as the core gave it, sorted by key,
 * with no map: its keys are distinct, and a 10,000-transfer block has ~40,000 of them. The map
 * starts with a group's second block, which arrives while the write before it is under way.
 */
export class GroupState {
  /** the first block's writes, until a second block comes */
  private first: PackedStateWrites | undefined;
  /** latin1 of the state key → its newest write (null deletes), in order of first arrival */
  private merged: Map<string, { key: Uint8Array; value: Uint8Array | null }> | undefined;

  /** Take a block's state writes, in block order (later blocks after earlier ones). */
  add(write: PackedBlockWrite): void {
    if (this.first === undefined && this.merged === undefined) {
      this.first = write.state;
      return;
    }
    const merged = (this.merged ??= new Map());
    if (this.first) {
      eachStateWrite(this.first, (key, value) => merge(merged, key, value));
      this.first = undefined;
    }
    eachStateWrite(write.state, (key, value) => merge(merged, key, value));
  }

  /**
   * Every key's newest write into the batch; the state tree's records (0xF0, 0xF1) into `tree`
   * instead when given, for its next checkpoint (docs/storage.md "The state tree on disk").
   * `keep`: called when a lone block's tree run is handed to `tree` as views into its buffer; what
   * it returns, `tree` calls once it has copied the run (the buffer may then be reused).
   */
  putInto(batch: BatchSink, tree?: TreePending, keep?: () => () => void): void {
    const put = (key: Uint8Array, value: Uint8Array | null) => {
      if (tree && key[0]! >= TREE_KEY_FIRST) {
        tree.set(key, value);
        return;
      }
      const stateKey = stateKeys.of(key);
      if (value === null) batch.del(stateKey);
      else batch.put(stateKey, value);
    };
    if (this.first) {
      // A lone block's writes come sorted by key (the core's order), so the tree's records are its
      // tail: handed to `tree` as one packed run, a copy of two arrays instead of a copy per record.
      const split = tree ? treeTail(this.first) : undefined;
      if (split) {
        eachStateWrite(split.records, put);
        tree!.addPacked(split.tree, keep?.());
      } else eachStateWrite(this.first, put);
    } else if (this.merged) for (const { key, value } of this.merged.values()) put(key, value);
  }
}

/**
 * The state tree's records written since its last checkpoint (docs/storage.md "The state tree on
 * disk"): a bucket record or node that several blocks rewrite is held once, with its newest value
 * (null: deleted), and put once at the checkpoint. At most every bucket record and node 1–4,095
 * (69,631 records), however many blocks it covers. Keys and values are copied: the views they come
 * from keep a whole block's transferred buffer alive.
 */
export class TreePending {
  /** bucket records by bucket, nodes by 65,536 + index; any other key by its latin1 */
  private readonly records = new Map<number | string, { key: Uint8Array; value: Uint8Array | null }>();

  get size(): number {
    return this.records.size;
  }

  /** runs of a lone block's tree records (treeTail), in block order, not yet folded into `records` */
  private runs: Array<{ run: PackedStateWrites; release: (() => void) | undefined }> = [];

  /**
   * A block's tree records as one packed run, held as given (views into the block's transferred
   * buffer, kept alive until folded) and folded into the set when the writer is idle. `release` is
   * called once the run is folded: its records are copied, and the buffer is no longer viewed here.
   */
  addPacked(run: PackedStateWrites, release?: () => void): void {
    this.runs.push({ run, release });
    // bounded: a full block's run is ~2.5 MB
    if (this.runs.length >= TREE_RUNS_HELD) this.fold();
  }

  /** Fold the held runs into the set, in order (off the block's path: the worker calls it when idle). */
  fold(): void {
    const runs = this.runs;
    if (runs.length === 0) return;
    this.runs = [];
    for (const { run } of runs) eachStateWrite(run, (key, value) => this.setRecord(key, value));
    for (const { release } of runs) release?.();
  }

  get pendingRuns(): number {
    return this.runs.length;
  }

  set(key: Uint8Array, value: Uint8Array | null): void {
    this.fold();
    this.setRecord(key, value);
  }

  private setRecord(key: Uint8Array, value: Uint8Array | null): void {
    let id: number | string;
    if (key[0] === TREE_KEY_FIRST && key.length === 3) id = (key[1]! << 8) | key[2]!;
    else if (key[0] === TREE_KEY_FIRST + 1 && key.length === 5) id = 0x10000 + (((key[1]! << 24) | (key[2]! << 16) | (key[3]! << 8) | key[4]!) >>> 0);
    else if (key[0] === TREE_KEY_FIRST + 2 && key.length === 3) id = 0x20000 + ((key[1]! << 8) | key[2]!);
    else if (key[0] === TREE_KEY_FIRST + 3 && key.length === 4) id = 0x30000 + ((((key[1]! << 8) | key[2]!) << 4) | (key[3]! & 15));
    else id = toLatin1(key);
    this.records.set(id, { key: key.slice(), value: value && value.slice() });
  }

  /** Every held record into `batch` (as 's' records), and the set emptied. */
  drainInto(batch: BatchSink): void {
    this.fold();
    for (const { key, value } of this.records.values()) {
      const stateKey = stateKeys.of(key);
      if (value === null) batch.del(stateKey);
      else batch.put(stateKey, value);
    }
    this.records.clear();
  }
}

/**
 * The `s` + state key of each state record put, written into one array per key length that is used
 * again for the next record of that length: the sink copies it during `put` (BatchSink). A fresh
 * array per record cost an allocation, and for the 66-byte balance keys an off-heap one, above V8's
 * 64-byte on-heap limit: 25,000 puts took 35 ms with fresh keys and 21 with these, on the
 * development machine (docs/performance.md "The writer's state puts").
 */
class StateKeys {
  private readonly byLength: Uint8Array[] = [];

  of(key: Uint8Array): Uint8Array {
    let out = this.byLength[key.length];
    if (out === undefined) {
      out = new Uint8Array(1 + key.length);
      out[0] = Prefix.State;
      this.byLength[key.length] = out;
    }
    out.set(key, 1);
    return out;
  }
}

const stateKeys = new StateKeys();

/** Lone blocks' tree runs held before they are folded (a full block's is ~2.5 MB). */
const TREE_RUNS_HELD = 8;

/**
 * A lone block's packed writes split where the tree's records (keys from 0xF0) begin; undefined when
 * it has none, or when any write after the first of them is not the tree's (not sorted: every write
 * then goes its own way).
 */
function treeTail(packed: PackedStateWrites): { records: PackedStateWrites; tree: PackedStateWrites } | undefined {
  const { bytes, lengths } = packed;
  let split = -1;
  let splitAt = 0;
  for (let i = 0, o = 0; i < lengths.length; i += 2) {
    const keyLength = lengths[i]!;
    const isTree = keyLength > 0 && bytes[o]! >= TREE_KEY_FIRST;
    if (isTree && split < 0) {
      split = i;
      splitAt = o;
    } else if (!isTree && split >= 0) return undefined;
    o += keyLength + Math.max(0, lengths[i + 1]!);
  }
  if (split < 0) return undefined;
  return {
    records: { bytes: bytes.subarray(0, splitAt), lengths: lengths.subarray(0, split) },
    tree: { bytes: bytes.subarray(splitAt), lengths: lengths.subarray(split) },
  };
}

function merge(merged: Map<string, { key: Uint8Array; value: Uint8Array | null }>, key: Uint8Array, value: Uint8Array | null): void {
  const id = toLatin1(key);
  const held = merged.get(id);
  if (held) held.value = value;
  else merged.set(id, { key, value });
}

/** Each state write of a block in order, as views into its packed bytes (null deletes). */
function eachStateWrite({ bytes, lengths }: PackedStateWrites, visit: (key: Uint8Array, value: Uint8Array | null) => void): void {
  for (let i = 0, o = 0; i < lengths.length; i += 2) {
    const keyLength = lengths[i]!;
    const valueLength = lengths[i + 1]!;
    const key = bytes.subarray(o, o + keyLength);
    o += keyLength;
    if (valueLength < 0) visit(key, null);
    else {
      visit(key, bytes.subarray(o, o + valueLength));
      o += valueLength;
    }
  }
}

/**
 * Everything one block writes but its state, its positions and the head: the block and its result
 * (appended to the block files, their location in the batch), local records, indexes, certificate.
 * Its state writes go to the group's GroupState, put when the group is sealed.
 */
export function putBlock(batch: BatchSink, files: Pick<BlockAppender, 'append'>, write: PackedBlockWrite): void {
  batch.put(blockKey(write.height), encodeLocation(files.append(write.block, write.outcome && encodeOutcome(write.outcome))));
  batch.put(prefixed(Prefix.BlockHash, write.hash), u64(write.height));
  if (write.height === 0) {
    batch.put(FORMAT, Uint8Array.of(STORAGE_FORMAT));
    // a chain written from genesis on keeps its state history from there (docs/storage.md "State history")
    batch.put(STATE_HISTORY_MARKER, u64(0));
    batch.put(STATE_HISTORY_INDEXED, u64(0));
  }
  for (const { key, value } of write.local ?? []) batch.put(localKey(key), value);
  for (const op of write.indexes ?? []) {
    if (op.type === 'put') batch.put(op.key, op.value);
    else batch.del(op.key);
  }
  if (write.certificate) batch.put(prefixed(Prefix.Certificate, u64(write.height)), write.certificate);
  if (write.history) putChangeSet(batch, write.height, write.history, write.state);
}

/**
 * A block's change set (docs/storage.md "State history"): one 'v' record holding every key the block
 * wrote and its value before the block, durable with the block. The per-key index ('u' records) a
 * read at a past height seeks is built from it by the writer thread behind the head
 * (block-writer-worker.ts `writeHistoryIndex`), off the block's synced batch: ~61,000 records of a
 * 10,000-transfer block made its batch ~3× slower (docs/performance.md).
 */
export function putChangeSet(batch: BatchSink, height: number, history: PackedChangeSet, state?: PackedStateWrites): void {
  if (history.valuesOnly && !state) throw new Error(`the change set of block ${height} holds values only and was given no state writes for its keys`);
  batch.put(changeSetKey(height), encodeChangeSet(history, history.valuesOnly ? state : undefined));
}

/**
 * Position records of consecutive blocks (a group's, or a lookup batch's behind the head), 'r' +
 * hash → height u64 BE ‖ index u32 BE, put in key order.
 * LevelDB inserts each record into its memtable's skiplist; random hashes in arrival order made
 * every insert a fresh walk through cold memory, and that walk was most of the write thread's time
 * at 1,000 bundles a block (3.5 → 2.2 ms a block, docs/p2p.md "Measured"). In key order each walk
 * starts where the previous one was warm. Keys and values are views into two arrays allocated once
 * for the call (the batch copies them).
 */
export function putPositions(batch: BatchSink, writes: ReadonlyArray<Pick<PackedBlockWrite, 'height' | 'bundleHashes'>>): void {
  let total = 0;
  for (const w of writes) total += w.bundleHashes.length / 32;
  if (total === 0) return;
  const keys = new Uint8Array(total * 33);
  const values = new Uint8Array(total * 12);
  const view = new DataView(values.buffer);
  // Each record's sort key: its hash's first 32 bits, then its slot in the low bits, in one float
  // (exact below 2^53), so a plain numeric sort orders them with no comparator. Past 2^21 records
  // the prefix gives up low bits: the order is coarser, the slots stay exact.
  const slotBits = Math.max(1, Math.ceil(Math.log2(total)));
  const scale = 2 ** slotBits;
  const prefixDivisor = 2 ** Math.max(0, slotBits - 21);
  const order = new Float64Array(total);
  let slot = 0;
  for (const w of writes) {
    // u32 halves: a BigInt per record is measurable at 1,000 bundles a block
    const high = Math.floor(w.height / 0x1_0000_0000);
    const low = w.height >>> 0;
    const hashes = w.bundleHashes;
    for (let i = 0, h = 0; h < hashes.length; i++, h += 32, slot++) {
      const k = slot * 33;
      keys[k] = Prefix.Position;
      keys.set(hashes.subarray(h, h + 32), k + 1);
      const v = slot * 12;
      view.setUint32(v, high);
      view.setUint32(v + 4, low);
      view.setUint32(v + 8, i);
      const prefix = ((hashes[h]! << 24) | (hashes[h + 1]! << 16) | (hashes[h + 2]! << 8) | hashes[h + 3]!) >>> 0;
      order[slot] = Math.floor(prefix / prefixDivisor) * scale + slot;
    }
  }
  order.sort();
  for (let j = 0; j < total; j++) {
    const s = order[j]! % scale;
    batch.put(keys.subarray(s * 33, s * 33 + 33), values.subarray(s * 12, s * 12 + 12));
  }
}
