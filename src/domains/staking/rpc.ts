import { Type } from '@sinclair/typebox';
import { VoteParticipation } from '../../consensus/participation.js';
import { encodeAccount } from '../../codec/address.js';
import type { Operation } from '../../codec/operations.js';
import type { ChainApi } from '../../chain/interface.js';
import { chainParams, type ChainParams } from '../../chain/chain-params.js';
import { NTV_UNIT } from '../../chain/genesis-data.js';
import {
  accountOfConsensusKey, accruedRewards, readDelegation, readDelegatorValidators, readStakingState, readUnbonding, readValidator,
  readValidatorRecords, readValidatorSet, type ValidatorRecord,
} from '../../chain/validator-set.js';
import { APP_ERRORS, RpcError } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { DecimalString, Limit, parsed, withExpected } from '../../rpc/schemas.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import { AccountParam, accountParam, AmountParam, invalidParamIn, PositiveAmount } from '../../rpc/methods/params.js';
import { ReceiptSchema } from '../../rpc/methods/result-schemas.js';

/**
 * Spec §4.10 staking and validator methods (docs/staking.md). Reads decode the core's staking
 * records from committed state (src/chain/validator-set.ts). Writes are unsigned testnet
 * conveniences like svc_transfer (chain.submitOperations); the same operations in a signed bundle
 * work everywhere. Inputs the node can judge from committed state (below the minimum stake, a
 * commission above the cap, an account that runs no validator, an unknown validator) are refused
 * before anything is submitted; rules that depend on the block (cooldown, jail time, one rotation
 * per epoch) are the core's, and its status comes back as BUNDLE_FAILED with data.status.
 */

/** An Ed25519 consensus key as its 32 bytes (params parsed once, issue 44 item 4). */
const PubkeyHex = () => parsed(withExpected(
  Type.String({ pattern: '^(0x)?[0-9a-fA-F]{64}$', description: 'Ed25519 consensus public key: 64 hex characters (optional 0x).' }),
  'a 64-hex-char Ed25519 public key',
), (key) => new Uint8Array(Buffer.from(key.replace(/^0x/i, ''), 'hex')));
const validatorRef = () => withExpected(
  Type.String({
    pattern: '^(Nx0[1-9A-HJ-NP-Za-km-z]{32,44}|(0x)?[0-9a-fA-F]{64}|0x[0-9a-fA-F]{40})$',
    description: 'A validator: its staking account (Nx0… or 0x address) or its consensus public key (64 hex).',
  }),
  'a validator staking account (Nx0…/0x) or consensus key (64 hex)',
);
const Amount = (description: string) => DecimalString({ description });
/** Text of at most `max` bytes of UTF-8 (the schema counts characters; the parser counts bytes). */
const Text = (max: number, description: string, status?: string) => parsed(Type.String({ maxLength: max, description }), (value, param, position) => {
  if (Buffer.byteLength(value) > max) throw RpcError.invalidParam(param, position, `at most ${max} bytes of UTF-8`, status ? { status } : undefined);
  return value;
});

/** Yearly emission of years 1–10 in raw NTV (assembly/domains/staking/rewards.ts RATES; docs/staking.md "Emission schedule"). */
export const EMISSION_RATES = [13_000_000n, 13_000_000n, 8_000_000n, 6_800_000n, 5_800_000n, 4_900_000n, 4_200_000n, 3_500_000n, 3_000_000n, 2_520_000n]
  .map((n) => n * NTV_UNIT);
export const EMISSION_TOTAL = 64_720_000n * NTV_UNIT;
const YEAR_SECONDS = 31_536_000;

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** 0.0–1.0 with 4 decimals from basis points. */
const bpsToScore = (bps: number) => Math.round(bps) / 10000;

/**
 * The 7-factor reputation on 0–100 (spec §2.4; docs/staking.md "Reputation"). Each factor is 0–1;
 * factors the chain does not record yet count 0.5 (vote participation, peer connectivity) or 0
 * (governance, future). A validator with no record of turns is at 50, and moves towards the
 * computed score as its turns reach one epoch.
 */
/**
 * What this node observed of the validators beyond chain state (docs/staking.md "Reputation"):
 * vote shares over the last certified blocks, and which validator keys its open connections proved.
 */
export interface ValidatorObservations {
  /** consensus key hex → share of recent certificates with its vote; absent without consensus */
  votes?: { shares: Map<string, number>; blocks: number };
  /** this node's peers; absent without p2p */
  peers?: PeerView;
}

/** What the p2p layer shows of the network (docs/staking.md "Reputation", peer connectivity). */
export interface PeerView {
  /** this node's own consensus key (hex) */
  self: string;
  /** connected peers, whether or not they proved a validator key */
  count: number;
  /** consensus keys (hex) the connected peers proved in the status handshake */
  validators: Set<string>;
  /** consensus keys (hex) of the active validators */
  active: string[];
}

/**
 * Peer connectivity of the validator with consensus key `key`, 0–1: for another validator, 1 when one
 * of this node's connected peers proved its key, else 0; for this node itself, the share of the other
 * active validators it is connected to, or, with no other active validator, 1 when it has any peer
 * and 0 with none. It used to be 1 for this node unconditionally, so a node with no peer showed
 * full connectivity (issue 41 item 9).
 */
export function peerConnectivity(key: string, view: PeerView): number {
  if (key !== view.self) return view.validators.has(key) ? 1 : 0;
  const others = view.active.filter((k) => k !== view.self);
  if (others.length === 0) return view.count > 0 ? 1 : 0;
  return Math.round((others.filter((k) => view.validators.has(k)).length / others.length) * 10_000) / 10_000;
}

export function reputation(v: ValidatorRecord, params: ChainParams, now: number, seen: ValidatorObservations = {}) {
  const turns = Number(v.blocksProposed + v.blocksMissed);
  const minStake = Number(params.minStake);
  const key = hex(v.consensusKey);
  const notYetKnown: string[] = ['governance_participation'];
  const known = (factor: string, value: number | undefined) => {
    if (value !== undefined) return value;
    notYetKnown.push(factor);
    return 0.5;
  };
  const factors = {
    uptime: turns === 0 ? 0.5 : Number(v.blocksProposed) / turns,
    vote_participation: known('vote_participation', seen.votes && seen.votes.blocks > 0 ? seen.votes.shares.get(key) ?? 0 : undefined),
    stake_amount_and_duration: 0.5 * Math.min(Number(v.stake) / (10 * minStake), 1) + 0.5 * Math.min(Math.max(now - v.createdTime, 0) / (30 * 86_400), 1),
    commission_fairness: params.maxCommissionBps === 0 ? 1 : 1 - v.commissionBps / params.maxCommissionBps,
    transaction_volume: Math.min(Number(v.bundlesIncluded) / 10_000, 1),
    peer_connectivity: known('peer_connectivity', seen.peers ? peerConnectivity(key, seen.peers) : undefined),
    // spec §2.4: governance participation is a future factor; no governance exists yet
    governance_participation: 0,
  };
  const weights = { uptime: 25, vote_participation: 20, stake_amount_and_duration: 15, commission_fairness: 10, transaction_volume: 10, peer_connectivity: 10, governance_participation: 10 };
  let computed = 0;
  for (const [k, w] of Object.entries(weights)) computed += w * factors[k as keyof typeof factors];
  const track = Math.min(turns / params.epochLength, 1);
  const score = 50 * (1 - track) + computed * track;
  return { score: Math.round(score * 100) / 100, factors, weights, track_record: track, not_yet_known: notYetKnown };
}

function validatorJson(v: ValidatorRecord, params: ChainParams, now: number, seen: ValidatorObservations = {}) {
  return {
    address: encodeAccount(v.address),
    consensus_key: hex(v.consensusKey),
    stake: v.stake.toString(),
    self_stake: v.selfStake.toString(),
    delegated: v.delegated.toString(),
    active: v.active,
    is_jailed: v.jailed,
    jail_release_time: v.jailReleaseTime,
    offences: v.offences,
    performance_score: bpsToScore(v.performanceBps),
    missed_in_row: v.missedInRow,
    blocks_proposed: Number(v.blocksProposed),
    blocks_missed: Number(v.blocksMissed),
    commission: v.commissionBps,
    last_commission_change: v.lastCommissionChange ?? null,
    next_commission_change_height: v.lastCommissionChange === undefined ? 0 : v.lastCommissionChange + params.commissionCooldownBlocks,
    name: v.name,
    description: v.description,
    website: v.website,
    avatar: v.avatarUrl,
    pool_enabled: v.poolEnabled,
    pool_name: v.poolName,
    min_delegation: v.minDelegation.toString(),
    auto_compound_default: v.autoCompoundDefault,
    pending_consensus_key: v.pendingConsensusKey ? hex(v.pendingConsensusKey) : null,
    total_rewards: v.totalRewards.toString(),
    created_height: v.createdHeight,
    reputation: reputation(v, params, now, seen),
  };
}

const ValidatorSchema = Type.Object({
  address: Type.String(), consensus_key: Type.String(), stake: Type.String(), self_stake: Type.String(), delegated: Type.String(),
  active: Type.Boolean(), is_jailed: Type.Boolean(), jail_release_time: Type.Integer(), offences: Type.Integer(),
  performance_score: Type.Number({ description: '0.5 to 1.0 (new validators 0.8)' }), missed_in_row: Type.Integer(),
  blocks_proposed: Type.Integer(), blocks_missed: Type.Integer(), commission: Type.Integer({ description: 'basis points' }),
  last_commission_change: Type.Union([Type.Integer(), Type.Null()]), next_commission_change_height: Type.Integer(),
  name: Type.String(), description: Type.String(), website: Type.String(), avatar: Type.String(),
  pool_enabled: Type.Boolean(), pool_name: Type.String(), min_delegation: Type.String(), auto_compound_default: Type.Boolean(),
  pending_consensus_key: Type.Union([Type.String(), Type.Null()]), total_rewards: Type.String(), created_height: Type.Integer(),
  reputation: Type.Object({ score: Type.Number({ description: '0 to 100, new validators 50' }) }, { additionalProperties: true }),
}, { additionalProperties: true });

const Int = (description: string) => Type.Integer({ description });

/** svc_stakingInfo's answer (spec §2.4, §1.8; docs/staking.md). */
const StakingInfoSchema = Type.Object({
  total_staked: Amount('NTV staked, self and delegated, raw units'),
  validator_count: Int('registered validators'), active_count: Int('validators in the active set'), jailed_count: Int('jailed validators'),
  max_active_validators: Int('bound of the active set'),
  height: Int('head height'), epoch: Int('current epoch'), epoch_length: Int('blocks per epoch'), next_epoch_height: Int('first height of the next epoch'),
  emission_start: Int('unix seconds emission began; 0 before the first block'), emission_year: Int('1-based year of the emission schedule'),
  current_yearly_rate: Amount('NTV emitted this year, raw units'), emitted: Amount('emitted so far, raw units'),
  held_back: Amount('emission carried to the next epoch end, raw units'), emission_total: Amount('all emission over the schedule, raw units'),
  emission_remaining: Amount('emission still to come, raw units'), min_stake: Amount('least self stake of a validator, raw units'),
  unbonding_seconds: Int('unbonding period'), commission_cooldown_blocks: Int('blocks between commission changes'),
  max_commission_bps: Int('highest commission'), jail_durations: Type.Array(Type.Integer(), { description: 'seconds jailed for the 1st, 2nd, … offence' }),
  slot_length: Int('blocks per leader slot'),
  voting_period_blocks: Int('voting period of protocol proposals, blocks (docs/governance.md)'),
  quorum_bps: Int('protocol proposals: votes cast must reach this share of the bonded stake, basis points'),
  threshold_bps: Int('protocol proposals: yes must exceed this share of the votes cast, basis points'),
}, { title: 'StakingInfo' });

/** svc_getDelegations' answer (spec §2.4; docs/staking.md "Delegation"). */
const DelegationsSchema = Type.Object({
  address: Type.String({ description: 'Nx0… delegator' }),
  delegations: Type.Array(Type.Object({
    validator: Type.String({ description: 'Nx0… staking account of the validator' }),
    consensus_key: Type.String({ description: 'hex Ed25519 consensus key' }),
    self_stake: Type.Boolean({ description: 'the validator\'s own stake' }),
    amount: Amount('delegated, raw units'), rewards: Amount('unclaimed rewards, raw units'),
    auto_compound: Type.Boolean(), since: Int('unix seconds of the first delegation'),
  })),
  unbonding: Type.Array(Type.Object({
    amount: Amount('raw units'), release_time: Int('unix seconds it becomes claimable'), claimable: Type.Boolean(),
  })),
}, { title: 'Delegations' });

export function stakingMethods({ chain, readers, consensus, p2p, validator }: MethodDependencies): MethodDefinition[] {
  const params = () => chainParams(chain.state);
  const now = () => chain.headHeader.timestamp;
  const participation = consensus ? new VoteParticipation((h) => consensus.certificate(h)) : undefined;
  /** The reputation factors only this node can observe (docs/staking.md "Reputation"). */
  async function observations(): Promise<ValidatorObservations> {
    let peers: PeerView | undefined;
    if (p2p) {
      const connected = p2p.connectedPeers();
      peers = {
        self: hex(validator.publicKey),
        count: connected.length,
        validators: new Set(connected.flatMap((peer) => (peer.validatorKey ? [peer.validatorKey.toLowerCase()] : []))),
        active: readValidatorSet(chain.state).filter((v) => v.active).map((v) => hex(v.consensusKey)),
      };
    }
    return { ...(participation ? { votes: await participation.at(chain.headHeader.height) } : {}), ...(peers ? { peers } : {}) };
  }

  /** A validator by staking account or consensus key. */
  function resolveValidator(ref: string, param: string, position: number): ValidatorRecord {
    let account: Uint8Array | undefined;
    const bare = ref.replace(/^0x/i, '');
    if (/^[0-9a-fA-F]{64}$/.test(bare)) {
      const bytes = new Uint8Array(Buffer.from(bare, 'hex'));
      account = readValidator(chain.state, bytes) ? bytes : accountOfConsensusKey(chain.state, bytes);
    } else {
      account = accountParam(ref, param, position);
    }
    const v = account && readValidator(chain.state, account);
    if (!v) throw RpcError.app('NOT_FOUND', `unknown validator ${ref}: no validator has this staking account or consensus key`, { validator: ref });
    return v;
  }

  /** The validator the caller runs, or UNAUTHORIZED (spec §5.7: validator only). */
  function ownValidator(from: Uint8Array, what: string): ValidatorRecord {
    const v = readValidator(chain.state, from);
    if (!v) {
      throw RpcError.app('UNAUTHORIZED', `${encodeAccount(from)} runs no validator; only a validator's staking account may ${what}`, {
        status: 'NOT_VALIDATOR', address: encodeAccount(from),
      });
    }
    return v;
  }

  /**
   * Submit and map the core's staking statuses to the error table (data.status keeps the core's
   * name); `context` adds what the caller needs to act on a failure (release time, next height).
   */
  async function submit(from: Uint8Array, op: Operation, context?: (status: string) => Record<string, unknown> | undefined) {
    try {
      return await chain.submitOperations(from, [op]);
    } catch (error) {
      const data = (error as { data?: { status?: string } }).data;
      const status = data?.status;
      const extra = status && context ? context(status) : undefined;
      if (extra && data) Object.assign(data, extra);
      if ((error as { reason?: string }).reason === 'BUNDLE_FAILED' && status === 'NOT_VALIDATOR') {
        throw RpcError.app('UNAUTHORIZED', (error as Error).message, data as Record<string, unknown>);
      }
      if ((error as { reason?: string }).reason === 'BUNDLE_FAILED' && status === 'INSUFFICIENT_BALANCE') {
        throw RpcError.app('INSUFFICIENT_BALANCE', (error as Error).message, data as Record<string, unknown>);
      }
      throw error;
    }
  }

  const writeErrors = [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code];
  const minStakeText = (p: ChainParams) => `${p.minStake / NTV_UNIT} NTV (${p.minStake} raw units)`;
  const Validator = () => parsed(validatorRef(), resolveValidator);
  const ValidatorAccount = () => AccountParam({ description: 'the validator\'s staking account' });
  const stakeParams = [
    { name: 'staker_address', schema: AccountParam({ description: 'the staking account (Nx0… or 0x + 64 hex)' }) },
    { name: 'amount', schema: AmountParam({ description: 'raw NTV; the resulting self stake must reach 1,000 NTV' }) },
    { name: 'validator_pubkey', schema: PubkeyHex() },
  ] as const;
  const unstakeParams = [
    { name: 'address', schema: ValidatorAccount() },
    { name: 'amount', schema: PositiveAmount({ description: 'raw NTV, > 0, at most the self stake' }) },
  ] as const;
  const commissionParams = [
    { name: 'address', schema: ValidatorAccount() },
    { name: 'commission_bps', schema: Type.Integer({ minimum: 0, maximum: 65535, description: 'basis points, at most 5,000' }) },
  ] as const;
  const delegateParams = [
    { name: 'validator', schema: Validator() },
    { name: 'amount', schema: PositiveAmount({ description: 'raw NTV, > 0; at least the pool\'s min_delegation when its pool is enabled' }) },
    { name: 'sender', schema: AccountParam({ description: 'the delegator' }) },
  ] as const;
  const undelegateParams = [
    { name: 'validator', schema: Validator() },
    { name: 'amount', schema: PositiveAmount({ description: 'raw NTV, > 0, at most the delegation' }) },
    { name: 'sender', schema: AccountParam({ description: 'the delegator' }) },
  ] as const;

  return [
    defineMethod({
      name: 'svc_stake',
      summary: 'Stake NTV as a validator with a consensus key (spec §4.10; unsigned convenience, testnet only).',
      description: 'Creates the validator on the first stake (self stake at least the minimum, 1,000 NTV) or adds to it. A new validator joins '
        + 'the active set (≤ 100 by stake) at the next epoch boundary. Fails with VALIDATOR_KEY_MISMATCH when the account already '
        + 'runs a validator with another key, CONSENSUS_KEY_TAKEN when another validator has the key.'
        + ' Spec §4.10. Errors: UNAVAILABLE_ON_NETWORK on mainnet; INSUFFICIENT_BALANCE; BUNDLE_INVALID; BUNDLE_FAILED (e.g.'
        + ' VALIDATOR_KEY_MISMATCH, CONSENSUS_KEY_TAKEN, below the minimum stake).',
      params: stakeParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt. Creates the validator (self stake ≥ 1,000 NTV) or adds to it; joins the active set at the next epoch boundary',
      },
      errors: [...writeErrors, APP_ERRORS.INSUFFICIENT_BALANCE.code],
      handler: async ([from, amount, key]) => {
        const p = params();
        const current = readValidator(chain.state, from);
        if ((current?.selfStake ?? 0n) + amount < p.minStake) {
          throw invalidParamIn(stakeParams, 'amount', `at least the minimum stake of ${minStakeText(p)} for the validator's self stake`, {
            status: 'STAKE_BELOW_MINIMUM', min_stake: p.minStake.toString(), self_stake: (current?.selfStake ?? 0n).toString(),
          });
        }
        if (current && Buffer.compare(current.consensusKey, key) !== 0) {
          throw invalidParamIn(stakeParams, 'validator_pubkey', `this account's consensus key ${hex(current.consensusKey)} (rotate keys with svc_rotateConsensusKey)`, {
            status: 'VALIDATOR_KEY_MISMATCH',
          });
        }
        const owner = accountOfConsensusKey(chain.state, key);
        if (!current && owner) {
          throw invalidParamIn(stakeParams, 'validator_pubkey', `a consensus key no other validator uses (it belongs to ${encodeAccount(owner)})`, { status: 'CONSENSUS_KEY_TAKEN' });
        }
        return submit(from, { type: 'Stake', amount, validatorPubkey: key });
      },
    }),
    defineMethod({
      name: 'svc_unstake',
      summary: 'Unbond part of a validator\'s self stake for 21 days (spec §3, §4.10; unsigned convenience, testnet only).',
      description: 'The amount leaves the stake into an unbonding entry claimable with svc_claimUnstake after the unbonding period. '
        + 'A validator whose self stake falls below the minimum leaves the active set at once.'
        + ' Spec §3, §4.10. Errors: UNAVAILABLE_ON_NETWORK on mainnet; UNAUTHORIZED when the address runs no validator; BUNDLE_INVALID;'
        + ' BUNDLE_FAILED (more than the self stake).',
      params: unstakeParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt. Self stake into a 21-day unbonding entry; below the minimum the validator leaves the active set at once',
      },
      errors: [...writeErrors, APP_ERRORS.UNAUTHORIZED.code],
      handler: async ([from, amount]) => {
        const v = ownValidator(from, 'unstake');
        if (amount > v.selfStake) throw invalidParamIn(unstakeParams, 'amount', `at most the self stake ${v.selfStake}`, { status: 'INSUFFICIENT_STAKE' });
        return submit(from, { type: 'Unstake', amount });
      },
    }),
    defineMethod({
      name: 'svc_getValidator',
      summary: 'A validator\'s record: stake, jail, performance, commission, profile, pool settings, reputation (spec §2.4).',
      description: 'Reads a validator by staking account or consensus key (spec §2.4): stake split, jail state, performance, commission and its'
        + ' cooldown, profile, pool settings, rewards and the reputation score (docs/staking.md "Reputation"). Errors: NOT_FOUND when no'
        + ' validator matches.',
      params: [{ name: 'address', schema: Validator() }] as const,
      result: {
        name: 'validator', schema: ValidatorSchema,
        description: '`{address, consensus_key, stake, self_stake, delegated, active, is_jailed, jail_release_time, offences, performance_score,'
          + ' missed_in_row, blocks_proposed, blocks_missed, commission, last_commission_change, next_commission_change_height, name,'
          + ' description, website, avatar, pool_enabled, pool_name, min_delegation, auto_compound_default, pending_consensus_key,'
          + ' total_rewards, created_height, reputation {score, factors, weights, track_record, not_yet_known}}`; `-32003 NOT_FOUND`',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: async ([v]) => validatorJson(v, params(), now(), await observations()),
    }),
    defineMethod({
      name: 'svc_listValidators',
      summary: 'Registered validators by stake, largest first (spec §4.10).',
      description: 'Lists validators by total stake, largest first, each as svc_getValidator answers (spec §4.10); limit 1–1000, default 100. No'
        + ' application errors.',
      params: [{ name: 'limit', schema: Limit({ default: 100, description: 'at most this many, 1 to 1000 (default 100)' }), required: false }] as const,
      result: {
        name: 'validators', schema: Type.Array(ValidatorSchema),
        description: 'validators as in `svc_getValidator`, largest stake first; limit 1–1000, default 100',
      },
      handler: async ([limit]) => {
        const p = params();
        const t = now();
        const seen = await observations();
        return readValidatorRecords(chain.state)
          .sort((a, b) => (a.stake === b.stake ? Buffer.compare(a.address, b.address) : a.stake > b.stake ? -1 : 1))
          .slice(0, limit ?? 100)
          .map((v) => validatorJson(v, p, t, seen));
      },
    }),
    defineMethod({
      name: 'svc_stakingInfo',
      summary: 'Network staking summary: total staked, validator counts, epoch, emission (spec §2.4, §1.8).',
      description: 'The network staking summary (spec §2.4, §1.8): total staked, validator, active and jailed counts, epoch and its length, the'
        + ' emission schedule so far and the staking parameters. No application errors.',
      params: [] as const,
      result: {
        name: 'info', schema: StakingInfoSchema,
        description: '`{total_staked, validator_count, active_count, jailed_count, max_active_validators, height, epoch, epoch_length,'
          + ' next_epoch_height, emission_start, emission_year, current_yearly_rate, emitted, held_back, emission_total, emission_remaining,'
          + ' min_stake, unbonding_seconds, commission_cooldown_blocks, max_commission_bps, jail_durations, slot_length}`',
      },
      handler: () => info(chain),
    }),
    defineMethod({
      name: 'svc_setCommission',
      summary: 'Set the validator\'s commission (spec §3: at most 5,000 bps, one change per 50,400 blocks; unsigned convenience).',
      description: 'Spec §3, §4.10. Errors: UNAVAILABLE_ON_NETWORK on mainnet; UNAUTHORIZED when the address runs no validator; BUNDLE_INVALID;'
        + ' BUNDLE_FAILED (above 5,000 bps, or within the cooldown since the last change).',
      params: commissionParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt. At most 5,000 bps; one change per 50,400 blocks',
      },
      errors: [...writeErrors, APP_ERRORS.UNAUTHORIZED.code],
      handler: async ([from, bps]) => {
        const p = params();
        if (bps > p.maxCommissionBps) {
          throw invalidParamIn(commissionParams, 'commission_bps', `at most ${p.maxCommissionBps} basis points (spec §8)`, { status: 'COMMISSION_TOO_HIGH' });
        }
        const v = ownValidator(from, 'set a commission');
        // The cooldown depends on the block height, so the core decides it (COMMISSION_COOLDOWN).
        return submit(from, { type: 'SetCommission', rate: bps }, (status) => (status === 'COMMISSION_COOLDOWN' && v.lastCommissionChange !== undefined
          ? { last_change_height: v.lastCommissionChange, next_allowed_height: v.lastCommissionChange + p.commissionCooldownBlocks }
          : undefined));
      },
    }),
    defineMethod({
      name: 'svc_unjail',
      summary: 'Release a jailed validator once its jail period has ended (spec §3, §7.8; unsigned convenience).',
      description: 'The validator rejoins the active set at the next epoch boundary.'
        + ' Spec §3, §7.8. Errors: UNAVAILABLE_ON_NETWORK on mainnet; UNAUTHORIZED when the address runs no validator; BUNDLE_INVALID;'
        + ' BUNDLE_FAILED (NOT_JAILED, or the jail period has not ended).',
      params: [{ name: 'address', schema: ValidatorAccount() }] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt. Only once `jail_release_time` has passed; the set is rejoined at the next epoch boundary',
      },
      errors: [...writeErrors, APP_ERRORS.UNAUTHORIZED.code],
      handler: async ([from]) => {
        const v = ownValidator(from, 'unjail');
        // Jail time is judged against the block's timestamp, so the core decides (JAIL_NOT_EXPIRED, NOT_JAILED).
        return submit(from, { type: 'Unjail' }, (status) => (status === 'JAIL_NOT_EXPIRED' ? { jail_release_time: v.jailReleaseTime } : undefined));
      },
    }),
    defineMethod({
      name: 'svc_setValidatorMetadata',
      summary: 'Set the validator\'s profile (spec §2.4; validator only; unsigned convenience).',
      description: 'Sets name, description, website and avatar shown with the validator (spec §2.4); byte limits 64, 512, 256, 256 (-32602 beyond).'
        + ' Errors: UNAVAILABLE_ON_NETWORK on mainnet; UNAUTHORIZED when the address runs no validator; BUNDLE_INVALID; BUNDLE_FAILED.',
      params: [
        { name: 'address', schema: ValidatorAccount() },
        { name: 'name', schema: Text(64, 'at most 64 bytes', 'INVALID_VALIDATOR_METADATA') },
        { name: 'description', schema: Text(512, 'at most 512 bytes', 'INVALID_VALIDATOR_METADATA') },
        { name: 'website', schema: Text(256, 'at most 256 bytes', 'INVALID_VALIDATOR_METADATA') },
        { name: 'avatar', schema: Text(256, 'avatar URL, at most 256 bytes', 'INVALID_VALIDATOR_METADATA') },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt. Validator only; name 64, description 512, website and avatar 256 bytes',
      },
      errors: [...writeErrors, APP_ERRORS.UNAUTHORIZED.code],
      handler: async ([from, name, description, website, avatar]) => {
        ownValidator(from, 'set validator metadata');
        return submit(from, { type: 'SetValidatorMetadata', name, description, website, avatarUrl: avatar });
      },
    }),
    defineMethod({
      name: 'svc_getDelegations',
      summary: 'An account\'s delegations (with auto_compound and unclaimed rewards) and unbonding entries (spec §2.4).',
      description: 'Reads an account\'s delegations (validator, amount, unclaimed rewards, auto_compound, since) and unbonding entries with release'
        + ' time and whether they are claimable (spec §2.4, docs/staking.md). No application errors.',
      params: [{ name: 'address', schema: AccountParam() }] as const,
      result: {
        name: 'delegations', schema: DelegationsSchema,
        description: '`{address, delegations: [{validator, consensus_key, self_stake, amount, rewards, auto_compound, since}], unbonding: [{amount,'
          + ' release_time, claimable}]}`',
      },
      handler: ([who]) => {
        const delegations = [];
        for (const validator of readDelegatorValidators(chain.state, who)) {
          const v = readValidator(chain.state, validator);
          const d = readDelegation(chain.state, validator, who);
          if (!v || !d) continue;
          delegations.push({
            validator: encodeAccount(validator), consensus_key: hex(v.consensusKey), self_stake: Buffer.compare(validator, who) === 0,
            amount: d.amount.toString(), rewards: accruedRewards(v, d).toString(), auto_compound: d.autoCompound, since: d.since,
          });
        }
        const t = Math.floor(Date.now() / 1000);
        const unbonding = readUnbonding(chain.state, who).map((e) => ({ amount: e.amount.toString(), release_time: e.releaseTime, claimable: e.releaseTime <= t }));
        return { address: encodeAccount(who), delegations, unbonding };
      },
    }),
    defineMethod({
      name: 'svc_setAutoCompound',
      summary: 'Turn auto-compounding of a delegation on or off: rewards restake at each epoch end with no transaction (spec §4.10).',
      description: 'Spec §4.10. Errors: UNAVAILABLE_ON_NETWORK on mainnet; NOT_FOUND when no validator matches; BUNDLE_INVALID; BUNDLE_FAILED (no'
        + ' delegation to that validator).',
      params: [
        { name: 'validator', schema: Validator() },
        { name: 'enable', schema: Type.Boolean() },
        { name: 'sender', schema: AccountParam({ description: 'the delegator' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt. The sender\'s delegation restakes its rewards at each epoch end with no transaction',
      },
      errors: [...writeErrors, APP_ERRORS.NOT_FOUND.code],
      handler: async ([v, enable, from]) => {
        if (!readDelegation(chain.state, v.address, from)) {
          throw RpcError.app('NOT_FOUND', `${encodeAccount(from)} has no delegation to validator ${encodeAccount(v.address)}; delegate first (svc_delegate)`, { status: 'NO_DELEGATION' });
        }
        return submit(from, { type: 'SetAutoCompound', validator: v.address, enable });
      },
    }),
    defineMethod({
      name: 'svc_setPoolConfig',
      summary: 'Set the validator\'s staking pool settings (spec §4.10; validator only; unsigned convenience).',
      description: 'Sets whether the validator accepts delegations, the pool\'s name, the minimum delegation and the auto-compound default for new'
        + ' delegations (spec §4.10). Errors: UNAVAILABLE_ON_NETWORK on mainnet; UNAUTHORIZED when the sender runs no validator;'
        + ' BUNDLE_INVALID; BUNDLE_FAILED.',
      params: [
        { name: 'pool_enabled', schema: Type.Boolean() },
        { name: 'pool_name', schema: Text(64, 'at most 64 bytes') },
        { name: 'min_delegation', schema: AmountParam({ description: 'raw NTV a delegation must reach (0 = none); applies when pool_enabled' }) },
        { name: 'auto_compound_default', schema: Type.Boolean({ description: 'auto_compound of new delegations' }) },
        { name: 'sender', schema: ValidatorAccount() },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt. Validator only',
      },
      errors: [...writeErrors, APP_ERRORS.UNAUTHORIZED.code],
      handler: async ([enabled, name, min, acd, from]) => {
        ownValidator(from, 'configure a staking pool');
        return submit(from, { type: 'SetPoolConfig', poolEnabled: enabled, poolName: name, minDelegation: min, autoCompoundDefault: acd });
      },
    }),
    defineMethod({
      name: 'svc_delegate',
      summary: 'Delegate NTV to a validator (docs/staking.md; unsigned convenience, testnet only).',
      description: 'Adds to the sender\'s delegation with the validator (spec §4.10, docs/staking.md). Errors: UNAVAILABLE_ON_NETWORK on mainnet;'
        + ' NOT_FOUND when no validator matches; INSUFFICIENT_BALANCE; BUNDLE_INVALID; BUNDLE_FAILED (the pool is closed, below its minimum'
        + ' delegation).',
      params: delegateParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt. At least the pool\'s `min_delegation` when its pool is enabled',
      },
      errors: [...writeErrors, APP_ERRORS.NOT_FOUND.code, APP_ERRORS.INSUFFICIENT_BALANCE.code],
      handler: async ([v, amount, from]) => {
        const current = readDelegation(chain.state, v.address, from)?.amount ?? 0n;
        if (v.poolEnabled && Buffer.compare(v.address, from) !== 0 && current + amount < v.minDelegation) {
          throw invalidParamIn(delegateParams, 'amount', `enough for the pool's min_delegation of ${v.minDelegation} raw NTV`, { status: 'DELEGATION_BELOW_MINIMUM' });
        }
        return submit(from, { type: 'Delegate', validator: v.address, amount });
      },
    }),
    defineMethod({
      name: 'svc_undelegate',
      summary: 'Unbond part of a delegation for 21 days (docs/staking.md; unsigned convenience, testnet only).',
      description: 'Moves part of a delegation into an unbonding entry claimable with svc_claimUnstake after 21 days (spec §3, docs/staking.md).'
        + ' Errors: UNAVAILABLE_ON_NETWORK on mainnet; NOT_FOUND when no validator matches; BUNDLE_INVALID; BUNDLE_FAILED (more than'
        + ' delegated).',
      params: undelegateParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt. Into a 21-day unbonding entry',
      },
      errors: [...writeErrors, APP_ERRORS.NOT_FOUND.code],
      handler: async ([v, amount, from]) => {
        const d = readDelegation(chain.state, v.address, from);
        if (!d) throw RpcError.app('NOT_FOUND', `${encodeAccount(from)} has no delegation to validator ${encodeAccount(v.address)}`, { status: 'NO_DELEGATION' });
        if (amount > d.amount) throw invalidParamIn(undelegateParams, 'amount', `at most the delegated ${d.amount}`, { status: 'INSUFFICIENT_STAKE' });
        return submit(from, { type: 'Undelegate', validator: v.address, amount });
      },
    }),
    defineMethod({
      name: 'svc_claimRewards',
      summary: 'Pay the account\'s unclaimed staking rewards (commission included for a validator) to its balance (unsigned convenience).',
      description: 'Spec §3 ClaimRewards, docs/staking.md. Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_INVALID; BUNDLE_FAILED'
        + ' (NOTHING_TO_CLAIM).',
      params: [{ name: 'sender', schema: AccountParam() }] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt. Pays every unclaimed reward of the sender (a validator\'s commission included)',
      },
      errors: writeErrors,
      handler: async ([from]) => submit(from, { type: 'ClaimRewards' }),
    }),
    defineMethod({
      name: 'svc_claimUnstake',
      summary: 'Pay the account\'s unbonding entries whose 21 days have passed to its balance (spec §3 ClaimUnstake; unsigned convenience).',
      description: 'Spec §3 ClaimUnstake. Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_INVALID; BUNDLE_FAILED (NOTHING_TO_CLAIM).',
      params: [{ name: 'sender', schema: AccountParam() }] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt. Pays the unbonding entries whose release time has passed',
      },
      errors: writeErrors,
      handler: async ([from]) => submit(from, { type: 'ClaimUnstake' }),
    }),
    defineMethod({
      name: 'svc_rotateConsensusKey',
      summary: 'Queue a new consensus key, applied at the next epoch boundary; at most one per epoch (spec §3; unsigned convenience).',
      description: 'The new key takes over at the next epoch boundary (spec §3); the validator\'s pending_consensus_key shows it until then. Errors:'
        + ' UNAVAILABLE_ON_NETWORK on mainnet; UNAUTHORIZED when the address runs no validator; BUNDLE_INVALID; BUNDLE_FAILED (a rotation'
        + ' already queued this epoch, or the key is taken).',
      params: [
        { name: 'address', schema: ValidatorAccount() },
        { name: 'new_consensus_pubkey', schema: PubkeyHex() },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt. Queued, applied at the next epoch boundary; one per epoch',
      },
      errors: [...writeErrors, APP_ERRORS.UNAUTHORIZED.code],
      handler: async ([from, newConsensusPubkey]) => {
        const v = ownValidator(from, 'rotate a consensus key');
        const p = chainParams(chain.state);
        return submit(from, { type: 'RotateConsensusKey', newConsensusPubkey },
          (status) => (status === 'ROTATION_LIMIT'
            ? { pending_consensus_key: v.pendingConsensusKey ? hex(v.pendingConsensusKey) : null, next_epoch_height: (Math.floor(chain.height / p.epochLength) + 1) * p.epochLength }
            : undefined));
      },
    }),
  ];
}

function info(chain: ChainApi) {
  const p = chainParams(chain.state);
  const st = readStakingState(chain.state);
  const head = chain.headHeader;
  const epoch = Math.floor(head.height / p.epochLength);
  const elapsed = st.emissionStart === 0 ? 0 : Math.max(head.timestamp - st.emissionStart, 0);
  const year = Math.floor(elapsed / YEAR_SECONDS) + 1;
  const records = readValidatorRecords(chain.state);
  return {
    total_staked: st.totalStaked.toString(),
    validator_count: records.length,
    active_count: st.active.length,
    jailed_count: records.filter((v) => v.jailed).length,
    max_active_validators: p.maxActiveValidators,
    height: head.height,
    epoch,
    epoch_length: p.epochLength,
    next_epoch_height: (epoch + 1) * p.epochLength,
    emission_start: st.emissionStart,
    emission_year: year,
    current_yearly_rate: (year <= 10 ? EMISSION_RATES[year - 1]! : 0n).toString(),
    emitted: st.emitted.toString(),
    held_back: st.carry.toString(),
    emission_total: EMISSION_TOTAL.toString(),
    emission_remaining: (EMISSION_TOTAL - st.emitted).toString(),
    min_stake: p.minStake.toString(),
    unbonding_seconds: p.unbondingSeconds,
    commission_cooldown_blocks: p.commissionCooldownBlocks,
    max_commission_bps: p.maxCommissionBps,
    jail_durations: p.jailDurations,
    slot_length: p.slotLength,
    // protocol proposals (docs/governance.md "Parameters")
    voting_period_blocks: p.votingPeriodBlocks,
    quorum_bps: p.quorumBps,
    threshold_bps: p.thresholdBps,
  };
}
