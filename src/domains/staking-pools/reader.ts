import { decodePrefixed, encodePrefixed } from '../../codec/address.js';
import { Prefix, STAKING_POOL_ACC_SCALE } from '../../abi/constants.js';
import { balanceKey, decodePoolStakeFields, decodeStakingPoolFields, poolStakeKey, stakingPoolKey, type PoolStakeFields, type StakingPoolFields } from '../../abi/state.js';
import { blake3 } from '../../codec/hash.js';
import { decodeBalance } from '../../core/records.js';
import type { StateReader, WatchableState } from '../../chain/state-reader.js';

/**
 * Token staking pools as the host reads them (spec §4.10; docs/staking-pools.md). The rules are the
 * core's (assembly/domains/staking-pools/ops.ts); this indexes the committed pool records (0x6B) and computes
 * what a position has earned up to a height with the core's accrual formula, for reads only.
 * Pool address (its stake escrow) = Blake3("ntv.staking-pool.v1" ‖ id u64 LE), shown as Nx6…
 * (facts.md "Addresses"); its reward account = Blake3("ntv.staking-pool-rewards.v1" ‖ pool).
 */

export const STAKING_POOL_PREFIX = 'Nx6';
export { stakingPoolKey, poolStakeKey };
export type StakingPoolRecord = StakingPoolFields & { address: Uint8Array };

export function encodeStakingPool(address: Uint8Array): string {
  return encodePrefixed(STAKING_POOL_PREFIX, address);
}
/** `Nx6…` → 32 bytes, or undefined when the text is not a well-formed pool address. */
export function decodeStakingPoolText(text: string): Uint8Array | undefined {
  return decodePrefixed(STAKING_POOL_PREFIX, text);
}

const enc = new TextEncoder();
const U128 = (1n << 128n) - 1n;
export function stakingPoolAddress(id: bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, id, true);
  return blake3(new Uint8Array([...enc.encode('ntv.staking-pool.v1'), ...b]));
}
export function stakingPoolRewardAccount(pool: Uint8Array): Uint8Array {
  return blake3(new Uint8Array([...enc.encode('ntv.staking-pool-rewards.v1'), ...pool]));
}

/**
 * The pool's accumulator and allocation as the next operation at `height` would find them (the
 * core's accrue, docs/staking-pools.md "Rewards"): min(rate × blocks, reward balance − allocated)
 * shared over the total staked.
 */
export function accrued(p: StakingPoolFields, rewardBalance: bigint, height: bigint): { acc: bigint; allocated: bigint } {
  const same = { acc: p.accRewardPerShare, allocated: p.allocated };
  if (height <= p.lastHeight || p.totalStaked === 0n) return same;
  let want = p.rewardRate * (height - p.lastHeight);
  if (want > U128) want = U128;
  const avail = rewardBalance > p.allocated ? rewardBalance - p.allocated : 0n;
  const reward = want < avail ? want : avail;
  if (reward === 0n) return same;
  const inc = (reward * STAKING_POOL_ACC_SCALE) / p.totalStaked;
  if (inc === 0n || p.accRewardPerShare + inc > U128) return same;
  return { acc: p.accRewardPerShare + inc, allocated: p.allocated + reward };
}

export interface PoolPosition extends PoolStakeFields {
  /** pending plus what accrued since the last settlement, as of the height asked */
  claimable: bigint;
}

export class StakingPoolReader {
  private readonly pools = new Map<string, StakingPoolRecord>();

  constructor(readonly state: WatchableState) {
    state.watch(Prefix.STAKING_POOL, (key, value) => {
      const address = key.slice(1, 33);
      const hex = Buffer.from(address).toString('hex');
      if (value === null) this.pools.delete(hex);
      else this.pools.set(hex, { ...decodeStakingPoolFields(value), address });
    });
  }

  get(address: Uint8Array): StakingPoolRecord | undefined {
    return this.pools.get(Buffer.from(address).toString('hex'));
  }

  /** Every pool, newest (highest id) first. */
  all(): StakingPoolRecord[] {
    return [...this.pools.values()].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  }

  rewardBalance(p: StakingPoolRecord, state: StateReader = this.state): bigint {
    const v = state.get(balanceKey(stakingPoolRewardAccount(p.address), p.rewardMint));
    return v ? decodeBalance(v) : 0n;
  }

  /** `staker`'s position with what it could claim at `height`, or undefined. */
  position(p: StakingPoolRecord, staker: Uint8Array, height: bigint): PoolPosition | undefined {
    const v = this.state.get(poolStakeKey(p.address, staker));
    if (!v) return undefined;
    const s = decodePoolStakeFields(v);
    const { acc } = accrued(p, this.rewardBalance(p), height);
    return { ...s, claimable: s.pending + (s.amount * (acc - s.accSnapshot)) / STAKING_POOL_ACC_SCALE };
  }
}
