// Admission's proof checks: every check of every domain in the registry (src/domains/index.ts), run
// wherever a bundle is admitted: a submitted bundle and the convenience path (./gate.ts,
// ./admission.ts) and a proposal's bundles. Import and replay run only the checks of `every
// block` (../block-proofs.ts). Neither file names a domain (test/unit/domain-registry.test.ts).

import type { Operation } from '../../abi/operations.js';
import { verifyEd25519 } from '../../codec/keys.js';
import { domains, type Verify } from '../../domains/index.js';
import { ProofChecks, type ProofRefusal } from '../proof-checks.js';

export type { ProofRefusal } from '../proof-checks.js';

const atAdmission = new ProofChecks(domains.flatMap((d) => d.proofChecks));

/** Why a bundle's operations cannot be admitted for a proof they carry, or undefined. */
export function admissionProofProblem(ops: readonly Operation[], chainId: number, verify: Verify = verifyEd25519): ProofRefusal | undefined {
  return atAdmission.problemOf(ops, chainId, verify);
}
