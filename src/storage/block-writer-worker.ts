import { parentPort, workerData } from 'node:worker_threads';
import { Level } from 'level';
import { storedBundles } from '../codec/block-bundles.js';
import { bundleListOps, historyOps } from './block-index.js';
import { bundleHash } from '../codec/bundle.js';
import { BlockResultView } from '../core/block-result.js';
import { GroupState, putBlock, putPositions, sealGroup, TreePending, type IndexOp, type PackedBlockWrite } from './block-batch.js';
import { BlockAppender, BlockFileReader, blockFilesDir, decodeLocation, DurableHead } from './block-files.js';
import { ColdWriter, type ColdRequest, type ColdResponse } from './cold-store.js';
import { blockKey, changeSetKey, HEAD, HISTORY_MARKER, IndexKeys, LOOKUP_MARKER, readU64, STATE_HISTORY_INDEXED, TREE_MARKER, u64 } from './keys.js';
import { ChangeSetCursor, changeSetKeyList } from './state-history.js';
import { decodeOutcome } from './outcome-codec.js';
import { loadOutcomeEncoder } from './outcome-wasm.js';

/**
 * The block writer's thread (block-writer.ts): a second handle on the node's database (classic-level
 * `multithreading`, one LevelDB underneath). Blocks arrive as soon as they are executed, in order,
 * in units (one block, or the blocks of one `commitBlocks` call, never split). Each unit goes into
 * the open group's batch at once (its records, and the index records that need no state,
 * `deriveIndexes`), so building overlaps the write under way. When no write is under way the open
 * group is sealed (positions, head) and written synced: a lone block is written at once, and while
 * a write takes its time the blocks executed meanwhile share the next one (group commit).
 *
 * The transaction lookup index (position records, docs/storage.md) is left out of the groups of a
 * catch-up sync, and this thread builds it behind the head once the catch-up is over: see `lookup`.
 */

export interface WriterInit {
  path: string;
  /** write the state tree at most this many blocks apart (TREE_EVERY; 1: with every block) */
  treeEvery?: number;
}

/**
 * Where a group's write went, in milliseconds on this thread (docs/performance.md): `build` its
 * blocks' records as they arrived (putBlock, derived indexes, state merge), `seal` the merged state
 * put into the batch, `files` the wait for the block files' fdatasync after the seal (it starts with
 * the seal, on libuv's pool), `level` the synced batch
 * write (LevelDB's log append, memtable inserts and fsync, off this thread's JS). `durableAt` is when
 * that write returned, as `performance.timeOrigin + performance.now()` (milliseconds since the epoch,
 * the same clock on every thread): the group is durable from then on, whenever the main thread gets
 * to the answer.
 */
export interface WriterTimings { build: number; seal: number; files: number; level: number; durableAt: number }

export type WriterRequest =
  | { type: 'write'; id: number; writes: PackedBlockWrite[]; linger: boolean }
  /** write the state tree at the durable head, answer `tree-held`, then write nothing until `release-tree` */
  | { type: 'hold-tree'; id: number }
  | { type: 'release-tree' }
  | { type: 'close' }
  | ColdRequest;
export type WriterResponse =
  /** `lookupHeight`: every block up to it has its position records (-1: none yet); `historyHeight` its address history */
  | { type: 'ready'; lookupHeight: number; historyHeight: number }
  /** a block write's buffer that nothing here views any more, for the main thread to pack a later block into */
  | { type: 'recycle'; buffer: ArrayBuffer }
  /** every unit of a group is durable; `blocks` counts the group's blocks; `timings` where its time went */
  | {
    type: 'written'; ids: number[]; blocks: number; lookupHeight: number; timings: WriterTimings;
    /**
     * a live group's last height: its position records follow its batch (`followed`), and a
     * reader missing a hash meanwhile waits for them
     */
    follows?: number;
  }
  /** the lookup index caught up to `lookupHeight` behind the head */
  | { type: 'indexed'; lookupHeight: number; head: number; report: boolean; historyHeight: number }
  /** the position records and address history of the live blocks up to `to` are written */
  | { type: 'followed'; to: number; historyHeight: number; lookupHeight: number }
  /** building the lookup index behind the head failed and stopped; block writes go on */
  | { type: 'lookup-failed'; error: string }
  | { type: 'history-index-failed'; error: string }
  | { type: 'failed'; ids: number[]; error: string }
  /** the stored state tree is at the durable head, and stays there until `release-tree` */
  | { type: 'tree-held'; id: number }
  | { type: 'closed' }
  | ColdResponse;

/** A group takes at most this many blocks (more units wait for the next group); a unit is never split. */
const MAX_BLOCKS_PER_GROUP = 10;
/**
 * How long a lingering group (its last unit said more blocks follow: a catch-up sync, where nobody
 * waits on a receipt) waits for more before it is written anyway. A synced block arrives every few
 * milliseconds, and one fsync per ten blocks costs LevelDB's thread less than one per block.
 */
const LINGER_MS = 25;
/**
 * The lookup index is built behind the head only after this long without a catch-up unit: while a
 * sync runs, blocks arrive every few milliseconds and the index would take its CPU.
 */
const LOOKUP_IDLE_MS = 250;
const LOOKUP_REPORT_MS = 10_000;
/** Blocks whose position records one lookup batch holds (~1,000 records a full block). */
const LOOKUP_BLOCKS_PER_BATCH = 20;
/**
 * The state tree's records (0xF0 bucket records, 0xF1 nodes: ~26,000 of a 10,000-transfer block's
 * ~61,000 state writes) are held here and written as a checkpoint once at least this many blocks
 * have passed and nothing waits to be written (docs/storage.md "The state tree on disk"). Over
 * 64 full blocks nearly every bucket is rewritten, so a checkpoint puts each bucket once where
 * every block put it again.
 */
const TREE_EVERY = 64;
/** A checkpoint is written after this many blocks even when writes never pause (a long catch-up). */
const TREE_MAX = 1024;
/** The state history index is built before the next group once it is this many blocks behind. */
const HISTORY_INDEX_LAG_MAX = 32;
/** History index records a batch builds at most (a 10,000-transfer block has ~61,000): a block arriving meanwhile waits for one such batch. */
const HISTORY_INDEX_RECORDS = 8_192;

interface Group {
  batch: ReturnType<Level<Uint8Array, Uint8Array>['batch']>;
  writes: PackedBlockWrite[];
  /** the blocks' state writes, merged and put when the group is sealed */
  state: GroupState;
  ids: number[];
  /** the last unit expects more blocks soon: wait for them (up to LINGER_MS, MAX_BLOCKS_PER_GROUP) */
  linger: boolean;
  /** a unit came from a catch-up (linger): the group is written without its position records */
  catchUp: boolean;
  /** ms spent putting its blocks' records as they arrived */
  build: number;
}

const port = parentPort!;
const { path, treeEvery = TREE_EVERY } = workerData as WriterInit;
// putBlock's execution-result encoder (build/outcome.wasm): a missing or stale build fails the
// thread's start, not its first block write.
loadOutcomeEncoder();
const db = new Level<Uint8Array, Uint8Array>(path, { keyEncoding: 'view', valueEncoding: 'view', multithreading: true });
await db.open();
/** the durable head (-1: an empty database) */
let head = await readHeight(HEAD);
// Blocks and their results are appended here; a group's appends are synced before its batch.
const headLocation = head < 0 ? undefined : await db.get(blockKey(head));
// Refused (the thread fails its start, the node exits 1) when the database is behind its block files.
const files = BlockAppender.open(blockFilesDir(path), headLocation && decodeLocation(headLocation), undefined, { height: head });
const durableHead = new DurableHead(blockFilesDir(path));
if (head >= 0) durableHead.set(head);
const fileReader = new BlockFileReader(blockFilesDir(path));
/**
 * Every block up to this height has its position records. A database of storage format 2 has no
 * marker and every block's records (ChainStore.open writes the marker before this thread starts).
 */
let lookupHeight = await readHeight(LOOKUP_MARKER);
/**
 * Every block up to this height has its address history and token transfers ('a', 'x'). Absent: a
 * database written when they went into the block's batch, covered by the lookup marker.
 */
let historyHeight = (await db.get(HISTORY_MARKER)) === undefined ? lookupHeight : await readHeight(HISTORY_MARKER);
/**
 * Live blocks durable without their position records and address history yet, oldest first: both
 * are built and written when nothing waits to be written (`writeFollowUp`), after the receipts were
 * answered. `history` is false for a block that was not next in order for its history when it came
 * (the index build behind a catch-up writes that).
 */
const followQueue: Array<{ write: PackedBlockWrite; history: boolean }> = [];
/** every block up to this height has its address history written or queued */
let historyQueued = historyHeight;
/**
 * Every block up to this height has its state history index ('u' records, docs/storage.md "State
 * history"), built here from its change set behind the head (`writeHistoryIndex`). Absent: a
 * database whose change sets were indexed in their blocks' batches, up to its head; the marker is
 * put now, before this thread writes a block whose change set would wait for the index.
 */
let historyIndexed = await readHeight(STATE_HISTORY_INDEXED);
if (historyIndexed < 0 && head >= 0) {
  historyIndexed = head;
  await db.put(STATE_HISTORY_INDEXED, u64(head), { sync: true });
}
/** the block whose history index is under way, where it stopped */
let historyCursor: ChangeSetCursor | undefined;
/** why the state history index stopped (a change set that does not decode): derived data, block writes go on */
let historyIndexFailure: string | undefined;
/** the height the stored state tree describes (TREE_MARKER; ChainStore.open rebuilt it up to the head) */
let treeHeight = await readHeight(TREE_MARKER);
/** the tree's records written since that checkpoint; none held when every block writes its own */
const tree = treeEvery > 1 ? new TreePending() : undefined;
/** `hold-tree` requests waiting for the checkpoint */
const treeHolds: number[] = [];
/** a checkpoint was answered: nothing is written until `release-tree` */
let treeHeld = false;
// The elastic state's cold tier (src/storage/cold-store.ts): its moves run here, between group writes.
const cold = await ColdWriter.open(db);
/** when the last catch-up unit arrived (performance.now) */
let lastCatchUp = -Infinity;
let lookupTimer: NodeJS.Timeout | undefined;
let lastReport = -Infinity;
/** why building the lookup index behind the head stopped */
let lookupFailure: string | undefined;
const post = (message: WriterResponse) => port.postMessage(message);

/**
 * What still views each block write's buffer here: its group until the group's batch is written,
 * the address-history queue until its records are built, the tree's held run until folded. At none
 * the buffer goes back to the main thread (`recycle`), which packs a later block into it: every
 * holder must be counted, or a later block's bytes would overwrite what it still reads.
 */
const pins = new Map<PackedBlockWrite, number>();

function pin(write: PackedBlockWrite): void {
  pins.set(write, (pins.get(write) ?? 0) + 1);
}

function unpin(write: PackedBlockWrite): void {
  const left = (pins.get(write) ?? 0) - 1;
  if (left > 0) {
    pins.set(write, left);
    return;
  }
  pins.delete(write);
  // Every view of the write is over this one buffer (packBlockWrite); once it is transferred they
  // are all detached, so nothing here can read the next block's bytes through them.
  const buffer = write.block.buffer as ArrayBuffer;
  if (buffer.byteLength > 0) port.postMessage({ type: 'recycle', buffer } satisfies WriterResponse, [buffer]);
}

/** the group taking new blocks */
let open: Group | undefined;
/** full groups waiting for the write under way, oldest first */
const sealed: Group[] = [];
let writing = false;
let closing = false;
/** ends a lingering group's wait */
let lingerTimer: NodeJS.Timeout | undefined;
/** after a failure nothing more is written: storage must hold a prefix of the groups */
let failed: string | undefined;

port.on('message', (request: WriterRequest) => {
  if (request.type === 'hold-tree') {
    treeHolds.push(request.id);
    pump();
    return;
  }
  if (request.type === 'release-tree') {
    treeHeld = false;
    pump();
    return;
  }
  if (request.type === 'close') {
    closing = true;
    clearTimeout(lookupTimer);
    lookupTimer = undefined;
    if (failed !== undefined) closeAll();
    else pump();
    return;
  }
  if (request.type === 'cold') {
    if (failed !== undefined) post({ type: 'cold-done', id: request.id, error: `an earlier write failed: ${failed}` });
    else cold.add(request);
    pump();
    return;
  }
  if (failed !== undefined) {
    post({ type: 'failed', ids: [request.id], error: `an earlier write failed: ${failed}` });
    return;
  }
  try {
    if (open && open.writes.length + request.writes.length > MAX_BLOCKS_PER_GROUP) {
      sealed.push(open);
      open = undefined;
    }
    open ??= { batch: db.batch(), writes: [], state: new GroupState(), ids: [], linger: false, catchUp: false, build: 0 };
    const buildStarted = performance.now();
    open.ids.push(request.id);
    open.linger = request.linger;
    if (request.linger) {
      open.catchUp = true;
      lastCatchUp = performance.now();
    }
    for (const write of request.writes) {
      pin(write);
      if (write.deriveIndexes) bundleListOps(write.height, write.bundleHashes, (write.indexes ??= []));
      putBlock(open.batch, files, write);
      open.state.add(write);
      open.writes.push(write);
    }
    open.build += performance.now() - buildStarted;
  } catch (error) {
    // The open batch holds part of this unit: none of it, nor anything after it, may be written.
    fail(error);
    return;
  }
  pump();
});
post({ type: 'ready', lookupHeight, historyHeight });
scheduleLookup(); // a database opened with its lookup index behind the head
pump(); // and with its state history index behind the head (a kill after a block's batch, before its index's)

/** Start the next write if none is under way: the oldest full group, else the open one. */
function pump(): void {
  if (failed !== undefined && treeHolds.length > 0 && !writing) {
    // nothing more is written after a failure: the read may go on with what is stored
    for (const id of treeHolds.splice(0)) post({ type: 'tree-held', id });
  }
  if (writing || failed !== undefined || treeHeld) return;
  if (treeHolds.length > 0 || (tree && head - treeHeight >= TREE_MAX)) {
    writeTree();
    return;
  }
  // Blocks that never pause (a long catch-up): the history index is not left further behind than this.
  if (historyIndexDue(HISTORY_INDEX_LAG_MAX)) {
    writeHistoryIndex();
    return;
  }
  if (sealed.length === 0 && open) {
    if (open.linger && open.writes.length < MAX_BLOCKS_PER_GROUP && !closing) {
      lingerTimer ??= setTimeout(() => {
        lingerTimer = undefined;
        if (open) open.linger = false;
        pump();
      }, LINGER_MS);
      return;
    }
    sealed.push(open);
    open = undefined;
  }
  if (lingerTimer) {
    clearTimeout(lingerTimer);
    lingerTimer = undefined;
  }
  const group = sealed.shift();
  if (!group) {
    // idle: the position records and address history of the live blocks written, then the tree's
    // checkpoint when it is due, and both always before the thread closes
    tree?.fold();
    if (followQueue.length > 0) writeFollowUp();
    else if (!open && historyIndexDue(0)) writeHistoryIndex();
    else if (tree && head > treeHeight && (closing || (!open && head - treeHeight >= treeEvery))) writeTree();
    else if (closing) closeAll();
    else if (!open && cold.pending) runCold();
    else if (!open) scheduleLookup();
    return;
  }
  writing = true;
  const first = group.writes[0]!.height;
  const last = group.writes[group.writes.length - 1]!.height;
  // The group's blocks in the block files first: a stored location must point at synced bytes. The
  // fdatasync runs on libuv's pool while this thread seals the batch; the batch waits for both.
  const sealStarted = performance.now();
  let filesDone = 0;
  const synced = files.sync().then(() => {
    filesDone = performance.now();
  });
  try {
    // A lone block's tree records stay in `tree` as views until folded: its buffer is pinned till then.
    const lone = group.writes.length === 1 ? group.writes[0]! : undefined;
    const keep = lone && (() => {
      pin(lone);
      return () => unpin(lone);
    });
    sealGroup(cold.wrap(group.batch, last), group.writes, group.state, tree, keep);
  } catch (error) {
    synced.catch(() => undefined); // the failure below is the one reported
    sealed.unshift(group);
    writing = false;
    fail(error);
    return;
  }
  const sealDone = performance.now();
  let levelStarted = sealDone;
  synced.then(() => {
    levelStarted = performance.now();
    return group.batch.write({ sync: true });
  }).then(
    () => {
      writing = false;
      head = last;
      durableHead.set(last);
      if (!tree) treeHeight = last;
      // A live group's position records and address history follow its durable batch, when its
      // turn comes in order; behind a catch-up (or a kill), the index build behind the head writes
      // them instead (docs/storage.md "The transaction lookup index").
      if (!group.catchUp) {
        const history = historyQueued === first - 1;
        if (history) historyQueued = last;
        for (const write of group.writes) {
          pin(write);
          followQueue.push({ write, history });
        }
      }
      // The batch is written: the group's own views (its merged state, positions) are done with.
      for (const write of group.writes) unpin(write);
      const now = performance.now();
      const timings = { build: group.build, seal: sealDone - sealStarted, files: Math.max(0, filesDone - sealDone), level: now - levelStarted, durableAt: performance.timeOrigin + now };
      post({ type: 'written', ids: group.ids, blocks: group.writes.length, lookupHeight, timings, ...(group.catchUp ? {} : { follows: last }) });
      pump();
    },
    (error: unknown) => {
      writing = false;
      sealed.unshift(group);
      fail(error);
    },
  );
}

/** A cold tier request (a move of records, cold-store.ts), while no group write is under way. */
function runCold(): void {
  writing = true;
  void cold.runNext(head).then((response) => {
    writing = false;
    post(response);
    pump();
  });
}

/**
 * The state tree's checkpoint (docs/storage.md "The state tree on disk"): the records held since the
 * last one and TREE_MARKER at the durable head, in one batch. Run only between group writes, so what
 * is held is exactly the tree of the durable head. Not synced (except before closing): a checkpoint
 * a crash loses is lost with its marker, and the next open rebuilds the tree from the state records.
 * Answers the `hold-tree` requests waiting for it.
 */
function writeTree(): void {
  writing = true;
  const batch = db.batch();
  tree?.drainInto(batch);
  const at = head;
  if (at >= 0) batch.put(TREE_MARKER, u64(at));
  batch.write({ sync: closing }).then(
    () => {
      writing = false;
      treeHeight = at;
      if (treeHolds.length > 0) {
        treeHeld = true;
        for (const id of treeHolds.splice(0)) post({ type: 'tree-held', id });
      }
      pump();
    },
    (error: unknown) => {
      writing = false;
      fail(error);
      pump();
    },
  );
}

/**
 * The position records, address history and token transfers of the live blocks durable since the last
 * call (docs/storage.md "The transaction lookup index", "The address history"), with LOOKUP_MARKER
 * and HISTORY_MARKER moved as far as every block below them has theirs, in one batch, not synced:
 * a kill that loses it leaves the markers behind the head, and the index build behind the head
 * (`lookupBatch`) writes them again from the stored blocks. Off the block's own batch, they no longer
 * delay its receipt or its durability: the history was ~19% of this thread's time for a full block,
 * and the position records, one a bundle, a third of the synced batch's records.
 */
function writeFollowUp(): void {
  writing = true;
  const entries = followQueue.splice(0);
  const blocks = entries.map((entry) => entry.write);
  const batch = db.batch();
  const at = blocks[blocks.length - 1]!.height;
  // Live groups come in height order, with catch-up groups possibly between them: the lookup marker
  // moves over the run of heights that follows it.
  let lookupTo = lookupHeight;
  for (const write of blocks) if (write.height === lookupTo + 1) lookupTo = write.height;
  let historyTo = historyHeight;
  let building = at;
  // the batch holds copies of the records (its puts copy): the blocks' views are done with after it
  putPositions(batch, blocks);
  if (lookupTo > lookupHeight) batch.put(LOOKUP_MARKER, u64(lookupTo));
  try {
    const ops: IndexOp[] = [];
    for (const { write, history } of entries) {
      // after a failure the history stops where it was (its marker never passes a block without it)
      if (!history || lookupFailure !== undefined) continue;
      building = write.height;
      if (write.deriveIndexes) historyOps(write.height, storedBundles(write.block), write.outcome && new BlockResultView(write.outcome), ops);
      historyTo = Math.max(historyTo, write.height);
    }
    for (const op of ops) if (op.type === 'put') batch.put(op.key, op.value);
    if (historyTo > historyHeight) batch.put(HISTORY_MARKER, u64(historyTo));
  } catch (error) {
    // derived data: a block whose history does not build stops the history here (a restart retries
    // it); the positions are written all the same
    historyTo = historyHeight;
    lookupFailure = `the address history of block ${building} does not build: ${error instanceof Error ? error.message : String(error)}`;
    post({ type: 'lookup-failed', error: lookupFailure });
  }
  for (const write of blocks) unpin(write);
  batch.write().then(
    () => {
      writing = false;
      historyHeight = Math.max(historyHeight, historyTo);
      lookupHeight = Math.max(lookupHeight, lookupTo);
      post({ type: 'followed', to: at, historyHeight, lookupHeight });
      pump();
    },
    (error: unknown) => {
      writing = false;
      fail(error);
      pump();
    },
  );
}

/** The history index is more than `lag` blocks behind the durable head and may be built now. */
function historyIndexDue(lag: number): boolean {
  return head - historyIndexed > lag && !closing && historyIndexFailure === undefined;
}

/**
 * The state history index of the next durable block above its marker (docs/storage.md "State
 * history"): its 'u' records from its change set ('v', written in its own synced batch), up to
 * HISTORY_INDEX_RECORDS a batch, STATE_HISTORY_INDEXED moving in the batch that ends the block. Not
 * synced: a kill that loses a batch leaves the marker where it was, and the next start builds that
 * block's records again (the same records). Run when nothing waits to be written, so a live block's
 * synced batch no longer carries its ~61,000 history records (a 10,000-transfer block's), and a
 * block arriving meanwhile waits for one small batch at most; reads at heights above the marker
 * look into the change sets instead (storage/state-history.ts `historyAt`).
 */
function writeHistoryIndex(): void {
  writing = true;
  // a block begun by an earlier batch goes on where it stopped
  const held = historyCursor;
  // The next change set at or above the marker: heights without one (blocks below a restored
  // height, a tool's chain written without history) are passed over in one step.
  let height = held?.height ?? head;
  const cursor = held ? Promise.resolve(held) : nextChangeSet(historyIndexed + 1, head).then((next) => {
    if (next === undefined) return undefined;
    height = next.height;
    try {
      return new ChangeSetCursor(next.height, next.record);
    } catch (error) {
      throw new HistoryIndexError(`the change set of block ${height} does not decode: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  let done = false;
  cursor.then((at) => {
    const batch = db.batch();
    try {
      at?.indexInto(batch, HISTORY_INDEX_RECORDS);
    } catch (error) {
      void batch.close();
      throw new HistoryIndexError(`the change set of block ${height} does not decode: ${error instanceof Error ? error.message : String(error)}`);
    }
    done = at === undefined || at.done;
    historyCursor = done ? undefined : at;
    if (done) {
      // its values are in the index now: the change set is cut to its keys (for pruning), in the
      // same batch as the marker, so history is held once
      if (at) batch.put(changeSetKey(height), changeSetKeyList(at.record));
      batch.put(STATE_HISTORY_INDEXED, u64(height));
    }
    return batch.write();
  }).then(
    () => {
      writing = false;
      if (done) historyIndexed = height;
      pump();
    },
    (error: unknown) => {
      writing = false;
      historyCursor = undefined;
      if (error instanceof HistoryIndexError) {
        // derived data: the index stops here (a restart retries it); reads above it use the change sets
        historyIndexFailure = error.message;
        post({ type: 'history-index-failed', error: historyIndexFailure });
      } else fail(error);
      pump();
    },
  );
}

class HistoryIndexError extends Error {}

/** The first change set ('v' record) at a height in `from … to`, or undefined when there is none. */
async function nextChangeSet(from: number, to: number): Promise<{ height: number; record: Uint8Array } | undefined> {
  const iterator = db.iterator({ gte: changeSetKey(from), lte: changeSetKey(to), limit: 1 });
  try {
    const entry = await iterator.next();
    return entry && { height: readU64(entry[0].subarray(1)), record: entry[1] };
  } finally {
    await iterator.close();
  }
}

/** Refuse every unit not yet written, and all later ones. */
function fail(error: unknown): void {
  failed = error instanceof Error ? error.message : String(error);
  const dropped = [...sealed.splice(0), ...(open ? [open] : [])];
  open = undefined;
  const ids = dropped.flatMap((g) => g.ids);
  for (const g of dropped) void g.batch.close().catch(() => undefined);
  post({ type: 'failed', ids, error: failed });
  if (closing) closeAll();
}

function closeAll(): void {
  files.close();
  durableHead.close();
  void fileReader.close().then(() => db.close()).then(() => post({ type: 'closed' }));
}

/**
 * The lookup index behind the head (docs/storage.md "The transaction lookup index"). Blocks written
 * during a catch-up have no position records; once no catch-up unit has come for LOOKUP_IDLE_MS and
 * nothing else waits to be written, this thread puts theirs, LOOKUP_BLOCKS_PER_BATCH blocks a batch,
 * the marker moving with each batch (a kill loses at most the batch under way, which is redone).
 * Blocks written live meanwhile have theirs already; they are put again, which changes nothing.
 */
function scheduleLookup(): void {
  if (Math.min(lookupHeight, historyHeight) >= head || lookupTimer || closing || failed !== undefined || lookupFailure !== undefined) return;
  const wait = Math.max(0, lastCatchUp + LOOKUP_IDLE_MS - performance.now());
  lookupTimer = setTimeout(() => {
    lookupTimer = undefined;
    if (writing || open || sealed.length > 0 || closing || failed !== undefined) return; // pump reschedules
    if (performance.now() - lastCatchUp < LOOKUP_IDLE_MS) {
      scheduleLookup();
      return;
    }
    writing = true;
    lookupBatch().then(
      () => {
        writing = false;
        // For the log: at most every LOOKUP_REPORT_MS, and when the index reaches the head.
        const now = performance.now();
        const report = Math.min(lookupHeight, historyHeight) >= head || now - lastReport >= LOOKUP_REPORT_MS;
        if (report) lastReport = now;
        post({ type: 'indexed', lookupHeight, head, report, historyHeight });
        pump();
      },
      (error: unknown) => {
        // The index is derived data: its failure stops its build (until a restart), not block writes.
        writing = false;
        lookupFailure = error instanceof Error ? error.message : String(error);
        post({ type: 'lookup-failed', error: lookupFailure });
        pump();
      },
    );
  }, wait);
}

/**
 * Position records, address history and token transfers of the next blocks above the marker, and
 * the marker, in one batch. Blocks written live above the marker have their history already; it
 * is put again, the same records.
 */
async function lookupBatch(): Promise<void> {
  const from = Math.min(lookupHeight, historyHeight) + 1;
  const to = Math.min(head, from - 1 + LOOKUP_BLOCKS_PER_BATCH);
  const heights = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const [lists, locations] = await Promise.all([db.getMany(heights.map(IndexKeys.blockTxs)), db.getMany(heights.map(blockKey))]);
  const records = await fileReader.read(locations.map((l) => l && decodeLocation(l)));
  const blocks: Array<{ height: number; bundleHashes: Uint8Array }> = [];
  const history: IndexOp[] = [];
  for (let i = 0; i < heights.length; i++) {
    const height = heights[i]!;
    const record = records[i];
    if (record === undefined) throw new Error(`block ${height} is missing below the head ${head}`);
    const block = record.block;
    let bundles: Uint8Array[];
    let result: BlockResultView | undefined;
    try {
      bundles = storedBundles(block);
      // A block stored without a result (none of the node's own) indexes its senders only, as deriveIndexes does.
      const outcome = record.outcome;
      result = outcome && new BlockResultView(decodeOutcome(outcome));
    } catch (error) {
      throw new Error(`stored block ${height} does not decode: ${error instanceof Error ? error.message : String(error)}`);
    }
    // No bundle list: a block without bundles, or lists being rebuilt by --backfill-indexes.
    let hashes = lists[i];
    if (hashes === undefined) {
      hashes = new Uint8Array(bundles.length * 32);
      for (let b = 0; b < bundles.length; b++) hashes.set(bundleHash(bundles[b]!), b * 32);
    }
    if (hashes.length > 0 && height > lookupHeight) blocks.push({ height, bundleHashes: hashes });
    if (height > historyHeight) historyOps(height, bundles, result, history);
  }
  const batch = db.batch();
  putPositions(batch, blocks);
  for (const op of history) if (op.type === 'put') batch.put(op.key, op.value);
  const lookupTo = Math.max(lookupHeight, to);
  const historyTo = Math.max(historyHeight, to);
  batch.put(LOOKUP_MARKER, u64(lookupTo));
  batch.put(HISTORY_MARKER, u64(historyTo));
  await batch.write();
  lookupHeight = lookupTo;
  historyHeight = historyTo;
  // live blocks queued meanwhile at or below it have theirs now
  const done = Math.min(lookupHeight, historyHeight);
  while (followQueue.length > 0 && followQueue[0]!.write.height <= done) unpin(followQueue.shift()!.write);
  historyQueued = Math.max(historyQueued, historyHeight);
}

async function readHeight(key: Uint8Array): Promise<number> {
  const value = await db.get(key);
  return value === undefined ? -1 : readU64(value);
}
