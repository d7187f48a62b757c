/**
 * The host module of upgrade plans (docs/upgrades.md): ScheduleUpgrade, CancelUpgrade, VoteUpgrade; the node's halt at an
 * approved plan it does not implement is the chain's (Chain.upgradeHalt over ./reader.ts), its auto-voter ./voter.ts.
 * Its operations carry no proof the core cannot check and declare no NTV spend, so it adds no
 * chain-level hook; it is registered so that its folder is a domain's, held to the registry's rules.
 */

import { nameOf, type DomainModule } from '../module.js';
import { PLAN_STATES } from './reader.js';

export const upgrades: DomainModule = {
  name: 'upgrades',
  proofChecks: [],
  receiptFormats: { planState: (v) => nameOf(PLAN_STATES, v) },
};
