/**
 * JSON-RPC errors of the node: the standard protocol codes and the ONE table of application codes
 * (−32000…−32099, STYLE.md "In this project"). facts.md "Errors published": only the standard codes
 * are published upstream, application codes are ours to define — docs/rpc.md lists every code of
 * this file and when it happens; keep the two in step.
 */

import { EthCallError } from '../eth/errors.js';

/** Protocol faults (JSON-RPC 2.0 §5.1). */
export const STANDARD_ERRORS = {
  PARSE_ERROR: { code: -32700, meaning: 'The body is not valid JSON. The reply carries id null.' },
  INVALID_REQUEST: {
    code: -32600,
    meaning:
      'Not a valid request object (not an object, jsonrpc is not "2.0", method not a string, bad id or params type), ' +
      'an empty batch, a batch longer than the limit, or a body over the size limit (HTTP 413).',
  },
  METHOD_NOT_FOUND: { code: -32601, meaning: 'No method of that name is registered.' },
  INVALID_PARAMS: {
    code: -32602,
    meaning: 'A param has the wrong type or value, a required param is missing, or there are too many params; ' +
      'data names the param and its 1-based position.',
  },
  INTERNAL_ERROR: {
    code: -32603,
    meaning: 'An unexpected fault in the node. The details are logged under the correlation id returned in data.id.',
  },
  // Not JSON-RPC 2.0 itself but the Ethereum nodes' convention (EIP-1474, execution-apis), which
  // wallet libraries decode: an eth_call whose contract would revert.
  EXECUTION_REVERTED: {
    code: 3,
    meaning: 'eth_call only: the ERC-721/1155 read would revert on Ethereum (e.g. ownerOf a token that does not exist); data is the ABI-encoded Error(string) revert data.',
  },
} as const;

/**
 * Application errors. Codes are stable once released: add new names at the end, never renumber.
 * Where the core decided, `data.status` carries the core's status name (DESIGN.md, Errors).
 */
export const APP_ERRORS = {
  SERVER_BUSY: {
    code: -32000,
    meaning: 'The node cannot take the call now: shutting down, in initial sync, its transaction lookup index still behind the head after a sync, '
      + 'or too many calls in flight on the connection. Also go-ethereum\'s generic code, which eth_* methods use as geth does so wallet libraries '
      + 'classify the message: admission refusals of eth_sendRawTransaction/eth_estimateGas ("nonce too low: …", "already known", …) and "filter not found" (docs/eth.md "Errors").',
  },
  BUNDLE_INVALID: {
    code: -32001,
    meaning: 'The bundle was refused before or at execution and is not in a block (bad encoding, signature, nonce, ' +
      'expiry, gas); data.status names the core status.',
  },
  BUNDLE_FAILED: {
    code: -32002,
    meaning: 'The bundle executed in a block, failed and was reverted (spec §7.5), its gas charged; data: {status, receipt}.',
  },
  NOT_FOUND: { code: -32003, meaning: 'The requested record (block, bundle, account, pool, proposal, …) does not exist.' },
  UNAVAILABLE_ON_NETWORK: {
    code: -32004,
    meaning: 'The method is not offered on this network, e.g. unsigned convenience methods and svc_generateKeypair on mainnet (spec §5.6).',
  },
  RATE_LIMITED: {
    code: -32005,
    meaning: 'The per-IP call rate (--rpc-rate-limit, spec §4.20) is exhausted; a batch is refused whole. ' +
      'HTTP 429 with Retry-After; data: {retryAfterMs, cost, capacity}.',
  },
  FAUCET_LIMIT: { code: -32006, meaning: 'The testnet faucet gives at most 100 NTV per address per hour (spec §1.11, §8).' },
  MEMPOOL_FULL: {
    code: -32007,
    meaning: 'The mempool is full (--mempool-max; a bundle paying more max_priority_fee than the cheapest one evicts it) or holds its '
      + 'maximum of queued bundles (--mempool-max-queued); retry later. Also the answer of a waiting call whose bundle was evicted.',
  },
  INCLUSION_TIMEOUT: {
    code: -32008,
    meaning: 'The bundle was accepted but not included in a block within the wait time; it may still be included.',
  },
  UNKNOWN_TOKEN: { code: -32009, meaning: 'No token with that symbol or mint address exists.' },
  INSUFFICIENT_BALANCE: {
    code: -32010,
    meaning: 'The sender balance cannot cover the amount and fees. At admission (data.status INSUFFICIENT_FUNDS): the sender\'s NTV at the pending state is below '
      + 'max_gas × (gas_price + max_priority_fee) plus the bundle\'s NTV amounts; refused without a fee and never in a block (docs/mempool.md "Funds").',
  },
  UNAUTHORIZED: {
    code: -32011,
    meaning: 'The caller lacks the role the operation requires (spec §5.7, §7.4): creator, owner, proposer, validator, stablecoin role; '
      + 'also a stablecoin rule that refuses the call now (paused, blacklisted, minting frozen, a timelock not expired): data.status names the core status (docs/stablecoins.md).',
  },
  INTENT_REJECTED: {
    code: -32012,
    meaning: 'The intent was rejected before execution: cost above max-cost, or price impact above 25% on a pool (spec §7.2); also a max fee '
      + 'or gas limit below what the plan needs, or a plan that cannot execute (a pool cannot pay the amount, nothing to do, a delegation the validator or the core would refuse) (docs/intents.md).',
  },
  UNAVAILABLE_ON_NODE: {
    code: -32013,
    meaning: 'This node cannot serve it in its mode: a --light node has no account state, or history was pruned (--pruning); '
      + 'or an intent it cannot execute: a bridge (none on this node), a synthetic or perp intent without an integrator hook.',
  },
  TRANSPORT_UNSUPPORTED: {
    code: -32014,
    meaning: 'The method needs a WebSocket connection (subscriptions, spec §6).',
  },
  LIMIT_EXCEEDED: {
    code: -32015,
    meaning: 'A per-request or per-connection limit was exceeded (e.g. subscriptions per connection, range of a log query).',
  },
  MEMPOOL_LIMIT: {
    code: -32016,
    meaning: 'The bundle exceeds a per-account bound of the mempool: its nonce is too far ahead of the account\'s next nonce '
      + '(--mempool-max-nonce-gap) or the account has too many bundles queued behind a nonce gap (--mempool-max-queued-per-account); '
      + 'data: {status, limit, flag, nonce, next_nonce}.',
  },
} as const;

export type AppErrorName = keyof typeof APP_ERRORS;
export type StandardErrorName = keyof typeof STANDARD_ERRORS;
export type ErrorName = AppErrorName | StandardErrorName;

/** Every code of both tables, for docs and the OpenRPC document. */
export function errorTable(): Array<{ name: ErrorName; code: number; meaning: string }> {
  const rows: Array<{ name: ErrorName; code: number; meaning: string }> = [];
  for (const [name, e] of Object.entries(STANDARD_ERRORS)) rows.push({ name: name as ErrorName, ...e });
  for (const [name, e] of Object.entries(APP_ERRORS)) rows.push({ name: name as ErrorName, ...e });
  return rows;
}

const NAME_BY_CODE = new Map<number, ErrorName>(errorTable().map((row) => [row.code, row.name]));

export function errorNameOf(code: number): ErrorName | undefined {
  return NAME_BY_CODE.get(code);
}

/** A JSON-RPC error the node means to return as is. Thrown by methods; the dispatcher serialises it. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }

  /** An application error from the table: `throw RpcError.app('NOT_FOUND', 'no block at height 12')`. */
  static app(name: AppErrorName, message: string, data?: Record<string, unknown>): RpcError {
    return new RpcError(APP_ERRORS[name].code, message, data);
  }

  static invalidRequest(message: string, data?: Record<string, unknown>): RpcError {
    return new RpcError(STANDARD_ERRORS.INVALID_REQUEST.code, `invalid request: ${message}`, data);
  }

  static methodNotFound(method: string): RpcError {
    return new RpcError(STANDARD_ERRORS.METHOD_NOT_FOUND.code, `method not found: ${method}`, { method });
  }

  /**
   * An invalid param, named with its 1-based position as in the message, e.g.
   * `invalid params: "amount" (param 4) must be a raw-unit decimal string`.
   */
  static invalidParam(param: string, position: number, expected: string, extra?: Record<string, unknown>): RpcError {
    return new RpcError(
      STANDARD_ERRORS.INVALID_PARAMS.code,
      `invalid params: "${param}" (param ${position}) must be ${expected}`,
      { param, position, expected, ...extra },
    );
  }

  static invalidParams(message: string, data?: Record<string, unknown>): RpcError {
    return new RpcError(STANDARD_ERRORS.INVALID_PARAMS.code, `invalid params: ${message}`, data);
  }
}

/**
 * Reasons other modules use for their own typed errors (src/chain/errors.ts ChainError.reason) that
 * are not a table name themselves.
 */
const REASON_ALIASES: Record<string, AppErrorName> = {
  SHUTTING_DOWN: 'SERVER_BUSY',
  TX_INDEXING: 'SERVER_BUSY',
  PRUNED: 'UNAVAILABLE_ON_NODE',
};

/**
 * Maps a thrown value to the error to return, or undefined when it is an unexpected fault (-32603).
 * Besides RpcError, any error carrying a string `reason` that names a row of APP_ERRORS (or an alias)
 * is mapped, so src/chain's ChainError needs no RPC import: its message and data pass through; so is
 * src/eth's EthCallError, to its row of the standard table.
 */
export function toRpcError(err: unknown): RpcError | undefined {
  if (err instanceof RpcError) return err;
  if (typeof err !== 'object' || err === null) return undefined;
  const reason = (err as { reason?: unknown }).reason;
  if (typeof reason !== 'string') return undefined;
  // The eth_call adapter's refusals (src/eth/errors.ts EthCallError): a standard row, message and data as thrown.
  if (err instanceof EthCallError) return new RpcError(STANDARD_ERRORS[err.reason].code, err.message, err.data);
  const name: AppErrorName | undefined = Object.hasOwn(APP_ERRORS, reason)
    ? (reason as AppErrorName)
    : REASON_ALIASES[reason];
  if (name === undefined) return undefined;
  const message = err instanceof Error ? err.message : name;
  const data = (err as { data?: unknown }).data;
  const extra = name === reason ? undefined : { reason };
  return new RpcError(APP_ERRORS[name].code, message, jsonSafe(data === undefined ? extra : { ...(data as object), ...extra }));
}

/**
 * Makes error data serialisable: bigint → decimal string (amounts are decimal strings at the RPC
 * boundary, DESIGN.md), byte arrays → 0x hex. Method results are the methods' job; this only
 * guards error data that other modules pass through.
 */
export function jsonSafe(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return '0x' + Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = jsonSafe(v);
    return out;
  }
  return value;
}
