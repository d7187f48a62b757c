// Receipt JSON of the staking events (docs/staking.md "Events"): accounts in their native Nx0 form,
// consensus keys as 64 hex (as svc_getValidator shows them), amounts as raw-unit decimal strings,
// times as unix seconds.
import { encodeAccount } from '../../codec/address.js';
import type { StakingEvent } from '../../core/staking-events.js';

type At = { op_index: number | null };
export type StakingReceiptEvent = At & (
  | { type: 'Staked'; validator: string; consensus_key: string; amount: string; self_stake: string; created: boolean }
  | { type: 'Delegated'; validator: string; delegator: string; amount: string; delegation: string }
  | { type: 'Unstaked' | 'Undelegated'; validator: string; delegator: string; amount: string; remaining: string; release_time: number }
  | { type: 'UnstakeClaimed'; account: string; amount: string; pending_entries: number }
  | { type: 'RewardsClaimed'; account: string; amount: string }
  | { type: 'CommissionSet'; validator: string; old_commission_bps: number; commission_bps: number }
  | { type: 'ValidatorUnjailed'; validator: string }
  | { type: 'AutoCompoundSet'; validator: string; delegator: string; enabled: boolean }
  | { type: 'PoolConfigSet'; validator: string; pool_enabled: boolean; pool_name: string; min_delegation: string; auto_compound_default: boolean }
  | { type: 'ValidatorMetadataSet'; validator: string; name: string; description: string; website: string; avatar_url: string }
  | { type: 'DoubleSignReported'; validator: string; consensus_key: string; reporter: string; height: number; offences: number; jailed_until: number }
  | { type: 'ConsensusKeyRotationQueued'; validator: string; new_consensus_key: string; epoch: number }
);

/** The receipt types of the staking events, kinds 59–71 (the svc_subscribe_logs item of a staking operation carries its one). */
const STAKING_TYPES: ReadonlySet<string> = new Set<StakingReceiptEvent['type']>([
  'Staked', 'Delegated', 'Unstaked', 'Undelegated', 'UnstakeClaimed', 'RewardsClaimed', 'CommissionSet', 'ValidatorUnjailed',
  'AutoCompoundSet', 'PoolConfigSet', 'ValidatorMetadataSet', 'DoubleSignReported', 'ConsensusKeyRotationQueued',
]);

export function isStakingReceiptEvent(e: { type: string }): e is StakingReceiptEvent {
  return STAKING_TYPES.has(e.type);
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

export function formatStakingEvent(e: StakingEvent, op_index: number | null): StakingReceiptEvent {
  switch (e.kind) {
    case 'Staked':
      return { type: 'Staked', op_index, validator: encodeAccount(e.validator), consensus_key: hex(e.consensusKey), amount: e.amount.toString(), self_stake: e.selfStake.toString(), created: e.created };
    case 'Delegated':
      return { type: 'Delegated', op_index, validator: encodeAccount(e.validator), delegator: encodeAccount(e.delegator), amount: e.amount.toString(), delegation: e.delegation.toString() };
    case 'Unstaked':
    case 'Undelegated':
      return {
        type: e.kind, op_index, validator: encodeAccount(e.validator), delegator: encodeAccount(e.delegator), amount: e.amount.toString(),
        remaining: e.remaining.toString(), release_time: Number(e.releaseTime),
      };
    case 'UnstakeClaimed':
      return { type: 'UnstakeClaimed', op_index, account: encodeAccount(e.account), amount: e.amount.toString(), pending_entries: e.pendingEntries };
    case 'RewardsClaimed':
      return { type: 'RewardsClaimed', op_index, account: encodeAccount(e.account), amount: e.amount.toString() };
    case 'CommissionSet':
      return { type: 'CommissionSet', op_index, validator: encodeAccount(e.validator), old_commission_bps: e.oldBps, commission_bps: e.newBps };
    case 'ValidatorUnjailed':
      return { type: 'ValidatorUnjailed', op_index, validator: encodeAccount(e.validator) };
    case 'AutoCompoundSet':
      return { type: 'AutoCompoundSet', op_index, validator: encodeAccount(e.validator), delegator: encodeAccount(e.delegator), enabled: e.enabled };
    case 'PoolConfigSet':
      return {
        type: 'PoolConfigSet', op_index, validator: encodeAccount(e.validator), pool_enabled: e.enabled, pool_name: e.name,
        min_delegation: e.minDelegation.toString(), auto_compound_default: e.autoCompoundDefault,
      };
    case 'ValidatorMetadataSet':
      return { type: 'ValidatorMetadataSet', op_index, validator: encodeAccount(e.validator), name: e.name, description: e.description, website: e.website, avatar_url: e.avatarUrl };
    case 'DoubleSignReported':
      return {
        type: 'DoubleSignReported', op_index, validator: encodeAccount(e.validator), consensus_key: hex(e.consensusKey), reporter: encodeAccount(e.reporter),
        height: Number(e.height), offences: e.offences, jailed_until: Number(e.jailedUntil),
      };
    case 'ConsensusKeyRotationQueued':
      return { type: 'ConsensusKeyRotationQueued', op_index, validator: encodeAccount(e.validator), new_consensus_key: hex(e.newKey), epoch: Number(e.epoch) };
  }
}
