/** Staking's host module (docs/staking.md). */

import type { DelegateOp, StakeOp } from '../../abi/operations.js';
import type { DomainModule, NtvSpend } from '../module.js';
import { doubleSignEvidence } from './double-sign-evidence.js';

/** Stake and Delegate lock the NTV amount they name (docs/staking.md). */
const stake: NtvSpend<StakeOp> = { operation: 'Stake', ntvSpent: (op) => op.amount };
const delegate: NtvSpend<DelegateOp> = { operation: 'Delegate', ntvSpent: (op) => op.amount };

export const staking: DomainModule = { name: 'staking', proofChecks: [doubleSignEvidence], ntvSpends: [stake, delegate] };
