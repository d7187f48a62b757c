/**
 * What a JSON-RPC body costs against the per-IP rate limit (spec §4.20 `--rpc-rate-limit`; issue 46
 * "RPC budgets by cost, not by count"; docs/rpc.md "Rate limit"). The bucket holds cost units, one
 * unit being one ordinary call. A count of calls let a 6 KB batch of `rpc.discover` answer 101 MB
 * within the limit; here a body is charged for
 *
 * - each call by its method's cost (the table below; 1 for every method not in it),
 * - the bytes of its body, one unit per BYTES_PER_UNIT, before the body is read (from
 *   Content-Length), so a client over its budget is refused before its body is parsed,
 * - the bytes of its reply, one unit per BYTES_PER_UNIT, after it is written (the bucket may go into
 *   debt, down to minus its capacity, and the client waits that off).
 *
 * The methods below do work or answer bytes out of proportion to one call: a scan over blocks or
 * indexes (logs, histories, searches), an execution of the core on a copy of state (calls,
 * estimates, simulations), a Merkle proof, a whole block's receipts, or the OpenRPC document. The
 * costs are relative (≈ the time of the call against svc_getBalance's, rounded to a step), and one
 * table rather than a field on each definition so an operator can read them in one place.
 */

/** Bytes of a body or a reply that cost one unit (64 KiB: an ordinary call's body and reply are far below). */
export const BYTES_PER_UNIT = 64 * 1024;

/** Cost units of the methods that cost more than one call; every other method costs 1. */
export const METHOD_COSTS: Readonly<Record<string, number>> = Object.freeze({
  'rpc.discover': 20,
  eth_getLogs: 10,
  eth_getFilterLogs: 10,
  svc_getAddressHistory: 5,
  svc_getTokenTransfers: 5,
  svc_getTokenHolders: 5,
  svc_search: 5,
  eth_call: 5,
  eth_estimateGas: 5,
  eth_createAccessList: 5,
  svc_simulateIntent: 5,
  svc_simulateProgram: 5,
  svc_previewIntent: 5,
  svc_getExecutionPlan: 5,
  svc_getProof: 5,
  eth_getBlockReceipts: 5,
  svc_getBlockTransactions: 5,
  svc_getRecentBlocks: 5,
  svc_getBlockDAG: 5,
  eth_feeHistory: 2,
  svc_getRawBlock: 2,
});

function entryCost(entry: unknown): number {
  if (typeof entry !== 'object' || entry === null) return 1;
  const method = (entry as { method?: unknown }).method;
  return typeof method === 'string' ? (METHOD_COSTS[method] ?? 1) : 1;
}

/** Cost units of a parsed body: a call its method's cost, a batch the sum of its entries' (at least 1). */
export function bodyCost(body: unknown): number {
  if (!Array.isArray(body)) return entryCost(body);
  let cost = 0;
  for (const entry of body) cost += entryCost(entry);
  return Math.max(1, cost);
}

/** Cost units of `bytes` of body or reply (whole units: a reply under 64 KiB costs nothing extra). */
export function byteCost(bytes: number): number {
  return Math.floor(bytes / BYTES_PER_UNIT);
}
