import { accountNonce, Prefix } from '../../core/records.js';
import { toLatin1 } from '../../codec/hash.js';
import type { ChainStore, WriterTimings } from '../../storage/chain-store.js';
import { MAX_BLOCKS_IN_FLIGHT } from '../../storage/block-files.js';
import { describeStorageFault, isStorageFault } from '../../storage/faults.js';
import type { Logger } from '../../logger.js';
import { ethIndexEntries } from '../evm/bundles.js';
import type { Indexer } from '../indexer.js';
import type { SyncState } from '../interface.js';
import type { Mempool } from '../mempool.js';
import { usedNonce, type ProducedBlock } from '../producer.js';
import type { StateView } from '../state-view.js';
import { ChangeSetRecorder } from '../change-sets.js';
import type { Notifier } from './5-notify.js';

/**
 * Step 4 of the block pipeline, write (docs/architecture.md "Layers"; docs/storage.md "The writer
 * thread"): every executed and committed block, produced here or imported, is handed to the writer
 * thread (src/storage/block-writer-worker.ts) with its local records and explorer indexes in its one
 * batch, and blocks land in the order they were executed. Until its block is durable a bundle is
 * "in flight" and its account's nonce is tracked here, ahead of the StateView. When a write lands,
 * ./5-notify.ts takes over.
 */

/** The local record counting the bundles of every executed block (Chain.transactionCount on open). */
export const TX_COUNT_KEY = 'tx-count';

/** An account's state key is 0x01 ‖ address (docs/core-abi.md "State layout"): its latin1 starts with this. */
const ACCOUNT_KEY_PREFIX = String.fromCharCode(Prefix.ACCOUNT);

export interface WriteQueueDependencies {
  store: ChainStore;
  state: StateView;
  indexer: Indexer;
  mempool: Mempool;
  sync: SyncState;
  logger: Logger;
  notify: Notifier;
  /** keep each block's change set (docs/storage.md "State history"); false only for the bench's baseline */
  stateHistory?: boolean;
}

export class WriteQueue {
  /** At most this many executed blocks may wait for their write before production pauses. */
  static readonly MAX_PENDING_WRITES = 2;
  /**
   * While catching up (`syncing`), execution may run further ahead of storage: one group of blocks
   * is written while the next one fills on the writer thread (docs/storage.md "The writer thread").
   * Nobody waits on a receipt then.
   */
  static readonly MAX_PENDING_WRITES_SYNCING = MAX_BLOCKS_IN_FLIGHT;

  /** bundles (hash hex) of executed blocks not yet durable: out of the mempool, no receipt yet */
  private readonly awaitingWrite = new Set<string>();
  /** the writes of executed blocks not yet durable, oldest first: each settles after its afterWrite */
  private readonly landings: Array<Promise<void>> = [];
  /** settles once every block queued for writing so far is durable (blocks land in order) */
  get writeChain(): Promise<void> {
    return this.landings.at(-1) ?? Promise.resolve();
  }
  /** executed blocks not yet durable */
  pendingWrites = 0;
  /** nonces executed in blocks not yet durable, so nonce checks do not read the lagging StateView */
  private readonly executedNonces = new Map<string, { nonce: bigint; height: number }>();
  /**
   * Executed blocks not yet durable whose nonces are not in `executedNonces` yet, oldest first. They
   * are recorded when a nonce is first asked for (`stateNonce`): a catch-up sync executes 1,000
   * bundles a block and is rarely asked, and recording each one at execution needs the block's
   * outcomes, which an imported block builds only when read (ProducedBlock.outcomes).
   */
  private readonly unrecordedNonces: ProducedBlock[] = [];
  /** `executedNonces` is swept when it grows past this (see `forgetExecutedNonces`) */
  private nonceSweepAt = 1024;
  /** bundles in executed blocks since genesis (the TX_COUNT_KEY record) */
  executedTransactions = 0;

  /** each block's change set, taken as it is queued (src/chain/change-sets.ts); absent: history off */
  private readonly changeSets: ChangeSetRecorder | undefined;

  constructor(private readonly deps: WriteQueueDependencies) {
    this.changeSets = deps.stateHistory === false ? undefined : new ChangeSetRecorder(deps.state);
  }

  /** Whether a bundle (hash hex) is in a block executed but not yet durable. */
  isAwaitingWrite(hashKey: string): boolean {
    return this.awaitingWrite.has(hashKey);
  }

  /**
   * The tail every executed block shares, produced here or imported: local records and explorer
   * indexes in the block's own batch (spec §4.11, docs/explorer.md), mempool bookkeeping at once,
   * and the block handed to the writer thread (ChainStore.commitBlocks). Resolves once the block is
   * durable and its 'block' event emitted.
   */
  queueWrite(produced: ProducedBlock, startedAt: number): Promise<void> {
    const { mempool, indexer } = this.deps;
    this.executedTransactions += produced.block.header.bundleCount;
    produced.write.local = [{ key: TX_COUNT_KEY, value: Buffer.from(String(this.executedTransactions)) }, ...ethIndexEntries(produced.evmBundles)];
    // Before the StateView takes the block (at durability): the values its writes replace, in its own batch.
    if (this.changeSets) {
      const historyStarted = performance.now();
      produced.write.history = this.changeSets.record(produced.writes);
      produced.timings.history = performance.now() - historyStarted;
    }
    const indexStarted = performance.now();
    // Holders need the balances before the block (the indexer's pending map); the records the block
    // derives from itself the writer thread builds (src/storage/block-index.ts). The balance keys'
    // strings are the change-set recorder's (made and hashed once a block, docs/performance.md).
    produced.write.indexes = indexer.balanceIndexOps(produced.block.header.height, produced.writes, this.changeSets?.keysOf(produced.writes));
    produced.write.deriveIndexes = true;
    produced.timings.index = performance.now() - indexStarted;
    // Before the mempool lets go of them: from here until their block is durable they are in flight.
    // (Only bundles this node holds: a synced block's others were never asked about here.)
    if (mempool.size > 0) {
      for (const { entry } of produced.outcomes) if (mempool.has(entry.hashKey)) this.awaitingWrite.add(entry.hashKey);
    }
    this.unrecordedNonces.push(produced);
    // In flight until durable: a core instance replaced meanwhile reads its writes (--elastic-state,
    // src/chain/in-flight-writes.ts); a reference, nothing per write.
    this.deps.state.executed(produced.writes);
    const settleStarted = performance.now();
    this.deps.notify.afterExecution(produced);
    if (produced.pool) produced.pool.settle = performance.now() - settleStarted;
    this.pendingWrites++;
    // Handed to the writer thread at once: it builds the block into the batch that is written next
    // (src/storage/block-writer-worker.ts), and blocks land in the order they were executed.
    const writeStarted = performance.now();
    const handedOverAt = performance.timeOrigin + writeStarted;
    // While catching up the next blocks follow at once and nobody waits on a receipt: the write may
    // linger to take them too (one fsync per group rather than per block).
    const landed = this.deps.store.commitBlocks([produced.write], { linger: this.deps.sync.syncing }).then(
      (writer) => this.afterWrite(produced, startedAt, performance.now() - writeStarted, writer, handedOverAt),
      (error: unknown) => {
        // The core has moved on without storage: stop, and a restart resumes from what storage
        // holds (the writer writes nothing after a failure, so that is a prefix of the blocks).
        // A fault of the disk or the database (corruption, I/O error, a full disk) ends the node with
        // exit 1 and the file named: a restart would meet it again (issue 46 item 5, docs/operations.md
        // "Storage faults"). Any other failure exits 70 and a restart resumes from storage.
        if (isStorageFault(error)) {
          const message = describeStorageFault(error, this.deps.store.path);
          this.deps.logger.error('storage fault; stopping', { height: produced.block.header.height, error: message });
          process.stderr.write(`${message}\n`);
          process.exit(1);
        }
        this.deps.logger.error('block write failed; stopping', { height: produced.block.header.height, error: String(error) });
        process.exit(70);
      },
    );
    this.landings.push(landed);
    return landed;
  }

  /** The block is durable: it leaves the in-flight bookkeeping, and ./5-notify.ts tells everyone. */
  private afterWrite(produced: ProducedBlock, startedAt: number, write: number, writer: WriterTimings | undefined, handedOverAt: number): void {
    // The receipts are stored (the group's batch has landed): the bundles leave the in-flight set.
    if (this.awaitingWrite.size > 0) for (const outcome of produced.outcomes) this.awaitingWrite.delete(outcome.entry.hashKey);
    this.pendingWrites--;
    // Durable: its nonces are in the StateView now (notify applies its writes), recorded or not.
    if (this.unrecordedNonces[0] === produced) this.unrecordedNonces.shift();
    this.forgetExecutedNonces(produced.block.header.height);
    // the promise that just landed: a failed write has already ended the process (above)
    void this.landings.shift();
    const keys = this.changeSets?.durable(produced.writes);
    // Durable when the writer thread's synced batch returned; the rest of `write` is this thread's
    // event loop getting to the answer (docs/performance.md "A 10,000-bundle block").
    const durable = writer ? Math.min(write, Math.max(0, writer.durableAt - handedOverAt)) : write;
    this.deps.notify.afterWrite(produced, startedAt, write, writer, durable, keys);
  }

  /** Until fewer executed blocks wait for their write than the limit allows: each landing frees its block's slot. */
  async untilWriteSlot(): Promise<void> {
    const limit = this.deps.sync.syncing ? WriteQueue.MAX_PENDING_WRITES_SYNCING : WriteQueue.MAX_PENDING_WRITES;
    while (this.pendingWrites >= limit && this.landings.length > 0) await this.landings[0];
  }

  /** The account's next executable nonce, counting blocks executed but still being written. */
  stateNonce(account: Uint8Array): bigint {
    return this.stateNonceOf(toLatin1(account));
  }

  /**
   * `stateNonce` by the account's latin1 (PendingBundle.accountKey), which is also the tail of its
   * state key's: admission asks twice a bundle, and each ask converted the account to latin1, built
   * its 33-byte state key and converted that too (docs/performance.md "2026-11-27, second round").
   */
  stateNonceOf(accountLatin1: string): bigint {
    if (this.unrecordedNonces.length > 0) this.recordExecutedNonces();
    const executed = this.executedNonces.get(accountLatin1);
    if (executed) return executed.nonce;
    // decoded at once: a view of the record, no copy
    const record = this.deps.state.peekLatin1(ACCOUNT_KEY_PREFIX + accountLatin1);
    return record ? accountNonce(record) : 0n;
  }

  /** The core was rebuilt over committed state: the nonces of blocks it executed no longer count. */
  clearExecutedNonces(): void {
    this.executedNonces.clear();
    this.unrecordedNonces.length = 0;
  }

  /**
   * Drop executed nonces the StateView now holds. An entry of a durable block agrees with state (a
   * later block of that account would have replaced it), so entries may linger: all go when no
   * write is pending, and otherwise the map is swept once it has doubled since the last sweep, not
   * on every block (a sweep per block cost O(accounts in flight) each time).
   */
  private forgetExecutedNonces(durableHeight: number): void {
    if (this.pendingWrites === 0) {
      this.executedNonces.clear();
    } else if (this.executedNonces.size > this.nonceSweepAt) {
      for (const [key, executed] of this.executedNonces) if (executed.height <= durableHeight) this.executedNonces.delete(key);
      this.nonceSweepAt = 2 * this.executedNonces.size + 1024;
    }
  }

  /** The nonces of the executed blocks not recorded yet (`unrecordedNonces`), in execution order. */
  private recordExecutedNonces(): void {
    for (const produced of this.unrecordedNonces) {
      const height = produced.block.header.height;
      for (const outcome of produced.outcomes) {
        if (!outcome.retry && usedNonce(outcome)) this.executedNonces.set(outcome.entry.accountKey, { nonce: outcome.entry.nonce + 1n, height });
      }
    }
    this.unrecordedNonces.length = 0;
  }
}
