// Network parameters of staking and consensus (docs/staking.md "Chain parameters"; spec §3, §8).
// They live in genesis state (key 0x15) so every node and every auditor agrees on them; a dev or
// test network may override them with `--chain-params <file.json>`, which changes the genesis and
// therefore the genesis hash (all nodes of a network must pass the same file).

import { readFileSync } from 'node:fs';
import { NTV_UNIT } from './genesis-data.js';
import { CHAIN_PARAMS_KEY, decodeChainParamsFields, encodeChainParamsFields } from '../abi/state.js';
import {
  GOV_DEFAULT_QUORUM_BPS, GOV_DEFAULT_THRESHOLD_BPS, GOV_DEFAULT_VOTING_PERIOD, GOV_MAX_VOTING_PERIOD, GOV_MIN_VOTING_PERIOD,
} from '../abi/constants.js';

export interface ChainParams {
  /** blocks per epoch (spec §8: 1 hour, 1,800 blocks) */
  epochLength: number;
  /** blocks per leader slot (facts.md "Consensus details seen") */
  slotLength: number;
  /** active validators at most (spec §8) */
  maxActiveValidators: number;
  /** raw NTV (spec §8: 1,000 NTV) */
  minStake: bigint;
  /** seconds (spec §8: 21 days) */
  unbondingSeconds: number;
  /** blocks between commission changes (spec §8: about 50,400) */
  commissionCooldownBlocks: number;
  /** basis points (spec §8: 5,000) */
  maxCommissionBps: number;
  /** consecutive misses after which a leader is skipped in rotation (spec §1.8: 3+) */
  missedSkipThreshold: number;
  /** jail duration of the 1st, 2nd, … offence in seconds; the last repeats (spec §8: 1 h, 24 h, 7 d, 30 d) */
  jailDurations: number[];
  /** protocol proposals' voting period in blocks (docs/governance.md "Parameters"; spec §8: 500) */
  votingPeriodBlocks: number;
  /** votes cast must reach this share of the bonded stake, in basis points */
  quorumBps: number;
  /** yes must exceed this share of the votes cast, in basis points */
  thresholdBps: number;
}

export const DEFAULT_CHAIN_PARAMS: Readonly<ChainParams> = Object.freeze({
  epochLength: 1800,
  slotLength: 5,
  maxActiveValidators: 100,
  minStake: 1_000n * NTV_UNIT,
  unbondingSeconds: 21 * 86_400,
  commissionCooldownBlocks: 50_400,
  maxCommissionBps: 5_000,
  missedSkipThreshold: 3,
  jailDurations: [3_600, 86_400, 604_800, 2_592_000],
  votingPeriodBlocks: Number(GOV_DEFAULT_VOTING_PERIOD),
  quorumBps: GOV_DEFAULT_QUORUM_BPS,
  thresholdBps: GOV_DEFAULT_THRESHOLD_BPS,
});

/** Whether the governance values are the defaults: then the record carries no governance tail. */
function governanceDefault(p: ChainParams): boolean {
  return p.votingPeriodBlocks === DEFAULT_CHAIN_PARAMS.votingPeriodBlocks && p.quorumBps === DEFAULT_CHAIN_PARAMS.quorumBps
    && p.thresholdBps === DEFAULT_CHAIN_PARAMS.thresholdBps;
}

/** The state key of the parameters record (docs/core-abi.md "State layout", prefix 0x15). */
export { CHAIN_PARAMS_KEY };

const PARAMS_VERSION = 1;

/** The ChainParams record (abi/state.mjs ChainParams), also the genesis encoding. */
export function encodeChainParams(p: ChainParams): Uint8Array {
  validateChainParams(p);
  return encodeChainParamsFields({
    version: PARAMS_VERSION, epochLength: BigInt(p.epochLength), slotLength: BigInt(p.slotLength), maxActiveValidators: p.maxActiveValidators,
    minStake: p.minStake, unbondingSeconds: BigInt(p.unbondingSeconds), commissionCooldownBlocks: BigInt(p.commissionCooldownBlocks),
    maxCommissionBps: p.maxCommissionBps, missedSkipThreshold: p.missedSkipThreshold, jailDurations: p.jailDurations.map(BigInt),
    // The governance tail only when it differs from the defaults, so a default genesis keeps its bytes.
    governance: governanceDefault(p) ? undefined : [{ votingPeriodBlocks: BigInt(p.votingPeriodBlocks), quorumBps: p.quorumBps, thresholdBps: p.thresholdBps }],
  });
}

export function decodeChainParams(b: Uint8Array): ChainParams {
  if (b.length < 63 || b[0] !== PARAMS_VERSION) throw new Error('malformed chain params record');
  const r = decodeChainParamsFields(b);
  return {
    epochLength: Number(r.epochLength), slotLength: Number(r.slotLength), maxActiveValidators: r.maxActiveValidators, minStake: r.minStake,
    unbondingSeconds: Number(r.unbondingSeconds), commissionCooldownBlocks: Number(r.commissionCooldownBlocks),
    maxCommissionBps: r.maxCommissionBps, missedSkipThreshold: r.missedSkipThreshold, jailDurations: r.jailDurations.map(Number),
    votingPeriodBlocks: r.governance?.[0] ? Number(r.governance[0].votingPeriodBlocks) : DEFAULT_CHAIN_PARAMS.votingPeriodBlocks,
    quorumBps: r.governance?.[0]?.quorumBps ?? DEFAULT_CHAIN_PARAMS.quorumBps,
    thresholdBps: r.governance?.[0]?.thresholdBps ?? DEFAULT_CHAIN_PARAMS.thresholdBps,
  };
}

/** Reads the network's parameters from committed state; the spec defaults before genesis wrote them. */
export function chainParams(state: { get(key: Uint8Array): Uint8Array | undefined }): ChainParams {
  const record = state.get(CHAIN_PARAMS_KEY);
  return record ? decodeChainParams(record) : { ...DEFAULT_CHAIN_PARAMS, jailDurations: [...DEFAULT_CHAIN_PARAMS.jailDurations] };
}

/** The same ranges the core's genesis checks (assembly/domains/staking/validators.ts paramsValid), as readable errors. */
export function validateChainParams(p: ChainParams): void {
  const int = (name: string, v: number, min: number, max: number) => {
    if (!Number.isSafeInteger(v) || v < min || v > max) throw new RangeError(`chain params: ${name} must be an integer in ${min}..${max}, got ${v}`);
  };
  int('epoch_length', p.epochLength, 1, 1_000_000_000);
  int('slot_length', p.slotLength, 1, 1_000_000);
  int('max_active_validators', p.maxActiveValidators, 1, 1000);
  int('unbonding_seconds', p.unbondingSeconds, 0, 10 * 365 * 86_400);
  int('commission_cooldown_blocks', p.commissionCooldownBlocks, 0, 1_000_000_000);
  int('max_commission_bps', p.maxCommissionBps, 0, 10_000);
  int('missed_skip_threshold', p.missedSkipThreshold, 1, 1_000_000);
  if (typeof p.minStake !== 'bigint' || p.minStake <= 0n || p.minStake >= 1n << 128n) throw new RangeError('chain params: min_stake must be a positive u128 (raw NTV)');
  if (!Array.isArray(p.jailDurations) || p.jailDurations.length < 1 || p.jailDurations.length > 16) {
    throw new RangeError('chain params: jail_durations must list 1 to 16 durations in seconds');
  }
  p.jailDurations.forEach((d, i) => int(`jail_durations[${i}]`, d, 1, 100 * 365 * 86_400));
  // The ranges a ParameterChange allows (docs/governance.md "Parameters"; assembly/domains/staking/validators.ts paramsValid).
  int('voting_period_blocks', p.votingPeriodBlocks, Number(GOV_MIN_VOTING_PERIOD), Number(GOV_MAX_VOTING_PERIOD));
  int('quorum_bps', p.quorumBps, 1, 10_000);
  int('threshold_bps', p.thresholdBps, 5_000, 9_999);
}

const JSON_FIELDS: Record<string, keyof ChainParams> = {
  epoch_length: 'epochLength', slot_length: 'slotLength', max_active_validators: 'maxActiveValidators',
  min_stake: 'minStake', unbonding_seconds: 'unbondingSeconds', commission_cooldown_blocks: 'commissionCooldownBlocks',
  max_commission_bps: 'maxCommissionBps', missed_skip_threshold: 'missedSkipThreshold', jail_durations: 'jailDurations',
  voting_period_blocks: 'votingPeriodBlocks', quorum_bps: 'quorumBps', threshold_bps: 'thresholdBps',
};

/**
 * Parameters from a JSON object (snake_case or camelCase keys; min_stake as a decimal string of raw
 * NTV): the given fields override the spec defaults; an unknown field is an error, not a silent typo.
 */
export function chainParamsFromJson(json: unknown): ChainParams {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('chain params file must hold a JSON object');
  const out: ChainParams = { ...DEFAULT_CHAIN_PARAMS, jailDurations: [...DEFAULT_CHAIN_PARAMS.jailDurations] };
  const camel = new Set(Object.values(JSON_FIELDS) as string[]);
  for (const [key, value] of Object.entries(json)) {
    const field = JSON_FIELDS[key] ?? (camel.has(key) ? key as keyof ChainParams : undefined);
    if (!field) throw new Error(`chain params: unknown field "${key}" (known: ${Object.keys(JSON_FIELDS).join(', ')})`);
    if (field === 'minStake') {
      if (typeof value !== 'string' && typeof value !== 'number') throw new Error('chain params: min_stake must be a decimal string of raw NTV');
      (out as unknown as Record<string, unknown>)[field] = BigInt(value);
    } else {
      (out as unknown as Record<string, unknown>)[field] = value;
    }
  }
  validateChainParams(out);
  return out;
}

export function loadChainParamsFile(path: string): ChainParams {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read chain params ${path}: ${(error as Error).message}`);
  }
  return chainParamsFromJson(json);
}

/** Epoch of a height (docs/staking.md "Epochs"): block k·L is the last block of epoch k−1's boundary work. */
export function epochOf(height: number, params: ChainParams): number {
  return Math.floor(height / params.epochLength);
}
