/**
 * Why the chain refused or could not finish something. The RPC layer maps each reason to one code
 * of its error table (docs/rpc.md); `status` is the core's status name where the core decided.
 */
export type ChainErrorReason =
  | 'BUNDLE_INVALID' // refused before or at execution; never in a block
  | 'BUNDLE_FAILED' // executed in a block, failed, reverted whole
  | 'INSUFFICIENT_BALANCE' // refused at admission: the sender cannot pay gas × price + value (src/chain/admission/funds.ts)
  | 'NOT_FOUND'
  | 'UNKNOWN_TOKEN'
  | 'UNAVAILABLE_ON_NETWORK'
  | 'MEMPOOL_FULL'
  | 'MEMPOOL_LIMIT' // a per-account bound of the mempool (docs/mempool.md)
  | 'INCLUSION_TIMEOUT'
  | 'FAUCET_LIMIT'
  | 'SHUTTING_DOWN'
  | 'TX_INDEXING' // the transaction lookup index trails the head (docs/storage.md); retry shortly
  | 'PRUNED'; // a block below the oldest this node holds (--pruning, or a restore; docs/operations.md)

export class ChainError extends Error {
  constructor(
    readonly reason: ChainErrorReason,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ChainError';
  }
}

/**
 * The transaction lookup index (position records, address history, token transfers) trails the
 * head after a catch-up sync (docs/storage.md "The transaction lookup index"): an answer read from
 * it may miss blocks `indexed + 1 … head`, so the caller is told to retry (RPC -32000).
 */
export function txIndexingError(indexed: number, head: number, stopped: string | undefined): ChainError {
  return new ChainError('TX_INDEXING', `transaction indexing is in progress: blocks ${indexed + 1}…${head} are not indexed yet`
    + (stopped ? ` (the index build stopped: ${stopped}; a restart resumes it)` : ''), { indexed_to: indexed, head });
}

/** Thrown by the block producer when the core trapped while applying a block (a core bug). */
export class ExecutionAborted extends Error {
  constructor(readonly reason: unknown) {
    super(`core aborted while applying a block: ${String(reason)}`);
    this.name = 'ExecutionAborted';
  }
}
