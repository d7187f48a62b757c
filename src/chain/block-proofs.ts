// The proofs checked on every block (src/domains/module.ts, `checked: 'every block'`): step 1 of the
// block path (./pipeline/1-check.ts: block import and the auditor's replay) runs them on each bundle
// of a certified block, as admission does (./admission/host-proofs.ts). The list is
// src/domains/block-proofs.ts, which keeps the admission-only checks (and secp256k1) out of the
// browser's replay bundle.

import type { Operation } from '../abi/operations.js';
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

/**
 * The operations of a block's bundle when it may carry a proof of every block, else undefined:
 * one byte of the bundle decides for nearly every bundle, so step 1 awaits only for those that do.
 */
export function blockProofOperations(bytes: Uint8Array): Operation[] | undefined {
  return onEveryBlock.operationsOf(bytes);
}

/** Why those operations are invalid for a proof of every block, with a verifier that may be asynchronous (the browser replay's). */
export function blockProofRefusal(ops: readonly Operation[], chainId: number, verify: VerifyAsync): Promise<ProofRefusal | undefined> {
  return onEveryBlock.problemOfAsync(ops, chainId, verify);
}
