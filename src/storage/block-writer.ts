import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { packBlockWrite, type BlockWrite } from './block-batch.js';
import type { ColdOp, ColdStepResult } from './cold-store.js';
import type { WriterInit, WriterRequest, WriterResponse, WriterTimings } from './block-writer-worker.js';

/** What the node hears of the lookup index built behind the head (docs/storage.md "The transaction lookup index"). */
export interface LookupEvents {
  /** now and then while it is built (every ~10 s), and when it reaches the head */
  onLookupProgress?(height: number, head: number): void;
  onLookupFailure?(error: string): void;
  /** building the state history index behind the head stopped (docs/storage.md "State history"); block writes go on */
  onHistoryIndexFailure?(error: string): void;
}

/** Spare block buffers kept (BlockWriter.spares): a few blocks in flight, a catch-up group of 8. */
const SPARE_BUFFERS = 12;
/** ... and their bytes in all: a full 10,000-transfer block's write is ~8 MB. */
const SPARE_BYTES = 96 * 1024 * 1024;

/**
 * The main thread's side of the block writer (docs/storage.md "The writer thread"). A group's batch
 * is built and written on a thread of its own: the outcome encoding, the key building and the
 * native put of ~1,150 records a full block cost the main thread ~3.4 ms a block, which a catch-up
 * sync spent there instead of executing the next block. Here the main thread only packs the
 * writes and posts them, each block as soon as it is executed; `write` resolves once the batch
 * holding them is on disk (synced), as before.
 */
export class BlockWriter {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(timings: WriterTimings | undefined): void; reject(error: Error): void }>();
  /**
   * Synced batches written so far and the blocks in them (the sync bench reports group sizes), and
   * block buffers the thread gave back and the packing took again.
   */
  readonly stats = { groups: 0, blocks: 0, recycled: 0, reused: 0 };
  private failure: Error | undefined;
  /** why a write could not even be packed: later writes are refused too (cleared by close) */
  private refused: string | undefined;
  private closed: (() => void) | undefined;
  /** cold tier requests (cold-store.ts) waiting for the thread's answer */
  private readonly coldWaiters = new Map<number, { resolve(result: ColdStepResult): void; reject(error: Error): void }>();
  /**
   * Every block up to this height has its position records (docs/storage.md "The transaction lookup
   * index"); ChainStore.open reads it, and the thread reports it as it moves. -1: none yet.
   */
  lookupHeight = -1;
  /**
   * A live group's position records follow its durable batch by milliseconds (docs/storage.md "The
   * transaction lookup index"): the last height whose records are on their way, and the last whose
   * records the thread wrote (or the lookup index covers).
   */
  private followsTo = -1;
  private followedTo = -1;
  private readonly followWaiters: Array<{ height: number; done(): void }> = [];
  /** why the thread stopped building the lookup index (it retries after a restart) */
  lookupFailure: string | undefined;
  /** every block up to this height has its address history and token transfers (docs/storage.md "The address history") */
  historyHeight = -1;
  private readonly historyWaiters: Array<{ height: number; done(): void }> = [];
  /**
   * Buffers of earlier block writes the thread gave back (`recycle`) once nothing it keeps views
   * them: the next blocks are packed into them. A fresh buffer per block cost its first-touch page
   * faults, 300–1,000 µs a megabyte on this machine against ~40 reused (docs/performance.md "Fresh
   * buffers every block"). At most SPARE_BUFFERS, SPARE_BYTES in all; smallest first.
   */
  private readonly spares: ArrayBuffer[] = [];
  private spareBytes = 0;

  /**
   * Resolves once every block up to `height` has its address history, or after `ms` (whichever is
   * first): a live block's is written just after its batch, so a reader asking right after a receipt
   * waits for it instead of being told the index is behind.
   */
  untilHistory(height: number, ms: number): Promise<void> {
    if (this.historyHeight >= height || !this.worker) return Promise.resolve();
    return waitFor(this.historyWaiters, height, ms);
  }

  /**
   * The last height whose position records are on their way (durable live blocks whose records
   * follow), or undefined when none are. A reader asks before it reads: the records may land
   * while its read is under way.
   */
  get positionsPendingTo(): number | undefined {
    return this.followedTo < this.followsTo ? this.followsTo : undefined;
  }

  /**
   * Resolves once the position records up to `height` are written, or after `ms`: a lookup right
   * after a receipt waits the milliseconds its block's records take to land. At once when they are.
   */
  untilPositions(height: number, ms: number): Promise<void> {
    if (this.followedTo >= height || !this.worker) return Promise.resolve();
    return waitFor(this.followWaiters, height, ms);
  }

  private setHistoryHeight(height: number): void {
    this.historyHeight = height;
    release(this.historyWaiters, height);
  }

  private setLookupHeight(height: number): void {
    this.lookupHeight = height;
    this.setFollowedTo(height);
  }

  private setFollowedTo(height: number): void {
    this.followedTo = Math.max(this.followedTo, height);
    release(this.followWaiters, this.followedTo);
  }

  private readonly treeHolds = new Map<number, () => void>();

  constructor(private readonly path: string, private readonly events: LookupEvents = {}, private readonly treeEvery?: number) {}

  /**
   * Have the thread write the state tree at its durable head (a checkpoint, docs/storage.md "The
   * state tree on disk") and write nothing more until the returned release is called: a snapshot
   * taken meanwhile holds a tree that describes its head. Nothing to hold when the thread is not
   * running (no block has been written through it).
   */
  async holdTree(): Promise<() => void> {
    if (!this.worker) return () => undefined;
    await this.ready;
    if (this.failure) throw this.failure;
    const id = this.nextId++;
    await new Promise<void>((resolve) => {
      this.treeHolds.set(id, resolve);
      this.post({ type: 'hold-tree', id });
    });
    let released = false;
    return () => {
      if (released || !this.worker) return;
      released = true;
      this.post({ type: 'release-tree' });
    };
  }

  /**
   * Hand consecutive blocks to the writer; resolves once they are durable. The blocks of one call
   * land in one synced batch, possibly with blocks of the calls around it (group commit: the batch
   * written next takes whatever arrived while the previous one was written). Calls land in order.
   * `linger`: more blocks follow at once (a catch-up sync), so the batch may wait briefly for them.
   * Resolves with where the writer thread's time for the group went (docs/performance.md).
   */
  async write(writes: readonly BlockWrite[], linger = false): Promise<WriterTimings | undefined> {
    if (writes.length === 0) return undefined;
    if (this.refused !== undefined) throw new Error(`block write failed: an earlier write failed: ${this.refused}`);
    let packs: ReturnType<typeof packBlockWrite>[];
    try {
      packs = writes.map((write) => packBlockWrite(write, (bytes) => this.takeSpare(bytes)));
    } catch (error) {
      // As a failure on the thread: this write and every later one are refused, so storage keeps a
      // prefix of the blocks (until a reopen).
      this.refused = error instanceof Error ? error.message : String(error);
      throw new Error(`block write failed: ${this.refused}`);
    }
    await this.start();
    if (this.failure) throw this.failure;
    const id = this.nextId++;
    const done = new Promise<WriterTimings | undefined>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.post({ type: 'write', id, writes: packs.map((p) => p.packed), linger }, packs.flatMap((p) => p.transfer));
    return done;
  }

  /**
   * A cold tier request (src/storage/cold-store.ts), run on the writer's thread between group
   * writes, so a record's move and a block's write of the same key never overlap.
   */
  async cold(op: ColdOp): Promise<ColdStepResult> {
    await this.start();
    if (this.failure) throw this.failure;
    const id = this.nextId++;
    const done = new Promise<ColdStepResult>((resolve, reject) => this.coldWaiters.set(id, { resolve, reject }));
    this.post({ type: 'cold', id, op });
    return done;
  }

  private rejectCold(reason: string): void {
    for (const waiter of this.coldWaiters.values()) waiter.reject(new Error(reason));
    this.coldWaiters.clear();
  }

  /** Waits for the writes posted so far, then closes the thread's database handle; a later write starts a new thread. */
  async close(): Promise<void> {
    this.refused = undefined;
    const worker = this.worker;
    if (!worker) return;
    await this.ready?.catch(() => undefined);
    if (!this.failure) {
      const closed = new Promise<void>((resolve) => (this.closed = resolve));
      this.post({ type: 'close' });
      await closed;
    }
    this.rejectCold('the block writer closed');
    this.worker = undefined;
    this.ready = undefined;
    this.failure = undefined;
    await worker.terminate();
  }

  /** Start the thread now rather than at the first write: it has a lookup index to build behind the head. */
  async resume(): Promise<void> {
    await this.start();
  }

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    const init: WriterInit = { path: this.path, ...(this.treeEvery !== undefined ? { treeEvery: this.treeEvery } : {}) };
    const worker = new Worker(workerUrl(), { workerData: init });
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (message: WriterResponse) => {
        if (message.type === 'ready') {
          // a thread of its own (the store reopened): nothing of an earlier one's is on its way
          this.followsTo = -1;
          this.followedTo = -1;
          release(this.followWaiters, Infinity);
          this.setLookupHeight(message.lookupHeight);
          this.setHistoryHeight(message.historyHeight);
          resolve();
        } else if (message.type === 'closed') this.closed?.();
        else if (message.type === 'cold-done') {
          const waiter = this.coldWaiters.get(message.id);
          this.coldWaiters.delete(message.id);
          if (message.error !== undefined) waiter?.reject(new Error(`cold tier: ${message.error}`));
          else waiter?.resolve(message.result!);
        }
        else if (message.type === 'tree-held') {
          this.treeHolds.get(message.id)?.();
          this.treeHolds.delete(message.id);
        }
        else if (message.type === 'followed') {
          this.setFollowedTo(message.to);
          this.setLookupHeight(message.lookupHeight);
          this.setHistoryHeight(message.historyHeight);
        }
        else if (message.type === 'recycle') this.keepSpare(message.buffer);
        else if (message.type === 'indexed') {
          this.setLookupHeight(message.lookupHeight);
          this.setHistoryHeight(message.historyHeight);
          if (message.report) this.events.onLookupProgress?.(message.lookupHeight, message.head);
        } else if (message.type === 'history-index-failed') this.events.onHistoryIndexFailure?.(message.error);
        else if (message.type === 'lookup-failed') {
          this.lookupFailure = message.error;
          this.events.onLookupFailure?.(message.error);
        }
        else {
          if (message.type === 'written') {
            if (message.follows !== undefined) this.followsTo = Math.max(this.followsTo, message.follows);
            this.setLookupHeight(message.lookupHeight);
            this.stats.groups++;
            this.stats.blocks += message.blocks;
          }
          const error = message.type === 'failed' ? new Error(`block write failed: ${message.error}`) : undefined;
          if (error) this.rejectCold(error.message);
          const timings = message.type === 'written' ? message.timings : undefined;
          for (const id of message.ids) {
            const waiter = this.pending.get(id);
            this.pending.delete(id);
            if (error) waiter?.reject(error);
            else waiter?.resolve(timings);
          }
        }
      });
      const fail = (error: Error) => {
        this.failure ??= error;
        reject(error);
        for (const waiter of this.pending.values()) waiter.reject(error);
        this.pending.clear();
        this.rejectCold(error.message);
        // a hold waits on a thread that is gone: nothing is written any more, so the read may go on
        for (const held of this.treeHolds.values()) held();
        this.treeHolds.clear();
        this.closed?.();
      };
      worker.on('error', (error) => fail(new Error(`the block writer thread failed: ${error.message}`)));
      worker.on('exit', (code) => {
        if (this.worker === worker) fail(new Error(`the block writer thread exited (${code})`));
      });
    });
    return this.ready;
  }

  /** The smallest spare buffer of at least `bytes`, or a new one. */
  private takeSpare(bytes: number): ArrayBuffer {
    const i = this.spares.findIndex((b) => b.byteLength >= bytes);
    if (i < 0) return new ArrayBuffer(bytes);
    const [buffer] = this.spares.splice(i, 1);
    this.spareBytes -= buffer!.byteLength;
    this.stats.reused++;
    return buffer!;
  }

  /** A buffer the thread is done with: kept for a later block, the smallest let go past the bounds. */
  private keepSpare(buffer: ArrayBuffer): void {
    this.stats.recycled++;
    if (buffer.byteLength === 0 || buffer.byteLength > SPARE_BYTES) return;
    let at = 0;
    while (at < this.spares.length && this.spares[at]!.byteLength < buffer.byteLength) at++;
    this.spares.splice(at, 0, buffer);
    this.spareBytes += buffer.byteLength;
    while (this.spares.length > SPARE_BUFFERS || this.spareBytes > SPARE_BYTES) this.spareBytes -= this.spares.shift()!.byteLength;
  }

  private post(request: WriterRequest, transfer: ArrayBuffer[] = []): void {
    this.worker!.postMessage(request, transfer);
  }
}

/**
 * The compiled worker beside this module. Under vitest the host runs from its TypeScript sources,
 * which a worker thread (plain Node) cannot load: it takes the build's copy (`npm test` builds first).
 */
function workerUrl(): URL {
  if (!import.meta.url.endsWith('.ts')) return new URL('./block-writer-worker.js', import.meta.url);
  const built = new URL('../../dist/src/storage/block-writer-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(built))) throw new Error(`${fileURLToPath(built)} is missing: run npm run build:host`);
  return built;
}

/** A waiter resolved once the height it waits for is reached, or after `ms`. */
function waitFor(waiters: Array<{ height: number; done(): void }>, height: number, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const waiter = { height, done: () => { clearTimeout(timer); resolve(); } };
    const timer = setTimeout(() => {
      const at = waiters.indexOf(waiter);
      if (at >= 0) waiters.splice(at, 1);
      resolve();
    }, ms);
    waiters.push(waiter);
  });
}

/** Resolve the waiters for heights up to `height`, in place. */
function release(waiters: Array<{ height: number; done(): void }>, height: number): void {
  let kept = 0;
  for (const w of waiters) {
    if (w.height <= height) w.done();
    else waiters[kept++] = w;
  }
  waiters.length = kept;
}
