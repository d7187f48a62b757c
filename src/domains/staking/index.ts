/** Staking's host module (docs/staking.md). */

import type { DomainModule } from '../module.js';
import { doubleSignEvidence } from './double-sign-evidence.js';

export const staking: DomainModule = { name: 'staking', proofChecks: [doubleSignEvidence] };
