// The host's half of the bridge's attester rule (docs/bridge.md "Who checks what"): every attester
// signature of a BridgeDeposit or AttestBridgeWithdrawal verifies over its digest. The signatures
// are the authority of a mint, not a claim about the bundle's sender, so they are checked on every
// block (admission and a proposal's bundles: src/chain/admission/host-proofs.ts; import and the auditor's
// replay: src/chain/block-proofs.ts), and a block carrying a bad one is invalid like one with a bad
// bundle signature. The core decides the
// rest from state (signers in the current set, distinct, at least the threshold, each (chain, tx
// hash) credited once).

import type { AttestBridgeWithdrawalOp, BridgeDepositOp } from '../../abi/operations.js';
import { attestationProblem, depositDigest, splitAttestations, withdrawalDigest } from './proofs.js';
import type { ProofCheck, VerifyAsync } from '../module.js';

/** attestationProblem with a verifier that may be asynchronous; the same messages. */
async function attestationProblemAsync(signatures: Uint8Array, digest: Uint8Array, verify: VerifyAsync): Promise<string | undefined> {
  const list = splitAttestations(signatures);
  if (typeof list === 'string') return list;
  for (const [i, a] of list.entries()) {
    if (!(await verify(a.pubkey, digest, a.signature))) return `attester signature ${i} (key ${Buffer.from(a.pubkey).toString('hex')}) does not verify over the digest`;
  }
  return undefined;
}

/** A BridgeDeposit's attester signatures over its deposit digest. */
export const depositProof: ProofCheck<BridgeDepositOp> = {
  operation: 'BridgeDeposit',
  position: 'first',
  checked: 'every block',
  status: 'BAD_SIGNATURE',
  what: 'bridge deposit proof',
  problem: (op, chainId, verify) => attestationProblem(op.signatures, depositDigest(chainId, op), verify),
  problemAsync: (op, chainId, verify) => attestationProblemAsync(op.signatures, depositDigest(chainId, op), verify),
};

/** An AttestBridgeWithdrawal's attester signatures over its withdrawal digest. */
export const withdrawalAttestation: ProofCheck<AttestBridgeWithdrawalOp> = {
  operation: 'AttestBridgeWithdrawal',
  position: 'first',
  checked: 'every block',
  status: 'BAD_SIGNATURE',
  what: 'withdrawal attestation',
  problem: (op, chainId, verify) => attestationProblem(op.signatures, withdrawalDigest(chainId, op), verify),
  problemAsync: (op, chainId, verify) => attestationProblemAsync(op.signatures, withdrawalDigest(chainId, op), verify),
};
