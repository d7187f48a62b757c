/**
 * Errors of the eth_* adapter in the form wallet libraries recognise (docs/eth.md "Errors"; issue
 * 26 item 3). ethers 6 and viem 2 classify a refused eth_sendRawTransaction by its JSON-RPC code and
 * the text of its message, matched against go-ethereum's txpool and state-transition error strings:
 * viem only looks at a node error whose code is -32000 (InvalidInputRpcError) or -32003, and then
 * matches e.g. /nonce too low|already known/ (NonceTooLowError), /insufficient funds/
 * (InsufficientFundsError), /max fee per gas less than block base fee/ (FeeCapTooLowError);
 * ethers matches /insufficient funds/, /nonce.*too low/ (NONCE_EXPIRED) and
 * /replacement transaction.*underpriced/ (REPLACEMENT_UNDERPRICED). So every admission refusal of
 * an EVM transaction is -32000 and its message starts with geth's string for the same condition;
 * the node's own status name stays in `data.status` and the native code's name in `data.reason`.
 * Conditions geth does not have (a call this node cannot map) keep a plain message that matches
 * none of those patterns. Nothing of a library's internal text is passed on.
 */
import { RpcError, STANDARD_ERRORS, toRpcError } from './errors.js';
import { WEI_PER_NANO } from '../chain/evm/units.js';

/** geth's code for every txpool refusal and every other "invalid input" of eth_* (EIP-1474 -32000). */
export const GETH_ERROR_CODE = -32000;

/** The message geth gives for a condition, by the node's status (data.status) or error name. */
function gethMessage(status: string, message: string, data: Record<string, unknown>, gasPriceNano: bigint): string {
  switch (status) {
    case 'NONCE_TOO_LOW':
    // The same bytes already failed in a block at this nonce: on Ethereum that nonce is spent.
    case 'ALREADY_INCLUDED':
      return `nonce too low: ${message}`;
    case 'ALREADY_KNOWN':
      return 'already known';
    case 'REPLACEMENT_UNDERPRICED':
      return `replacement transaction underpriced: ${message}`;
    case 'NONCE_GAP_TOO_LARGE':
      return `nonce too high: ${message}`;
    case 'ACCOUNT_QUEUE_FULL':
      return `account limit exceeded: ${message}`;
    case 'MEMPOOL_FULL':
    case 'QUEUE_FULL':
      return `txpool is full: ${message}`;
    // The decoder's and the recovery's own text stays out of the answer (issue 26: no library text leaks).
    case 'BAD_SIGNATURE':
      return message.startsWith('the signature does not recover') ? 'invalid sender: the signature does not recover a sender' : `invalid sender: ${message}`;
    case 'MALFORMED_TRANSACTION':
      return message.startsWith('not a valid signed transaction')
        ? 'invalid transaction: not a valid signed transaction (malformed RLP, field or type byte)'
        : `invalid transaction: ${message}`;
    case 'UNSUPPORTED_TX_TYPE':
      return `transaction type not supported: ${message}`;
    case 'WRONG_CHAIN_ID':
      return data.got === undefined
        ? `only replay-protected (EIP-155) transactions allowed over RPC: ${message}`
        : `invalid chain id for signer: have ${String(data.got)} want ${String(data.expected)}`;
    case 'FEE_CAP_TOO_LOW': {
      // geth tells a cap under the base fee from one that covers it but not the tip this node charges in full.
      const cap = BigInt(String(data.cap ?? '0'));
      const base = gasPriceNano * WEI_PER_NANO;
      if (cap < base) return `max fee per gas less than block base fee: maxFeePerGas: ${cap}, baseFee: ${base}`;
      return `transaction underpriced: ${message}`;
    }
    case 'INSUFFICIENT_BALANCE':
    case 'INSUFFICIENT_FUNDS':
      return message.startsWith('insufficient funds for gas * price + value') ? message : `insufficient funds for gas * price + value: ${message}`;
    default:
      return message;
  }
}

/**
 * The error eth_sendRawTransaction returns for a refusal thrown by admission (a ChainError or an
 * RpcError of the application table): -32000 with geth's message. Anything else (reverts, -32602,
 * SERVER_BUSY while shutting down, faults) is returned unchanged.
 */
export function gethAdmissionError(error: unknown, gasPriceNano: bigint): unknown {
  const rpc = toRpcError(error);
  if (rpc === undefined || rpc.code === STANDARD_ERRORS.EXECUTION_REVERTED.code || rpc.code === STANDARD_ERRORS.INVALID_PARAMS.code) return error;
  const reasonByCode: Record<number, string> = { [-32001]: 'BUNDLE_INVALID', [-32007]: 'MEMPOOL_FULL', [-32010]: 'INSUFFICIENT_BALANCE', [-32016]: 'MEMPOOL_LIMIT' };
  const reason = reasonByCode[rpc.code];
  if (reason === undefined) return error;
  const data = (typeof rpc.data === 'object' && rpc.data !== null ? rpc.data : {}) as Record<string, unknown>;
  const status = typeof data.status === 'string' ? data.status : reason;
  return new RpcError(GETH_ERROR_CODE, gethMessage(status, rpc.message, data, gasPriceNano), { ...data, status, reason });
}
