import type { EventEmitter } from 'node:events';
import { encodeHash } from '../../codec/address.js';
import type { Logger } from '../../logger.js';
import { releaseOutputBuffer } from '../../core/output-pool.js';
import { ChainError } from '../errors.js';
import type { Indexer } from '../indexer.js';
import type { ChainEvents } from '../interface.js';
import type { DroppedBundle, Mempool, PendingBundle } from '../mempool.js';
import { usedNonce, type ProducedBlock } from '../producer.js';
import type { Receipt } from '../receipts.js';
import type { StateView } from '../state-view.js';
import type { WriterTimings } from '../../storage/chain-store.js';
import type { Heads } from './heads.js';

/**
 * Step 5 of the block pipeline, index and notify (docs/architecture.md "Layers"): a block is
 * durable (./4-write.ts), so the StateView takes its writes, the explorer indexes count it, the
 * calls waiting for its bundles settle and the 'block' event goes out. The callers of bundles that
 * leave the mempool without a block (refused at execution, replaced, evicted, expired) are answered
 * here too.
 */

interface Waiter {
  resolve: (receipt: Receipt) => void;
  reject: (error: Error) => void;
  entry: PendingBundle;
  /** the waiters that time out together with this one */
  bucket: DeadlineBucket;
}

/** Waiters whose INCLUSION_TIMEOUT falls in one slice of time, under one timer. */
interface DeadlineBucket {
  slot: number;
  waiters: Set<Waiter>;
  timer: NodeJS.Timeout;
}

export interface NotifierDependencies {
  /** how long a write method waits for its bundle to be in a block (ChainOptions.inclusionTimeoutMs) */
  inclusionTimeoutMs: number;
  mempool: Mempool;
  state: StateView;
  indexer: Indexer;
  heads: Heads;
  logger: Logger;
  /** the Chain, which emits the events upper layers subscribe to */
  events: EventEmitter<ChainEvents>;
}

export class Notifier {
  private readonly waiters = new Map<string, Waiter[]>();
  /**
   * Waiters by the slice of time their timeout falls in: one timer a slice instead of a Timeout
   * object armed and cleared per bundle (docs/performance.md "Changes measured"). A waiter is
   * answered at the end of its slice, at most `slotMs` after its timeout; an answered one leaves
   * its slice at once (nothing is held until the timeout).
   */
  private readonly buckets = new Map<number, DeadlineBucket>();
  private readonly slotMs: number;
  private readonly mempool: Mempool;

  constructor(private readonly deps: NotifierDependencies) {
    this.mempool = deps.mempool;
    this.slotMs = Math.max(1, Math.min(100, Math.floor(deps.inclusionTimeoutMs / 10)));
  }

  /**
   * A block is durable: reads, receipts and the 'block' event see it. `keys`: its writes' keys as
   * latin1, when the change-set recorder made them (StateView.apply).
   */
  afterWrite(produced: ProducedBlock, startedAt: number, write: number, writer?: WriterTimings, durable = write, keys?: readonly string[]): void {
    const header = produced.block.header;
    const heads = this.deps.heads;
    this.deps.state.apply(produced.writes, keys);
    this.deps.indexer.durable(header.height);
    heads.head = header;
    heads.remember(header);
    heads.totalTransactions += header.bundleCount;
    // Receipts are built for the bundles somebody waits for (a synced block's: none, and its
    // outcomes are not even built).
    if (this.waiters.size > 0) for (const outcome of produced.outcomes) {
      if (this.waiters.size === 0) break;
      if (outcome.index === undefined || !this.waiters.has(outcome.entry.hashKey)) continue;
      const receipt = produced.receipts[outcome.index]!;
      if (receipt.status === 'success') this.settle(outcome.entry.hashKey, receipt);
      else this.settle(outcome.entry.hashKey, undefined, failedError(receipt));
    }
    produced.timings.write = write;
    this.deps.logger.debug('block committed', {
      height: header.height, bundles: header.bundleCount, gasUsed: header.gasUsed, ms: Date.now() - startedAt, phases: roundAll(produced.timings),
      // `phases.write` is the wall time from the hand-over to this callback; `writer` is where the
      // writer thread spent it for the whole group (docs/performance.md), the rest is waiting for
      // the write before it and for this thread's event loop.
      // `durable`: the hand-over until the writer thread's synced batch returned (within `write`).
      durable: Math.round(durable * 10) / 10,
      ...(writer ? { writer: roundAll({ build: writer.build, seal: writer.seal, files: writer.files, level: writer.level }, 10) } : {}),
      // Beside the phases (not part of their sum): the execute phase's CPU, and the mempool's share.
      ...(produced.executeCpu === undefined ? {} : { executeCpu: Math.round(produced.executeCpu * 10) / 10 }),
      ...(produced.pool ? { mempool: roundAll({ ...produced.pool }, 10) } : {}),
    });
    this.deps.events.emit('block', produced);
    // Nothing keeps a view of the commit output past this point when the state view copied what it
    // keeps (the indexer's pending balances hold bit lengths, no views): its buffer is reused for a
    // later block's output (src/core/output-pool.ts).
    if (this.deps.state.ownsValues) releaseOutputBuffer(produced.writes.bytes.buffer);
  }

  /** Mempool bookkeeping right after execution, so the next block can be built at once. */
  afterExecution(produced: ProducedBlock): void {
    // Mempool calls are no-ops for bundles it does not hold, and only left-out bundles have callers
    // to settle here: with neither (a catch-up sync) the outcomes are not even built.
    const pooled = this.mempool.size > 0;
    if (!pooled && produced.leftOut === 0) return;
    for (const outcome of produced.outcomes) {
      const { entry } = outcome;
      if (outcome.retry) continue;
      // A success, or a failed EVM transaction: the nonce is used either way (usedNonce).
      if (usedNonce(outcome)) {
        if (pooled) {
          const dropped = this.mempool.executed(entry);
          if (dropped.length > 0) this.settleDropped(dropped);
        }
        continue;
      }
      if (pooled) this.mempool.remove(entry);
      if (outcome.index !== undefined) {
        if (pooled) this.releaseFollowers(entry);
      } else {
        this.settle(entry.hashKey, undefined, new ChainError('BUNDLE_INVALID', outcome.invalidMessage ?? 'refused by the core', {
          status: outcome.invalidStatus, bundle_hash: encodeHash(entry.hash),
        }));
        if (pooled) this.releaseFollowers(entry);
      }
    }
  }

  /**
   * A failed bundle keeps its nonce (spec §5.8), so later bundles of the account now have a gap.
   * Signed ones wait for a bundle that fills it (spec §7.6); the ones whose nonce this node chose
   * would wait forever, so they are refused at once and their callers can simply call again.
   */
  private releaseFollowers(failed: PendingBundle): void {
    for (const follower of this.mempool.after(failed.accountKey, failed.nonce)) {
      if (!follower.nodeAssigned) continue;
      this.mempool.remove(follower);
      this.settle(follower.hashKey, undefined, new ChainError('BUNDLE_INVALID',
        `an earlier bundle of this account (nonce ${failed.nonce}) failed or left the mempool, so nonce ${follower.nonce} cannot execute; call again`,
        { status: 'PREDECESSOR_FAILED', bundle_hash: encodeHash(follower.hash) }));
    }
  }

  dropExpired(now: bigint): void {
    const dropped = this.mempool.expire(now);
    if (dropped.length > 0) this.settleDropped(dropped);
  }

  /**
   * Answer the callers of bundles that left the mempool without executing (docs/mempool.md). An
   * evicted or expired bundle leaves a gap, so node-numbered followers are refused as after a failure.
   */
  settleDropped(dropped: DroppedBundle[]): void {
    for (const { entry, reason, by } of dropped) {
      const bundle_hash = encodeHash(entry.hash);
      let error: ChainError;
      switch (reason) {
        case 'REPLACED':
          error = new ChainError('BUNDLE_INVALID', `replaced in the mempool by bundle ${encodeHash(by!.hash)} of the same nonce ${entry.nonce}, paying max_priority_fee ${by!.priorityFee}`,
            { status: 'REPLACED', bundle_hash, replaced_by: encodeHash(by!.hash) });
          break;
        case 'EVICTED':
          error = new ChainError('MEMPOOL_FULL', `evicted from the full mempool by bundle ${encodeHash(by!.hash)} paying a higher max_priority_fee (${by!.priorityFee} > ${entry.priorityFee})`,
            { status: 'EVICTED', bundle_hash, evicted_by: encodeHash(by!.hash) });
          break;
        case 'NONCE_USED':
          error = new ChainError('BUNDLE_INVALID', `another bundle with nonce ${entry.nonce} of this account executed`, { status: 'NONCE_TOO_LOW', bundle_hash });
          break;
        case 'EXPIRED':
          error = new ChainError('BUNDLE_INVALID', `bundle expired at ${entry.expiresAt} while waiting`, { status: 'EXPIRED', bundle_hash });
          break;
        case 'LIFETIME':
          error = new ChainError('BUNDLE_INVALID', `bundle waited in the mempool longer than its lifetime (--mempool-lifetime) without executing`,
            { status: 'EXPIRED', bundle_hash });
          break;
      }
      this.settle(entry.hashKey, undefined, error);
      if (reason === 'EVICTED' || reason === 'EXPIRED' || reason === 'LIFETIME') this.releaseFollowers(entry);
    }
  }

  wait(entry: PendingBundle): Promise<Receipt> {
    return new Promise<Receipt>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, entry, bucket: this.bucketFor(performance.now() + this.deps.inclusionTimeoutMs) };
      waiter.bucket.waiters.add(waiter);
      const list = this.waiters.get(entry.hashKey);
      if (list) list.push(waiter);
      else this.waiters.set(entry.hashKey, [waiter]);
    });
  }

  settle(hashKey: string, receipt: Receipt | undefined, error?: Error): void {
    const list = this.waiters.get(hashKey);
    if (!list) return;
    this.waiters.delete(hashKey);
    for (const w of list) {
      this.leaveBucket(w);
      if (receipt) w.resolve(receipt);
      else w.reject(error!);
    }
  }

  /** The slice a deadline falls in, its timer armed for the slice's end. */
  private bucketFor(deadline: number): DeadlineBucket {
    const slot = Math.ceil(deadline / this.slotMs);
    let bucket = this.buckets.get(slot);
    if (bucket === undefined) {
      const delay = Math.max(1, Math.ceil(slot * this.slotMs - performance.now()));
      bucket = { slot, waiters: new Set(), timer: setTimeout(() => this.expire(slot), delay) };
      this.buckets.set(slot, bucket);
    }
    return bucket;
  }

  private leaveBucket(w: Waiter): void {
    const bucket = w.bucket;
    bucket.waiters.delete(w);
    if (bucket.waiters.size === 0 && this.buckets.get(bucket.slot) === bucket) {
      clearTimeout(bucket.timer);
      this.buckets.delete(bucket.slot);
    }
  }

  /** INCLUSION_TIMEOUT for the waiters of a slice; their bundles stay in the mempool. */
  private expire(slot: number): void {
    const bucket = this.buckets.get(slot);
    if (bucket === undefined) return;
    this.buckets.delete(slot);
    for (const w of bucket.waiters) {
      const { entry } = w;
      const list = this.waiters.get(entry.hashKey);
      const index = list?.indexOf(w) ?? -1;
      if (list && index >= 0) list.splice(index, 1);
      if (list?.length === 0) this.waiters.delete(entry.hashKey);
      w.reject(new ChainError('INCLUSION_TIMEOUT',
        `bundle not in a block after ${this.deps.inclusionTimeoutMs} ms; it stays in the mempool (query svc_getTransactionReceipt)`,
        { bundle_hash: encodeHash(entry.hash), nonce: entry.nonce.toString() }));
    }
  }

  /** The node stops: refuse every waiting call. */
  refuseAll(): void {
    for (const bucket of this.buckets.values()) clearTimeout(bucket.timer);
    this.buckets.clear();
    for (const [hash, waiters] of this.waiters) {
      for (const w of waiters) {
        w.reject(new ChainError('SHUTTING_DOWN', 'the node is shutting down; the bundle was not included', { bundle_hash: hash }));
      }
    }
    this.waiters.clear();
  }
}

function roundAll(timings: Record<string, number>, scale = 1): Record<string, number> {
  return Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v * scale) / scale]));
}

function failedError(receipt: Receipt): ChainError {
  return new ChainError('BUNDLE_FAILED', `bundle failed and was reverted: ${receipt.error ?? receipt.status_name}`, {
    status: receipt.status_name, receipt,
  });
}
