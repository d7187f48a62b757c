import type { BlockHeader } from '../block.js';

/** Headers of the latest durable blocks kept in memory (recentHeaders, averageBlockTime). */
export const RECENT_HEADERS = 256;

/**
 * Where the chain stands, shared by the steps of the block pipeline (docs/architecture.md
 * "Layers"): the last executed block, which the next one extends, and the last durable one, which
 * reads and receipts expose. The execute and commit steps move `executionHead`; notify moves `head`.
 */
export class Heads {
  /** the last durable block: what reads and receipts expose */
  head!: BlockHeader;
  /** the last executed block, the parent of the next; ahead of `head` while its write is in flight */
  executionHead!: BlockHeader;
  /** the latest durable headers, oldest first, RECENT_HEADERS at most */
  readonly recent: BlockHeader[] = [];
  /** bundles in durable blocks since genesis */
  totalTransactions = 0;

  remember(header: BlockHeader): void {
    this.recent.push(header);
    if (this.recent.length > RECENT_HEADERS) this.recent.shift();
  }
}
