import { ExecutionAborted } from '../errors.js';
import type { ChainConsensus, SyncState } from '../interface.js';
import type { Mempool } from '../mempool.js';
import type { BlockTurn, ProducedBlock } from '../producer.js';
import type { Execution } from './2-execute.js';
import type { Heads } from './heads.js';
import type { Notifier } from './5-notify.js';
import type { WriteQueue } from './4-write.js';

/**
 * The block loop (docs/architecture.md "Layers"): the adaptive interval (spec §1.8: 500 ms under
 * load up to --block-time idle), whose turn it is (consensus, docs/consensus.md), and this node's
 * own block: bundles taken from the mempool, executed (./2-execute.ts), committed (final at once on
 * the solo path, or held in `speculative` until its votes, ./3-commit.ts) and queued for writing
 * (./4-write.ts). Blocks of other validators (src/chain/import.ts, proposals) take a write slot here
 * so that they never run alongside a block of this node.
 */

export interface BlockLoopOptions {
  /** idle block interval (spec §4.20 --block-time) */
  blockTimeMs: number;
  /** interval under load (spec §1.8: 500 ms to 12 s) */
  minBlockIntervalMs: number;
  maxTxsPerBlock: number;
}

export interface BlockLoopDependencies {
  heads: Heads;
  execution: Execution;
  writes: WriteQueue;
  notify: Notifier;
  mempool: Mempool;
  sync: SyncState;
  /**
   * Whether this node may make the next block now (ChainOptions.onlyAsValidator). Always, for the
   * single validator; node.ts narrows it to "our key is in the validator set" and the consensus
   * layer to the leader schedule.
   */
  mayProduce: () => boolean;
}

export class BlockLoop {
  lastBlockAt = Date.now();
  private timer: NodeJS.Timeout | undefined;
  /** the tick under way, if any */
  inFlight: Promise<void> | undefined;
  private stopped = false;
  /** imports under way; local production waits for them */
  private importing = 0;
  /** multi-validator consensus (src/consensus), given to `start`; absent, every block is final when made */
  private consensus: ChainConsensus | undefined;
  /**
   * A block executed in the core but not final yet (docs/consensus.md "Commit on finality"): this
   * node's proposal or the proposal it voted for. Storage and the StateView stay at `head`.
   */
  speculative: ProducedBlock | undefined;

  constructor(private readonly options: BlockLoopOptions, private readonly deps: BlockLoopDependencies) {}

  /**
   * Start the loop. `consensus` (src/consensus/service.ts) decides whose turn each height is;
   * absent, this node makes every block and each is final when made.
   */
  start(consensus?: ChainConsensus): void {
    this.consensus = consensus;
    this.lastBlockAt = Date.now();
    this.wakeIn(0);
  }

  /** Stop making blocks; resolves once the tick under way has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.inFlight;
  }

  private wakeIn(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.inFlight = this.tick().finally(() => {
        this.inFlight = undefined;
      });
    }, delay);
  }

  private async tick(): Promise<void> {
    const now = Date.now();
    this.deps.notify.dropExpired(BigInt(Math.floor(now / 1000)));
    // While catching up, blocks come from peers (src/chain/import.ts), and a node whose key may not
    // propose (not in the validator set, or not its turn) makes none (docs/p2p.md).
    if (this.deps.sync.syncing || this.importing > 0 || !this.deps.mayProduce()) {
      this.lastBlockAt = now;
      this.wakeIn(25);
      return;
    }
    // Consensus (docs/consensus.md): the solo fast path below, or rounds of proposals and votes.
    let turn: BlockTurn | undefined;
    if (this.consensus) {
      turn = this.speculative ? undefined : this.consensus.soloTurn(this.deps.heads.executionHead, this.deps.execution.core);
      if (!turn) {
        await this.consensusTick();
        return;
      }
    }
    const sinceLast = now - this.lastBlockAt;
    const busy = this.deps.mempool.size > 0;
    if ((busy && sinceLast >= this.options.minBlockIntervalMs) || sinceLast >= this.options.blockTimeMs) {
      await this.produceNext(turn);
      // The interval runs from the start of the last block, so execution time does not stretch it.
      const untilNext = this.lastBlockAt + this.options.minBlockIntervalMs - Date.now();
      this.wakeIn(this.deps.mempool.size > 0 ? Math.max(1, untilNext) : 25);
      return;
    }
    const due = busy ? this.options.minBlockIntervalMs - sinceLast : Math.min(25, this.options.blockTimeMs - sinceLast);
    this.wakeIn(Math.max(1, due));
  }

  /**
   * Multi-validator production: one height at a time (no write in flight); this node makes a block
   * when the round protocol asks; the block waits in `speculative` until final.
   */
  private async consensusTick(): Promise<void> {
    const heads = this.deps.heads;
    if (this.deps.writes.pendingWrites === 0) {
      const turn = this.consensus!.turn(this.deps.mempool.size > 0);
      if (turn) {
        // The round protocol asked for a block (this node leads the round and has no block of its
        // own at this height): a proposal of another validator executed meanwhile makes way.
        if (this.speculative) await this.discardSpeculative();
        if (heads.executionHead === heads.head) await this.produceNext(turn);
      }
    }
    this.wakeIn(25);
  }

  private async produceNext(turn?: BlockTurn): Promise<void> {
    const { execution, heads } = this.deps;
    await this.deps.writes.untilWriteSlot();
    const { mempool } = this.deps;
    let selectedAt = performance.now();
    let selected = mempool.selectReady(this.options.maxTxsPerBlock);
    if (execution.elastic && selected.length > 0) {
      // --elastic-state: read the block's keys ahead (the default mirror never waits here).
      await execution.prepare(selected.map((b) => b.bytes));
      await this.deps.writes.untilWriteSlot();
      selectedAt = performance.now();
      selected = mempool.selectReady(this.options.maxTxsPerBlock);
    }
    const pool = { select: performance.now() - selectedAt, pooled: mempool.size, queued: mempool.queuedCount };
    const startedAt = Date.now();
    let produced: ProducedBlock;
    try {
      produced = execution.producer.produce(heads.executionHead, selected, Math.floor(startedAt / 1000), turn);
    } catch (error) {
      if (!(error instanceof ExecutionAborted)) throw error;
      await execution.recoverFromAbort(error, selected);
      return;
    }
    produced.pool = pool;
    this.lastBlockAt = startedAt;
    heads.executionHead = produced.block.header;
    if (this.consensus && turn) {
      if (!turn.final) {
        // Not final until > 2/3 of the stake voted: hold it; Finality.commitSpeculative writes it.
        this.speculative = produced;
        this.consensus.proposed(produced.block, produced.write.block);
        return;
      }
      produced.write.certificate = this.consensus.certifySolo(produced.block.header);
    }
    void this.deps.writes.queueWrite(produced, startedAt);
  }

  /**
   * Wait until a block may be executed: a local block in production has finished, and fewer
   * executed blocks wait for their write than the limit (WriteQueue.MAX_PENDING_WRITES, or
   * MAX_PENDING_WRITES_SYNCING while catching up). The caller then executes and calls
   * `commitExecuted` without awaiting in between.
   */
  async writeSlot(): Promise<void> {
    this.importing++;
    try {
      // A block imported here supersedes a speculative one of that height (sync found the network
      // ahead, or the consensus layer imports the block that won): drop it first.
      if (this.speculative) await this.discardSpeculative();
      while (this.inFlight) await this.inFlight;
      await this.deps.writes.untilWriteSlot();
    } finally {
      this.importing--;
    }
  }

  /** Another block finalized at the speculative block's height: rebuild the core from storage. */
  async discardSpeculative(): Promise<void> {
    if (!this.speculative) return;
    this.speculative = undefined;
    await this.deps.execution.reloadCore();
  }
}
