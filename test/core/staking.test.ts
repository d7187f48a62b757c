// Staking rules in the core (docs/staking.md; spec §3, §7.8, §8): minimum stake, unbonding timing,
// commission cap and cooldown, jailing by double-sign evidence with escalation, unjail early/late,
// one consensus-key rotation per epoch applied at the boundary, misses and performance, the active
// set, and that a refused operation changes nothing.
import { describe, expect, it } from 'vitest';
import { Status } from '../../src/core/status.js';
import { accountOfConsensusKey, readValidatorSet } from '../../src/chain/validator-set.js';
import { DEFAULT_CHAIN_PARAMS, chainParams } from '../../src/chain/chain-params.js';
import { addr, hex } from '../../testkit/encode.js';
import { auditSupply, performanceBps } from '../../testkit/staking-reference.js';
import {
  UNIT, key, ops, header, setup, block, one, ntv, validator, delegation, unbonding, stakingState, doubleSign, runTo, type Setup,
} from './staking-harness.js';

const MIN = 1000n * UNIT;
const DAY = 86_400n;
/** The active set as the staking state lists it (stake descending), as hex accounts. */
const activeSet = (s: Setup) => stakingState(s).active.map(hex);

describe('staking rules (core)', () => {
  it('genesis validators are active with their self stake taken from the source account', async () => {
    const s = await setup({}, [0, 1]);
    const set = readValidatorSet(s.store);
    expect(set.map((v) => hex(v.consensusKey))).toEqual([hex(key(0)), hex(key(1))]);
    expect(set.every((v) => v.active && !v.jailed && v.stake === MIN && v.performanceBps === 8000)).toBe(true);
    expect(stakingState(s).totalStaked).toBe(2n * MIN);
    const audit = auditSupply(s.store.map);
    expect(audit.sum).toBe(audit.supply);
  });

  it('refuses a stake below the minimum and accepts one at the minimum; joins the set at the epoch boundary', async () => {
    const s = await setup({ epochLength: 5 });
    const before = ntv(s, addr(2));
    expect(one(s, addr(2), ops.stake(MIN - 1n, key(2)))).toBe(Status.STAKE_BELOW_MINIMUM);
    expect(ntv(s, addr(2))).toBe(before); // no state change
    expect(one(s, addr(2), ops.stake(MIN, key(2)))).toBe(Status.OK);
    expect(ntv(s, addr(2))).toBe(before - MIN);
    expect(validator(s, addr(2)).active).toBe(false);
    expect(hex(accountOfConsensusKey(s.store, key(2))!)).toBe(hex(addr(2)));
    // the same key for another account, another key for the same account
    expect(one(s, addr(3), ops.stake(MIN, key(2)))).toBe(Status.CONSENSUS_KEY_TAKEN);
    expect(one(s, addr(2), ops.stake(MIN, key(7)))).toBe(Status.VALIDATOR_KEY_MISMATCH);
    // a top-up of any size once at the minimum
    expect(one(s, addr(2), ops.stake(1n, key(2)))).toBe(Status.OK);
    while (s.height % 5n !== 0n) block(s, []);
    expect(validator(s, addr(2)).active).toBe(true);
    expect(stakingState(s).active.length).toBe(2);
  });

  it('unbonds for 21 days: ClaimUnstake pays nothing before and everything after; below the minimum leaves the set', async () => {
    const s = await setup();
    const v = addr(0);
    const bal = ntv(s, v);
    expect(one(s, v, ops.unstake(MIN + 1n))).toBe(Status.INSUFFICIENT_STAKE);
    expect(one(s, v, ops.unstake(100n * UNIT))).toBe(Status.OK);
    const entry = unbonding(s, v)[0]!;
    expect(entry).toEqual({ amount: 100n * UNIT, releaseTime: Number(s.ts) + 21 * 86400 });
    expect(validator(s, v).active).toBe(false); // 900 NTV < 1,000
    expect(stakingState(s).active.length).toBe(0);
    expect(one(s, v, ops.claimUnstake(), { timestamp: BigInt(entry.releaseTime) - 1n })).toBe(Status.NOTHING_TO_CLAIM);
    const before = ntv(s, v);
    expect(one(s, v, ops.claimUnstake(), { timestamp: BigInt(entry.releaseTime) })).toBe(Status.OK);
    expect(ntv(s, v) - before).toBe(100n * UNIT);
    expect(unbonding(s, v)).toEqual([]);
    expect(ntv(s, v)).toBe(bal + 100n * UNIT); // rewards stay unclaimed in the delegation
    expect(one(s, addr(5), ops.unstake(1n))).toBe(Status.NOT_VALIDATOR);
    const audit = auditSupply(s.store.map);
    expect(audit.sum).toBe(audit.supply);
  });

  it('caps the commission at 5,000 bps and allows one change per 50,400 blocks', async () => {
    const s = await setup();
    const v = addr(0);
    expect(one(s, v, ops.setCommission(5001))).toBe(Status.COMMISSION_TOO_HIGH);
    expect(one(s, addr(4), ops.setCommission(100))).toBe(Status.NOT_VALIDATOR);
    expect(one(s, v, ops.setCommission(5000))).toBe(Status.OK);
    const changedAt = s.height;
    expect(validator(s, v)).toMatchObject({ commissionBps: 5000, lastCommissionChange: Number(changedAt) });
    expect(one(s, v, ops.setCommission(100), { height: changedAt + 50_399n })).toBe(Status.COMMISSION_COOLDOWN);
    expect(validator(s, v).commissionBps).toBe(5000);
    expect(one(s, v, ops.setCommission(100), { height: changedAt + 50_400n })).toBe(Status.OK);
    expect(validator(s, v).commissionBps).toBe(100);
  });

  it('jails a double signer for 1 h, then 24 h on a second offence; unjail refused early, accepted after', async () => {
    const s = await setup({}, [0, 1]);
    const v = addr(1);
    const evidence = (h: bigint) => doubleSign(key(1), h);
    expect(one(s, addr(4), ops.reportDoubleSign(key(1), 7n, header(key(1), 7n, 1), header(key(1), 7n, 1)))).toBe(Status.INVALID_EVIDENCE);
    expect(one(s, addr(4), ops.reportDoubleSign(key(1), 7n, header(key(1), 8n, 1), header(key(1), 7n, 2)))).toBe(Status.INVALID_EVIDENCE);
    expect(one(s, addr(4), ops.reportDoubleSign(key(1), 7n, header(key(0), 7n, 1), header(key(1), 7n, 2)))).toBe(Status.INVALID_EVIDENCE);
    expect(one(s, addr(4), ops.reportDoubleSign(key(8), 7n, header(key(8), 7n, 1), header(key(8), 7n, 2)))).toBe(Status.UNKNOWN_VALIDATOR);
    expect(validator(s, v).jailed).toBe(false);

    expect(one(s, addr(4), evidence(7n))).toBe(Status.OK);
    const jailedAt = s.ts;
    expect(validator(s, v)).toMatchObject({ jailed: true, offences: 1, active: false, jailReleaseTime: Number(jailedAt) + 3600 });
    expect(stakingState(s).active.map(hex)).toEqual([hex(addr(0))]);
    expect(one(s, addr(4), evidence(7n))).toBe(Status.DUPLICATE_EVIDENCE);
    expect(one(s, addr(4), ops.unjail())).toBe(Status.NOT_VALIDATOR);
    expect(one(s, v, ops.unjail(), { timestamp: jailedAt + 3599n })).toBe(Status.JAIL_NOT_EXPIRED);
    expect(validator(s, v).jailed).toBe(true);
    expect(one(s, v, ops.unjail(), { timestamp: jailedAt + 3600n })).toBe(Status.OK);
    expect(validator(s, v).jailed).toBe(false);
    expect(one(s, v, ops.unjail())).toBe(Status.NOT_JAILED);

    expect(one(s, addr(4), evidence(9n))).toBe(Status.OK);
    expect(validator(s, v)).toMatchObject({ jailed: true, offences: 2, jailReleaseTime: Number(s.ts) + 86400 });
    const second = s.ts;
    expect(one(s, v, ops.unjail(), { timestamp: second + 86399n })).toBe(Status.JAIL_NOT_EXPIRED);
    expect(one(s, v, ops.unjail(), { timestamp: second + 86400n })).toBe(Status.OK);
  });

  it('jails the 3rd and 4th offence for 7 d and 30 d, the 30 d repeating after; jailing never touches the stake (spec §8)', async () => {
    const s = await setup({}, [0, 1]);
    const v = addr(1);
    const { selfStake, delegated, stake } = validator(s, v);
    const balance = ntv(s, v);
    // Offences 1–5 (heights 7, 9, …): each jails for the next duration of DEFAULT_CHAIN_PARAMS.jailDurations,
    // the last repeating; the validator serves each term and unjails before the next report.
    const terms = [3_600n, DAY, 7n * DAY, 30n * DAY, 30n * DAY];
    expect(DEFAULT_CHAIN_PARAMS.jailDurations.map(BigInt)).toEqual(terms.slice(0, 4));
    for (const [i, term] of terms.entries()) {
      expect(one(s, addr(4), doubleSign(key(1), 7n + 2n * BigInt(i)))).toBe(Status.OK);
      const jailedAt = s.ts;
      expect(validator(s, v)).toMatchObject({ jailed: true, active: false, offences: i + 1, jailReleaseTime: Number(jailedAt + term) });
      // No economic slashing: the bond, the delegations and the account are exactly as before.
      expect(validator(s, v)).toMatchObject({ selfStake, delegated, stake });
      expect(ntv(s, v)).toBe(balance);
      expect(one(s, v, ops.unjail(), { timestamp: jailedAt + term - 1n })).toBe(Status.JAIL_NOT_EXPIRED);
      expect(one(s, v, ops.unjail(), { timestamp: jailedAt + term })).toBe(Status.OK);
      expect(validator(s, v).jailed).toBe(false);
    }
  });

  it('keeps at most maxActiveValidators in the active set, the top stakes, refilled at the next boundary when one leaves', async () => {
    // Stakes far apart, so the rewards the proposer (addr(0)) earns meanwhile cannot reorder them.
    const s = await setup({ maxActiveValidators: 2, epochLength: 10 }, [0]);
    const [low, high, mid] = [addr(0), addr(1), addr(2)];
    expect(one(s, high, ops.stake(10_000n * UNIT, key(1)))).toBe(Status.OK);
    expect(one(s, mid, ops.stake(5_000n * UNIT, key(2)))).toBe(Status.OK);
    runTo(s, 10n);
    expect(activeSet(s)).toEqual([hex(high), hex(mid)]);
    expect([low, high, mid].map((a) => validator(s, a).active)).toEqual([false, true, true]);

    // The top one is jailed: out at once; the third waits for the boundary to take its place.
    expect(one(s, addr(4), doubleSign(key(1), 12n))).toBe(Status.OK);
    const jailedAt = s.ts;
    expect(activeSet(s)).toEqual([hex(mid)]);
    runTo(s, 19n);
    expect(validator(s, low).active).toBe(false);
    runTo(s, 20n);
    expect(activeSet(s)).toEqual([hex(mid), hex(low)]);

    // Unjailed, it outranks the lowest again at the next boundary: the cap still holds.
    expect(one(s, high, ops.unjail(), { timestamp: jailedAt + 3_600n })).toBe(Status.OK);
    runTo(s, 30n);
    expect(activeSet(s)).toEqual([hex(high), hex(mid)]);
    expect(validator(s, low).active).toBe(false);

    // The second unstakes below the minimum: out at once, and the third is back at the boundary.
    expect(one(s, mid, ops.unstake(4_001n * UNIT))).toBe(Status.OK);
    expect(activeSet(s)).toEqual([hex(high)]);
    runTo(s, 40n);
    expect(activeSet(s)).toEqual([hex(high), hex(low)]);
    expect(validator(s, mid).active).toBe(false);
  });

  it('the default epoch is 1,800 blocks and the boundary work runs at height 1,800 (spec §8)', async () => {
    const s = await setup();
    expect(DEFAULT_CHAIN_PARAMS.epochLength).toBe(1800);
    expect(chainParams(s.store).epochLength).toBe(1800);
    // A new validator and a key rotation both wait for the boundary.
    expect(one(s, addr(2), ops.stake(MIN, key(2)))).toBe(Status.OK);
    expect(one(s, addr(0), ops.rotate(key(20)))).toBe(Status.OK);
    runTo(s, 1799n);
    expect(stakingState(s).epoch).toBe(0);
    expect(validator(s, addr(2)).active).toBe(false);
    expect(hex(validator(s, addr(0)).consensusKey)).toBe(hex(key(0)));
    block(s, []); // height 1800
    expect(stakingState(s).epoch).toBe(1);
    expect(activeSet(s).sort()).toEqual([hex(addr(0)), hex(addr(2))].sort());
    expect(hex(validator(s, addr(0)).consensusKey)).toBe(hex(key(20)));
  });

  it('queues at most one consensus key rotation per epoch and applies it at the boundary', async () => {
    const s = await setup({ epochLength: 10 });
    const v = addr(0);
    expect(one(s, v, ops.rotate(key(0)))).toBe(Status.CONSENSUS_KEY_TAKEN);
    expect(one(s, v, ops.rotate(key(20)))).toBe(Status.OK);
    expect(hex(validator(s, v).pendingConsensusKey!)).toBe(hex(key(20)));
    expect(one(s, v, ops.rotate(key(21)))).toBe(Status.ROTATION_LIMIT);
    expect(one(s, addr(3), ops.rotate(key(22)))).toBe(Status.NOT_VALIDATOR);
    while (s.height % 10n !== 9n) block(s, []);
    expect(hex(validator(s, v).consensusKey)).toBe(hex(key(0)));
    block(s, []); // height 10: the boundary
    expect(hex(validator(s, v).consensusKey)).toBe(hex(key(20)));
    expect(validator(s, v).pendingConsensusKey).toBeUndefined();
    expect(hex(accountOfConsensusKey(s.store, key(20))!)).toBe(hex(v));
    expect(accountOfConsensusKey(s.store, key(0))).toBeUndefined();
    // a new epoch allows a new rotation
    expect(one(s, v, ops.rotate(key(21)))).toBe(Status.OK);
  });

  it('forgives runs of misses at the epoch boundary, so a validator skipped after 3 misses gets its turns back', async () => {
    const s = await setup({ epochLength: 10 }, [0, 1]);
    for (let i = 0; i < 5; i++) block(s, [], { missed: [key(1)] });
    expect(validator(s, addr(1)).missedInRow).toBe(5); // skipped in rotation from 3 on (docs/consensus.md)
    while (s.height % 10n !== 9n) block(s, [], { missed: [key(1)] });
    expect(validator(s, addr(1)).missedInRow).toBe(9);
    block(s, []); // height 10: the boundary
    const v1 = validator(s, addr(1));
    expect(v1.missedInRow).toBe(0);
    expect(v1.blocksMissed).toBe(9n); // the record of misses stays, and the performance score with it
    expect(BigInt(v1.performanceBps)).toBe(performanceBps(0n, 9n));
  });

  it('counts misses from the block context and derives the performance score', async () => {
    const s = await setup({}, [0, 1]);
    block(s, [], { missed: [key(1)] });
    block(s, [], { missed: [key(1), key(99)] }); // an unknown key is ignored
    let v1 = validator(s, addr(1));
    expect(v1).toMatchObject({ blocksMissed: 2n, missedInRow: 2 });
    expect(BigInt(v1.performanceBps)).toBe(performanceBps(0n, 2n));
    expect(validator(s, addr(0)).blocksProposed).toBe(2n);
    expect(BigInt(validator(s, addr(0)).performanceBps)).toBe(performanceBps(2n, 0n));
    block(s, [], { proposer: addr(1) });
    v1 = validator(s, addr(1));
    expect(v1.missedInRow).toBe(0);
    expect(BigInt(v1.performanceBps)).toBe(performanceBps(1n, 2n));
    for (let i = 0; i < 30; i++) block(s, [], { missed: [key(1)] });
    expect(validator(s, addr(1)).performanceBps).toBeGreaterThanOrEqual(5000);
    expect(validator(s, addr(1)).performanceBps).toBeLessThan(6000);
  });

  it('stores metadata and pool config (validator only), enforces min_delegation and the metadata limits', async () => {
    const s = await setup();
    const v = addr(0);
    expect(one(s, addr(3), ops.setMetadata('x', '', '', ''))).toBe(Status.NOT_VALIDATOR);
    expect(one(s, v, ops.setMetadata('n'.repeat(65), '', '', ''))).toBe(Status.INVALID_VALIDATOR_METADATA);
    expect(one(s, v, ops.setMetadata('Val Zero', 'the first', 'https://v0.example', 'https://v0.example/a.png'))).toBe(Status.OK);
    expect(one(s, addr(3), ops.setPoolConfig(true, 'p', 0n, false))).toBe(Status.NOT_VALIDATOR);
    expect(one(s, v, ops.setPoolConfig(true, 'Zero Pool', 500n * UNIT, true))).toBe(Status.OK);
    expect(validator(s, v)).toMatchObject({
      name: 'Val Zero', description: 'the first', website: 'https://v0.example', avatarUrl: 'https://v0.example/a.png',
      poolEnabled: true, poolName: 'Zero Pool', minDelegation: 500n * UNIT, autoCompoundDefault: true,
    });
    expect(one(s, v, ops.setMetadata('Renamed', '', '', ''))).toBe(Status.OK);
    expect(validator(s, v)).toMatchObject({ name: 'Renamed', description: '', poolName: 'Zero Pool' });
    expect(one(s, addr(3), ops.delegate(v, 499n * UNIT))).toBe(Status.DELEGATION_BELOW_MINIMUM);
    expect(one(s, addr(3), ops.delegate(addr(8), 500n * UNIT))).toBe(Status.UNKNOWN_VALIDATOR);
    expect(one(s, addr(3), ops.delegate(v, 500n * UNIT))).toBe(Status.OK);
    expect(delegation(s, v, addr(3))).toMatchObject({ amount: 500n * UNIT, autoCompound: true });
    expect(one(s, addr(3), ops.setAutoCompound(v, false))).toBe(Status.OK);
    expect(delegation(s, v, addr(3))!.autoCompound).toBe(false);
    expect(one(s, addr(4), ops.setAutoCompound(v, true))).toBe(Status.NO_DELEGATION);
    expect(one(s, addr(3), ops.undelegate(v, 501n * UNIT))).toBe(Status.INSUFFICIENT_STAKE);
    expect(one(s, addr(3), ops.undelegate(v, 500n * UNIT))).toBe(Status.OK);
    expect(validator(s, v).delegated).toBe(0n);
  });

  it('a failed staking operation reverts its whole bundle (no fee, no nonce, no state)', async () => {
    const s = await setup();
    const bal = ntv(s, addr(2));
    const st = block(s, [[addr(2), [ops.stake(MIN, key(2)), ops.setCommission(6000)]]]);
    expect(st).toEqual([Status.COMMISSION_TOO_HIGH]);
    expect(ntv(s, addr(2))).toBe(bal);
    expect(validator(s, addr(2))).toBeUndefined();
    expect(accountOfConsensusKey(s.store, key(2))).toBeUndefined();
  });
});
