// The proofs checked on every block (src/domains/module.ts, `checked: 'every block'`): block import
// (./import.ts) and the auditor's replay (./replay.ts) run them on each bundle of a certified block,
// as admission does (./host-proofs.ts). The list is src/domains/block-proofs.ts, which keeps the
// admission-only checks (and secp256k1) out of the browser's replay bundle.

import { verifyEd25519 } from '../codec/keys.js';
import { blockProofChecks } from '../domains/block-proofs.js';
import type { Verify, VerifyAsync } from '../domains/module.js';
import { ProofChecks, type ProofRefusal } from './proof-checks.js';

const onEveryBlock = new ProofChecks(blockProofChecks);

/** Why a bundle of a block is invalid for a proof checked on every block, or undefined. */
export function blockProofProblem(bytes: Uint8Array, chainId: number, verify: Verify = verifyEd25519): ProofRefusal | undefined {
  const ops = onEveryBlock.operationsOf(bytes);
  return ops && onEveryBlock.problemOf(ops, chainId, verify);
}

/** blockProofProblem with a verifier that may be asynchronous (the browser replay's). */
export async function blockProofProblemAsync(bytes: Uint8Array, chainId: number, verify: VerifyAsync): Promise<ProofRefusal | undefined> {
  const ops = onEveryBlock.operationsOf(bytes);
  return ops && onEveryBlock.problemOfAsync(ops, chainId, verify);
}
