// Upgrade governance in the core (spec §3 "Node upgrade", §4.13, §8; docs/upgrades.md): the
// genesis configuration, ScheduleUpgrade / VoteUpgrade / CancelUpgrade and their statuses in order,
// both governance modes, expiry and application at the plan's height, and the 100-block grace in
// which skipped leaders are not counted as missed.
import { describe, expect, it } from 'vitest';
import { Core, CoreStatusError } from '../../src/core/core.js';
import { Status } from '../../src/core/status.js';
import { DEFAULT_CHAIN_PARAMS, encodeChainParams } from '../../src/chain/chain-params.js';
import { encodeUpgradeConfig, governanceFromFlags, readGovernance, readPlan, readUpgradeStatus, readUpgradeVote, upgradeHaltAt } from '../../src/domains/upgrades/reader.js';
import { UPGRADE_CONFIG_KEY } from '../../src/abi/state.js';
import { deriveAccount } from '../../src/codec/address.js';
import { W, addr, hex, type Op } from '../../testkit/encode.js';
import { MapStore, genesisConfig } from './harness.js';
import { block, bundleOf, key, runTo, validator, UNIT, type Setup, T0 } from './staking-harness.js';
import type { BlockContext } from '../../src/core/core.js';
import type { BlockResultView } from '../../src/core/block-result.js';

const CHECKSUM = new Uint8Array(32).fill(0xab);
export const upgradeOps = {
  schedule: (name: string, height: bigint, binaryUrl = 'https://example.org/ntv-node-2.tgz', checksum = CHECKSUM, infoUrl = 'https://example.org/notes'): Op => {
    const w = new W(); w.str(name); w.u64(height); w.str(binaryUrl); w.raw(checksum); w.str(infoUrl); return { kind: 'raw', disc: 15, bytes: w.bytes() };
  },
  cancel: (name: string): Op => { const w = new W(); w.str(name); return { kind: 'raw', disc: 16, bytes: w.bytes() }; },
  vote: (name: string, approve: boolean): Op => { const w = new W(); w.str(name); w.u8(approve ? 1 : 0); return { kind: 'raw', disc: 17, bytes: w.bytes() }; },
};
const { schedule, cancel, vote } = upgradeOps;

const AUTH_KEY = new Uint8Array(32).fill(0x42);
const AUTHORITY = deriveAccount(AUTH_KEY);
const GOVERNANCE = (() => { const a = new Uint8Array(32); a[31] = 9; return a; })();

/** A genesis with staking (validators addr(0..n-1), `stakes`) and the given governance flags. */
async function setup(flags: Parameters<typeof governanceFromFlags>[0] | undefined, stakes: bigint[] = [1000n * UNIT]): Promise<Setup> {
  const store = new MapStore();
  const core = await Core.create(store);
  const cfg = genesisConfig(10);
  cfg.balances.push({ account: AUTHORITY, mint: new Uint8Array(32), amount: 10n ** 15n });
  cfg.chainParams = encodeChainParams({ ...DEFAULT_CHAIN_PARAMS, epochLength: 10_000 });
  cfg.validators = stakes.map((stake, i) => ({ consensusKey: key(i), account: addr(i), stake, source: addr(9) }));
  if (flags) cfg.upgradeConfig = encodeUpgradeConfig(governanceFromFlags(flags));
  core.genesis(cfg);
  store.apply(core.commitBlock().writes);
  return { core, store, nonces: new Map(), height: 0n, ts: T0 };
}
const one = (s: Setup, user: Uint8Array, op: Op) => block(s, [[user, [op]]])[0]!;
/** One block of one bundle, committed; the result with its events (nonces advance as in block()). */
function applyOne(s: Setup, user: Uint8Array, op: Op, over: Partial<BlockContext> = {}): BlockResultView {
  s.height += 1n;
  s.ts += 2n;
  const r = s.core.applyBlock({
    height: s.height, timestamp: s.ts, proposer: addr(0), gasPrice: 0n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 10_000_000n, ...over,
  }, [bundleOf(s, user, [op])]);
  s.store.apply(s.core.commitBlock().writes);
  if (r.results[0]!.status === 0) s.nonces.set(hex(user), (s.nonces.get(hex(user)) ?? 0n) + 1n);
  return r;
}

describe('upgrade governance: genesis configuration (0x5C)', () => {
  it('a default genesis writes no record and reads as the defaults; the flags write the record', async () => {
    const s = await setup(undefined);
    expect(s.store.get(UPGRADE_CONFIG_KEY)).toBeUndefined();
    expect(readGovernance(s.store)).toMatchObject({ mode: 'seed-authority', quorumPercent: 67, votingPeriod: 500 });
    const f = await setup({ mode: 'full', quorumPercent: 75, votingPeriod: 20 });
    expect(readGovernance(f.store)).toMatchObject({ mode: 'full', quorumPercent: 75, votingPeriod: 20 });
    const a = await setup({ authority: hex(AUTH_KEY) });
    expect(hex(readGovernance(a.store).authority)).toBe(hex(AUTHORITY));
  });

  it('refuses a malformed configuration (INVALID_GENESIS) and leaves no trace', async () => {
    for (const bad of [
      Uint8Array.of(...encodeUpgradeConfig(governanceFromFlags({})).subarray(0, 42)), // short
      (() => { const b = encodeUpgradeConfig(governanceFromFlags({})); b[1] = 2; return b; })(), // unknown mode
      (() => { const b = encodeUpgradeConfig(governanceFromFlags({})); b[2] = 0; return b; })(), // quorum 0
      (() => { const b = encodeUpgradeConfig(governanceFromFlags({})); b[2] = 101; return b; })(), // quorum 101
      (() => { const b = encodeUpgradeConfig(governanceFromFlags({})); b.fill(0, 3, 11); return b; })(), // period 0
    ]) {
      const store = new MapStore();
      const core = await Core.create(store);
      const cfg = { ...genesisConfig(2), upgradeConfig: bad };
      expect(() => core.genesis(cfg)).toThrow(CoreStatusError);
    }
    expect(() => governanceFromFlags({ mode: 'full', authority: hex(AUTH_KEY) })).toThrow(/seed-authority only/);
    expect(() => governanceFromFlags({ quorumPercent: 0 })).toThrow(/--upgrade-quorum/);
    expect(() => governanceFromFlags({ votingPeriod: 0 })).toThrow(/--voting-period/);
    expect(() => governanceFromFlags({ authority: 'zz' })).toThrow(/--upgrade-authority/);
  });
});

describe('upgrade governance: seed-authority mode', () => {
  it('a plan scheduled by anyone waits for the authority; its approval makes it due; at its height it is applied', async () => {
    const s = await setup({ authority: hex(AUTH_KEY) });
    const r = applyOne(s, addr(3), schedule('v0.2.0', 10n));
    expect(r.results[0]).toEqual({ status: Status.OK, gasUsed: 65_000n, fee: 0n, nonce: 0n });
    expect(r.events).toHaveLength(1);
    expect(r.events[0]).toMatchObject({ kind: 'UpgradeScheduled', height: 10n, state: 0, name: 'v0.2.0' });
    const plan = readPlan(s.store, 'v0.2.0')!;
    expect(plan).toMatchObject({ state: 'pending', height: 10, createdHeight: 1, deadline: 501, decidedHeight: 0, binaryUrl: 'https://example.org/ntv-node-2.tgz', infoUrl: 'https://example.org/notes' });
    expect(hex(plan.checksum)).toBe(hex(CHECKSUM));
    expect(hex(plan.proposer)).toBe(hex(addr(3)));
    expect(readUpgradeStatus(s.store)).toEqual({ active: 'v0.2.0' });
    // Only the authority may vote; a second plan waits for this one.
    expect(one(s, addr(3), vote('v0.2.0', true))).toBe(Status.NOT_UPGRADE_VOTER);
    expect(one(s, addr(4), schedule('v0.3.0', 20n))).toBe(Status.UPGRADE_PLAN_ACTIVE);
    const v = applyOne(s, AUTHORITY, vote('v0.2.0', true));
    expect(v.results[0]!.status).toBe(Status.OK);
    expect(v.results[0]!.gasUsed).toBe(65_000n);
    expect(v.events[0]).toMatchObject({ kind: 'UpgradeVoted', approve: true, state: 1, name: 'v0.2.0' });
    expect(readPlan(s.store, 'v0.2.0')).toMatchObject({ state: 'approved', decidedHeight: 4, yes: 1n });
    expect(readUpgradeVote(s.store, AUTHORITY, 'v0.2.0')).toBe(true);
    expect(one(s, AUTHORITY, vote('v0.2.0', true))).toBe(Status.UPGRADE_NOT_PENDING);
    // The proposer can no longer cancel an approved plan; the authority could, until its height.
    expect(one(s, addr(3), cancel('v0.2.0'))).toBe(Status.NOT_UPGRADE_AUTHORITY);
    // The host's halt rule: a binary without the plan stops before block 10, one with it does not.
    runTo(s, 9n);
    expect(upgradeHaltAt(s.store, 10, () => false)?.name).toBe('v0.2.0');
    expect(upgradeHaltAt(s.store, 9, () => false)).toBeUndefined();
    expect(upgradeHaltAt(s.store, 10, (n) => n === 'v0.2.0')).toBeUndefined();
    // Block 10 is executed by the new release: too late to cancel; applied at its end.
    expect(one(s, AUTHORITY, cancel('v0.2.0'))).toBe(Status.UPGRADE_HEIGHT_PASSED);
    expect(readPlan(s.store, 'v0.2.0')).toMatchObject({ state: 'applied', decidedHeight: 10 });
    expect(readUpgradeStatus(s.store)).toEqual({ applied: { name: 'v0.2.0', height: 10 } });
    // Past the upgrade, a release that does not know it executes nothing (a rolled-back old binary).
    expect(upgradeHaltAt(s.store, 11, () => false)?.name).toBe('v0.2.0');
    expect(upgradeHaltAt(s.store, 11, (n) => n === 'v0.2.0')).toBeUndefined();
    // The name is never reused; the next plan may be scheduled now.
    expect(one(s, AUTHORITY, schedule('v0.2.0', 30n))).toBe(Status.UPGRADE_NAME_TAKEN);
    expect(one(s, AUTHORITY, schedule('v0.3.0', 30n))).toBe(Status.OK);
    expect(readPlan(s.store, 'v0.3.0')).toMatchObject({ state: 'approved', decidedHeight: 12 }); // scheduled by the authority: approved at once
    expect(readUpgradeStatus(s.store)).toEqual({ active: 'v0.3.0', applied: { name: 'v0.2.0', height: 10 } });
  });

  it('refuses ScheduleUpgrade in the documented order, changing nothing', async () => {
    const s = await setup({ authority: hex(AUTH_KEY) });
    runTo(s, 5n);
    const long = 'x'.repeat(513);
    const cases: Array<[Op, number]> = [
      [schedule('', 10n), Status.INVALID_UPGRADE_NAME],
      [schedule('v 2', 10n), Status.INVALID_UPGRADE_NAME],
      [schedule('..', 10n), Status.INVALID_UPGRADE_NAME],
      [schedule('v'.repeat(65), 10n), Status.INVALID_UPGRADE_NAME],
      [schedule('v2', 10n, long), Status.INVALID_UPGRADE_URL],
      [schedule('v2', 10n, '', CHECKSUM, long), Status.INVALID_UPGRADE_URL],
      [schedule('v2', 6n, long.slice(1)), Status.UPGRADE_HEIGHT_PASSED], // the block is 6: a past or current height
      [schedule('v2', 3n), Status.UPGRADE_HEIGHT_PASSED],
      [schedule('v2', 20n, '', new Uint8Array(32)), Status.INVALID_UPGRADE_CHECKSUM],
    ];
    const upgradeKeys = () => [...s.store.map.keys()].filter((k) => ['5d', '5e', '5f'].includes(k.slice(0, 2))).length;
    for (const [op, status] of cases) {
      expect(one(s, addr(2), op)).toBe(status);
      expect(upgradeKeys()).toBe(0);
    }
    expect(readUpgradeStatus(s.store)).toEqual({});
    // A valid plan with empty URLs (operators place the release themselves).
    expect(one(s, addr(2), schedule('v2', 100n, '', CHECKSUM, ''))).toBe(Status.OK);
    expect(readPlan(s.store, 'v2')).toMatchObject({ state: 'pending', binaryUrl: '', infoUrl: '' });
  });

  it('votes, cancels and expiry: rejection, the proposer cancelling, the voting period, the last block before the height', async () => {
    const s = await setup({ authority: hex(AUTH_KEY), votingPeriod: 5 });
    expect(one(s, addr(1), vote('nope', true))).toBe(Status.UPGRADE_NOT_FOUND);
    expect(one(s, addr(1), cancel('nope'))).toBe(Status.UPGRADE_NOT_FOUND);
    // Rejected by the authority: no longer active, a new plan may follow.
    expect(one(s, addr(1), schedule('a', 50n))).toBe(Status.OK);
    expect(one(s, AUTHORITY, vote('a', false))).toBe(Status.OK);
    expect(readPlan(s.store, 'a')).toMatchObject({ state: 'rejected', decidedHeight: 4 });
    expect(one(s, addr(1), cancel('a'))).toBe(Status.UPGRADE_NOT_ACTIVE);
    // Cancelled by its proposer while pending; another account may not.
    expect(one(s, addr(1), schedule('b', 50n))).toBe(Status.OK);
    expect(one(s, addr(2), cancel('b'))).toBe(Status.NOT_UPGRADE_AUTHORITY);
    const c = applyOne(s, addr(1), cancel('b'));
    expect(c.events[0]).toMatchObject({ kind: 'UpgradeCancelled', name: 'b' });
    expect(readPlan(s.store, 'b')).toMatchObject({ state: 'cancelled' });
    expect(one(s, AUTHORITY, vote('b', true))).toBe(Status.UPGRADE_NOT_PENDING);
    // The voting period (5 blocks): scheduled at 10, deadline 15; expires at the end of block 15.
    expect(one(s, addr(1), schedule('c', 50n))).toBe(Status.OK);
    expect(readPlan(s.store, 'c')).toMatchObject({ createdHeight: 10, deadline: 15 });
    runTo(s, 14n);
    expect(readPlan(s.store, 'c')!.state).toBe('pending');
    block(s, []);
    expect(readPlan(s.store, 'c')).toMatchObject({ state: 'expired', decidedHeight: 15 });
    expect(one(s, AUTHORITY, vote('c', true))).toBe(Status.UPGRADE_NOT_PENDING); // block 16
    // A pending plan whose height is the next block expires: an approval must land before it.
    expect(one(s, addr(1), schedule('d', 20n))).toBe(Status.OK); // block 17
    runTo(s, 18n);
    expect(readPlan(s.store, 'd')!.state).toBe('pending');
    block(s, []); // block 19: the next is the plan's height
    expect(readPlan(s.store, 'd')).toMatchObject({ state: 'expired', decidedHeight: 19 });
    expect(readUpgradeStatus(s.store)).toEqual({});
    // An approval in the block before the height still counts (pending at 21, height 23, approved at 22).
    expect(one(s, addr(1), schedule('e', 23n))).toBe(Status.OK); // block 20
    block(s, []);
    expect(one(s, AUTHORITY, vote('e', true))).toBe(Status.OK); // block 22
    expect(readPlan(s.store, 'e')!.state).toBe('approved');
    expect(upgradeHaltAt(s.store, 23, () => false)?.name).toBe('e');
  });

  it('without an authority key only 0x00…09 decides; it acts as the authority in both modes', async () => {
    const s = await setup(undefined);
    expect(one(s, addr(1), schedule('g', 50n))).toBe(Status.OK);
    expect(one(s, addr(2), vote('g', true))).toBe(Status.NOT_UPGRADE_VOTER);
    expect(one(s, GOVERNANCE, vote('g', true))).toBe(Status.OK);
    expect(readPlan(s.store, 'g')!.state).toBe('approved');
    expect(one(s, GOVERNANCE, cancel('g'))).toBe(Status.OK);
    expect(readPlan(s.store, 'g')!.state).toBe('cancelled');
  });

  it('a failing later operation reverts the schedule with the bundle', async () => {
    const s = await setup({ authority: hex(AUTH_KEY) });
    const st = block(s, [[addr(1), [schedule('h', 50n), vote('h', true)]]])[0];
    expect(st).toBe(Status.NOT_UPGRADE_VOTER);
    expect(readPlan(s.store, 'h')).toBeUndefined();
    expect(readUpgradeStatus(s.store)).toEqual({});
  });
});

describe('upgrade governance: full mode (stake-weighted validator vote)', () => {
  it('passes at quorum% of the active stake, counts each validator once, and refuses non-validators', async () => {
    // Four validators of 100, 200, 300, 400: total 1,000. Quorum 67%: 670 must approve.
    const s = await setup({ mode: 'full' }, [100n, 200n, 300n, 400n].map((x) => x * 1000n * UNIT));
    expect(one(s, addr(7), schedule('f', 100n))).toBe(Status.NOT_UPGRADE_VOTER); // only validators propose
    expect(one(s, addr(0), schedule('f', 100n))).toBe(Status.OK);
    expect(readPlan(s.store, 'f')!.state).toBe('pending'); // proposing is not voting
    expect(one(s, addr(7), vote('f', true))).toBe(Status.NOT_UPGRADE_VOTER);
    expect(one(s, addr(3), vote('f', true))).toBe(Status.OK); // 400
    expect(readPlan(s.store, 'f')).toMatchObject({ state: 'pending', yes: 400_000n * UNIT, no: 0n });
    expect(one(s, addr(3), vote('f', false))).toBe(Status.ALREADY_VOTED_UPGRADE);
    expect(one(s, addr(0), vote('f', false))).toBe(Status.OK); // 100 against: 900 could still pass it
    expect(readPlan(s.store, 'f')).toMatchObject({ state: 'pending', yes: 400_000n * UNIT, no: 100_000n * UNIT });
    expect(one(s, addr(1), vote('f', true))).toBe(Status.OK); // 600 < 670
    expect(readPlan(s.store, 'f')!.state).toBe('pending');
    const r = applyOne(s, addr(2), vote('f', true)); // 900 ≥ 670
    expect(r.events[0]).toMatchObject({ kind: 'UpgradeVoted', approve: true, state: 1 });
    expect(readPlan(s.store, 'f')).toMatchObject({ state: 'approved', yes: 900_000n * UNIT, no: 100_000n * UNIT });
    // An approved plan is the validators' decision: its proposer cannot cancel it, 0x00…09 can.
    expect(one(s, addr(0), cancel('f'))).toBe(Status.NOT_UPGRADE_AUTHORITY);
  });

  it('is rejected once the rest could no longer reach the quorum', async () => {
    const s = await setup({ mode: 'full', quorumPercent: 50 }, [100n, 200n, 300n, 400n].map((x) => x * 1000n * UNIT));
    expect(one(s, addr(0), schedule('r', 100n))).toBe(Status.OK);
    expect(one(s, addr(3), vote('r', false))).toBe(Status.OK); // 400 ≤ 500: still open
    expect(readPlan(s.store, 'r')!.state).toBe('pending');
    expect(one(s, addr(0), vote('r', false))).toBe(Status.OK); // 500 against: 500 for is still exactly 50%
    expect(readPlan(s.store, 'r')!.state).toBe('pending');
    expect(one(s, addr(1), vote('r', false))).toBe(Status.OK); // 700 against
    expect(readPlan(s.store, 'r')).toMatchObject({ state: 'rejected', no: 700_000n * UNIT });
    expect(readUpgradeStatus(s.store)).toEqual({});
  });
});

describe('upgrade governance: the grace period (spec §8: 100 blocks)', () => {
  it('skipped leaders are not counted as missed from the applied height for 100 blocks, and are again after', async () => {
    const s = await setup({ authority: hex(AUTH_KEY) }, [1000n * UNIT, 1000n * UNIT]);
    block(s, [], { missed: [key(1)] });
    expect(validator(s, addr(1)).blocksMissed).toBe(1n);
    expect(one(s, AUTHORITY, schedule('v2', 10n))).toBe(Status.OK);
    runTo(s, 9n);
    block(s, [], { missed: [key(1)] }); // block 10: the upgrade's height, already in grace
    expect(readUpgradeStatus(s.store).applied).toEqual({ name: 'v2', height: 10 });
    for (let h = 11; h <= 109; h++) block(s, [], { missed: [key(1)] });
    expect(validator(s, addr(1)).blocksMissed).toBe(1n);
    expect(validator(s, addr(1)).missedInRow).toBe(1); // the one miss before the upgrade
    block(s, [], { missed: [key(1)] }); // block 110: grace over
    expect(s.height).toBe(110n);
    expect(validator(s, addr(1)).blocksMissed).toBe(2n);
    expect(validator(s, addr(1)).blocksProposed).toBe(0n);
    expect(validator(s, addr(0)).blocksProposed).toBe(110n); // the proposer is still counted in grace
  });
});
