/**
 * Token staking pools' wallet helpers (docs/staking-pools.md): the signed path of
 * svc_createStakingPool … svc_fundStakingPool. Composed into Wallet (src/client/wallet.ts).
 */
import { decodePrefixed } from '../../codec/address.js';
import type { BundleOptions, SubmitResult, WalletCore } from '../../client/wallet-core.js';
import { toBigInt, type Amount, type TokenRef } from '../../client/args.js';

export class StakingPoolClient {
  /** CreateStakingPool (100): the receipt's `created.staking_pool` is the pool (Nx6…); fund it with fundStakingPool. */
  async createStakingPool(this: WalletCore, tokenMint: TokenRef, rewardSource: TokenRef, rewardRate: Amount, lockPeriod: Amount, capacity: Amount, perUserCap: Amount,
    opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'CreateStakingPool', tokenMint: await this.resolveMint(tokenMint), rewardSource: await this.resolveMint(rewardSource),
      rewardRate: toBigInt(rewardRate, 'rewardRate'), lockPeriod: toBigInt(lockPeriod, 'lockPeriod'),
      capacity: toBigInt(capacity, 'capacity'), perUserCap: toBigInt(perUserCap, 'perUserCap'),
    }, opts);
  }

  /** StakeToPool (101): locked for the pool's lock period from this block. */
  async stakeToPool(this: WalletCore, pool: StakingPoolRef, amount: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'StakeToPool', pool: stakingPoolBytes(pool), amount: toBigInt(amount, 'amount') }, opts);
  }

  /** UnstakeFromPool (102): after the lock; pending rewards stay claimable. */
  async unstakeFromPool(this: WalletCore, pool: StakingPoolRef, amount: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'UnstakeFromPool', pool: stakingPoolBytes(pool), amount: toBigInt(amount, 'amount') }, opts);
  }

  /** ClaimPoolRewards (103): the stake's pending rewards from the pool's reward account. */
  async claimPoolRewards(this: WalletCore, pool: StakingPoolRef, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'ClaimPoolRewards', pool: stakingPoolBytes(pool) }, opts);
  }

  /** FundStakingPool (104), by anyone: `amount` of the reward token into the pool's reward account. */
  async fundStakingPool(this: WalletCore, pool: StakingPoolRef, amount: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'FundStakingPool', pool: stakingPoolBytes(pool), amount: toBigInt(amount, 'amount') }, opts);
  }
}

/** A staking pool: `Nx6…`, `0x` + 64 hex or 32 bytes (docs/staking-pools.md). */
export type StakingPoolRef = string | Uint8Array;
const STAKING_POOL_PREFIX = 'Nx6';

export function stakingPoolBytes(value: StakingPoolRef): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (/^0x[0-9a-fA-F]{64}$/.test(value)) return new Uint8Array(Buffer.from(value.slice(2), 'hex'));
  const bytes = decodePrefixed(STAKING_POOL_PREFIX, value);
  if (!bytes) throw new Error(`pool: expected Nx6… (base58 of 32 bytes), 0x + 64 hex or 32 bytes, got ${JSON.stringify(value)}`);
  return bytes;
}
