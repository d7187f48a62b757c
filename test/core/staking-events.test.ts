// The staking events (docs/staking.md "Events"; kinds 59–71): every successful staking operation
// leaves exactly one event with its fields, a failed one none, and the events change no state root
// (they are not part of any root: docs/core-abi.md "Event kinds and data"). The core's bytes are
// checked against the reference encoder (testkit/staking-reference.ts stakingEventBytes), which
// predicts each event from the operation and the state before and after it, on random sequences.
import { describe, expect, it } from 'vitest';
import { Status } from '../../src/core/status.js';
import { decodeEvent, type CoreEvent } from '../../src/core/events.js';
import { accountOfConsensusKey } from '../../src/chain/validator-set.js';
import { DEFAULT_CHAIN_PARAMS } from '../../src/chain/chain-params.js';
import { addr, hex, type Op } from '../../testkit/encode.js';
import { stakingEventBytes, type RefStakingEvent } from '../../testkit/staking-reference.js';
import { UNIT, key, ops, setup, block, ntv, validator, delegation, unbonding, doubleSign, type Setup } from './staking-harness.js';

const MIN = 1000n * UNIT;
const UNBONDING = BigInt(DEFAULT_CHAIN_PARAMS.unbondingSeconds);
const EPOCH = BigInt(DEFAULT_CHAIN_PARAMS.epochLength);
const STAKING_KINDS = new Set(['Staked', 'Delegated', 'Unstaked', 'Undelegated', 'UnstakeClaimed', 'RewardsClaimed', 'CommissionSet', 'ValidatorUnjailed',
  'AutoCompoundSet', 'PoolConfigSet', 'ValidatorMetadataSet', 'DoubleSignReported', 'ConsensusKeyRotationQueued']);

const stakingEvents = (s: Setup): CoreEvent[] => (s.events ?? []).filter((e) => STAKING_KINDS.has(e.kind));
/** The reference event as the host decodes its bytes, at bundle 0 and operation `op`. */
const want = (e: RefStakingEvent, op = 0): CoreEvent => {
  const { kind, data } = stakingEventBytes(e);
  return decodeEvent(0, op, kind, data);
};

/** A small deterministic generator (xorshift32). */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x;
  };
  return { int: (n: number) => next() % n, pick: <T>(a: readonly T[]): T => a[next() % a.length]!, chance: (p: number) => next() / 2 ** 32 < p };
}

describe('staking events (core against the reference encoder)', () => {
  it('each operation leaves its event with its fields; a failed one leaves none', async () => {
    const s = await setup({ commissionCooldownBlocks: 1 }, [0, 1]);
    const [v, d] = [addr(1), addr(3)];
    const one = (user: Uint8Array, op: Op, over: { dt?: bigint; timestamp?: bigint } = {}) => block(s, [[user, [op]]], over)[0];

    expect(one(addr(2), ops.stake(MIN, key(2)))).toBe(Status.OK);
    expect(stakingEvents(s)).toEqual([want({ kind: 'Staked', validator: addr(2), consensusKey: key(2), amount: MIN, selfStake: MIN, created: true })]);
    expect(one(addr(2), ops.stake(5n * UNIT, key(2)))).toBe(Status.OK);
    expect(stakingEvents(s)).toEqual([want({ kind: 'Staked', validator: addr(2), consensusKey: key(2), amount: 5n * UNIT, selfStake: MIN + 5n * UNIT, created: false })]);
    expect(one(addr(4), ops.stake(MIN, key(2)))).toBe(Status.CONSENSUS_KEY_TAKEN);
    expect(stakingEvents(s)).toEqual([]);

    expect(one(d, ops.delegate(v, 40n * UNIT))).toBe(Status.OK);
    expect(stakingEvents(s)).toEqual([want({ kind: 'Delegated', validator: v, delegator: d, amount: 40n * UNIT, delegation: 40n * UNIT })]);
    expect(one(d, ops.undelegate(v, 15n * UNIT))).toBe(Status.OK);
    const undelegatedAt = s.ts;
    expect(stakingEvents(s)).toEqual([want({ kind: 'Undelegated', validator: v, delegator: d, amount: 15n * UNIT, remaining: 25n * UNIT, releaseTime: undelegatedAt + UNBONDING })]);
    expect(one(addr(2), ops.unstake(1n * UNIT))).toBe(Status.OK);
    expect(stakingEvents(s)).toEqual([want({ kind: 'Unstaked', validator: addr(2), delegator: addr(2), amount: UNIT, remaining: MIN + 4n * UNIT, releaseTime: s.ts + UNBONDING })]);
    const before = ntv(s, d);
    expect(one(d, ops.claimUnstake(), { timestamp: undelegatedAt + UNBONDING })).toBe(Status.OK);
    expect(stakingEvents(s)).toEqual([want({ kind: 'UnstakeClaimed', account: d, amount: 15n * UNIT, pendingEntries: 0 })]);
    expect(ntv(s, d) - before).toBe(15n * UNIT);

    expect(one(v, ops.setCommission(700))).toBe(Status.OK);
    expect(stakingEvents(s)).toEqual([want({ kind: 'CommissionSet', validator: v, oldBps: 0, newBps: 700 })]);
    expect(one(d, ops.setAutoCompound(v, true))).toBe(Status.OK);
    expect(stakingEvents(s)).toEqual([want({ kind: 'AutoCompoundSet', validator: v, delegator: d, enabled: true })]);
    expect(one(v, ops.setPoolConfig(true, 'Pool One', 10n * UNIT, true))).toBe(Status.OK);
    expect(stakingEvents(s)).toEqual([want({ kind: 'PoolConfigSet', validator: v, enabled: true, minDelegation: 10n * UNIT, autoCompoundDefault: true, name: 'Pool One' })]);
    expect(one(v, ops.setMetadata('Val', 'a validator', 'https://v.example', ''))).toBe(Status.OK);
    expect(stakingEvents(s)).toEqual([want({ kind: 'ValidatorMetadataSet', validator: v, name: 'Val', description: 'a validator', website: 'https://v.example', avatarUrl: '' })]);
    expect(one(v, ops.rotate(key(9)))).toBe(Status.OK);
    expect(stakingEvents(s)).toEqual([want({ kind: 'ConsensusKeyRotationQueued', validator: v, newKey: key(9), epoch: s.height / EPOCH })]);

    expect(one(addr(5), doubleSign(key(1), 7n))).toBe(Status.OK);
    const jailedAt = s.ts;
    expect(stakingEvents(s)).toEqual([want({ kind: 'DoubleSignReported', validator: v, consensusKey: key(1), reporter: addr(5), height: 7n, offences: 1, jailedUntil: jailedAt + 3600n })]);
    expect(one(v, ops.unjail(), { timestamp: jailedAt + 3600n })).toBe(Status.OK);
    expect(stakingEvents(s)).toEqual([want({ kind: 'ValidatorUnjailed', validator: v })]);

    // addr(0) proposes every block, so its own delegation earns
    const bal = ntv(s, addr(0));
    expect(one(addr(0), ops.claimRewards())).toBe(Status.OK);
    const paid = ntv(s, addr(0)) - bal;
    expect(paid > 0n).toBe(true);
    expect(stakingEvents(s)).toEqual([want({ kind: 'RewardsClaimed', account: addr(0), amount: paid })]);
  });

  it('numbers each event by its operation in the bundle; a later failing operation takes the earlier one\'s event back', async () => {
    const s = await setup({ commissionCooldownBlocks: 1 }, [0, 1]);
    const v = addr(1);
    expect(block(s, [[v, [ops.setCommission(100), ops.setMetadata('N', '', '', '')]]])).toEqual([Status.OK]);
    expect(stakingEvents(s)).toEqual([
      want({ kind: 'CommissionSet', validator: v, oldBps: 0, newBps: 100 }, 0),
      want({ kind: 'ValidatorMetadataSet', validator: v, name: 'N', description: '', website: '', avatarUrl: '' }, 1),
    ]);
    expect(block(s, [[v, [ops.setCommission(200), ops.setCommission(9999)]]])).toEqual([Status.COMMISSION_TOO_HIGH]);
    expect(stakingEvents(s)).toEqual([]);
    expect(validator(s, v).commissionBps).toBe(100);
  });

  it('random sequences: an OK operation leaves the event the reference predicts, a failed one none', async () => {
    const okKinds = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = rng(seed * 7919);
      const s = await setup({ commissionCooldownBlocks: 3 }, [0, 1]);
      const users = [0, 1, 2, 3, 4, 5, 6].map(addr);
      const targets = [0, 1, 2, 3, 4, 5, 6].map(addr);
      const amounts = [0n, UNIT, 7n * UNIT, 300n * UNIT, MIN - 1n, MIN, 5_000n * UNIT, 10n ** 30n];
      for (let step = 0; step < 160; step++) {
        const u = r.pick(users);
        const pre = validator(s, u) as ReturnType<typeof validator> | undefined;
        const target = r.pick(targets);
        const preDel = (vv: Uint8Array) => delegation(s, vv, u)?.amount ?? 0n;
        const preBal = ntv(s, u);
        const dt = r.chance(0.1) ? 22n * 86_400n : 2n;
        const ts = s.ts + dt;
        const height = s.height + 1n;
        let op: Op;
        let expect_: () => RefStakingEvent;
        switch (r.int(13)) {
          case 0: {
            const amount = r.pick(amounts);
            const k = pre && r.chance(0.8) ? pre.consensusKey : key(2 + r.int(12));
            op = ops.stake(amount, k);
            expect_ = () => ({ kind: 'Staked', validator: u, consensusKey: k, amount, selfStake: validator(s, u).selfStake, created: pre === undefined });
            break;
          }
          case 1: {
            const cur = preDel(u);
            const amount = cur > 0n && r.chance(0.7) ? 1n + BigInt(r.int(Number(cur / UNIT) + 1)) * UNIT / 2n : r.pick(amounts);
            op = ops.unstake(amount);
            expect_ = () => ({ kind: 'Unstaked', validator: u, delegator: u, amount, remaining: cur - amount, releaseTime: ts + UNBONDING });
            break;
          }
          case 2: {
            const amount = r.pick(amounts);
            op = ops.delegate(target, amount);
            expect_ = () => ({ kind: 'Delegated', validator: target, delegator: u, amount, delegation: delegation(s, target, u)!.amount });
            break;
          }
          case 3: {
            const cur = preDel(target);
            const amount = cur > 0n && r.chance(0.7) ? cur / 2n + 1n : r.pick(amounts);
            op = ops.undelegate(target, amount);
            expect_ = () => ({ kind: 'Undelegated', validator: target, delegator: u, amount, remaining: cur - amount, releaseTime: ts + UNBONDING });
            break;
          }
          case 4:
            op = ops.claimUnstake();
            expect_ = () => ({ kind: 'UnstakeClaimed', account: u, amount: ntv(s, u) - preBal, pendingEntries: unbonding(s, u).length });
            break;
          case 5:
            op = ops.claimRewards();
            expect_ = () => ({ kind: 'RewardsClaimed', account: u, amount: ntv(s, u) - preBal });
            break;
          case 6: {
            const bps = r.int(6000);
            op = ops.setCommission(bps);
            expect_ = () => ({ kind: 'CommissionSet', validator: u, oldBps: pre!.commissionBps, newBps: bps });
            break;
          }
          case 7:
            op = ops.unjail();
            expect_ = () => ({ kind: 'ValidatorUnjailed', validator: u });
            break;
          case 8: {
            const on = r.chance(0.5);
            op = ops.setAutoCompound(target, on);
            expect_ = () => ({ kind: 'AutoCompoundSet', validator: target, delegator: u, enabled: on });
            break;
          }
          case 9: {
            const [on, acd] = [r.chance(0.5), r.chance(0.5)];
            const name = r.pick(['', 'pool', 'Pööl ✓', 'x'.repeat(65)]);
            const min = r.pick(amounts);
            op = ops.setPoolConfig(on, name, min, acd);
            expect_ = () => ({ kind: 'PoolConfigSet', validator: u, enabled: on, minDelegation: min, autoCompoundDefault: acd, name });
            break;
          }
          case 10: {
            const f = () => r.pick(['', 'Validator', 'ünïcode', 'https://x.example/a.png', 'y'.repeat(300)]);
            const [name, description, website, avatarUrl] = [f(), f(), f(), f()];
            op = ops.setMetadata(name, description, website, avatarUrl);
            expect_ = () => ({ kind: 'ValidatorMetadataSet', validator: u, name, description, website, avatarUrl });
            break;
          }
          case 11: {
            const k = key(r.int(14));
            const h = BigInt(1 + r.int(40));
            const accused = accountOfConsensusKey(s.store, k);
            op = doubleSign(k, h);
            expect_ = () => {
              const after = validator(s, accused!);
              return { kind: 'DoubleSignReported', validator: accused!, consensusKey: k, reporter: u, height: h, offences: after.offences, jailedUntil: BigInt(after.jailReleaseTime) };
            };
            break;
          }
          default: {
            const k = key(2 + r.int(12));
            op = ops.rotate(k);
            expect_ = () => ({ kind: 'ConsensusKeyRotationQueued', validator: u, newKey: k, epoch: height / EPOCH });
            break;
          }
        }
        const [status] = block(s, [[u, [op]]], { dt });
        const got = stakingEvents(s);
        const context = `seed ${seed} step ${step} status ${status} user ${hex(u).slice(0, 8)}`;
        if (status === Status.OK) {
          expect(got, context).toEqual([want(expect_())]);
          okKinds.add(got[0]!.kind);
        }
        else expect(got, context).toEqual([]);
      }
    }
    // the sequences reach every kind (a generator that stopped producing one would test nothing)
    expect([...okKinds].sort()).toEqual([...STAKING_KINDS].sort());
  });
});
