// Schedules in the core (CreateSchedule 49, CancelSchedule 50, the due runs of apply_block;
// docs/schedules.md): runs at the right block, bounded per block with carry-over,
// cancel, the Conditional price trigger and its limit-derived min-out, failures that pay gas, expiry,
// and two cores fed the same blocks agreeing on every run and state root.
import { describe, expect, it } from 'vitest';
import { Core, type BlockContext, type BundleInput } from '../../src/core/core.js';
import { Status } from '../../src/core/status.js';
import { encodeBundle, decodeBundle, type Operation, type ScheduleTrigger } from '../../src/codec/bundle.js';
import { lookupSchedule, lookupScheduleRun, scheduleCursor, scheduleId, scheduleSlot, SLOT_SECONDS } from '../../src/domains/schedules/reader.js';
import type { BlockResultView } from '../../src/core/block-result.js';
import { SCHEDULE_RUN_INDEX, type ScheduleRunEvent } from '../../src/core/events.js';
import { addr, hex } from '../../testkit/encode.js';
import { MapStore, NTV, genesisConfig, mintOf } from './harness.js';

// A slot-aligned start, so "same slot" and "next slot" are plain arithmetic in the tests.
const T0 = 1_700_000_040n;
const BIG = 10n ** 15n;

const ctx = (height: bigint, timestamp: bigint, over: Partial<BlockContext> = {}): BlockContext => ({
  height, timestamp, proposer: addr(500), gasPrice: 0n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 100_000_000n, ...over,
});
const bundle = (user: Uint8Array, nonce: bigint, operations: Operation[], validUntil = 1n << 63n): BundleInput => ({
  bytes: encodeBundle({ userAccount: user, operations, maxGas: 10_000_000n, maxPriorityFee: 0n, validUntil, nonce, signature: new Uint8Array(0) }),
  auth: 0,
});
const pay = (to: Uint8Array, amount: bigint, token = NTV): Operation => ({ type: 'Transfer', to, token, amount });
const every = (interval: bigint, runs: number, firstRun = 0n): ScheduleTrigger => ({ kind: 'Recurring', intervalSeconds: interval, runs, firstRun });
const create = (trigger: ScheduleTrigger, operations: Operation[]): Operation => ({ type: 'CreateSchedule', trigger, operations });

class Chain {
  height = 0n;
  constructor(readonly core: Core, readonly store: MapStore) {}
  static async open(): Promise<Chain> {
    const store = new MapStore();
    const core = await Core.create(store);
    core.genesis(genesisConfig(12));
    store.apply(core.commitBlock().writes);
    return new Chain(core, store);
  }
  block(timestamp: bigint, bundles: BundleInput[] = [], over: Partial<BlockContext> = {}): BlockResultView {
    this.height++;
    const r = this.core.applyBlock(ctx(this.height, timestamp, over), bundles);
    this.store.apply(this.core.commitBlock().writes);
    return r;
  }
  balance(account: Uint8Array, token = NTV): bigint {
    const key = new Uint8Array(65);
    key[0] = 0x02;
    key.set(account, 1);
    key.set(token, 33);
    const v = this.store.get(key);
    return v ? new DataView(v.buffer, v.byteOffset).getBigUint64(0, true) | (new DataView(v.buffer, v.byteOffset).getBigUint64(8, true) << 64n) : 0n;
  }
}

const runs = (r: BlockResultView) => r.events.filter((e): e is ScheduleRunEvent => e.kind === 'ScheduleRun');

describe('CreateSchedule / CancelSchedule (disc. 49, 50)', () => {
  it('the codec encodes what the core decodes; a schedule may not hold schedule operations', () => {
    const op = create(every(60n, 2), [pay(addr(9), 5n)]);
    const bytes = encodeBundle({ userAccount: addr(1), operations: [op], maxGas: 1n, maxPriorityFee: 0n, validUntil: 1n, nonce: 0n, signature: new Uint8Array(0) });
    expect(decodeBundle(bytes).operations).toEqual([op]);
    expect(() => encodeBundle({ userAccount: addr(1), operations: [create(every(60n, 1), [{ type: 'CancelSchedule', scheduleId: new Uint8Array(32) }])], maxGas: 1n, maxPriorityFee: 0n, validUntil: 1n, nonce: 0n, signature: new Uint8Array(0) })).toThrow(/cannot be inside a schedule/);
  });

  it('a Recurring schedule runs first in its creating block, then in the first block at or after each due time, as its owner, without a nonce', async () => {
    const c = await Chain.open();
    const owner = addr(1);
    const r1 = c.block(T0, [bundle(owner, 0n, [create(every(60n, 3), [pay(addr(9), 7n)])])]);
    expect(r1.results[0]).toMatchObject({ status: Status.OK, gasUsed: 5_000n + 40_000n + 3n * BigInt(4 + 81) });
    const id = scheduleId(owner, 0n, 0);
    const created = r1.events.find((e) => e.kind === 'ScheduleCreated');
    expect(created && hex((created as { scheduleId: Uint8Array }).scheduleId)).toBe(hex(id));
    // The run's events come after every bundle's, with bundle_index 0xFFFFFFFF, closed by ScheduleRun.
    const tail = r1.events.slice(-2);
    expect(tail.map((e) => [e.kind, e.bundleIndex])).toEqual([['Transfer', SCHEDULE_RUN_INDEX], ['ScheduleRun', SCHEDULE_RUN_INDEX]]);
    expect(runs(r1)[0]).toMatchObject({ run: 1, status: Status.OK, gasUsed: 21_000n, fee: 0n });
    expect(r1.eventsOf(0).map((e) => e.kind)).toEqual(['ScheduleCreated']);
    expect(c.balance(addr(9)) - BIG - 63n).toBe(7n);
    expect(runs(c.block(T0 + 30n))).toEqual([]);
    expect(runs(c.block(T0 + 59n))).toEqual([]);
    expect(runs(c.block(T0 + 60n)).map((e) => e.run)).toEqual([2]);
    expect(runs(c.block(T0 + 61n))).toEqual([]);
    // A late block runs the due run once; the next is an interval after the one it was due at.
    expect(runs(c.block(T0 + 150n)).map((e) => e.run)).toEqual([3]);
    const rec = lookupSchedule(c.store, id)!;
    expect(rec).toMatchObject({ state: 'completed', runsDone: 3, runsOk: 3, runsTotal: 3, kind: 'Recurring' });
    expect(lookupScheduleRun(c.store, id, 2)).toMatchObject({ height: 4n, time: T0 + 60n, status: Status.OK, gasUsed: 21_000n });
    expect(c.balance(addr(9)) - BIG - 63n).toBe(21n);
    // The owner's nonce moved once (the CreateSchedule bundle); the runs use none.
    expect(c.block(T0 + 200n, [bundle(owner, 1n, [pay(addr(2), 1n)])]).results[0]!.status).toBe(Status.OK);
    expect(scheduleCursor(c.store)!.active).toBe(0n);
    expect(runs(c.block(T0 + 400n))).toEqual([]);
  });

  it('a run pays gas × the block gas price from the owner, split like a bundle fee; a failing run reverts but pays, and counts', async () => {
    const c = await Chain.open();
    const owner = addr(3);
    const before = c.balance(owner);
    // The second operation fails: the first one's transfer is reverted, the fee stays paid.
    const r = c.block(T0, [bundle(owner, 0n, [create(every(60n, 2), [pay(addr(9), 1n), pay(addr(9), 10n ** 30n)])])], { gasPrice: 2n });
    const createGas = 5_000n + 40_000n + 3n * BigInt(4 + 81 * 2);
    const run = runs(r)[0]!;
    expect(run).toMatchObject({ run: 1, status: Status.INSUFFICIENT_BALANCE, gasUsed: 37_000n, fee: 74_000n });
    expect(r.events.filter((e) => e.bundleIndex === SCHEDULE_RUN_INDEX).map((e) => e.kind)).toEqual(['Fee', 'ScheduleRun']);
    expect(r.gasUsed).toBe(createGas + 37_000n);
    expect(r.fees).toBe(2n * createGas + 74_000n);
    expect(before - c.balance(owner)).toBe(2n * createGas + 74_000n);
    c.block(T0 + 60n, [], { gasPrice: 2n });
    expect(lookupSchedule(c.store, scheduleId(owner, 0n, 0))).toMatchObject({ state: 'failed', runsDone: 2, runsOk: 0, lastStatus: Status.INSUFFICIENT_BALANCE });
  });

  it('an owner who cannot pay the fee gets INSUFFICIENT_FEE_BALANCE: nothing runs, nothing is paid, the run counts', async () => {
    const c = await Chain.open();
    const poor = addr(40); // no balance at all: the schedule is created at gas price 0
    const r = c.block(T0, [bundle(poor, 0n, [create(every(60n, 1), [pay(addr(9), 1n)])])], { gasPrice: 1n });
    expect(r.results[0]!.status).toBe(Status.INSUFFICIENT_FEE_BALANCE);
    const c2 = await Chain.open();
    c2.block(T0, [bundle(addr(1), 0n, [pay(poor, 21_000n * 3n - 1n)])]);
    const r2 = c2.block(T0 + 1n, [bundle(poor, 0n, [create(every(60n, 2, T0 + 60n), [pay(addr(9), 1n)])])]);
    expect(r2.results[0]!.status).toBe(Status.OK);
    const due = c2.block(T0 + 60n, [], { gasPrice: 3n });
    expect(runs(due)[0]).toMatchObject({ status: Status.INSUFFICIENT_FEE_BALANCE, gasUsed: 0n, fee: 0n });
    expect(due.gasUsed).toBe(0n);
    expect(c2.balance(poor)).toBe(21_000n * 3n - 1n);
    expect(lookupSchedule(c2.store, scheduleId(poor, 0n, 0))).toMatchObject({ runsDone: 1, state: 'active' });
  });

  it('handles at most 32 due schedules per block; the rest carry over to the next block in queue order', async () => {
    const c = await Chain.open();
    const ops: Operation[] = [];
    for (let i = 0; i < 40; i++) ops.push(create(every(3600n, 1, T0 + 120n), [pay(addr(9), 1n)]));
    const r = c.block(T0, [bundle(addr(1), 0n, ops)]);
    expect(r.results[0]!.status).toBe(Status.OK);
    expect(scheduleSlot(c.store, (T0 + 120n) / 60n)).toHaveLength(40);
    const first = c.block(T0 + 120n);
    expect(runs(first)).toHaveLength(32);
    expect(runs(first).map((e) => hex(e.scheduleId))).toEqual(Array.from({ length: 32 }, (_, i) => hex(scheduleId(addr(1), 0n, i))));
    expect(scheduleSlot(c.store, (T0 + 120n) / 60n)).toHaveLength(8);
    const second = c.block(T0 + 121n);
    expect(runs(second).map((e) => hex(e.scheduleId))).toEqual(Array.from({ length: 8 }, (_, i) => hex(scheduleId(addr(1), 0n, 32 + i))));
    expect(scheduleSlot(c.store, (T0 + 120n) / 60n)).toHaveLength(0);
    expect(scheduleCursor(c.store)).toEqual({ nextSlot: (T0 + 121n) / 60n, active: 0n });
  });

  it('walks at most 64 slots per block: after a long gap the cursor catches up over several blocks', async () => {
    const c = await Chain.open();
    c.block(T0, [bundle(addr(1), 0n, [create(every(60n, 1, T0 + 7000n), [pay(addr(9), 1n)])])]);
    const start = T0 / 60n;
    const a = c.block(T0 + 7200n); // 120 slots later
    expect(runs(a)).toEqual([]);
    expect(scheduleCursor(c.store)!.nextSlot).toBe(start + 64n);
    const b = c.block(T0 + 7201n);
    expect(runs(b).map((e) => e.run)).toEqual([1]);
  });

  it('CancelSchedule: owner only, active only, unknown ids refused; a cancelled schedule never runs again', async () => {
    const c = await Chain.open();
    c.block(T0, [bundle(addr(1), 0n, [create(every(60n, 5), [pay(addr(9), 1n)])])]);
    const id = scheduleId(addr(1), 0n, 0);
    const cancel = (scheduleId: Uint8Array): Operation => ({ type: 'CancelSchedule', scheduleId });
    const r = c.block(T0 + 10n, [
      bundle(addr(2), 0n, [cancel(id)]),
      bundle(addr(1), 1n, [cancel(new Uint8Array(32).fill(7))]),
      bundle(addr(1), 1n, [cancel(id)]),
      bundle(addr(1), 2n, [cancel(id)]),
    ]);
    expect(r.results.map((x) => x.status)).toEqual([Status.NOT_SCHEDULE_OWNER, Status.SCHEDULE_NOT_FOUND, Status.OK, Status.SCHEDULE_NOT_ACTIVE]);
    expect(r.eventsOf(2).map((e) => e.kind)).toEqual(['ScheduleCancelled']);
    expect(lookupSchedule(c.store, id)).toMatchObject({ state: 'cancelled', runsDone: 1 });
    expect(scheduleSlot(c.store, (T0 + 60n) / 60n)).toEqual([]);
    expect(runs(c.block(T0 + 60n))).toEqual([]);
    expect(runs(c.block(T0 + 300n))).toEqual([]);
    expect(scheduleCursor(c.store)!.active).toBe(0n);
  });

  it('refuses bad triggers and operations with INVALID_SCHEDULE_TRIGGER / INVALID_SCHEDULE_OPERATIONS', async () => {
    const c = await Chain.open();
    const swap: Operation = { type: 'Swap', fromToken: NTV, toToken: mintOf(1), amountIn: 1n, minAmountOut: 0n };
    const cond = (over: Partial<Extract<ScheduleTrigger, { kind: 'Conditional' }>> = {}): ScheduleTrigger => ({
      kind: 'Conditional', base: mintOf(1), quote: NTV, direction: 'below', priceNum: 1n, priceDen: 1n, expiry: T0 + 3600n, ...over,
    });
    const cases: Array<[Operation, number]> = [
      [create(every(59n, 1), [pay(addr(9), 1n)]), Status.INVALID_SCHEDULE_TRIGGER],
      [create(every(60n, 0), [pay(addr(9), 1n)]), Status.INVALID_SCHEDULE_TRIGGER],
      [create(every(60n, 1, T0 + 315_360_001n), [pay(addr(9), 1n)]), Status.INVALID_SCHEDULE_TRIGGER],
      [create(cond({ priceNum: 0n }), [swap]), Status.INVALID_SCHEDULE_TRIGGER],
      [create(cond({ priceDen: 0n }), [swap]), Status.INVALID_SCHEDULE_TRIGGER],
      [create(cond({ expiry: T0 }), [swap]), Status.INVALID_SCHEDULE_TRIGGER],
      [create(cond({ quote: mintOf(1) }), [swap]), Status.INVALID_SCHEDULE_TRIGGER],
      [create(every(60n, 1), [{ type: 'CreateToken', name: 'X', symbol: 'XX', decimals: 0, supply: 1n, owner: addr(1) }]), Status.INVALID_SCHEDULE_OPERATIONS],
      [create(cond(), [pay(addr(9), 1n)]), Status.INVALID_SCHEDULE_OPERATIONS],
      [create(cond(), [swap, swap]), Status.INVALID_SCHEDULE_OPERATIONS],
      [create(cond({ quote: mintOf(2) }), [swap]), Status.INVALID_SCHEDULE_OPERATIONS],
      [create(every(60n, 1), Array.from({ length: 16 }, () => ({ type: 'RegisterName' as const, name: 'n'.repeat(300) }))), Status.INVALID_SCHEDULE_OPERATIONS],
      [create(every(60n, 1, T0 + 60n), Array.from({ length: 16 }, () => pay(addr(9), 1n))), Status.OK],
    ];
    const r = c.block(T0, cases.map(([op], i) => bundle(addr(i % 12), 0n, [op])));
    expect(r.results.map((x) => x.status)).toEqual(cases.map(([, s]) => s));
  });
});

describe('Conditional schedules', () => {
  // TK1 (6 decimals) against NTV (9 decimals): 1,000 TK1 and 2,000 NTV, a price of 2 NTV per TK1
  // in whole units, 2,000 raw NTV per raw TK1.
  async function market() {
    const c = await Chain.open();
    const lp = addr(11);
    const r = c.block(T0, [bundle(lp, 0n, [{ type: 'CreatePool', tokenA: mintOf(1), tokenB: NTV, amountA: 1_000n * 10n ** 6n, amountB: 2_000n * 10n ** 9n, lpLockDuration: 0n }])]);
    expect(r.results[0]!.status).toBe(Status.OK);
    return c;
  }
  const limitBuy = (num: bigint, den: bigint, amountIn: bigint, expiry = T0 + 3_600n): Operation => create(
    { kind: 'Conditional', base: mintOf(1), quote: NTV, direction: 'below', priceNum: num, priceDen: den, expiry },
    [{ type: 'Swap', fromToken: NTV, toToken: mintOf(1), amountIn, minAmountOut: 0n }],
  );

  it('checks the pool price once per slot, re-queues while it does not hold, and runs the swap once it does', async () => {
    const c = await market();
    const buyer = addr(1);
    // Buy with 1 NTV when TK1 is below 1.5 NTV (1,500 raw NTV per raw TK1).
    const r = c.block(T0 + 1n, [bundle(buyer, 0n, [limitBuy(1_500n, 1n, 10n ** 9n)])]);
    expect(runs(r)).toEqual([]);
    const id = scheduleId(buyer, 0n, 0);
    expect(lookupSchedule(c.store, id)).toMatchObject({ state: 'active', runsDone: 0, nextDue: T0 + 61n });
    expect(runs(c.block(T0 + 61n))).toEqual([]);
    // Someone sells TK1 hard: the price falls below 1.5.
    c.block(T0 + 90n, [bundle(addr(2), 0n, [{ type: 'Swap', fromToken: mintOf(1), toToken: NTV, amountIn: 300n * 10n ** 6n, minAmountOut: 0n }])]);
    const tk1 = c.balance(buyer, mintOf(1));
    const hit = c.block(T0 + 121n);
    expect(runs(hit)).toHaveLength(1);
    expect(runs(hit)[0]).toMatchObject({ run: 1, status: Status.OK, gasUsed: 45_000n });
    const got = c.balance(buyer, mintOf(1)) - tk1;
    // At a price below the limit, 1 NTV buys at least 1e9 / 1500 raw TK1.
    expect(got).toBeGreaterThanOrEqual(10n ** 9n / 1_500n);
    expect(lookupSchedule(c.store, id)).toMatchObject({ state: 'completed', runsDone: 1, runsOk: 1 });
    expect(runs(c.block(T0 + 300n))).toEqual([]);
  });

  it('derives min-out from the limit price (integer math): a swap that would fill worse than the limit fails SLIPPAGE_EXCEEDED and pays; 3 failures end it', async () => {
    const c = await market();
    const buyer = addr(1);
    // Spot 2,000 is below 2,001, but 600 NTV moves the price far past the limit: the fill is worse.
    c.block(T0 + 1n, [bundle(buyer, 0n, [limitBuy(2_001n, 1n, 600n * 10n ** 9n)])], { gasPrice: 1n });
    let rec = lookupSchedule(c.store, scheduleId(buyer, 0n, 0))!;
    expect(rec).toMatchObject({ runsDone: 1, runsOk: 0, lastStatus: Status.SLIPPAGE_EXCEEDED, state: 'active' });
    c.block(T0 + 61n, [], { gasPrice: 1n });
    const last = c.block(T0 + 121n, [], { gasPrice: 1n });
    expect(runs(last)[0]).toMatchObject({ run: 3, status: Status.SLIPPAGE_EXCEEDED, gasUsed: 45_000n, fee: 45_000n });
    rec = lookupSchedule(c.store, scheduleId(buyer, 0n, 0))!;
    expect(rec).toMatchObject({ runsDone: 3, state: 'failed' });
  });

  it('expires after its expiry without running; "above" sells base when the price rises over the limit', async () => {
    const c = await market();
    const r = c.block(T0 + 1n, [bundle(addr(1), 0n, [limitBuy(1n, 1n, 10n ** 9n, T0 + 100n)])]);
    expect(r.results[0]!.status).toBe(Status.OK);
    c.block(T0 + 61n);
    c.block(T0 + 121n);
    expect(lookupSchedule(c.store, scheduleId(addr(1), 0n, 0))).toMatchObject({ state: 'expired', runsDone: 0 });
    expect(scheduleCursor(c.store)!.active).toBe(0n);
    const sell = create(
      { kind: 'Conditional', base: mintOf(1), quote: NTV, direction: 'above', priceNum: 1_900n, priceDen: 1n, expiry: T0 + 3_600n },
      [{ type: 'Swap', fromToken: mintOf(1), toToken: NTV, amountIn: 10n ** 6n, minAmountOut: 0n }],
    );
    const s = c.block(T0 + 130n, [bundle(addr(2), 0n, [sell])]);
    expect(runs(s)[0]).toMatchObject({ status: Status.OK });
  });
});

describe('determinism', () => {
  it('two cores fed the same blocks run the same schedules at the same heights with the same state roots', async () => {
    const a = await Chain.open();
    const b = await Chain.open();
    const heights: Array<Array<[bigint, number]>> = [[], []];
    const script: Array<[bigint, BundleInput[]]> = [
      [T0, [bundle(addr(1), 0n, [create(every(60n, 4), [pay(addr(9), 3n)]), create(every(120n, 2, T0 + 90n), [pay(addr(8), 1n)])])]],
      [T0 + 45n, []], [T0 + 60n, []], [T0 + 95n, [bundle(addr(1), 1n, [{ type: 'CancelSchedule', scheduleId: scheduleId(addr(1), 0n, 0) }])]],
      [T0 + 180n, []], [T0 + 215n, []], [T0 + 400n, []],
    ];
    for (const [ts, bundles] of script) {
      [a, b].forEach((chain, i) => {
        const r = chain.block(ts, bundles, { gasPrice: 1n });
        for (const e of runs(r)) heights[i]!.push([chain.height, e.run]);
      });
      expect(hex(a.core.stateRoot())).toBe(hex(b.core.stateRoot()));
    }
    expect(heights[0]).toEqual(heights[1]);
    expect(heights[0]).toEqual([[1n, 1], [3n, 2], [4n, 1], [6n, 2]]);
    void SLOT_SECONDS;
  });
});
