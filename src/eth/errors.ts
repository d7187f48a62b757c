/**
 * An `eth_call` the adapter refuses, typed here so that src/eth needs no import of src/rpc (imports
 * point rpc → eth → chain, docs/architecture.md "Layers"). `reason` names a row of the standard
 * error table (src/rpc/errors.ts STANDARD_ERRORS), which `toRpcError` maps it to; the message and
 * data pass through unchanged.
 */
export class EthCallError extends Error {
  constructor(
    readonly reason: 'INVALID_PARAMS' | 'EXECUTION_REVERTED',
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'EthCallError';
  }

  /** The -32602 refusal of a call's arguments, worded as RpcError.invalidParams words it. */
  static invalidParams(message: string, data?: Record<string, unknown>): EthCallError {
    return new EthCallError('INVALID_PARAMS', `invalid params: ${message}`, data);
  }
}
