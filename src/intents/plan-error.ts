/** Why a plan is refused (src/intents/planner.ts; docs/intents.md "Errors"). */
export type PlanErrorReason = 'INTENT_REJECTED' | 'NOT_FOUND' | 'UNAVAILABLE_ON_NODE' | 'INSUFFICIENT_BALANCE' | 'INVALID_INTENT';

/**
 * A refusal with a reason that names a row of the RPC error table (src/rpc/errors.ts toRpcError maps
 * `reason`), except INVALID_INTENT, which the methods turn into -32602 naming the intent param.
 */
export class PlanError extends Error {
  constructor(
    readonly reason: PlanErrorReason,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'PlanError';
  }
}

