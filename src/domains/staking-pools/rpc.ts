import { Type } from '@sinclair/typebox';
import { encodeAccount, encodeMint } from '../../codec/address.js';
import { MAX_LOCK_SECONDS } from '../../core/amm.js';
import {
  decodeStakingPoolText, encodeStakingPool, stakingPoolRewardAccount, type StakingPoolRecord,
} from './reader.js';
import type { ChainApi, DomainReaders } from '../../chain/interface.js';
import { APP_ERRORS, RpcError } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { Limit, parsed } from '../../rpc/schemas.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import { AccountParam, AmountParam, invalidParamIn, PositiveAmount, TokenParam } from '../../rpc/methods/params.js';
import { ReceiptSchema } from '../../rpc/methods/result-schemas.js';

/**
 * Token staking pools (spec §4.10; docs/staking-pools.md). The rules are the core's
 * (assembly/domains/staking-pools/ops.ts): these check the shape of the params, build the operation for
 * `sender` (unsigned convenience, testnet only; on mainnet a signed bundle through
 * svc_submitBundle) and read the committed records (src/domains/staking-pools/reader.ts).
 */

const Str = (description: string) => Type.String({ description });
const Int = (description: string) => Type.Integer({ description });
const Amount = (description: string) => AmountParam({ description });
const tokenRef = (what: string) => Type.String({ minLength: 1, maxLength: 64, description: `${what}: a token symbol (any case) or mint address (Nx1… or 0x + 64 hex).` });
const poolRef = () => Type.String({ minLength: 4, maxLength: 64, pattern: '^Nx6[1-9A-HJ-NP-Za-km-z]+$', description: 'the staking pool: Nx6… (receipt.created.staking_pool names it)' });

const StakingPoolSchema = Type.Object({
  pool_address: Str('Nx6… the pool; also the account that holds the stakes'),
  id: Int('creation order, from 1'),
  creator: Str('Nx0…'),
  token_mint: Str('Nx1… token staked'), token_symbol: Str(''),
  reward_source: Str('Nx1… token the rewards are paid in'), reward_symbol: Str(''),
  reward_account: Str('Nx0… account the rewards are paid from (funded with svc_fundStakingPool)'),
  reward_rate: Str('reward raw units per block for the whole pool'),
  lock_period: Int('seconds a stake stays locked after the last stake'),
  capacity: Str('most staked in all; "0" = no limit'), per_user_cap: Str('most staked by one account; "0" = no limit'),
  total_staked: Str('raw units'), stakers: Int('accounts with a stake'),
  reward_balance: Str('what the reward account holds'),
  reward_available: Str('reward balance not yet owed to stakers: what later blocks can still pay'),
  allocated: Str('accrued to stakers, not yet claimed'), total_paid: Str('claimed in all'),
  funded_blocks: Int('blocks the available rewards last at reward_rate'),
  acc_reward_per_share: Str('accumulated reward per staked unit × 10^18'),
  last_update_height: Int('the height the accumulator was last brought up to'),
  created_at: Int('unix seconds'), created_height: Int('block height'),
}, { title: 'StakingPool', additionalProperties: false });

const PositionSchema = Type.Object({
  pool_address: Str('Nx6…'), staker: Str('Nx0…'),
  amount: Str('raw units staked'), pending_rewards: Str('what svc_claimPoolRewards would pay in a block at the head height'),
  unlock_at: Int('unix seconds the stake can be unstaked from'), locked: Type.Boolean({ description: 'at the head block time' }),
}, { title: 'PoolStake', additionalProperties: false });

export function stakingPoolMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
  const poolOf = (value: string, param: string, position: number): StakingPoolRecord => {
    const address = decodeStakingPoolText(value);
    if (!address) throw RpcError.invalidParam(param, position, 'a staking pool address (Nx6… base58 of 32 bytes)', { pool_address: value });
    const p = readers.stakingPools.get(address);
    if (!p) throw RpcError.app('NOT_FOUND', `no staking pool at ${value}; svc_listStakingPools lists them`, { pool_address: value });
    return p;
  };
  /** Params parsed once (issue 44 item 4): the pool as its record (NOT_FOUND when none), a token as its registry entry. */
  const Pool = () => parsed(poolRef(), poolOf);
  const TokenRef = (what: string) => TokenParam(readers.tokens, tokenRef(what));
  const createParams = [
    { name: 'token_mint', schema: TokenRef('the token staked') },
    { name: 'reward_source', schema: TokenRef('the token rewards are paid in') },
    { name: 'reward_rate', schema: PositiveAmount({ description: 'reward raw units per block for the whole pool, > 0' }) },
    { name: 'lock_period', schema: Type.Integer({ minimum: 0, maximum: Number(MAX_LOCK_SECONDS), description: 'seconds a stake stays locked after the last stake, 0 to 315,360,000' }) },
    { name: 'capacity', schema: Amount('most staked in all, raw units; "0" = no limit') },
    { name: 'per_user_cap', schema: Amount('most staked by one account, raw units; "0" = no limit') },
    { name: 'sender', schema: AccountParam({ description: 'the creator' }) },
  ] as const;
  const writeErrors = [APP_ERRORS.NOT_FOUND.code, APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code];
  const amountWrite = (name: string, type: 'StakeToPool' | 'UnstakeFromPool' | 'FundStakingPool', summary: string, description: string, who: string, result: string) => defineMethod({
    name, summary, description,
    params: [
      { name: 'pool_address', schema: Pool() },
      { name: 'amount', schema: PositiveAmount({ description: 'raw units, > 0' }) },
      { name: 'sender', schema: AccountParam({ description: who }) },
    ] as const,
    result: { name: 'receipt', schema: ReceiptSchema, description: result },
    errors: writeErrors,
    handler: async ([p, amount, sender]) => chain.submitOperations(sender, [{ type, pool: p.address, amount }]),
  });
  return [
    defineMethod({
      name: 'svc_createStakingPool',
      summary: 'Create a token staking pool paying `reward_rate` units of the reward token per block, shared by stake (spec §4.10; unsigned convenience, testnet only).',
      description: 'reward_source is the reward token; the pool pays from its own reward account (pool.reward_account), funded with svc_fundStakingPool, and stops '
        + 'paying when that is empty. receipt.created.staking_pool names the pool (Nx6…). Failures: UNKNOWN_TOKEN, INVALID_STAKING_POOL. docs/staking-pools.md.',
      params: createParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; `created.staking_pool`. `reward_source` is the reward token; `capacity`/`per_user_cap` `"0"` = no limit',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, ...writeErrors.slice(1)],
      handler: async ([t, r, rate, lock, cap, per, sender]) => {
        if (cap !== 0n && per > cap) throw invalidParamIn(createParams, 'per_user_cap', 'an amount no larger than a nonzero capacity');
        return chain.submitOperations(sender, [{ type: 'CreateStakingPool', tokenMint: t.mint, rewardSource: r.mint, rewardRate: rate, lockPeriod: BigInt(lock), capacity: cap, perUserCap: per }]);
      },
    }),
    amountWrite('svc_stakeToPool', 'StakeToPool', 'Stake `amount` of the pool\'s token; it is locked for the pool\'s lock period from now (unsigned convenience, testnet only).',
      'Rewards up to this block are settled first. Failures: POOL_CAPACITY_EXCEEDED, POOL_USER_CAP_EXCEEDED, INSUFFICIENT_BALANCE. docs/staking-pools.md.', 'the staker',
      'receipt. Locked for `lock_period` seconds from this block'),
    amountWrite('svc_unstakeFromPool', 'UnstakeFromPool', 'Take back `amount` of a stake after its lock (unsigned convenience, testnet only).',
      'Pending rewards stay claimable. Failures: INSUFFICIENT_POOL_STAKE, POOL_STAKE_LOCKED. docs/staking-pools.md.', 'the staker', 'receipt. After the lock'),
    amountWrite('svc_fundStakingPool', 'FundStakingPool', 'Add `amount` of the reward token to the pool\'s reward account (by anyone; unsigned convenience, testnet only).',
      'The blocks before the funding accrue first, so an empty source never pays for the blocks it was empty. Failures: INSUFFICIENT_BALANCE. docs/staking-pools.md.', 'the funder',
      'receipt. Adds reward tokens to the pool\'s reward account (by anyone)'),
    defineMethod({
      name: 'svc_claimPoolRewards',
      summary: 'Claim the rewards a stake earned, from the pool\'s reward account (unsigned convenience, testnet only).',
      description: 'Failures: NO_POOL_REWARDS (nothing pending, e.g. a second claim in the same block). docs/staking-pools.md.',
      params: [
        { name: 'pool_address', schema: Pool() },
        { name: 'sender', schema: AccountParam({ description: 'the staker' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt. `NO_POOL_REWARDS` when nothing is pending',
      },
      errors: writeErrors,
      handler: async ([p, sender]) => chain.submitOperations(sender, [{ type: 'ClaimPoolRewards', pool: p.address }]),
    }),
    defineMethod({
      name: 'svc_listStakingPools',
      summary: 'Token staking pools, newest first (spec §4.10).',
      description: 'Newest first, with the same fields as svc_getStakingPool. No application errors.',
      params: [{ name: 'limit', schema: Limit({ default: 100 }), required: false }] as const,
      result: {
        name: 'pools', schema: Type.Array(StakingPoolSchema),
        description: 'pools, newest first',
      },
      handler: ([limit]) => readers.stakingPools.all().slice(0, limit ?? 100).map((p) => formatStakingPool(chain, readers, p)),
    }),
    defineMethod({
      name: 'svc_getStakingPool',
      summary: 'A token staking pool: its terms, total staked, stakers and what its reward account still holds (spec §4.10).',
      description: 'Reads the pool record (docs/staking-pools.md): its terms, total staked, stakers, the reward account with its balance, what is'
        + ' owed to stakers (allocated) and still available, and how many blocks that lasts at reward_rate. Errors: NOT_FOUND; a text that'
        + ' is not Nx6… is -32602.',
      params: [{ name: 'pool_address', schema: Pool() }] as const,
      result: {
        name: 'pool', schema: StakingPoolSchema,
        description: '`{pool_address, id, creator, token_mint, token_symbol, reward_source, reward_symbol, reward_account, reward_rate, lock_period,'
          + ' capacity, per_user_cap, total_staked, stakers, reward_balance, reward_available, allocated, total_paid, funded_blocks,'
          + ' acc_reward_per_share, last_update_height, created_at, created_height}`',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([p]) => formatStakingPool(chain, readers, p),
    }),
    defineMethod({
      name: 'svc_getPoolStake',
      summary: 'An account\'s stake in a pool: amount, rewards claimable now and its lock.',
      description: 'An account\'s position in a pool: its stake, the rewards a claim in a block at the head height would pay (the core\'s accrual'
        + ' formula applied to the committed records), and its lock. An account without a stake reads amount "0". Errors: NOT_FOUND.',
      params: [
        { name: 'pool_address', schema: Pool() },
        { name: 'staker', schema: AccountParam() },
      ] as const,
      result: {
        name: 'stake', schema: PositionSchema,
        description: '`{pool_address, staker, amount, pending_rewards, unlock_at, locked}`',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([p, who]) => {
        const s = readers.stakingPools.position(p, who, BigInt(chain.height));
        return {
          pool_address: encodeStakingPool(p.address), staker: encodeAccount(who), amount: (s?.amount ?? 0n).toString(),
          pending_rewards: (s?.claimable ?? 0n).toString(), unlock_at: Number(s?.unlockAt ?? 0n),
          locked: s !== undefined && BigInt(chain.headHeader.timestamp) < s.unlockAt,
        };
      },
    }),
  ];
}

/** The JSON of a staking pool record (StakingPoolSchema). */
export function formatStakingPool(chain: ChainApi, readers: DomainReaders, p: StakingPoolRecord) {
  const sym = (m: Uint8Array) => readers.tokens.byMintBytes(m)?.symbol ?? '';
  const balance = readers.stakingPools.rewardBalance(p, chain.state);
  const available = balance > p.allocated ? balance - p.allocated : 0n;
  return {
    pool_address: encodeStakingPool(p.address), id: Number(p.id), creator: encodeAccount(p.creator),
    token_mint: encodeMint(p.stakeMint), token_symbol: sym(p.stakeMint), reward_source: encodeMint(p.rewardMint), reward_symbol: sym(p.rewardMint),
    reward_account: encodeAccount(stakingPoolRewardAccount(p.address)), reward_rate: p.rewardRate.toString(), lock_period: Number(p.lockPeriod),
    capacity: p.capacity.toString(), per_user_cap: p.perUserCap.toString(), total_staked: p.totalStaked.toString(), stakers: p.stakers,
    reward_balance: balance.toString(), reward_available: available.toString(), allocated: p.allocated.toString(), total_paid: p.paid.toString(),
    funded_blocks: Number(available / p.rewardRate), acc_reward_per_share: p.accRewardPerShare.toString(), last_update_height: Number(p.lastHeight),
    created_at: Number(p.createdAt), created_height: Number(p.createdHeight),
  };
}
