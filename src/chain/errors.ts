/**
 * Why the chain refused or could not finish something. The RPC layer maps each reason to one code
 * of its error table (docs/rpc.md); `status` is the core's status name where the core decided.
 */
export type ChainErrorReason =
  | 'BUNDLE_INVALID' // refused before or at execution; never in a block
  | 'BUNDLE_FAILED' // executed in a block, failed, reverted whole
  | 'NOT_FOUND'
  | 'UNKNOWN_TOKEN'
  | 'UNAVAILABLE_ON_NETWORK'
  | 'MEMPOOL_FULL'
  | 'INCLUSION_TIMEOUT'
  | 'FAUCET_LIMIT'
  | 'SHUTTING_DOWN'
  | 'TX_INDEXING'; // the transaction lookup index trails the head (docs/storage.md); retry shortly

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

/** Thrown by the block producer when the core trapped while applying a block (a core bug). */
export class ExecutionAborted extends Error {
  constructor(readonly reason: unknown) {
    super(`core aborted while applying a block: ${String(reason)}`);
    this.name = 'ExecutionAborted';
  }
}
