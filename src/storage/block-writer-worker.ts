import { parentPort, workerData } from 'node:worker_threads';
import { Level } from 'level';
import { storedBundles } from '../chain/block.js';
import { blockIndexOps } from '../chain/block-index.js';
import { BlockResultView } from '../core/block-result.js';
import { putBlock, sealGroup, type PackedBlockWrite } from './block-batch.js';

/**
 * The block writer's thread (block-writer.ts): a second handle on the node's database (classic-level
 * `multithreading`, one LevelDB underneath). Blocks arrive as soon as they are executed, in order,
 * in units (one block, or the blocks of one `commitBlocks` call, never split). Each unit goes into
 * the open group's batch at once (its records, and the index records that need no state,
 * `deriveIndexes`), so building overlaps the write under way. When no write is under way the open
 * group is sealed (positions, head) and written synced: a lone block is written at once, and while
 * a write takes its time the blocks executed meanwhile share the next one (group commit).
 */

export interface WriterInit {
  path: string;
}

export type WriterRequest = { type: 'write'; id: number; writes: PackedBlockWrite[]; linger: boolean } | { type: 'close' };
export type WriterResponse =
  | { type: 'ready' }
  /** every unit of a group is durable; `blocks` counts the group's blocks */
  | { type: 'written'; ids: number[]; blocks: number }
  | { type: 'failed'; ids: number[]; error: string }
  | { type: 'closed' };

/** A group takes at most this many blocks (more units wait for the next group); a unit is never split. */
const MAX_BLOCKS_PER_GROUP = 10;
/**
 * How long a lingering group (its last unit said more blocks follow: a catch-up sync, where nobody
 * waits on a receipt) waits for more before it is written anyway. A synced block arrives every few
 * milliseconds, and one fsync per ten blocks costs LevelDB's thread less than one per block.
 */
const LINGER_MS = 25;

interface Group {
  batch: ReturnType<Level<Uint8Array, Uint8Array>['batch']>;
  writes: PackedBlockWrite[];
  ids: number[];
  /** the last unit expects more blocks soon: wait for them (up to LINGER_MS, MAX_BLOCKS_PER_GROUP) */
  linger: boolean;
}

const port = parentPort!;
const { path } = workerData as WriterInit;
const db = new Level<Uint8Array, Uint8Array>(path, { keyEncoding: 'view', valueEncoding: 'view', multithreading: true });
await db.open();
const post = (message: WriterResponse) => port.postMessage(message);

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
  if (request.type === 'close') {
    closing = true;
    if (failed !== undefined) void db.close().then(() => post({ type: 'closed' }));
    else pump();
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
    open ??= { batch: db.batch(), writes: [], ids: [], linger: false };
    open.ids.push(request.id);
    open.linger = request.linger;
    for (const write of request.writes) {
      if (write.deriveIndexes) deriveIndexes(write);
      putBlock(open.batch, write);
      open.writes.push(write);
    }
  } catch (error) {
    // The open batch holds part of this unit: none of it, nor anything after it, may be written.
    fail(error);
    return;
  }
  pump();
});
post({ type: 'ready' });

/** Start the next write if none is under way: the oldest full group, else the open one. */
function pump(): void {
  if (writing || failed !== undefined) return;
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
    if (closing) void db.close().then(() => post({ type: 'closed' }));
    return;
  }
  writing = true;
  try {
    sealGroup(group.batch, group.writes);
  } catch (error) {
    sealed.unshift(group);
    writing = false;
    fail(error);
    return;
  }
  group.batch.write({ sync: true }).then(
    () => {
      writing = false;
      post({ type: 'written', ids: group.ids, blocks: group.writes.length });
      pump();
    },
    (error: unknown) => {
      writing = false;
      sealed.unshift(group);
      fail(error);
    },
  );
}

/** Refuse every unit not yet written, and all later ones. */
function fail(error: unknown): void {
  failed = error instanceof Error ? error.message : String(error);
  const dropped = [...sealed.splice(0), ...(open ? [open] : [])];
  open = undefined;
  const ids = dropped.flatMap((g) => g.ids);
  for (const g of dropped) void g.batch.close().catch(() => undefined);
  post({ type: 'failed', ids, error: failed });
  if (closing) void db.close().then(() => post({ type: 'closed' }));
}

function deriveIndexes(write: PackedBlockWrite): void {
  const ops = (write.indexes ??= []);
  blockIndexOps(write.height, write.bundleHashes, storedBundles(write.block), write.outcome && new BlockResultView(write.outcome), ops);
}
