import { ImportError } from '../chain/import.js';
import type { ChainNode, SyncState } from '../chain/interface.js';
import type { Logger } from '../logger.js';
import { MAX_BLOCKS_PER_REQUEST, type P2PNetwork } from './network.js';
import type { ServedBlock } from './types.js';

export interface SyncOptions {
  /** a gap larger than this turns on the node's SyncState (`chain.syncing`) (spec §6.2: subscriptions pause) until closed */
  catchUpGap?: number;
  /** how long to wait for news when no peer is ahead */
  idleMs?: number;
  /** progress of a catch-up run (the CLI draws a cli-progress bar) */
  onProgress?: (done: number, total: number) => void;
  /** how often a catch-up logs a `sync progress` line (default PROGRESS_LOG_MS) */
  progressLogMs?: number;
}

export interface SyncStatus {
  syncing: boolean;
  currentHeight: number;
  /** the best height a peer announced, when any peer is known */
  highestHeight: number | undefined;
  /** where the current or last catch-up run started */
  startingHeight: number;
  blocksImported: number;
}

/** Penalty for a block that fails import (bad signature, certificate or state root): two strikes ban. */
const BAD_BLOCK_PENALTY = 60;
/** A peer that announced a height but served nothing for it. */
const EMPTY_ANSWER_PENALTY = 10;
/** A peer that failed us is skipped for this long. */
const PEER_COOLDOWN_MS = 5_000;
/**
 * Block requests kept in flight to the peer we sync from: the batches after the one being imported
 * are served and travel meanwhile, so a slow answer (the peer is busy too) does not stall the
 * import. Three are ~5 MB of 1,000-transfer blocks.
 */
const REQUESTS_AHEAD = 3;
/** How often a catch-up logs its progress (the bar is for terminals; the log is for everyone). */
const PROGRESS_LOG_MS = 5_000;

/**
 * Block sync (issue 5 item 3; spec §4.20: batches of 10, proposer signatures verified). Whenever
 * the best peer's head (handshake status, refreshed every few seconds) is above ours, ask it for the
 * next batches, import each block through src/chain/import.ts (which re-executes and compares state
 * roots) and go on. The next batches are requested while the current one executes (RequestWindow),
 * and writes overlap execution (Chain.commitExecuted; during a catch-up several blocks share one
 * synced write). A block that fails drops the rest of its batch and the requests ahead, and
 * penalizes the peer that served it.
 */
export class BlockSync {
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly cooldown = new Map<string, number>();
  private catchingUp = false;
  /** the first time a peer is ahead after start is the initial sync, whatever the gap (spec §6.2) */
  private initial = true;
  private startingHeight = 0;
  private blocksImported = 0;
  /** the last imported block's write */
  private lastDurable: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: SyncOptions,
    private readonly deps: { chain: ChainNode; network: P2PNetwork; logger: Logger; sync: SyncState },
  ) {}

  start(): void {
    this.deps.network.on('status', () => this.wake?.());
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  status(): SyncStatus {
    return {
      syncing: this.catchingUp,
      currentHeight: this.deps.chain.height,
      highestHeight: this.deps.network.bestPeerHeight(),
      startingHeight: this.startingHeight,
      blocksImported: this.blocksImported,
    };
  }

  private async run(): Promise<void> {
    const { chain, network, logger } = this.deps;
    let window: RequestWindow | undefined;
    while (!this.stopped) {
      const peer = this.pickPeer();
      const ours = chain.executionParent.height;
      if (!peer || peer.height <= ours) {
        window = undefined;
        if (peer) this.initial = false;
        if (this.catchingUp) await this.finishCatchUp();
        await this.idle();
        continue;
      }
      const gap = peer.height - ours;
      if (!this.catchingUp && (this.initial || gap > (this.options.catchUpGap ?? MAX_BLOCKS_PER_REQUEST))) this.beginCatchUp(ours, peer.height);
      if (!window?.continues(peer.id, ours + 1)) window = new RequestWindow(network, peer.id, ours + 1);
      let batch: ServedBlock[];
      try {
        batch = await window.next(peer.height);
      } catch (error) {
        window = undefined;
        logger.debug('block request failed', { peer: peer.id, from: ours + 1, error: String(error) });
        this.cooldown.set(peer.id, Date.now() + PEER_COOLDOWN_MS);
        continue;
      }
      if (batch.length === 0) {
        window = undefined;
        network.penalize(peer.id, `announced height ${peer.height} but served nothing from ${ours + 1}`, EMPTY_ANSWER_PENALTY);
        this.cooldown.set(peer.id, Date.now() + PEER_COOLDOWN_MS);
        continue;
      }
      if (!(await this.importBatch(peer.id, batch))) window = undefined;
    }
    if (this.catchingUp) await this.finishCatchUp();
  }

  /**
   * Import a served batch block by block (each is executed while the previous ones are written).
   * False when a block failed: the rest of the batch is dropped and, if the block was bad, the peer
   * that served it penalized and cooled down.
   */
  private async importBatch(peer: string, batch: ServedBlock[]): Promise<boolean> {
    const { chain, network, logger } = this.deps;
    for (const served of batch) {
      if (this.stopped) return false;
      try {
        const imported = await chain.importBlock(served.block, served.certificate);
        imported.durable.catch(() => undefined);
        this.lastDurable = imported.durable;
        this.blocksImported++;
        network.notePeerHeight(peer, served.height);
        if (this.catchingUp) this.progress(served.height, network.bestPeerHeight() ?? served.height);
      } catch (error) {
        if (error instanceof ImportError && error.blamesSender) {
          logger.warn('block from peer refused', { peer, height: served.height, code: error.code, reason: error.message });
          network.penalize(peer, `bad block ${served.height}: ${error.code}`, BAD_BLOCK_PENALTY);
          this.cooldown.set(peer, Date.now() + PEER_COOLDOWN_MS);
        } else if (!(error instanceof ImportError)) {
          logger.error('block import failed', { height: served.height, error: String(error) });
          this.cooldown.set(peer, Date.now() + PEER_COOLDOWN_MS);
        }
        return false;
      }
    }
    return true;
  }

  private pickPeer(): { id: string; height: number } | undefined {
    return bestPeer(this.deps.network.readyPeers(), this.cooldown);
  }

  private beginCatchUp(from: number, target: number): void {
    this.catchingUp = true;
    this.startingHeight = from;
    this.deps.sync.startingHeight = from;
    this.deps.sync.highestHeight = target;
    this.deps.sync.syncing = true;
    this.catchUpStarted = performance.now();
    this.importedAtStart = this.blocksImported;
    this.lastProgressLog = this.catchUpStarted;
    this.deps.logger.info('catching up with peers', { from, target });
    this.options.onProgress?.(0, target - from);
  }

  private catchUpStarted = 0;
  private importedAtStart = 0;
  private lastProgressLog = 0;

  /**
   * Catch-up progress: the CLI's bar (drawn only on a terminal), and a log line at most every
   * `progressLogMs`, so a node under a service manager shows its progress in its log too (issue 5).
   */
  private progress(height: number, target: number): void {
    this.deps.sync.highestHeight = Math.max(this.deps.sync.highestHeight, target);
    const done = height - this.startingHeight;
    const total = Math.max(1, target - this.startingHeight);
    this.options.onProgress?.(done, total);
    const now = performance.now();
    if (now - this.lastProgressLog < (this.options.progressLogMs ?? PROGRESS_LOG_MS)) return;
    this.lastProgressLog = now;
    this.deps.logger.info('sync progress', { height, target, percent: Math.floor((100 * done) / total), blocksPerSecond: this.catchUpRate(now).blocksPerSecond });
  }

  /** Blocks imported since the catch-up began, and the rate. */
  private catchUpRate(now = performance.now()): { blocks: number; seconds: number; blocksPerSecond: number } {
    const blocks = this.blocksImported - this.importedAtStart;
    const seconds = (now - this.catchUpStarted) / 1000;
    return { blocks, seconds, blocksPerSecond: Math.round(blocks / Math.max(seconds, 1e-3)) };
  }

  private async finishCatchUp(): Promise<void> {
    const { chain, logger } = this.deps;
    // Subscriptions resume with the first block after the node is at the head (spec §6.2): every
    // block of the catch-up is durable (and its 'block' event emitted) before the flag clears.
    await this.lastDurable.catch(() => undefined);
    const { blocks, seconds, blocksPerSecond } = this.catchUpRate();
    this.catchingUp = false;
    this.initial = false;
    this.deps.sync.syncing = false;
    const total = Math.max(1, chain.executionParent.height - this.startingHeight);
    this.options.onProgress?.(total, total);
    logger.info('caught up', { height: chain.executionParent.height, blocks, seconds: Math.round(seconds * 10) / 10, blocksPerSecond });
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.options.idleMs ?? 500);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }
}

/** The best-placed peer not cooling down after a failure (block sync, and the --light follower). */
export function bestPeer(peers: Array<{ id: string; height: number }>, cooldown: Map<string, number>): { id: string; height: number } | undefined {
  const now = Date.now();
  let best: { id: string; height: number } | undefined;
  for (const peer of peers) {
    if ((cooldown.get(peer.id) ?? 0) > now) continue;
    if (!best || peer.height > best.height) best = peer;
  }
  return best;
}

/**
 * Consecutive block requests to one peer, up to REQUESTS_AHEAD in flight, answered in height
 * order: the batches after the one being imported travel meanwhile. A short answer (the peer holds
 * fewer blocks than asked) leaves a gap before the requests behind it, so those are dropped and
 * asked again from where the answer ended.
 */
class RequestWindow {
  private readonly inFlight: Array<{ from: number; count: number; answer: Promise<ServedBlock[]> }> = [];
  /**
   * Requests dropped after a short answer whose answers have not arrived: they still occupy the
   * peer (and count against REQUESTS_AHEAD), so the window never has more than that in flight.
   */
  private readonly abandoned = new Set<Promise<void>>();

  constructor(
    private readonly network: P2PNetwork,
    private readonly peer: string,
    /** the first height not yet requested */
    private nextFrom: number,
  ) {}

  /** Whether the window asks `peer` for the blocks from `height` on (the next batch it answers starts there). */
  continues(peer: string, height: number): boolean {
    return peer === this.peer && (this.inFlight[0]?.from ?? this.nextFrom) === height;
  }

  /** The next batch, after topping the window up with requests up to `peerHeight`. */
  async next(peerHeight: number): Promise<ServedBlock[]> {
    this.fill(peerHeight);
    while (this.inFlight.length === 0 && this.abandoned.size > 0) {
      await Promise.race(this.abandoned);
      this.fill(peerHeight);
    }
    const first = this.inFlight.shift();
    if (!first) return [];
    const batch = await first.answer;
    if (batch.length < first.count) this.restartAt(first.from + batch.length);
    return batch;
  }

  private fill(peerHeight: number): void {
    while (this.inFlight.length + this.abandoned.size < REQUESTS_AHEAD && this.nextFrom <= peerHeight) {
      const count = Math.min(MAX_BLOCKS_PER_REQUEST, peerHeight - this.nextFrom + 1);
      const answer = this.network.requestBlocks(this.peer, this.nextFrom, count);
      answer.catch(() => undefined); // awaited (and its failure handled) when its turn comes
      this.inFlight.push({ from: this.nextFrom, count, answer });
      this.nextFrom += count;
    }
  }

  private restartAt(height: number): void {
    for (const { answer } of this.inFlight.splice(0)) {
      const settled: Promise<void> = answer.then(() => undefined, () => undefined).finally(() => this.abandoned.delete(settled));
      this.abandoned.add(settled);
    }
    this.nextFrom = height;
  }
}
