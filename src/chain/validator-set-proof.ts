import { STAKING_STATE_KEY, CHAIN_PARAMS_KEY } from '../abi/state.js';
import type { BlockHeader } from './block.js';
import { chainParams } from './chain-params.js';
import { decodeStakingState, readValidatorSet, validatorKey, type ValidatorInfo } from './validator-set.js';
import { BorshReader, BorshWriter } from '../codec/borsh.js';
import { bytesEqual, toHex } from '../codec/hash.js';
import { STATE_TREE_DEPTH, verifyStateProof, type StateProof } from '../codec/state-proof.js';

/**
 * The validator set proven against a header's state root (docs/p2p.md "Validator-set proofs",
 * docs/operations.md "Light node"). The set is wholly determined by three kinds of state record
 * (docs/staking.md "State layout"): the staking singleton, whose `validators` list names every
 * registered validator, the chain parameters (the epoch length that votes sign), and one record per
 * listed validator. A proof of each against the root is therefore a proof of the whole set:
 * leaving a validator out is caught because the singleton lists it, adding one because the list
 * does not. The answer is `/ntv/validators/1`'s frame:
 *
 * ```
 * Borsh { height: u64, block_hash: [u8;32], proofs: Vec<{ key: Vec<u8>, value: Option<Vec<u8>>,
 *         bucket: u32, entries: Vec<u8>, siblings: [[u8;32]; 16] }> }
 * ```
 *
 * in the order staking singleton, chain parameters, then the validators in the singleton's order.
 */

/** Records that can be proven one at a time against the durable head (Chain.stateProof). */
export interface ProofSource {
  stateProof(key: Uint8Array): { header: BlockHeader; proof: StateProof };
}

/** Frame limit side: at most this many validator records (the registered set; 100 are active). */
const MAX_PROOFS = 10_000;
const MAX_VALUE_BYTES = 64 * 1024;

/** The server's answer: every proof taken in one turn, so all are of one head (Chain.stateProof). */
export function encodeValidatorSetProof(source: ProofSource): Uint8Array {
  const first = source.stateProof(STAKING_STATE_KEY);
  const proofs = [first.proof, source.stateProof(CHAIN_PARAMS_KEY).proof];
  const validators = first.proof.value ? decodeStakingState(first.proof.value).validators : [];
  for (const account of validators) proofs.push(source.stateProof(validatorKey(account)).proof);
  const w = new BorshWriter(1024 + proofs.length * 1024).u64(BigInt(first.header.height), 'height').fixedBytes(first.header.hash, 32, 'block_hash');
  w.vecLength(proofs.length, 'proofs', MAX_PROOFS);
  for (const p of proofs) {
    w.vecBytes(p.key, 'key').optionTag(p.value !== undefined, 'value');
    if (p.value !== undefined) w.vecBytes(p.value, 'value');
    w.u32(p.bucket, 'bucket').vecBytes(p.entries, 'entries');
    for (const s of p.siblings) w.fixedBytes(s, 32, 'sibling');
  }
  return w.finish();
}

export interface ProvenValidatorSet {
  /** the height of the header whose state root the set was proven against */
  height: number;
  blockHash: Uint8Array;
  /** the set after that block, sorted by consensus key (readValidatorSet) */
  validators: ValidatorInfo[];
  epochLength: number;
}

/** The height and block hash an answer claims, before it can be checked (the header may not be held yet). */
export function validatorSetProofHead(bytes: Uint8Array): { height: number; blockHash: Uint8Array } {
  const r = new BorshReader(bytes);
  return { height: Number(r.u64('height')), blockHash: r.fixedBytes(32, 'block_hash') };
}

export class ValidatorProofError extends Error {}

/**
 * Check an answer against a verified header of its height: every proof against the header's state
 * root, the keys exactly the singleton, the parameters and the singleton's validators in order.
 * Throws ValidatorProofError naming what is wrong.
 */
export function verifyValidatorSetProof(bytes: Uint8Array, header: BlockHeader): ProvenValidatorSet {
  let height: number;
  let blockHash: Uint8Array;
  const proofs: StateProof[] = [];
  try {
    const r = new BorshReader(bytes);
    height = Number(r.u64('height'));
    blockHash = r.fixedBytes(32, 'block_hash');
    const n = r.vecLength('proofs', MAX_PROOFS);
    for (let i = 0; i < n; i++) {
      const key = r.vecBytes('key', 64);
      const value = r.optionTag('value') ? r.vecBytes('value', MAX_VALUE_BYTES) : undefined;
      const bucket = r.u32('bucket');
      const entries = r.vecBytes('entries', MAX_VALUE_BYTES);
      const siblings = Array.from({ length: STATE_TREE_DEPTH }, () => r.fixedBytes(32, 'sibling'));
      proofs.push({ key, value, bucket, entries, siblings });
    }
    r.end('validator_set_proof');
  } catch (error) {
    throw new ValidatorProofError(`the validator-set answer does not decode: ${(error as Error).message}`);
  }
  if (height !== header.height || !bytesEqual(blockHash, header.hash)) {
    throw new ValidatorProofError(`the validator-set answer is of block ${height} ${toHex(blockHash)}, the verified header is ${header.height} ${toHex(header.hash)}`);
  }
  if (proofs.length < 2) throw new ValidatorProofError('the validator-set answer lacks the staking and parameter records');
  const records = new Map<string, Uint8Array>();
  for (const [i, proof] of proofs.entries()) {
    const check = verifyStateProof(proof, header.stateRoot);
    if (!check.ok) throw new ValidatorProofError(`record ${i} (key ${toHex(proof.key)}): ${check.reason}`);
    if (proof.value !== undefined) records.set(toHex(proof.key), proof.value);
  }
  const expected = [STAKING_STATE_KEY, CHAIN_PARAMS_KEY];
  const singleton = proofs[0]!.value;
  if (singleton !== undefined) for (const account of decodeStakingState(singleton).validators) expected.push(validatorKey(account));
  if (expected.length !== proofs.length || expected.some((key, i) => !bytesEqual(key, proofs[i]!.key))) {
    throw new ValidatorProofError(`the validator-set answer proves ${proofs.length} records, not the staking record, the parameters and the ${expected.length - 2} validators it lists`);
  }
  const state = { get: (key: Uint8Array) => records.get(toHex(key)) };
  return { height, blockHash, validators: readValidatorSet(state), epochLength: chainParams(state).epochLength };
}
