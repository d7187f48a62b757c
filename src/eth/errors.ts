/**
 * An `eth_call` the adapter refuses, typed here so that src/eth needs no import of src/rpc (imports
 * point rpc → eth → chain, docs/architecture.md "Layers"). `reason` names a row of the standard
 * error table (src/rpc/errors.ts STANDARD_ERRORS), which `toRpcError` maps it to; the message and
 * data pass through unchanged.
 */
import { encodeAbiParameters } from 'viem';

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

/**
 * geth's answer to a reverted call or estimate: code 3, `execution reverted: reason`, data =
 * Error(string) (docs/eth.md "Errors"), so wallet libraries show the contract's reason.
 */
export function executionReverted(reason: string): EthCallError {
  const data = `0x08c379a0${encodeAbiParameters([{ type: 'string' }], [reason]).slice(2)}`;
  return new EthCallError('EXECUTION_REVERTED', `execution reverted: ${reason}`, data);
}

/**
 * A call of a function the contract does not have, or with arguments that do not decode: Solidity
 * reverts with no data, so this is a revert (code 3, data `0x`), never -32602 (issue 42 item 8);
 * the message names the selector and what the address answers, for people reading it.
 */
export function noSuchFunction(selector: string, what: string): EthCallError {
  return new EthCallError('EXECUTION_REVERTED', `execution reverted: no function with selector ${selector || '(none)'} (${what})`, '0x');
}
