/**
 * Pruning (spec §4.20 `--pruning`; docs/operations.md "Pruning"), after Substrate's pruning modes:
 * `archive` keeps every block; `validator` the last 10,000 blocks and 7 days of explorer data;
 * `aggressive` the last 256 blocks and 24 h of explorer data. State is never pruned (it is the
 * chain's current state, not history). Pruning runs every 100 blocks and storage compaction every
 * 1,000 (spec §4.20), one run at a time, beside the block pipeline.
 */
import type { Logger } from '../logger.js';
import type { ChainStore } from '../storage/chain-store.js';
import { bundleHash } from '../codec/bundle.js';
import { decodeBlock, decodeStoredBlock } from './block.js';
import { ChainError } from './errors.js';

/**
 * `stateBlocks`: the states at past blocks served (docs/storage.md "State history"): the last 128
 * blocks, the head's included, as geth serves (its 128 diff layers); pruning every 100 blocks, so
 * between 128 and 227 are held. An archive node serves every block's state.
 */
export const PRUNING_MODES = {
  archive: undefined,
  validator: { blocks: 10_000, explorerSeconds: 7 * 86_400, stateBlocks: 128 },
  aggressive: { blocks: 256, explorerSeconds: 86_400, stateBlocks: 128 },
} as const;

export type PruningMode = keyof typeof PRUNING_MODES;

export function parsePruningMode(text: string): PruningMode {
  if (Object.hasOwn(PRUNING_MODES, text)) return text as PruningMode;
  throw new Error(`--pruning: unknown mode "${text}"; the modes are archive (all blocks), validator (last 10,000 blocks, 7 days of explorer data) and aggressive (last 256 blocks, 24 h of explorer data)`);
}

export interface PruningOptions {
  /** blocks kept, the head's included */
  keepBlocks: number;
  /** seconds of explorer index records kept (never for blocks no longer held) */
  explorerSeconds: number;
  /**
   * states at past blocks served, the head's included (docs/storage.md "State history"); at most
   * `keepBlocks` (a state needs its block's header for its root). Absent: every block's (archive).
   */
  keepState?: number;
  /** prune every N blocks (spec: 100) */
  every: number;
  /** compact every N blocks (spec: 1,000) */
  compactEvery: number;
}

/** The error of a read below the oldest block held: names the oldest height (RPC -32013). */
export function prunedError(height: number, oldest: number): ChainError {
  return new ChainError('PRUNED', `block ${height} is not held by this node: it keeps blocks from ${oldest} on (pruned, or restored from a snapshot or export at ${oldest})`, {
    height, oldest_height: oldest,
  });
}

export class Pruner {
  private running: Promise<void> | undefined;
  private lastCompact = 0;

  constructor(
    private readonly options: PruningOptions,
    private readonly deps: { store: ChainStore; logger: Logger; onPruned(oldest: number): void; onStatePruned?(oldest: number): void },
  ) {}

  /** The chain's `block` event. */
  onBlock(height: number): void {
    if (height % this.options.every !== 0 || this.running) return;
    this.running = this.prune(height)
      .catch((error: unknown) => this.deps.logger.error('pruning failed; the next run retries', { error: (error as Error).message }))
      .finally(() => {
        this.running = undefined;
      });
  }

  async stop(): Promise<void> {
    await this.running;
  }

  /** Prune up to the window below `head`. */
  async prune(head: number): Promise<void> {
    const { store } = this.deps;
    const started = Date.now();
    const below = head - this.options.keepBlocks + 1;
    const oldest = await store.oldestBlock();
    let blocks = 0;
    if (below > Math.max(1, oldest)) {
      blocks = await store.pruneBlocks(below, (bytes) => {
        const block = decodeBlock(bytes, bundleHash);
        return { hash: block.header.hash, bundles: block.bundleHashes };
      });
      this.deps.onPruned(below);
    }
    const kept = Math.max(below, oldest, 1);
    const explorerBelow = Math.max(kept, await this.firstHeightSince(kept, head, Math.floor(Date.now() / 1000) - this.options.explorerSeconds));
    const indexes = await store.pruneExplorerIndexes(explorerBelow);
    const state = await this.pruneState(head);
    let compacted = false;
    if (head - this.lastCompact >= this.options.compactEvery) {
      await store.compact();
      this.lastCompact = head;
      compacted = true;
    }
    this.deps.logger.info('pruned', { head, oldest: kept, blocks, explorerFrom: explorerBelow, indexRecords: indexes, ...state, compacted, ms: Date.now() - started });
  }

  /**
   * The change sets below the state window: the oldest state served becomes `head − keepState + 1`.
   * The window moves first (reads below it are refused from then on), then the records go.
   */
  private async pruneState(head: number): Promise<{ stateFrom?: number; historyRecords?: number }> {
    const keep = this.options.keepState;
    if (keep === undefined) return {};
    const { store } = this.deps;
    const from = (await store.stateHistoryFrom()) ?? 0;
    const oldest = head - Math.min(keep, this.options.keepBlocks) + 1;
    if (oldest <= from) return { stateFrom: from };
    this.deps.onStatePruned?.(oldest);
    const records = await store.pruneStateHistory(from + 1, oldest);
    return { stateFrom: oldest, historyRecords: records };
  }

  /** The lowest held height in `from … head` whose block is at or after `since` (binary search on timestamps). */
  private async firstHeightSince(from: number, head: number, since: number): Promise<number> {
    let lo = from;
    let hi = head;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      const bytes = await this.deps.store.getBlock(mid);
      const timestamp = bytes ? decodeStoredBlock(bytes).header.timestamp : 0;
      if (timestamp >= since) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}
