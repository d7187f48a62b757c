// Receipt JSON of the staking events (docs/staking.md "Events"): accounts in their native Nx0 form,
// consensus keys as 64 hex (as svc_getValidator shows them), amounts as raw-unit decimal strings,
// times as unix seconds. Generated with every kind's from abi/events.mjs (src/abi/events.ts).
import type { ReceiptEventJson } from '../../abi/events.js';

/** The receipt types of the staking events, kinds 59–71 (the svc_subscribe_logs item of a staking operation carries its one). */
const STAKING_TYPES = [
  'Staked', 'Delegated', 'Unstaked', 'Undelegated', 'UnstakeClaimed', 'RewardsClaimed', 'CommissionSet', 'ValidatorUnjailed',
  'AutoCompoundSet', 'PoolConfigSet', 'ValidatorMetadataSet', 'DoubleSignReported', 'ConsensusKeyRotationQueued',
] as const;
export type StakingReceiptEvent = Extract<ReceiptEventJson, { type: (typeof STAKING_TYPES)[number] }>;
const STAKING: ReadonlySet<string> = new Set(STAKING_TYPES);

export function isStakingReceiptEvent(e: { type: string }): e is StakingReceiptEvent {
  return STAKING.has(e.type);
}
