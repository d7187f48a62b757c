import { parseAddress, parseHash } from '../codec/address.js';
import { bytesEqual, fromHex, toHex } from '../codec/hash.js';
import { verifyStateProof, type StateProof } from '../codec/state-proof.js';
import { accountKey, balanceKey, decodeBalance } from '../core/records.js';

export { verifyStateProof, proveState } from '../codec/state-proof.js';
export type { StateProof, StateProofCheck } from '../codec/state-proof.js';

/** svc_getProof's result (docs/replay.md "State proofs"). */
export interface GetProofResult {
  height: number;
  block_hash: string;
  state_root: string;
  key: string;
  value: string | null;
  balance?: string;
  proof: { bucket: number; entries: string; siblings: string[] };
}

/** The proof of an svc_getProof result as bytes (throws on malformed hex). */
export function stateProofFromJson(result: GetProofResult): StateProof {
  return {
    key: fromHex(result.key, undefined, 'key'),
    value: result.value === null ? undefined : fromHex(result.value, undefined, 'value'),
    bucket: result.proof.bucket,
    entries: fromHex(result.proof.entries, undefined, 'entries'),
    siblings: result.proof.siblings.map((s) => fromHex(s, 32, 'sibling')),
  };
}

export class ProofError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProofError';
  }
}

/**
 * Check an svc_getProof result against a state root the caller trusts: the header of a block it has
 * verified (the light client's, src/browser/light-client.ts, or its own replay). The node's own
 * `state_root` is not trusted: a lying node would send a root that fits its lie. The result must
 * name the same root, and the proof must lead to it. Returns the proven value (undefined: absent).
 */
export function verifyProofResult(result: GetProofResult, trustedStateRoot: Uint8Array): Uint8Array | undefined {
  let proof: StateProof;
  let named: Uint8Array;
  try {
    proof = stateProofFromJson(result);
    named = parseHash(result.state_root);
  } catch (error) {
    throw new ProofError(`malformed proof: ${(error as Error).message}`);
  }
  if (!bytesEqual(named, trustedStateRoot)) throw new ProofError('the proof is against another state root than the trusted header\'s');
  const check = verifyStateProof(proof, trustedStateRoot);
  if (!check.ok) throw new ProofError(check.reason);
  return check.value;
}

/**
 * A balance from svc_getProof [address, token], verified: the key must be the address's balance of
 * `mint`, the proof must hold against the trusted root, and the `balance` field must be what the
 * proven value encodes (a node that lies about a balance fails here).
 */
export function verifyBalanceProof(result: GetProofResult, address: string | Uint8Array, mint: Uint8Array, trustedStateRoot: Uint8Array): bigint {
  const account = typeof address === 'string' ? parseAddress(address) : address;
  if (result.key !== toHex(balanceKey(account, mint))) throw new ProofError('the proof is of another key than this address\'s balance');
  const value = verifyProofResult(result, trustedStateRoot);
  const balance = value === undefined ? 0n : decodeBalance(value);
  if (result.balance !== undefined && result.balance !== balance.toString()) {
    throw new ProofError(`the node says ${result.balance}, the proven value is ${balance}`);
  }
  return balance;
}

/** The state key svc_getProof [address] proves: the account record (docs/core-abi.md "State layout"). */
export function accountStateKey(address: string | Uint8Array): Uint8Array {
  return accountKey(typeof address === 'string' ? parseAddress(address) : address);
}
