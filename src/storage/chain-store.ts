import { Level } from 'level';
import { decodeOutcome, encodeOutcome } from './outcome-codec.js';

/**
 * The node's one database (level): state, blocks, execution results, bundle positions and indexes,
 * each under a one-byte prefix (docs/storage.md). Everything a block changes is written in ONE batch with `sync: true`, so a crash or a
 * kill at any moment leaves either the whole block or none of it (DESIGN.md, storage/); a group of
 * consecutive blocks may share one such batch (`commitBlocks`).
 */
const enum Prefix {
  State = 0x73, // 's' + state key → value
  Block = 0x62, // 'b' + height u64 BE → stored block
  BlockHash = 0x68, // 'h' + block hash → height u64 BE
  Position = 0x72, // 'r' + bundle hash → height u64 BE ‖ index u32 BE: where the bundle's receipt comes from
  Outcome = 0x65, // 'e' + height u64 BE → the block's execution result (core BlockResult bytes, block order, outcome-codec.ts)
  Meta = 0x6d, // 'm' + name → value
  Local = 0x6c, // 'l' + name → node-local, non-consensus records (faucet bookkeeping)
  // Node-local intent records (src/intents/store.ts, docs/intents.md "Storage"): 'i' + kind byte + id → JSON.
  // Not consensus state, not in blocks; written outside the block batch.
  Intent = 0x69,
  Certificate = 0x63, // 'c' + height u64 BE → the block's finality certificate (docs/consensus.md)
  // Explorer indexes (spec §4.11, docs/explorer.md "Index layouts"): derived, non-consensus data,
  // written in the block's own batch and rebuilt whole by --backfill-indexes (spec §4.20).
  BlockTxs = 0x74, // 't' + ~height u64 BE → the block's bundle hashes, 32 bytes each, in block order
  AddressHistory = 0x61, // 'a' + address + ~height u64 BE → u32 BE bundle indexes, ascending
  TokenTransfers = 0x78, // 'x' + mint + ~height u64 BE → (u32 BE bundle index, u16 BE receipt event index)*
  TokenHolders = 0x6f, // 'o' + mint + (255 − bit length of the balance) u8 + address → empty
  TokensHeld = 0x77, // 'w' + address + mint → empty
}

/** Every index prefix, cleared and rebuilt by --backfill-indexes. */
const INDEX_PREFIXES = [Prefix.BlockTxs, Prefix.AddressHistory, Prefix.TokenTransfers, Prefix.TokenHolders, Prefix.TokensHeld];

const HEAD = metaKey('head');
const FORMAT = metaKey('format');
/**
 * The layout of blocks, receipts and state in this database. 2: receipts are built on read from
 * the block and its stored execution result (docs/storage.md); 1 (no marker) stored receipt JSON.
 */
export const STORAGE_FORMAT = 2;

/**
 * LevelDB's memtable size (its default is 4 MB). A block of 1,000 transfers writes ~1.1 MB (receipts
 * are most of it), so with 4 MB every few blocks were flushed to a new level-0 table and compacted
 * again, on the same two cores that execute: the sync bench's process spent ~51 ms of CPU per
 * synced block with 4 MB and ~43 ms with 64 MB (docs/p2p.md "Sync"). Memory: up to two memtables.
 */
const WRITE_BUFFER_BYTES = 64 * 1024 * 1024;

export interface StateWrite {
  key: Uint8Array;
  /** null deletes the key */
  value: Uint8Array | null;
}

export interface BlockWrite {
  height: number;
  hash: Uint8Array;
  block: Uint8Array;
  /**
   * The block's execution result in block order (BlockResultView bytes, src/core/block-result.ts):
   * receipts are built from it and the block when read. Absent for the genesis block.
   */
  outcome?: Uint8Array;
  /** the bundle hashes in block order: each gets its position record */
  bundleHashes: readonly Uint8Array[];
  state: StateWrite[];
  local?: Array<{ key: string; value: Uint8Array }>;
  /** explorer index records (src/chain/indexer.ts), keys built with `IndexKeys` */
  indexes?: IndexOp[];
  /** the finality certificate (src/consensus/certificate.ts), stored next to the block */
  certificate?: Uint8Array;
}

type Op = { type: 'put'; key: Uint8Array; value: Uint8Array } | { type: 'del'; key: Uint8Array };
export type IndexOp = Op;

export class ChainStore {
  private readonly db: Level<Uint8Array, Uint8Array>;

  constructor(readonly path: string) {
    this.db = new Level<Uint8Array, Uint8Array>(path, { keyEncoding: 'view', valueEncoding: 'view', writeBufferSize: WRITE_BUFFER_BYTES });
  }

  /** Opens the database; refuses one written in another storage format (STORAGE_FORMAT). */
  async open(): Promise<void> {
    await this.db.open();
    if ((await this.db.get(HEAD)) === undefined) return;
    const format = await this.db.get(FORMAT);
    if (format?.[0] !== STORAGE_FORMAT) {
      await this.db.close();
      throw new Error(`the database at ${this.path} uses storage format ${format?.[0] ?? 1}, this node reads format ${STORAGE_FORMAT} `
        + '(receipts are now built from stored execution results): sync into a new data directory');
    }
  }

  async close(): Promise<void> {
    await this.db.close();
  }

  /** Height of the last committed block, or undefined for an empty database. */
  async head(): Promise<number | undefined> {
    const value = await this.db.get(HEAD);
    return value === undefined ? undefined : readU64(value);
  }

  /** Stream every state record, in key order, to `onRecord` (used once at start-up). */
  async loadState(onRecord: (key: Uint8Array, value: Uint8Array) => void): Promise<number> {
    let count = 0;
    const iterator = this.db.iterator({ gte: Uint8Array.of(Prefix.State), lt: Uint8Array.of(Prefix.State + 1) });
    try {
      for (;;) {
        const entries = await iterator.nextv(4096);
        if (entries.length === 0) break;
        for (const [key, value] of entries) {
          onRecord(key.subarray(1), value);
          count++;
        }
      }
    } finally {
      await iterator.close();
    }
    return count;
  }

  /** The single atomic, synced write of one block (DESIGN.md: one level batch per block). */
  async commitBlock(write: BlockWrite): Promise<void> {
    await this.commitBlocks([write]);
  }

  /**
   * Consecutive blocks in ONE atomic, synced batch, the head set to the last: a crash keeps all of
   * them or none, so storage never holds a block without its state (group commit, docs/p2p.md "Sync").
   */
  async commitBlocks(writes: BlockWrite[]): Promise<void> {
    if (writes.length === 0) return;
    // A chained batch: each record goes straight into the native batch. An array batch copies every
    // op object first, which cost twice the main-thread time for a full block's ~1,400 records.
    const batch = this.db.batch();
    try {
      for (const write of writes) putBlock(batch, write);
      batch.put(HEAD, u64(writes[writes.length - 1]!.height));
    } catch (error) {
      await batch.close();
      throw error;
    }
    await batch.write({ sync: true });
  }

  async getBlock(height: number): Promise<Uint8Array | undefined> {
    return this.db.get(blockKey(height));
  }

  /** The finality certificate of the block at `height` (docs/consensus.md), if stored. */
  async getCertificate(height: number): Promise<Uint8Array | undefined> {
    return this.db.get(prefixed(Prefix.Certificate, u64(height)));
  }

  async getBlocks(heights: number[]): Promise<Array<Uint8Array | undefined>> {
    return this.db.getMany(heights.map(blockKey));
  }

  async heightOfHash(hash: Uint8Array): Promise<number | undefined> {
    const value = await this.db.get(prefixed(Prefix.BlockHash, hash));
    return value === undefined ? undefined : readU64(value);
  }

  /** Where bundles are: the height of their block and their index in it (undefined when in none). */
  async getPositions(bundleHashes: readonly Uint8Array[]): Promise<Array<{ height: number; index: number } | undefined>> {
    const values = await this.db.getMany(bundleHashes.map((hash) => prefixed(Prefix.Position, hash)));
    return values.map((v) => (v === undefined ? undefined : { height: readU64(v), index: new DataView(v.buffer, v.byteOffset + 8, 4).getUint32(0) }));
  }

  /** The execution results of blocks by height (BlockWrite.outcome: the core's bytes, decoded from their stored form). */
  async getOutcomes(heights: readonly number[]): Promise<Array<Uint8Array | undefined>> {
    const stored = await this.db.getMany(heights.map((h) => prefixed(Prefix.Outcome, u64(h))));
    return stored.map((v) => (v === undefined ? undefined : decodeOutcome(v)));
  }

  async getLocal(key: string): Promise<Uint8Array | undefined> {
    return this.db.get(localKey(key));
  }

  async putLocal(key: string, value: Uint8Array): Promise<void> {
    await this.db.put(localKey(key), value);
  }

  /** A node-local intent record (prefix 'i'; `key` starts with its kind byte). */
  async getIntentRecord(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.db.get(prefixed(Prefix.Intent, key));
  }

  async putIntentRecord(key: Uint8Array, value: Uint8Array): Promise<void> {
    await this.db.put(prefixed(Prefix.Intent, key), value, { sync: true });
  }

  /** Every intent record whose key starts with `kind`, in key order (loaded once at start-up). */
  async scanIntentRecords(kind: number, onRecord: (key: Uint8Array, value: Uint8Array) => void): Promise<void> {
    const gte = Uint8Array.of(Prefix.Intent, kind);
    const iterator = this.db.iterator({ gte, lt: prefixEnd(gte) });
    try {
      for (;;) {
        const entries = await iterator.nextv(1024);
        if (entries.length === 0) return;
        for (const [key, value] of entries) onRecord(key.subarray(1), value);
      }
    } finally {
      await iterator.close();
    }
  }

  // ---- explorer indexes (docs/explorer.md) --------------------------------------------------

  /** The bundle hashes of blocks by height (undefined for a block without bundles). */
  async getBlockTxs(heights: number[]): Promise<Array<Uint8Array | undefined>> {
    return this.db.getMany(heights.map(IndexKeys.blockTxs));
  }

  /**
   * Visit the index records under `prefix` (an `IndexKeys.*Prefix` value) in key order, which the
   * inverted heights and balances make newest-first or largest-first, until `visit` returns false.
   */
  async scanIndex(prefix: Uint8Array, visit: (key: Uint8Array, value: Uint8Array) => boolean): Promise<void> {
    const iterator = this.db.iterator({ gte: prefix, lt: prefixEnd(prefix) });
    try {
      for (;;) {
        const entries = await iterator.nextv(64);
        if (entries.length === 0) return;
        for (const [key, value] of entries) if (!visit(key, value)) return;
      }
    } finally {
      await iterator.close();
    }
  }

  /** Stream the state records whose key starts with `statePrefix` (e.g. 0x02 balances). */
  async scanState(statePrefix: number, onRecord: (key: Uint8Array, value: Uint8Array) => void): Promise<void> {
    const gte = Uint8Array.of(Prefix.State, statePrefix);
    const iterator = this.db.iterator({ gte, lt: prefixEnd(gte) });
    try {
      for (;;) {
        const entries = await iterator.nextv(4096);
        if (entries.length === 0) return;
        for (const [key, value] of entries) onRecord(key.subarray(1), value);
      }
    } finally {
      await iterator.close();
    }
  }

  /** Remove every index record (the first step of --backfill-indexes, spec §4.20). */
  async clearIndexes(): Promise<void> {
    for (const prefix of INDEX_PREFIXES) await this.db.clear({ gte: Uint8Array.of(prefix), lt: Uint8Array.of(prefix + 1) });
    await this.db.del(INDEX_MARKER);
  }

  /** A batch of index records outside a block write (backfill). */
  async writeIndexes(ops: IndexOp[], sync = false): Promise<void> {
    if (ops.length > 0) await this.db.batch(ops, { sync });
  }

  /** The index format version the database was indexed with, or undefined (never indexed). */
  async indexVersion(): Promise<number | undefined> {
    const value = await this.db.get(INDEX_MARKER);
    return value === undefined ? undefined : value[0];
  }
}

const INDEX_MARKER = metaKey('index-version');

/** Where a block's records go: a level chained batch. */
interface BatchSink {
  put(key: Uint8Array, value: Uint8Array): unknown;
  del(key: Uint8Array): unknown;
}

/**
 * Each bundle's position record: 'r' + hash → height u64 BE ‖ index u32 BE. A full block has 1,000
 * of them, so their keys and values are views into two arrays allocated once for the block, not
 * 2,000 small arrays (the batch copies what it is given).
 */
function putPositions(batch: BatchSink, height: number, hashes: readonly Uint8Array[]): void {
  if (hashes.length === 0) return;
  const keys = new Uint8Array(hashes.length * 33);
  const values = new Uint8Array(hashes.length * 12);
  const view = new DataView(values.buffer);
  // u32 halves: a BigInt per record is measurable at 1,000 bundles a block
  const high = Math.floor(height / 0x1_0000_0000);
  const low = height >>> 0;
  for (let i = 0, k = 0, v = 0; i < hashes.length; i++, k += 33, v += 12) {
    keys[k] = Prefix.Position;
    keys.set(hashes[i]!, k + 1);
    view.setUint32(v, high);
    view.setUint32(v + 4, low);
    view.setUint32(v + 8, i);
    batch.put(keys.subarray(k, k + 33), values.subarray(v, v + 12));
  }
}

/** Everything one block writes but the head: its state writes, the block, its result and positions, local records, indexes, certificate. */
function putBlock(batch: BatchSink, write: BlockWrite): void {
  for (const { key, value } of write.state) {
    const stateKey = prefixed(Prefix.State, key);
    if (value === null) batch.del(stateKey);
    else batch.put(stateKey, value);
  }
  batch.put(blockKey(write.height), write.block);
  batch.put(prefixed(Prefix.BlockHash, write.hash), u64(write.height));
  if (write.outcome) batch.put(prefixed(Prefix.Outcome, u64(write.height)), encodeOutcome(write.outcome));
  putPositions(batch, write.height, write.bundleHashes);
  if (write.height === 0) batch.put(FORMAT, Uint8Array.of(STORAGE_FORMAT));
  for (const { key, value } of write.local ?? []) batch.put(localKey(key), value);
  for (const op of write.indexes ?? []) {
    if (op.type === 'put') batch.put(op.key, op.value);
    else batch.del(op.key);
  }
  if (write.certificate) batch.put(prefixed(Prefix.Certificate, u64(write.height)), write.certificate);
}

/**
 * Key builders of the explorer indexes (docs/explorer.md "Index layouts"). Heights and balances are
 * stored inverted (bitwise NOT, big-endian), so a forward scan of a prefix is newest-first or
 * largest-first: LevelDB's forward iteration is its fast path.
 */
export const IndexKeys = {
  blockTxs: (height: number): Uint8Array => withInvertedHeight(Uint8Array.of(Prefix.BlockTxs), height),
  blockTxsPrefix: (): Uint8Array => Uint8Array.of(Prefix.BlockTxs),
  addressHistory: (address: Uint8Array, height: number): Uint8Array => withInvertedHeight(prefixed(Prefix.AddressHistory, address), height),
  addressHistoryPrefix: (address: Uint8Array): Uint8Array => prefixed(Prefix.AddressHistory, address),
  tokenTransfers: (mint: Uint8Array, height: number): Uint8Array => withInvertedHeight(prefixed(Prefix.TokenTransfers, mint), height),
  tokenTransfersPrefix: (mint: Uint8Array): Uint8Array => prefixed(Prefix.TokenTransfers, mint),
  /**
   * A holder in its power-of-two balance class (`bits`: the bit length of the balance, 1…128), the
   * largest class first. The entry moves only when the balance crosses a power of two, not on every
   * change: a 10,000-transfer block rewrites a handful of these, not 10,000 (docs/explorer.md).
   */
  tokenHolder: (mint: Uint8Array, bits: number, address: Uint8Array): Uint8Array => {
    const key = new Uint8Array(1 + 32 + 1 + 32);
    key[0] = Prefix.TokenHolders;
    key.set(mint, 1);
    key[33] = 255 - bits;
    key.set(address, 34);
    return key;
  },
  tokenHoldersPrefix: (mint: Uint8Array): Uint8Array => prefixed(Prefix.TokenHolders, mint),
  tokensHeld: (address: Uint8Array, mint: Uint8Array): Uint8Array => {
    const key = new Uint8Array(65);
    key[0] = Prefix.TokensHeld;
    key.set(address, 1);
    key.set(mint, 33);
    return key;
  },
  tokensHeldPrefix: (address: Uint8Array): Uint8Array => prefixed(Prefix.TokensHeld, address),
  marker: (): Uint8Array => INDEX_MARKER,
  /** The height of an index key that ends with an inverted height. */
  heightOf: (key: Uint8Array): number => {
    const view = new DataView(key.buffer, key.byteOffset + key.length - 8, 8);
    return (~view.getUint32(0) >>> 0) * 0x1_0000_0000 + (~view.getUint32(4) >>> 0);
  },
  /** The balance class (bit length) and address of a `tokenHolder` key. */
  holderOf: (key: Uint8Array): { bits: number; address: Uint8Array } => ({ bits: 255 - key[33]!, address: key.slice(34, 66) }),
};

function withInvertedHeight(prefix: Uint8Array, height: number): Uint8Array {
  const out = new Uint8Array(prefix.length + 8);
  out.set(prefix, 0);
  // Two u32 halves: BigInt per key is measurable at thousands of keys per block.
  const view = new DataView(out.buffer);
  view.setUint32(prefix.length, ~Math.floor(height / 0x1_0000_0000) >>> 0);
  view.setUint32(prefix.length + 4, ~height >>> 0);
  return out;
}

/** The smallest key greater than every key that starts with `prefix`. */
function prefixEnd(prefix: Uint8Array): Uint8Array {
  const end = Uint8Array.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i] = end[i]! + 1;
      return end.subarray(0, i + 1);
    }
  }
  throw new RangeError('a prefix of 0xff bytes has no end');
}

function metaKey(name: string): Uint8Array {
  return prefixed(Prefix.Meta, new TextEncoder().encode(name));
}

function localKey(name: string): Uint8Array {
  return prefixed(Prefix.Local, new TextEncoder().encode(name));
}

function blockKey(height: number): Uint8Array {
  return prefixed(Prefix.Block, u64(height));
}

function prefixed(prefix: number, key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length + 1);
  out[0] = prefix;
  out.set(key, 1);
  return out;
}

/** Heights are stored big-endian so that key order is height order. */
function u64(value: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value));
  return out;
}

function readU64(bytes: Uint8Array): number {
  return Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0));
}
