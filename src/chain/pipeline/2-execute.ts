import type { Core } from '../../core/core.js';
import type { Logger } from '../../logger.js';
import { ChainError, type ExecutionAborted } from '../errors.js';
import type { Mempool, PendingBundle } from '../mempool.js';
import { BlockProducer, type ProducerParams, type ValidatorIdentity } from '../producer.js';
import type { TokenRegistry } from '../token-registry.js';
import type { Heads } from './heads.js';
import type { Notifier } from './5-notify.js';
import type { StateView } from '../state-view.js';
import { blockKeys, ElasticState } from '../elastic-state.js';
import type { WriteQueue } from './4-write.js';
import { collectGarbage, MEMORY_LOG_EVERY, memorySample } from '../memory-sample.js';

/**
 * Step 2 of the block pipeline, execute (docs/architecture.md "Layers"): the core instance that
 * executes the next block and the BlockProducer over it (src/chain/producer.ts: one call into the
 * core, then the core's commit: state root and writes, the header signed). The block loop
 * (./loop.ts) executes this node's blocks with it, ./3-commit.ts the proposals of others, and
 * src/chain/import.ts certified blocks. A core that aborted (a core bug, DESIGN.md) or ran ahead of
 * storage is replaced here by a fresh instance over committed state; with --elastic-state one whose
 * cache passed its bound is replaced too, over committed state and the blocks still in flight.
 */

export interface ExecutionDependencies {
  /** a fresh core instance, used when the current one aborted (a core bug, DESIGN.md) */
  createCore: () => Promise<Core>;
  validator: ValidatorIdentity;
  tokens: TokenRegistry;
  heads: Heads;
  writes: WriteQueue;
  mempool: Mempool;
  notify: Notifier;
  logger: Logger;
  /** committed state: with --elastic-state a bounded cache that wants the block's keys read ahead */
  state: StateView;
}

export class Execution {
  /** the core that executes the next block */
  core: Core;
  producer: BlockProducer;
  /** blocks prepared (--elastic-state), for the memory log */
  private prepared = 0;
  /** a core replacement is under way (an import's prepare may run beside the loop's) */
  private recycling = false;

  constructor(private readonly params: ProducerParams, core: Core, private readonly deps: ExecutionDependencies) {
    this.core = core;
    this.producer = this.createProducer();
  }

  /**
   * After an import that left the core ahead of storage (a state root that did not match): let the
   * queued writes land, then build a fresh core over committed state.
   */
  async reloadCore(): Promise<void> {
    await this.deps.writes.writeChain;
    this.deps.state.dropInFlight();
    this.core = await this.deps.createCore();
    this.producer = this.createProducer();
    this.deps.heads.executionHead = this.deps.heads.head;
    this.deps.writes.clearExecutedNonces();
  }

  /** Whether blocks need `prepare` first (--elastic-state); the default mirror needs nothing. */
  get elastic(): boolean {
    // asked before every block: a type test, not stats(), which sums the bytes of every record
    return this.deps.state instanceof ElasticState;
  }

  /**
   * --elastic-state, before a block executes (docs/operations.md "Elastic state"): replace a core
   * whose cache passed the bound (`recycleCore`), then read ahead the keys the bundles will touch
   * so the core's synchronous reads find them in the hot tier.
   */
  async prepare(bundles: Uint8Array[]): Promise<void> {
    const { state } = this.deps;
    if (this.prepared++ % MEMORY_LOG_EVERY === 0) this.logMemory('memory');
    if (!this.recycling && state.wantsCoreRecycle(this.core.cacheSize(), this.coreMemoryBytes())) await this.recycleCore();
    await state.prefetch(blockKeys(bundles));
  }

  /**
   * Replace the core instance to bound its memory (docs/operations.md "Memory bound") without
   * waiting for the blocks in flight: the new instance reads through the state's core source,
   * which answers their writes until each is durable (src/chain/in-flight-writes.ts), so it reads
   * exactly what the old one held. The execution head and the executed nonces stay: nothing is
   * undone (unlike `reloadCore`).
   */
  private async recycleCore(): Promise<void> {
    const { state } = this.deps;
    this.recycling = true;
    try {
      if (!this.everyExecutedBlockQueued()) {
        this.deps.logger.debug('core recycle deferred: a block executed is not queued for writing', { executionHead: this.deps.heads.executionHead.height, head: this.deps.heads.head.height });
        return;
      }
      this.logMemory('memory before core recycle');
      const started = performance.now();
      const core = await this.deps.createCore();
      const created = performance.now();
      // The swap and the overlay are made together, after the await: a block executed meanwhile
      // (an import beside the loop's block) is in flight by now, or held for its votes (then wait).
      if (!this.everyExecutedBlockQueued()) return;
      const inFlight = state.coreReplaced();
      this.core = core;
      this.producer = this.createProducer();
      collectGarbage();
      const collected = performance.now();
      state.noteCoreRecycled();
      this.logMemory('memory after core recycle');
      this.deps.logger.debug('core recycled', {
        blocksInFlight: inFlight, executionHead: this.deps.heads.executionHead.height, head: this.deps.heads.head.height,
        createMs: Math.round(created - started), gcMs: Math.round(collected - created),
      });
    } finally {
      this.recycling = false;
    }
  }

  /**
   * Whether every block the core executed is queued for writing (so the state knows its writes),
   * none held only in the core: a proposal kept for its votes (docs/consensus.md "Commit on
   * finality") is in no write until it is final.
   */
  private everyExecutedBlockQueued(): boolean {
    const { heads, writes } = this.deps;
    return heads.executionHead.height - heads.head.height === writes.pendingWrites;
  }

  /**
   * A core abort while making a block is a bug: discard the instance, refuse the bundles of that
   * block, go on. The new instance reads through the StateView, so every executed block must be
   * written first.
   */
  async recoverFromAbort(error: ExecutionAborted, selected: PendingBundle[]): Promise<void> {
    this.deps.logger.error('core aborted; reloading it and refusing the block\'s bundles', { error: String(error.reason) });
    await this.deps.writes.writeChain;
    this.deps.state.dropInFlight();
    this.core = await this.deps.createCore();
    this.producer = this.createProducer();
    for (const entry of selected) {
      this.deps.mempool.remove(entry);
      this.deps.notify.settle(entry.hashKey, undefined, new ChainError('BUNDLE_INVALID', 'the core could not execute this bundle', { status: 'CORE_ABORTED' }));
    }
  }

  /** The core instance's WebAssembly memory (it only grows; a new instance starts small). */
  coreMemoryBytes(): number {
    return this.core.exports.memory.buffer.byteLength;
  }

  /** Where resident memory is (src/chain/memory-sample.ts), at debug level. */
  logMemory(message: string): void {
    this.deps.logger.debug(message, { ...memorySample(this.coreMemoryBytes()), coreKeys: this.core.cacheSize(), ...this.deps.state.stats().tiers['hot'] });
  }

  private createProducer(): BlockProducer {
    return new BlockProducer(this.params, { core: this.core, validator: this.deps.validator, tokens: this.deps.tokens });
  }
}
