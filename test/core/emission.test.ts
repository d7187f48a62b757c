// Emission and rewards in the core against the bigint reference (testkit/staking-reference.ts;
// docs/staking.md "Emission", "Rewards"; spec §1.8): the schedule over year boundaries and its
// 10-year total, the 85/15 split with the density multiplier, commission and delegator shares,
// auto-compound at the epoch end, and that no NTV is created or lost.
import { describe, expect, it } from 'vitest';
import { Status } from '../../src/core/status.js';
import { decodeTokenRecord, tokenKey } from '../../src/core/records.js';
import { REWARD_PRECISION } from '../../src/chain/validator-set.js';
import { addr } from '../../testkit/encode.js';
import { NTV, TREASURY, rng } from './harness.js';
import {
  YEAR, RATES, EMISSION_TOTAL, emissionTarget, blockEmission, epochRelease, split, auditSupply, performanceBps, type EmissionState,
} from '../../testkit/staking-reference.js';
import { UNIT, key, ops, setup, block, one, ntv, validator, delegation, stakingState } from './staking-harness.js';

const supply = (s: Awaited<ReturnType<typeof setup>>) => decodeTokenRecord(s.store.get(tokenKey(NTV))!).totalSupply;

describe('emission schedule', () => {
  it('sums to exactly 64.72M NTV over ten years, 13M in each of years 1 and 2', () => {
    expect(RATES.reduce((a, b) => a + b, 0n)).toBe(EMISSION_TOTAL);
    expect(EMISSION_TOTAL).toBe((1_618_000_000n * UNIT * 4n) / 100n); // spec §1.8: the 4% not allocated at genesis
    expect(emissionTarget(YEAR)).toBe(13_000_000n * UNIT);
    expect(emissionTarget(2n * YEAR)).toBe(26_000_000n * UNIT);
    expect(emissionTarget(10n * YEAR)).toBe(EMISSION_TOTAL);
    expect(emissionTarget(50n * YEAR)).toBe(EMISSION_TOTAL);
  });

  it('the core computes the same cumulative target at year boundaries and random points', async () => {
    const s = await setup();
    const x = s.core.exports;
    const points: bigint[] = [0n, 1n, 2n, 12345n];
    for (let y = 1n; y <= 11n; y++) points.push(y * YEAR - 1n, y * YEAR, y * YEAR + 1n);
    const r = rng(7);
    for (let i = 0; i < 300; i++) points.push(r.big(11n * YEAR));
    for (const p of points) expect(x.emission_target(p)).toBe(emissionTarget(p));
    // monotone
    for (let i = 1; i < 200; i++) expect(emissionTarget(BigInt(i) * 1_000_003n)).toBeGreaterThanOrEqual(emissionTarget(BigInt(i - 1) * 1_000_003n));
  });
});

describe('block rewards', () => {
  it('splits each block 15% treasury / 85% × density × performance to the proposer, across a year boundary, as the reference', async () => {
    const s = await setup({}, [0], 1000n * 10n ** 9n);
    let ref: EmissionState = { start: 0n, last: 0n, emitted: 0n, carry: 0n };
    let proposed = 0n;
    const gasLimit = 21_000n * 4n;
    const steps: Array<{ dt: bigint; transfers: number }> = [
      { dt: 2n, transfers: 0 }, // starts the clock
      { dt: 2n, transfers: 0 }, { dt: 5n, transfers: 4 }, { dt: 3n, transfers: 2 }, { dt: 2n, transfers: 4 },
      { dt: YEAR - 20n, transfers: 1 }, { dt: 7n, transfers: 4 }, { dt: 11n, transfers: 0 }, // across year 1 → 2
      { dt: YEAR + 100n, transfers: 3 }, { dt: 1n, transfers: 4 }, // into year 3
      { dt: 8n * YEAR, transfers: 0 }, { dt: 5n, transfers: 4 }, // past ten years: nothing left to schedule
    ];
    let treasuryBefore = ntv(s, TREASURY);
    let supplyBefore = supply(s);
    for (const step of steps) {
      const transfers: Array<[Uint8Array, ReturnType<typeof ops.claimRewards>[]]> = [];
      for (let i = 0; i < step.transfers; i++) {
        transfers.push([addr(2 + i), [{ kind: 'transfer', to: addr(8), token: NTV, amount: 1n }]]);
      }
      const statuses = block(s, transfers, { dt: step.dt, blockGasLimit: gasLimit });
      expect(statuses.every((x) => x === Status.OK)).toBe(true);
      proposed += 1n;
      const perf = performanceBps(proposed, 0n);
      const out = blockEmission(ref, s.ts, 21_000n * BigInt(step.transfers), gasLimit, perf);
      ref = out.state;
      expect(ntv(s, TREASURY) - treasuryBefore).toBe(out.treasury);
      expect(supply(s) - supplyBefore).toBe(out.treasury + out.paid);
      const st = stakingState(s);
      expect({ emitted: st.emitted, carry: st.carry }).toEqual({ emitted: ref.emitted, carry: ref.carry });
      expect(st.emitted + st.carry).toBe(emissionTarget(s.ts - ref.start)); // emitted + held back = schedule
      treasuryBefore = ntv(s, TREASURY);
      supplyBefore = supply(s);
    }
    expect(ref.emitted + ref.carry).toBe(EMISSION_TOTAL);
    expect(ref.emitted).toBeLessThanOrEqual(EMISSION_TOTAL);
    const audit = auditSupply(s.store.map);
    expect(audit.sum).toBe(audit.supply);
  });

  it('at each epoch boundary releases what no fuller block drew on to the treasury: emitted equals the schedule', async () => {
    const s = await setup({ epochLength: 4 }, [0], 1000n * 10n ** 9n);
    let ref: EmissionState = { start: 0n, last: 0n, emitted: 0n, carry: 0n };
    const gasLimit = 21_000n * 4n;
    let proposed = 0n;
    for (let i = 0; i < 13; i++) {
      // mostly empty blocks, as on a quiet chain, with one full block in the second epoch
      const transfers = i === 5 ? 4 : i % 3 === 0 ? 1 : 0;
      const bundles: Array<[Uint8Array, ReturnType<typeof ops.claimRewards>[]]> = [];
      for (let k = 0; k < transfers; k++) bundles.push([addr(2 + k), [{ kind: 'transfer', to: addr(8), token: NTV, amount: 1n }]]);
      const treasuryBefore = ntv(s, TREASURY);
      const supplyBefore = supply(s);
      expect(block(s, bundles, { dt: 7n, blockGasLimit: gasLimit }).every((x) => x === Status.OK)).toBe(true);
      proposed += 1n;
      const out = blockEmission(ref, s.ts, 21_000n * BigInt(transfers), gasLimit, performanceBps(proposed, 0n));
      ref = out.state;
      let released = 0n;
      if (s.height % 4n === 0n) ({ released, state: ref } = epochRelease(ref));
      expect(ntv(s, TREASURY) - treasuryBefore).toBe(out.treasury + released);
      expect(supply(s) - supplyBefore).toBe(out.treasury + out.paid + released);
      const st = stakingState(s);
      expect({ emitted: st.emitted, carry: st.carry }).toEqual({ emitted: ref.emitted, carry: ref.carry });
      if (s.height % 4n === 0n && s.height > 0n) {
        expect(st.carry).toBe(0n);
        expect(st.emitted).toBe(emissionTarget(s.ts - ref.start)); // the schedule, exactly
      }
    }
    const audit = auditSupply(s.store.map);
    expect(audit.sum).toBe(audit.supply);
  });

  it('a full block pays 2.0× and an empty one 0.5× of the 85% share when the carry allows, in the core as in the reference', async () => {
    const s = await setup({}, [0], 1000n * 10n ** 9n);
    const gasLimit = 21_000n * 4n;
    const full = (): Array<[Uint8Array, ReturnType<typeof ops.claimRewards>[]]> =>
      [2, 3, 4, 5].map((k) => [addr(k), [{ kind: 'transfer', to: addr(8), token: NTV, amount: 1n }]]);
    block(s, [], { dt: 1n, blockGasLimit: gasLimit }); // starts the clock
    let ref: EmissionState = { start: s.ts, last: s.ts, emitted: 0n, carry: 0n };
    let proposed = 1n;
    const paidOf = (bundles: Parameters<typeof block>[1]) => {
      const [t0, s0] = [ntv(s, TREASURY), supply(s)];
      block(s, bundles, { dt: 1000n, blockGasLimit: gasLimit });
      proposed += 1n;
      return { treasury: ntv(s, TREASURY) - t0, paid: supply(s) - s0 - (ntv(s, TREASURY) - t0) };
    };
    const perf = () => performanceBps(proposed, 0n);
    // empty: 0.5× of the 85% share (times performance); the other half is held back
    const empty = paidOf([]);
    const e = blockEmission(ref, s.ts, 0n, gasLimit, perf());
    expect(empty).toEqual({ treasury: e.treasury, paid: e.paid });
    const pBase = (emissionTarget(1000n) - emissionTarget(0n)) - e.treasury;
    expect(e.paid).toBe((((pBase * 5000n) / 10000n) * perf()) / 10000n);
    ref = e.state;
    // full: 2.0× of the share, the extra drawn from what the empty block held back
    const fullPaid = paidOf(full());
    const f = blockEmission(ref, s.ts, gasLimit, gasLimit, perf());
    expect(fullPaid).toEqual({ treasury: f.treasury, paid: f.paid });
    expect(f.paid).toBeGreaterThan(e.paid * 3n); // 2.0× against 0.5× of nearly the same base
    expect(stakingState(s).carry).toBe(f.state.carry);
  });

  it('shares the proposer side: commission to the validator, the rest pro rata to self stake and delegators', async () => {
    const s = await setup({}, [0], 1000n * UNIT);
    const v = addr(0);
    // Block 1 starts the emission clock (no reward): the stakes are in place before any reward.
    expect(block(s, [[v, [ops.setCommission(1000)]], [addr(3), [ops.delegate(v, 3000n * UNIT)]], [addr(4), [ops.delegate(v, 1000n * UNIT)]]]))
      .toEqual([Status.OK, Status.OK, Status.OK]);
    let acc = 0n;
    let commission = 0n;
    const step = (bundles: Parameters<typeof block>[1]) => {
      const e0 = stakingState(s).emitted;
      const t0 = ntv(s, TREASURY);
      const statuses = block(s, bundles, { dt: 60n });
      const paid = stakingState(s).emitted - e0 - (ntv(s, TREASURY) - t0);
      expect(paid).toBeGreaterThan(0n);
      const sp = split(paid, 1000n, 5000n * UNIT);
      return { statuses, sp };
    };
    const absorb = (sp: ReturnType<typeof split>) => { acc += sp.accIncrement; commission += sp.commission; };
    for (let i = 0; i < 5; i++) absorb(step([]).sp);
    expect(validator(s, v).accRewardPerShare).toBe(acc);
    const share = (amount: bigint) => (amount * acc) / REWARD_PRECISION;
    for (const [who, amount] of [[addr(3), 3000n * UNIT], [addr(4), 1000n * UNIT]] as const) {
      const before = ntv(s, who);
      const expected = share(amount); // the claim settles before its own block is rewarded
      const r = step([[who, [ops.claimRewards()]]]);
      expect(r.statuses).toEqual([Status.OK]);
      expect(ntv(s, who) - before).toBe(expected);
      expect(delegation(s, v, who)!.pending).toBe(0n);
      absorb(r.sp);
    }
    const before = ntv(s, v);
    const expected = commission + share(1000n * UNIT);
    expect(step([[v, [ops.claimRewards()]]]).statuses).toEqual([Status.OK]);
    expect(ntv(s, v) - before).toBe(expected);
    expect(one(s, addr(5), ops.claimRewards())).toBe(Status.NOTHING_TO_CLAIM);
    const audit = auditSupply(s.store.map);
    expect(audit.sum).toBe(audit.supply);
    expect(audit.pools).toBeGreaterThanOrEqual(0n);
  });

  it('auto-compound restakes settled rewards at the epoch end with no transaction', async () => {
    const s = await setup({ epochLength: 10 }, [0], 1000n * UNIT);
    const v = addr(0);
    expect(block(s, [[addr(3), [ops.delegate(v, 3000n * UNIT), ops.setAutoCompound(v, true)]], [addr(4), [ops.delegate(v, 1000n * UNIT)]]]))
      .toEqual([Status.OK, Status.OK]);
    while (s.height < 9n) block(s, [], { dt: 30n });
    expect(delegation(s, v, addr(3))!.amount).toBe(3000n * UNIT);
    const stakedBefore = stakingState(s).totalStaked;
    block(s, [], { dt: 30n }); // height 10: the epoch boundary
    const acc = validator(s, v).accRewardPerShare;
    const d3 = delegation(s, v, addr(3))!;
    const gained = (3000n * UNIT * acc) / REWARD_PRECISION;
    expect(gained).toBeGreaterThan(0n);
    expect(d3).toMatchObject({ amount: 3000n * UNIT + gained, pending: 0n, autoCompound: true });
    expect(delegation(s, v, addr(4))!.amount).toBe(1000n * UNIT); // not auto-compounding: unchanged
    expect(validator(s, v).delegated).toBe(4000n * UNIT + gained);
    expect(stakingState(s).totalStaked).toBe(stakedBefore + gained);
    expect(stakingState(s).epoch).toBe(1);
    const audit = auditSupply(s.store.map);
    expect(audit.sum).toBe(audit.supply);
  });

  it('keeps supply = balances + staked + unbonding + unclaimed rewards + pools through a random mix of operations', async () => {
    const s = await setup({ epochLength: 7, unbondingSeconds: 100 }, [0, 1], 1000n * UNIT);
    const r = rng(11);
    const vals = [addr(0), addr(1)];
    for (let b = 0; b < 60; b++) {
      const bundles: Parameters<typeof block>[1] = [];
      for (let k = 0; k < 3; k++) {
        const who = addr(2 + r.int(6));
        const v = r.pick(vals);
        const pick = r.int(7);
        const op = pick === 0 ? ops.delegate(v, BigInt(1 + r.int(5000)) * UNIT + BigInt(r.int(1000)))
          : pick === 1 ? ops.undelegate(v, BigInt(1 + r.int(2000)) * UNIT)
          : pick === 2 ? ops.claimRewards()
          : pick === 3 ? ops.claimUnstake()
          : pick === 4 ? ops.setAutoCompound(v, r.chance(0.5))
          : pick === 5 ? { kind: 'transfer' as const, to: addr(2 + r.int(6)), token: NTV, amount: BigInt(r.int(10_000)) }
          : ops.claimRewards();
        bundles.push([who, [op]]);
      }
      if (r.chance(0.2)) bundles.push([r.pick(vals), [ops.claimRewards()]]);
      block(s, bundles, { dt: BigInt(1 + r.int(40)), proposer: r.pick(vals), missed: r.chance(0.3) ? [key(1)] : [] });
      const audit = auditSupply(s.store.map);
      expect(audit.sum).toBe(audit.supply);
    }
    expect(stakingState(s).emitted).toBeGreaterThan(0n);
  });
});
