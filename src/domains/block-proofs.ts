/**
 * The registry's checks of `every block` (src/domains/index.ts; docs/adding-a-domain.md "Host
 * checks"), imported from their files rather than through the modules, so block import and the
 * browser's replay load only these: the admission-only checks bring secp256k1 (~38 KiB of the
 * browser bundle). test/unit/domain-registry.test.ts fails when this list and the registry's
 * `every block` checks differ.
 */

import { depositProof, withdrawalAttestation } from './bridge/attestations.js';
import type { ProofCheck } from './module.js';

export const blockProofChecks: readonly ProofCheck[] = [depositProof, withdrawalAttestation];
