/** The STD-8 stablecoins' host module (docs/stablecoins.md). */

import type { DomainModule } from '../module.js';
import { issuerProof } from './issuer-proof.js';

export const stablecoins: DomainModule = { name: 'stablecoins', proofChecks: [issuerProof] };
