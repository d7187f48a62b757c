import type { ClassicLevel } from 'classic-level';
import { Level } from 'level';
import type { BlockWrite, IndexOp } from './block-batch.js';
import { rm } from 'node:fs/promises';
import { readRawBlocks, type StoredRawBlock } from './block-archive.js';
import { BlockFileReader, blockFilesDir, blockFileSizes, decodeLocation, segmentPath, type BlockRecord } from './block-files.js';
import { BlockWriter, type LookupEvents } from './block-writer.js';
import { migrateFormat3, type MigrationEvents } from './migrate-format3.js';
import { migrateFormat4 } from './migrate-format4.js';
import { migrateFormat5 } from './migrate-format5.js';
import { blockKey, FORMAT, HEAD, HISTORY_MARKER, INDEX_MARKER, IndexKeys, localKey, LOOKUP_MARKER, OLDEST_MARKER, Prefix, prefixed, prefixEnd, readU64, STATE_HISTORY_INDEXED, STATE_HISTORY_MARKER, STORAGE_FORMAT, TREE_KEY_FIRST, TREE_MARKER, u64 } from './keys.js';
import { StateRootCheck } from './state-root-check.js';
import { historyAt, pruneStateHistory, RecentChangeSets, setStateHistoryFrom, stateHistoryBytes, stateHistoryFrom, stateHistoryIndexed, type HistoryRead } from './state-history.js';
import { guardFaults } from './fault-guard.js';
import { decodeOutcome } from './outcome-codec.js';
import { countCold, countRange, mergedState, readStateMany, readStateSync, type ColdOp, type ColdStepResult, type StateTier } from './cold-store.js';

export type { BlockWrite, IndexOp, PackedChangeSet, PackedStateWrites, StateWrite, StateWrites } from './block-batch.js';
export { forEachStateWrite, stateWriteCount, stateWriteList } from './block-batch.js';
export type { LookupEvents } from './block-writer.js';

/** What the node hears of the state tree at open (docs/storage.md "The state tree on disk"). */
export interface TreeEvents {
  /** the stored tree trailed the head (at `from`; -1 none) and was computed again from the state records */
  onTreeRebuilt?(report: { from: number; head: number; stateRecords: number; treeRecords: number; ms: number }): void;
}
export type { WriterTimings } from './block-writer-worker.js';
import type { WriterTimings } from './block-writer-worker.js';
export type { StoredRawBlock } from './block-archive.js';
export { IndexKeys, STORAGE_FORMAT };

/** ChainStore.openRead: one consistent view of the database (docs/operations.md). */
export interface ConsistentRead {
  /** the head height in this view, undefined for an empty database */
  readonly head: number | undefined;
  /** the head block, its execution result (decoded) and its certificate */
  headBlock(): Promise<{ block: Uint8Array; outcome: Uint8Array | undefined; certificate: Uint8Array | undefined } | undefined>;
  /** a block by height, if held */
  block(height: number): Promise<Uint8Array | undefined>;
  /**
   * every state record, warm and cold merged (src/storage/cold-store.ts), in key order, in batches
   * of [state key, value]; `onBoth` hears of a key held in both ranges (damage)
   */
  state(options?: { onBoth?(stateKey: Uint8Array): void }): AsyncGenerator<Array<[Uint8Array, Uint8Array]>>;
  /** records in key order, in batches, with their database prefix (the cold range under its own) */
  entries(range?: { gte?: Uint8Array; lt?: Uint8Array }): AsyncGenerator<Array<[Uint8Array, Uint8Array]>>;
  close(): Promise<void>;
}

/**
 * The node's storage: one database (level) for state, block locations, bundle positions and indexes,
 * each under a one-byte prefix (keys.ts, docs/storage.md), and the block files for the blocks and
 * their execution results (block-files.ts). Everything a block changes is written in ONE batch with
 * `sync: true`, its block and result appended to the files and synced just before, so a crash or a
 * kill at any moment leaves either the whole block or none of it (DESIGN.md, storage/); a group of
 * consecutive blocks may share one such batch (`commitBlocks`). Those batches are built and written
 * on the block writer's thread (block-writer.ts); reads and the node-local records stay on this
 * handle.
 */

/** Every index prefix, cleared and rebuilt by --backfill-indexes. */
const INDEX_PREFIXES = [Prefix.BlockTxs, Prefix.AddressHistory, Prefix.TokenTransfers, Prefix.TokenHolders, Prefix.TokensHeld];

/**
 * LevelDB's memtable size (its default is 4 MB). A block of 1,000 transfers writes ~1.1 MB (receipts
 * are most of it), so with 4 MB every few blocks were flushed to a new level-0 table and compacted
 * again, on the same two cores that execute: the sync bench's process spent ~51 ms of CPU per
 * synced block with 4 MB and ~43 ms with 64 MB (docs/p2p.md "Sync"). Memory: up to two memtables.
 */
const WRITE_BUFFER_BYTES = 64 * 1024 * 1024;

/**
 * How long a lookup waits for position records on their way (a live group's follow after its
 * durable batch, milliseconds behind it; the address history's readers wait as long).
 */
const LOOKUP_WAIT_MS = 2000;

export interface ChainStoreOptions {
  /**
   * Write the state tree's records (0xF0 bucket records, 0xF1 nodes) at most this many blocks apart
   * (docs/storage.md "The state tree on disk"); 1 writes them with every block, as format 4 did.
   * A node that reads state records from the database while it runs (`--elastic-state`'s warm
   * tier) needs 1: between checkpoints the stored tree trails the head.
   */
  treeEvery?: number;
  /**
   * A corruption or I/O error LevelDB reports to this handle while the node runs (./fault-guard.ts):
   * the node ends (exit 1, the file named) rather than serve from a database it cannot read.
   */
  onFault?: (error: unknown) => void;
}

export class ChainStore {
  private readonly db: Level<Uint8Array, Uint8Array>;
  private readonly writer: BlockWriter;
  private readonly files: BlockFileReader;
  /** change sets of blocks the history index has not reached yet, parsed for reads at past heights */
  private readonly recentChangeSets = new RecentChangeSets();

  constructor(readonly path: string, private readonly events: LookupEvents & MigrationEvents & TreeEvents = {}, options: ChainStoreOptions = {}) {
    // `multithreading`: the block writer's thread opens a second handle on the same LevelDB.
    const db = new Level<Uint8Array, Uint8Array>(path, {
      keyEncoding: 'view', valueEncoding: 'view', writeBufferSize: WRITE_BUFFER_BYTES, multithreading: true,
    });
    this.db = options.onFault ? guardFaults(db, options.onFault) : db;
    this.writer = new BlockWriter(path, events, options.treeEvery);
    this.files = new BlockFileReader(blockFilesDir(path));
  }

  /**
   * Opens the database; moves a format 3 database's blocks into the block files, and refuses one of
   * an older storage format (STORAGE_FORMAT, docs/storage.md "Format marker"). The writer thread
   * starts at once: it checks the block files against the head (cutting off a group whose batch a
   * kill stopped), and builds the rest of the lookup index when it trails the head (docs/storage.md
   * "The transaction lookup index").
   */
  async open(): Promise<void> {
    await this.db.open();
    const head = await this.db.get(HEAD);
    if (head === undefined) return;
    let format = (await this.db.get(FORMAT))?.[0] ?? 1;
    if (format === 3) {
      await migrateFormat3(this.db, this.path, readU64(head), this.events);
      format = 4;
    }
    if (format === 4) {
      await migrateFormat4(this.db, readU64(head));
      format = 5;
    }
    if (format === 5) {
      await migrateFormat5(this.db);
      format = STORAGE_FORMAT;
    }
    if (format !== STORAGE_FORMAT) {
      await this.db.close();
      throw new Error(`the database at ${this.path} uses storage format ${format}, this node reads format ${STORAGE_FORMAT} (`
        + (format === 2 ? 'its blocks were made under the first transactions root, which this node refuses' : 'receipts are now built from stored execution results')
        + '): sync into a new data directory');
    }
    const tree = await this.db.get(TREE_MARKER);
    if (tree === undefined || readU64(tree) < readU64(head)) await this.rebuildTree(readU64(head), tree === undefined ? -1 : readU64(tree));
    const lookup = await this.db.get(LOOKUP_MARKER);
    this.writer.lookupHeight = lookup === undefined ? -1 : readU64(lookup);
    try {
      await this.writer.resume();
    } catch (error) {
      await this.writer.close();
      await this.db.close();
      throw error;
    }
  }

  /**
   * The state tree's records trail the head (a kill between checkpoints, docs/storage.md "The state
   * tree on disk"): the state records are the head's, so the tree is computed again from them, every
   * bucket record and node 1–4,095, and replaces the stored one in one synced batch with the marker
   * at the head. The chain then checks the core's root over it against the head block's
   * (Chain.open), so a wrong tree stops the start instead of going unnoticed.
   */
  private async rebuildTree(head: number, from: number): Promise<void> {
    const started = performance.now();
    const check = await StateRootCheck.create(0);
    // the state records, warm and cold (the cold tier never holds tree records: cold-store.ts)
    for await (const entries of mergedState(this.db)) {
      for (const [key, value] of entries) if (key[0]! < TREE_KEY_FIRST) check.add(key, value);
    }
    check.finish();
    const records = check.treeRecords();
    const batch = this.db.batch();
    // clear the stale tree records first, then put the new ones (a batch applies in order)
    await this.scanRange(Uint8Array.of(Prefix.State, TREE_KEY_FIRST), Uint8Array.of(Prefix.State + 1), (key) => batch.del(prefixed(Prefix.State, key)));
    for (const [key, value] of records) batch.put(prefixed(Prefix.State, key), value);
    batch.put(TREE_MARKER, u64(head));
    await batch.write({ sync: true });
    this.events.onTreeRebuilt?.({ from, head, stateRecords: check.records, treeRecords: records.length, ms: Math.round(performance.now() - started) });
  }

  /** Records of [gte, lt) in key order to `onRecord`, their keys without the database prefix byte. */
  private async scanRange(gte: Uint8Array, lt: Uint8Array, onRecord: (key: Uint8Array, value: Uint8Array) => void, batchSize = 4096): Promise<void> {
    const iterator = this.db.iterator({ gte, lt });
    try {
      for (;;) {
        const entries = await iterator.nextv(batchSize);
        if (entries.length === 0) return;
        for (const [key, value] of entries) onRecord(key.subarray(1), value);
      }
    } finally {
      await iterator.close();
    }
  }

  /**
   * Every block up to this height has its position records: a bundle of a block above it may not be
   * found by hash yet (docs/storage.md "The transaction lookup index"). -1 for an empty database.
   */
  get lookupHeight(): number {
    return this.writer.lookupHeight;
  }

  /**
   * Every block up to this height has its address history and token transfers ('a', 'x'): a live
   * block's follow its durable batch by a few milliseconds, a catch-up's or those a kill lost are
   * built behind the head (docs/storage.md "The address history"). -1 for an empty database.
   */
  get historyHeight(): number {
    return this.writer.historyHeight;
  }

  /** Until the address history reaches `height`, at most `ms` (BlockWriter.untilHistory). */
  untilHistory(height: number, ms: number): Promise<void> {
    return this.writer.untilHistory(height, ms);
  }

  /** Why building the lookup index stopped, if it did (a restart retries). */
  get lookupFailure(): string | undefined {
    return this.writer.lookupFailure;
  }

  /** Lets the block writes posted so far land, then closes both handles. */
  async close(): Promise<void> {
    await this.writer.close();
    await this.files.close();
    await this.db.close();
  }

  /** Height of the last committed block, or undefined for an empty database. */
  async head(): Promise<number | undefined> {
    const value = await this.db.get(HEAD);
    return value === undefined ? undefined : readU64(value);
  }

  /** Stream every state record, warm and cold, in key order, to `onRecord` (used once at start-up). */
  async loadState(onRecord: (key: Uint8Array, value: Uint8Array) => void): Promise<number> {
    let count = 0;
    for await (const entries of mergedState(this.db)) {
      for (const [key, value] of entries) onRecord(key, value);
      count += entries.length;
    }
    return count;
  }

  /**
   * One state record read synchronously (classic-level's `getSync`), for the elastic state store's
   * miss path (src/chain/elastic-state.ts): the core's `kv_get` cannot wait. Reads what the last
   * written batch holds.
   */
  getStateSync(key: Uint8Array): Uint8Array | undefined {
    return readStateSync(this.db, key).value;
  }

  /** getStateSync with the tier (warm or cold, src/storage/cold-store.ts) that held the record. */
  readStateSync(key: Uint8Array): { value: Uint8Array | undefined; tier: StateTier } {
    return readStateSync(this.db, key);
  }

  /** State records by key through warm and cold (the elastic store's prefetch); undefined where absent. */
  async getStateMany(keys: Uint8Array[]): Promise<Array<Uint8Array | undefined>> {
    return (await readStateMany(this.db, keys)).map((r) => r.value);
  }

  readStateMany(keys: Uint8Array[]): Promise<Array<{ value: Uint8Array | undefined; tier: StateTier }>> {
    return readStateMany(this.db, keys);
  }

  /** The cold tier's record count and estimated bytes (src/storage/cold-store.ts). */
  countCold(): Promise<{ keys: number; bytes: number }> {
    return countCold(this.db);
  }

  /** A cold tier request, run on the block writer's thread between group writes (cold-store.ts). */
  cold(op: ColdOp): Promise<ColdStepResult> {
    return this.writer.cold(op);
  }

  /** The number of warm state records (keys only, no values read) and LevelDB's estimate of their bytes on disk. */
  countState(): Promise<{ keys: number; bytes: number }> {
    return countRange(this.db, { gte: Uint8Array.of(Prefix.State), lt: Uint8Array.of(Prefix.State + 1) });
  }

  /** LevelDB's estimate of the state records' bytes on disk (compressed, in table files). */
  stateBytesOnDisk(): Promise<number> {
    return (this.db as unknown as ClassicLevel<Uint8Array, Uint8Array>).approximateSize(Uint8Array.of(Prefix.State), Uint8Array.of(Prefix.State + 1));
  }

  /** The single atomic, synced write of one block (DESIGN.md: one level batch per block). */
  async commitBlock(write: BlockWrite): Promise<void> {
    await this.commitBlocks([write]);
  }

  /**
   * Consecutive blocks in ONE atomic, synced batch, the head set to the last: a crash keeps all of
   * them or none, so storage never holds a block without its state. Resolves once durable. Calls
   * land in order, and blocks of calls made while a write is under way share the next batch
   * (group commit on the writer thread, docs/storage.md). `linger`: more blocks follow at once (a
   * catch-up), so the batch may wait a few milliseconds to take them too. Resolves with the writer
   * thread's timings of the group (docs/performance.md).
   */
  async commitBlocks(writes: BlockWrite[], options: { linger?: boolean } = {}): Promise<WriterTimings | undefined> {
    return this.writer.write(writes, options.linger ?? false);
  }

  /**
   * Synced batches written since open and the blocks in them (group commit, for the sync bench), and
   * the block buffers the writer thread gave back and the packing reused (BlockWriter.spares).
   */
  get writeStats(): { groups: number; blocks: number; recycled: number; reused: number } {
    return { ...this.writer.stats };
  }

  async getBlock(height: number): Promise<Uint8Array | undefined> {
    return (await this.getBlocks([height]))[0];
  }

  /** The finality certificate of the block at `height` (docs/consensus.md), if stored. */
  async getCertificate(height: number): Promise<Uint8Array | undefined> {
    return this.db.get(prefixed(Prefix.Certificate, u64(height)));
  }

  async getBlocks(heights: readonly number[]): Promise<Array<Uint8Array | undefined>> {
    return (await this.records(heights)).map((r) => r?.block);
  }

  async heightOfHash(hash: Uint8Array): Promise<number | undefined> {
    const value = await this.db.get(prefixed(Prefix.BlockHash, hash));
    return value === undefined ? undefined : readU64(value);
  }

  /**
   * Where bundles are: the height of their block and their index in it (undefined when in none). A
   * live block's position records follow its durable batch by milliseconds (docs/storage.md "The
   * transaction lookup index"): a hash not found while some are on their way is looked up again
   * once they land, so a lookup right after a receipt finds its bundle.
   */
  async getPositions(bundleHashes: readonly Uint8Array[]): Promise<Array<{ height: number; index: number } | undefined>> {
    const keys = bundleHashes.map((hash) => prefixed(Prefix.Position, hash));
    // asked before the read: records that land while it is under way are read again below
    const pendingTo = this.writer.positionsPendingTo;
    const values = await this.db.getMany(keys);
    const missing: number[] = [];
    for (let i = 0; i < values.length; i++) if (values[i] === undefined) missing.push(i);
    if (missing.length > 0 && pendingTo !== undefined) {
      await this.writer.untilPositions(pendingTo, LOOKUP_WAIT_MS);
      const again = await this.db.getMany(missing.map((i) => keys[i]!));
      for (let m = 0; m < missing.length; m++) values[missing[m]!] = again[m];
    }
    return values.map((v) => (v === undefined ? undefined : { height: readU64(v), index: new DataView(v.buffer, v.byteOffset + 8, 4).getUint32(0) }));
  }

  /** The execution results of blocks by height (BlockWrite.outcome: the core's bytes, decoded from their stored form). */
  async getOutcomes(heights: readonly number[]): Promise<Array<Uint8Array | undefined>> {
    return (await this.getExecutedBlocks(heights)).map((r) => r?.outcome);
  }

  /**
   * Blocks with their execution results (decoded), by height: one read of the block files for
   * both, where getBlocks and getOutcomes side by side would read each record twice.
   */
  async getExecutedBlocks(heights: readonly number[]): Promise<Array<{ block: Uint8Array; outcome: Uint8Array | undefined } | undefined>> {
    return (await this.records(heights)).map((r) => r && { block: r.block, outcome: r.outcome && decodeOutcome(r.outcome) });
  }

  /** Blocks exactly as stored, with certificate and execution result (svc_getRawBlock, docs/replay.md). */
  async getRawBlocks(heights: readonly number[]): Promise<Array<StoredRawBlock | undefined>> {
    return readRawBlocks(this.db, this.files, heights);
  }

  /** Blocks and their stored results from the block files, found by their locations ('b' records). */
  private async records(heights: readonly number[]): Promise<Array<BlockRecord | undefined>> {
    const locations = await this.db.getMany(heights.map(blockKey));
    return this.files.read(locations.map((l) => l && decodeLocation(l)));
  }

  async getLocal(key: string): Promise<Uint8Array | undefined> {
    return this.db.get(localKey(key));
  }

  async putLocal(key: string, value: Uint8Array): Promise<void> {
    await this.db.put(localKey(key), value);
  }

  /**
   * Node-local records written in one batch synced to disk (fsync) before this resolves, an
   * undefined value deleting its key: the consensus signing state (docs/consensus.md "Signing
   * state"), which must survive a power loss, not only a process kill.
   */
  async putLocalSynced(entries: ReadonlyArray<[string, Uint8Array | undefined]>): Promise<void> {
    await this.db.batch(entries.map(([key, value]) => (value === undefined
      ? { type: 'del' as const, key: localKey(key) }
      : { type: 'put' as const, key: localKey(key), value })), { sync: true });
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
    await this.scanRange(gte, prefixEnd(gte), onRecord, 1024);
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
  async scanIndex(prefix: Uint8Array, visit: (key: Uint8Array, value: Uint8Array) => boolean, from: Uint8Array = prefix): Promise<void> {
    const iterator = this.db.iterator({ gte: from, lt: prefixEnd(prefix) });
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

  /** Stream the state records (warm and cold) whose key starts with `statePrefix` (e.g. 0x02 balances). */
  async scanState(statePrefix: number, onRecord: (key: Uint8Array, value: Uint8Array) => void): Promise<void> {
    for await (const entries of mergedState(this.db, { prefix: Uint8Array.of(statePrefix) })) {
      for (const [key, value] of entries) onRecord(key, value);
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

  // ---- node operations (docs/operations.md: integrity, export and import) -------------------

  /**
   * A consistent read of the whole database as it is now (an explicit LevelDB snapshot), while
   * blocks go on being written: the head, its block, and every record in key order. The block
   * files are append-only, so the head's location read here stays valid.
   */
  async openRead(): Promise<ConsistentRead> {
    // The stored state tree may trail the head between checkpoints: the writer writes one at its
    // durable head and holds further writes until the snapshot is taken, so the snapshot's tree
    // records describe its head (docs/storage.md "The state tree on disk").
    const release = await this.writer.holdTree();
    let snapshot: ReturnType<typeof this.db.snapshot>;
    try {
      snapshot = this.db.snapshot();
    } finally {
      release();
    }
    const db = this.db;
    const files = this.files;
    const headValue = await db.get(HEAD, { snapshot });
    const head = headValue === undefined ? undefined : readU64(headValue);
    return {
      head,
      async block(height: number) {
        const location = await db.get(blockKey(height), { snapshot });
        return (await files.read([location && decodeLocation(location)]))[0]?.block;
      },
      async headBlock() {
        if (head === undefined) return undefined;
        const location = await db.get(blockKey(head), { snapshot });
        const [record] = await files.read([location && decodeLocation(location)]);
        if (!record) return undefined;
        return {
          block: record.block, outcome: record.outcome && decodeOutcome(record.outcome),
          certificate: await db.get(prefixed(Prefix.Certificate, u64(head)), { snapshot }),
        };
      },
      state: (options = {}) => mergedState(db, { snapshot, ...options }),
      async *entries(range: { gte?: Uint8Array; lt?: Uint8Array } = {}) {
        const iterator = db.iterator({ ...range, snapshot });
        try {
          for (;;) {
            const entries = await iterator.nextv(4096);
            if (entries.length === 0) return;
            yield entries;
          }
        } finally {
          await iterator.close();
        }
      },
      close: () => snapshot.close(),
    };
  }

  /** Sizes of the block files by number (the integrity sweep checks block locations against them). */
  blockFileSizes(): Promise<Map<number, number>> {
    return blockFileSizes(blockFilesDir(this.path));
  }

  /**
   * State records outside a block (a state import into an empty database, docs/operations.md
   * "Export and import"); not synced: the import syncs with the head block it writes last.
   */
  async putStateRecords(records: ReadonlyArray<readonly [Uint8Array, Uint8Array]>): Promise<void> {
    if (records.length === 0) return;
    await this.db.batch(records.map(([key, value]) => ({ type: 'put' as const, key: prefixed(Prefix.State, key), value })));
  }

  /**
   * After a state import or snapshot restore at `height`: the blocks below it are not held, so the
   * lookup index starts there (nothing below to build) and `oldestBlock` names it.
   */
  async markRestored(height: number): Promise<void> {
    await this.db.batch([
      { type: 'put', key: LOOKUP_MARKER, value: u64(height) },
      { type: 'put', key: HISTORY_MARKER, value: u64(height) },
      { type: 'put', key: OLDEST_MARKER, value: u64(height) },
      // state is served from the restored height on: the export carries the state, not its history
      { type: 'put', key: STATE_HISTORY_MARKER, value: u64(height) },
      // no change set below it to index (the writer thread's index starts above it)
      { type: 'put', key: STATE_HISTORY_INDEXED, value: u64(height) },
      // the imported records include the tree's, at this height
      { type: 'put', key: TREE_MARKER, value: u64(height) },
      { type: 'put', key: FORMAT, value: Uint8Array.of(STORAGE_FORMAT) },
    ], { sync: true });
  }

  /** The lowest height whose block is held (0 unless restored from an export or snapshot, or pruned). */
  async oldestBlock(): Promise<number> {
    const value = await this.db.get(OLDEST_MARKER);
    return value === undefined ? 0 : readU64(value);
  }

  /**
   * Pruning (spec §4.20 --pruning, docs/operations.md "Pruning"): remove the blocks of heights
   * `from … below − 1` (never the genesis block, which peers' handshakes name): their locations,
   * hash and position records, certificates and bundle lists; then raise `oldest-height` to `below`.
   * `bundleHashesOf` gives a stored block's bundle hashes (decoding a block is the chain's). The
   * block files wholly below the oldest kept block are deleted; a file holding kept blocks stays
   * whole (they are append-only, 1 GiB each). Returns how many blocks were removed.
   */
  async pruneBlocks(below: number, bundleHashesOf: (block: Uint8Array) => { hash: Uint8Array; bundles: Uint8Array[] }): Promise<number> {
    const from = Math.max(1, await this.oldestBlock());
    let removed = 0;
    for (let start = from; start < below; start += 100) {
      const heights = range(start, Math.min(below, start + 100));
      const blocks = await this.getBlocks(heights);
      const ops: IndexOp[] = [];
      heights.forEach((height, i) => {
        const block = blocks[i];
        ops.push({ type: 'del', key: blockKey(height) }, { type: 'del', key: prefixed(Prefix.Certificate, u64(height)) }, { type: 'del', key: IndexKeys.blockTxs(height) });
        if (!block) return;
        const { hash, bundles } = bundleHashesOf(block);
        ops.push({ type: 'del', key: prefixed(Prefix.BlockHash, hash) });
        for (const bundle of bundles) ops.push({ type: 'del', key: prefixed(Prefix.Position, bundle) });
        removed++;
      });
      ops.push({ type: 'put', key: OLDEST_MARKER, value: u64(heights.at(-1)! + 1) });
      await this.db.batch(ops);
    }
    // Block files wholly below the oldest kept block (its own file stays).
    const kept = await this.db.get(blockKey(below));
    if (kept) {
      const { segment } = decodeLocation(kept);
      for (const number of (await this.blockFileSizes()).keys()) if (number < segment && number > 0) await rm(segmentPath(blockFilesDir(this.path), number), { force: true });
    }
    return removed;
  }

  /**
   * Remove the explorer's per-height index records (address history, token transfers: docs/explorer.md)
   * of heights below `below`; they are keyed by address or mint, so every one is visited.
   */
  async pruneExplorerIndexes(below: number): Promise<number> {
    let removed = 0;
    for (const prefix of [Prefix.AddressHistory, Prefix.TokenTransfers]) {
      const iterator = this.db.keys({ gte: Uint8Array.of(prefix), lt: Uint8Array.of(prefix + 1) });
      try {
        for (;;) {
          const keys = await iterator.nextv(4096);
          if (keys.length === 0) break;
          const old = keys.filter((key) => IndexKeys.heightOf(key) < below);
          if (old.length > 0) await this.db.batch(old.map((key) => ({ type: 'del' as const, key })));
          removed += old.length;
        }
      } finally {
        await iterator.close();
      }
    }
    return removed;
  }

  /** Storage compaction over the pruned ranges (every 1,000 blocks, spec §4.20). */
  async compact(): Promise<void> {
    for (const prefix of [Prefix.Block, Prefix.BlockHash, Prefix.Position, Prefix.Certificate, Prefix.BlockTxs, Prefix.AddressHistory, Prefix.TokenTransfers, Prefix.History, Prefix.ChangeSet]) {
      // `level` resolves to classic-level in Node, whose compactRange its types do not carry.
      await (this.db as unknown as { compactRange(start: Uint8Array, end: Uint8Array): Promise<void> }).compactRange(Uint8Array.of(prefix), Uint8Array.of(prefix + 1));
    }
  }

  // ---- state history (docs/storage.md "State history", src/storage/state-history.ts) ----

  /** The lowest height whose state is served; undefined: no history marker yet. */
  stateHistoryFrom(): Promise<number | undefined> {
    return stateHistoryFrom(this.db);
  }

  setStateHistoryFrom(height: number): Promise<void> {
    return setStateHistoryFrom(this.db, height);
  }

  /** A key's value as of the end of block `height`, from the change sets above it up to the durable `head`. */
  historyAt(key: Uint8Array, height: number, head: number): Promise<HistoryRead> {
    return historyAt(this.db, key, height, head, this.recentChangeSets);
  }

  /** The height up to which the writer thread has indexed the change sets (undefined: not set yet). */
  stateHistoryIndexed(): Promise<number | undefined> {
    return stateHistoryIndexed(this.db);
  }

  /** Delete the change sets of heights `from … to`; the oldest state served becomes `to`. */
  pruneStateHistory(from: number, to: number): Promise<number> {
    return pruneStateHistory(this.db, from, to);
  }

  /** Records and bytes the state history holds (a full scan: the bench's figure). */
  stateHistoryBytes(): Promise<{ records: number; bytes: number }> {
    return stateHistoryBytes(this.db);
  }

  /** The index format version the database was indexed with, or undefined (never indexed). */
  async indexVersion(): Promise<number | undefined> {
    const value = await this.db.get(INDEX_MARKER);
    return value === undefined ? undefined : value[0];
  }
}



function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}

