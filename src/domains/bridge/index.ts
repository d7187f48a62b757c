/** The bridge's host module (docs/bridge.md). */

import type { DomainModule } from '../module.js';
import { depositProof, withdrawalAttestation } from './attestations.js';

export const bridge: DomainModule = { name: 'bridge', proofChecks: [depositProof, withdrawalAttestation] };
