// Contract D: host-side checks of ReportDoubleSign evidence at admission (docs/staking.md
// "Double signing"), so a bad report is refused before it reaches a block. The core repeats what
// it can without Ed25519 (same height and key, different header bytes) and jails.

import { blake3 } from '../../codec/hash.js';
import type { ReportDoubleSignOp } from '../../abi/operations.js';
import { decodeHeaderBytes } from '../../chain/block.js';
import type { ProofCheck, Verify } from '../module.js';

/**
 * Why the evidence is not proof of a double signature, or undefined when it is: both headers
 * decode (src/chain/block.ts decodeHeaderBytes), are at `height`, were proposed by `validator`,
 * differ, and each signature verifies over its header's hash (Blake3 of the bytes = headerHash).
 */
export function checkDoubleSignEvidence(op: ReportDoubleSignOp, verify: Verify): string | undefined {
  for (const [name, bytes] of [['header_a', op.headerA], ['header_b', op.headerB]] as const) {
    let header;
    try {
      header = decodeHeaderBytes(bytes);
    } catch (error) {
      return `${name} is not a block header: ${(error as Error).message}`;
    }
    if (BigInt(header.height) !== op.height) return `${name} is at height ${header.height}, not ${op.height}`;
    if (Buffer.compare(header.proposerPubkey, op.validator) !== 0) return `${name} was not proposed by the reported validator key`;
  }
  const hashA = blake3(op.headerA);
  const hashB = blake3(op.headerB);
  if (Buffer.compare(hashA, hashB) === 0) return 'header_a and header_b are the same header';
  if (!verify(op.validator, hashA, op.sigA)) return 'sig_a does not verify with the validator key over header_a';
  if (!verify(op.validator, hashB, op.sigB)) return 'sig_b does not verify with the validator key over header_b';
  return undefined;
}

/** ReportDoubleSign's evidence: two signed headers of one validator at one height. */
export const doubleSignEvidence: ProofCheck<ReportDoubleSignOp> = {
  operation: 'ReportDoubleSign',
  position: 'top',
  checked: 'admission',
  status: 'INVALID_EVIDENCE',
  what: 'invalid double-sign evidence',
  problem: (op, _chainId, verify) => checkDoubleSignEvidence(op, verify),
};
