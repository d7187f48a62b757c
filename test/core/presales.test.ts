// Presales (docs/presales.md) and token staking pools (docs/staking-pools.md) in the core, every
// block run side by side with the bigint reference (testkit/reference.ts): statuses, gas, fees,
// events, writes and roots must agree. Targeted scenarios check each rule and status; random
// sequences check the properties: a presale never releases anything to its creator before
// finalization (its escrow holds every open contribution), a failed presale refunds exactly, and a
// staking pool never pays more than its reward account received.
import { describe, expect, it } from 'vitest';
import { Core, type BundleInput } from '../../src/core/core.js';
import { decodeEvent } from '../../src/core/events.js';
import { Status, statusName } from '../../src/core/status.js';
import { balanceKey, decodeBalance } from '../../src/core/records.js';
import { decodePoolRecord, poolAddress, poolKey } from '../../src/core/amm.js';
import { Reference } from '../../testkit/reference.js';
import { encodeBundle, addr, hex, W, type Op } from '../../testkit/encode.js';
import { MapStore, NTV, genesisConfig, mintOf, rng, type TwinCtx } from './harness.js';
import { blake3 } from '../../src/codec/hash.js';

const T0 = 1_700_000_000n;
const TK1 = mintOf(1), TK2 = mintOf(2);
const FEE = 100_000_000_000n;
const SCALE = 1_000_000_000n;
const utf8 = new TextEncoder();
const le64 = (v: bigint) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, v, true); return b; };
const presaleAddress = (id: bigint) => blake3(new Uint8Array([...utf8.encode('ntv.presale.v1'), ...le64(id)]));
const stakingPoolAddress = (id: bigint) => blake3(new Uint8Array([...utf8.encode('ntv.staking-pool.v1'), ...le64(id)]));
const rewardAccount = (pool: Uint8Array) => blake3(new Uint8Array([...utf8.encode('ntv.staking-pool-rewards.v1'), ...pool]));

interface PresaleParams { token: Uint8Array; pay: Uint8Array; rate: bigint; soft: bigint; hard: bigint; min: bigint; max: bigint; start: bigint; end: bigint; bps: number; lock: bigint }
const raw = (disc: number, f: (w: W) => void): Op => { const w = new W(); f(w); return { kind: 'raw', disc, bytes: w.bytes() }; };
const createPresale = (p: PresaleParams) => raw(95, (w) => {
  w.raw(p.token); w.raw(p.pay); w.u128(p.rate); w.u128(p.soft); w.u128(p.hard); w.u128(p.min); w.u128(p.max);
  w.u64(p.start); w.u64(p.end); w.u8(p.bps & 0xff); w.u8(p.bps >> 8); w.u64(p.lock);
});
const withAmount = (disc: number) => (target: Uint8Array, amount: bigint) => raw(disc, (w) => { w.raw(target); w.u128(amount); });
const onlyTarget = (disc: number) => (target: Uint8Array) => raw(disc, (w) => w.raw(target));
const contribute = withAmount(96), finalize = onlyTarget(97), refund = onlyTarget(98), claimTokens = onlyTarget(99);
const createPool = (stake: Uint8Array, reward: Uint8Array, rate: bigint, lock: bigint, cap: bigint, perUser: bigint) =>
  raw(100, (w) => { w.raw(stake); w.raw(reward); w.u128(rate); w.u64(lock); w.u128(cap); w.u128(perUser); });
const stake = withAmount(101), unstake = withAmount(102), claimRewards = onlyTarget(103), fund = withAmount(104);

/** The core and the reference, block by block, compared at every step. */
async function twin(accounts = 12) {
  const store = new MapStore();
  const core = await Core.create(store);
  const ref = await Reference.create();
  const genesis = genesisConfig(accounts);
  core.genesis(genesis);
  expect(ref.genesis(genesis)).toBe(0);
  const c0 = core.commitBlock();
  expect(hex(c0.stateRoot)).toBe(hex(ref.commitBlock().stateRoot));
  store.apply(c0.writes);
  let height = 0n;
  let ts = T0;
  const nonces = new Map<string, bigint>();
  const encode = (user: Uint8Array, ops: Op[], nonce: bigint): BundleInput =>
    ({ bytes: encodeBundle({ user, ops, nonce, maxGas: 1_000_000n, maxPriorityFee: 0n, validUntil: ts + 1_000_000_000n }), auth: 0 });
  /**
   * The bundles with the nonces they need: a failed bundle keeps its nonce (docs/core-abi.md
   * "Failed bundles"), so a user's next bundle in the block takes the same nonce after a failure and
   * the next one after a success. Found by dry runs of the reference until they agree.
   */
  const withNonces = (ctx: TwinCtx, bundles: Array<[Uint8Array, Op[]]>): BundleInput[] => {
    let ok = bundles.map(() => true);
    for (;;) {
      const next = new Map<string, bigint>();
      const inputs = bundles.map(([u, ops], i) => {
        const n = next.get(hex(u)) ?? nonces.get(hex(u)) ?? 0n;
        next.set(hex(u), ok[i] ? n + 1n : n);
        return encode(u, ops, n);
      });
      const res = ref.applyBlock(ctx, inputs).results;
      ref.revertBlock();
      const now = res.map((r) => r.status === Status.OK);
      if (now.every((v, i) => v === ok[i])) return inputs;
      ok = now;
    }
  };
  /** One block `seconds` after the last: each [user, ops] a bundle; answers the results and the reference's events. */
  const block = (seconds: bigint, bundles: Array<[Uint8Array, Op[]]>) => {
    height += 1n;
    ts += seconds;
    const ctx: TwinCtx = { height, timestamp: ts, proposer: addr(500), gasPrice: 1n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 1_000_000_000n };
    const inputs = withNonces(ctx, bundles);
    const got = core.applyBlock(ctx, inputs);
    const want = ref.applyBlock(ctx, inputs);
    got.results.forEach((g, i) => expect({ height, i, ...g, status: statusName(g.status) }).toEqual({ height, i, ...want.results[i]!, status: statusName(want.results[i]!.status) }));
    expect(got.events).toEqual(want.events.map((e) => decodeEvent(e.bundleIndex, e.opIndex, e.kind, e.data)));
    const c = core.commitBlock();
    const rc = ref.commitBlock();
    expect(c.writes.map((w) => [hex(w.key), w.value ? hex(w.value) : null])).toEqual(rc.writes.map((w) => [hex(w.key), w.value ? hex(w.value) : null]));
    expect(hex(c.stateRoot)).toBe(hex(rc.stateRoot));
    store.apply(c.writes);
    inputs.forEach((b, i) => {
      const u = hex(b.bytes.subarray(0, 32));
      if (want.results[i]!.status === Status.OK) nonces.set(u, (nonces.get(u) ?? 0n) + 1n);
    });
    return { results: got.results.map((r) => r.status), events: want.events, ts, height };
  };
  const balance = (a: Uint8Array, t: Uint8Array) => decodeBalance(store.get(balanceKey(a, t)) ?? new Uint8Array(16));
  return { core, ref, store, block, balance, now: () => ts };
}

const CREATOR = addr(1);
const ALICE = addr(2), BOB = addr(3), CAROL = addr(4);
const DAY = 86_400n;
const base = (now: bigint, over: Partial<PresaleParams> = {}): PresaleParams => ({
  token: TK1, pay: NTV, rate: 2n * SCALE, soft: 3_000_000_000n, hard: 10_000_000_000n, min: 1_000_000_000n, max: 5_000_000_000n,
  start: now, end: now + 1000n, bps: 6000, lock: 30n * DAY, ...over,
});

describe('presales (disc. 95–99)', () => {
  it('a successful presale: escrow at creation, contributions, finalize creates the pool with locked LP, then claims', async () => {
    const t = await twin();
    const p = base(T0);
    const before = t.balance(CREATOR, TK1);
    let b = t.block(1n, [[CREATOR, [createPresale(p)]]]);
    expect(b.results).toEqual([Status.OK]);
    const ps = presaleAddress(1n);
    const saleEsc = (p.hard * p.rate) / SCALE, liqEsc = (((p.hard * 6000n) / 10000n) * p.rate) / SCALE;
    expect(t.balance(ps, TK1)).toBe(saleEsc + liqEsc);
    expect(t.balance(ps, NTV)).toBe(FEE);
    expect(t.balance(CREATOR, TK1)).toBe(before - saleEsc - liqEsc);
    b = t.block(1n, [[ALICE, [contribute(ps, 2_000_000_000n)]], [BOB, [contribute(ps, 1_500_000_000n)]], [CAROL, [contribute(ps, 500_000_000n)]]]);
    expect(b.results).toEqual([Status.OK, Status.OK, Status.CONTRIBUTION_OUT_OF_RANGE]);
    b = t.block(1n, [[ALICE, [contribute(ps, 3_000_000_001n)]], [BOB, [finalize(ps)]], [BOB, [refund(ps)]], [ALICE, [claimTokens(ps)]]]);
    expect(b.results).toEqual([Status.CONTRIBUTION_OUT_OF_RANGE, Status.PRESALE_NOT_ENDED, Status.PRESALE_NOT_FAILED, Status.PRESALE_NOT_FINALIZED]);
    expect(t.balance(ps, NTV)).toBe(FEE + 3_500_000_000n);
    const creatorNtv = t.balance(CREATOR, NTV);
    b = t.block(1000n, [[CAROL, [contribute(ps, 1_000_000_000n)]], [CAROL, [finalize(ps)]], [CAROL, [finalize(ps)]], [ALICE, [refund(ps)]]]);
    expect(b.results).toEqual([Status.PRESALE_NOT_ACTIVE, Status.OK, Status.PRESALE_FINALIZED, Status.PRESALE_FINALIZED]);
    const raised = 3_500_000_000n, lpay = (raised * 6000n) / 10000n, ltok = (lpay * p.rate) / SCALE, sold = (raised * p.rate) / SCALE;
    const pool = decodePoolRecord(t.store.get(poolKey(poolAddress(TK1, NTV)))!);
    expect(hex(pool.creator)).toBe(hex(CREATOR));
    const tkFirst = Buffer.compare(TK1, NTV) < 0;
    expect(tkFirst ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0]).toEqual([ltok, lpay]);
    expect(pool.creatorLockedLp).toBe(pool.lpSupply - 1000n);
    expect(pool.lockUntil).toBe(b.ts + p.lock);
    expect(t.balance(CREATOR, NTV)).toBe(creatorNtv + raised - lpay); // the proceeds, only now
    expect(t.balance(ps, TK1)).toBe(sold); // the rest went to the pool and back to the creator
    expect(t.balance(ps, NTV)).toBe(0n);
    b = t.block(1n, [[ALICE, [claimTokens(ps)]], [ALICE, [claimTokens(ps)]], [CAROL, [claimTokens(ps)]], [BOB, [claimTokens(ps)]],
      [CREATOR, [raw(30, (w) => { w.raw(TK1); w.raw(NTV); w.u128(1n); w.u128(0n); w.u128(0n); })]]]);
    expect(b.results).toEqual([Status.OK, Status.PRESALE_NOTHING_TO_CLAIM, Status.PRESALE_NOTHING_TO_CLAIM, Status.OK, Status.LP_LOCKED]);
    expect(t.balance(ps, TK1)).toBe(0n);
  });

  it('a failed presale refunds every contributor exactly and the creator its escrow', async () => {
    const t = await twin();
    const p = base(T0, { pay: TK2, soft: 4_000_000_000n });
    const c0 = t.balance(CREATOR, TK1);
    t.block(1n, [[CREATOR, [createPresale(p)]]]);
    const ps = presaleAddress(1n);
    const a0 = t.balance(ALICE, TK2), b0 = t.balance(BOB, TK2), n0 = t.balance(CREATOR, NTV);
    t.block(1n, [[ALICE, [contribute(ps, 1_000_000_000n), contribute(ps, 1_000_000_000n)]], [BOB, [contribute(ps, 1_000_000_000n)]]]);
    const b = t.block(1000n, [[ALICE, [finalize(ps)]], [ALICE, [refund(ps)]], [ALICE, [refund(ps)]], [BOB, [refund(ps)]], [CAROL, [refund(ps)]],
      [CREATOR, [refund(ps)]], [CREATOR, [refund(ps)]], [ALICE, [claimTokens(ps)]]]);
    expect(b.results).toEqual([Status.SOFT_CAP_NOT_MET, Status.OK, Status.NOTHING_TO_REFUND, Status.OK,
      Status.NOTHING_TO_REFUND, Status.OK, Status.NOTHING_TO_REFUND, Status.PRESALE_NOT_FINALIZED]);
    expect(t.balance(ALICE, TK2)).toBe(a0);
    expect(t.balance(BOB, TK2)).toBe(b0);
    expect(t.balance(CREATOR, TK1)).toBe(c0);
    expect(t.balance(ps, TK1) + t.balance(ps, TK2) + t.balance(ps, NTV)).toBe(0n);
    expect(t.balance(CREATOR, NTV)).toBeGreaterThan(n0); // the 100 NTV pool fee back, less its bundle fees
  });

  it('refuses bad parameters in the documented order, and a pair whose pool exists', async () => {
    const t = await twin();
    const now = T0 + 1n;
    const cases: Array<[Partial<PresaleParams>, number]> = [
      [{ pay: TK1 }, Status.IDENTICAL_TOKENS],
      [{ pay: mintOf(9) }, Status.UNKNOWN_TOKEN],
      [{ soft: 0n }, Status.INVALID_PRESALE_CAPS],
      [{ soft: 11_000_000_000n }, Status.INVALID_PRESALE_CAPS],
      [{ min: 6_000_000_000n }, Status.INVALID_PRESALE_CAPS],
      [{ end: now }, Status.INVALID_PRESALE_WINDOW],
      [{ start: now + 5000n }, Status.INVALID_PRESALE_WINDOW],
      [{ end: now + 315_360_001n }, Status.INVALID_PRESALE_WINDOW],
      [{ bps: 0 }, Status.INVALID_LIQUIDITY_SHARE],
      [{ bps: 10001 }, Status.INVALID_LIQUIDITY_SHARE],
      [{ lock: DAY - 1n }, Status.INVALID_PRESALE_LOCK],
      [{ rate: 0n }, Status.INVALID_PRESALE_RATE],
      [{ rate: 1n << 127n }, Status.INVALID_PRESALE_RATE],
      [{ soft: 1000n, min: 1000n }, Status.PRESALE_LIQUIDITY_TOO_LOW],
      [{ bps: 1, soft: 5_000_000n, min: 1000n }, Status.PRESALE_LIQUIDITY_TOO_LOW],
    ];
    const b = t.block(1n, cases.map(([over]) => [CREATOR, [createPresale(base(now, over))]]));
    expect(b.results.map(statusName)).toEqual(cases.map(([, s]) => statusName(s)));
    // with the (TK1, NTV) pool made by the DEX, a presale of that pair is refused
    const mk = t.block(1n, [[ALICE, [raw(28, (w) => { w.raw(TK1); w.raw(NTV); w.u128(10n ** 9n); w.u128(10n ** 9n); w.u64(0n); })]], [CREATOR, [createPresale(base(now + 1n))]]]);
    expect(mk.results).toEqual([Status.OK, Status.POOL_EXISTS]);
  });

  it('a presale whose pair pool appears before finalization cannot list: refunds open after the end', async () => {
    const t = await twin();
    t.block(1n, [[CREATOR, [createPresale(base(T0 + 1n))]]]);
    const ps = presaleAddress(1n);
    t.block(1n, [[ALICE, [contribute(ps, 5_000_000_000n)]], [BOB, [raw(28, (w) => { w.raw(TK1); w.raw(NTV); w.u128(10n ** 9n); w.u128(10n ** 9n); w.u64(0n); })]]]);
    const a0 = t.balance(ALICE, NTV);
    let b = t.block(5n, [[ALICE, [refund(ps)]]]);
    expect(b.results).toEqual([Status.PRESALE_NOT_FAILED]);
    b = t.block(1000n, [[CAROL, [finalize(ps)]], [ALICE, [refund(ps)]]]);
    expect(b.results).toEqual([Status.POOL_EXISTS, Status.OK]);
    expect(t.balance(ALICE, NTV)).toBe(a0 + 5_000_000_000n - 35_000n * 2n);
  });

  it('finalizes at the hard cap before the end', async () => {
    const t = await twin();
    let b = t.block(1n, [[CREATOR, [createPresale(base(T0 + 1n, { max: 10_000_000_000n }))]]]);
    const ps = presaleAddress(1n);
    b = t.block(1n, [[ALICE, [contribute(ps, 10_000_000_000n)]], [BOB, [contribute(ps, 1_000_000_000n)]], [BOB, [finalize(ps)]], [ALICE, [claimTokens(ps)]]]);
    expect(b.results).toEqual([Status.OK, Status.PRESALE_HARD_CAP_EXCEEDED, Status.OK, Status.OK]);
  });
});

describe('token staking pools (disc. 100–104)', () => {
  it('rewards follow rate × blocks over the stake, stop when the source is empty, never exceed it', async () => {
    const t = await twin();
    let b = t.block(1n, [[CREATOR, [createPool(TK1, TK2, 1_000_000n, 0n, 0n, 0n)]]]);
    expect(b.results).toEqual([Status.OK]);
    const pool = stakingPoolAddress(1n);
    const rewards = rewardAccount(pool);
    b = t.block(1n, [[CREATOR, [fund(pool, 10_500_000n)]], [ALICE, [stake(pool, 1_000_000_000n)]]]);
    expect(b.results).toEqual([Status.OK, Status.OK]);
    expect(t.balance(rewards, TK2)).toBe(10_500_000n);
    const a0 = t.balance(ALICE, TK2);
    for (let i = 0; i < 4; i++) t.block(1n, []);
    b = t.block(1n, [[ALICE, [claimRewards(pool)]]]); // 5 blocks since the stake
    expect(b.results).toEqual([Status.OK]);
    expect(t.balance(ALICE, TK2)).toBe(a0 + 5_000_000n);
    for (let i = 0; i < 9; i++) t.block(1n, []);
    b = t.block(1n, [[ALICE, [claimRewards(pool)]], [ALICE, [claimRewards(pool)]]]); // 10 more blocks, 5.5 funded
    expect(b.results).toEqual([Status.OK, Status.NO_POOL_REWARDS]);
    expect(t.balance(ALICE, TK2)).toBe(a0 + 10_500_000n);
    expect(t.balance(rewards, TK2)).toBe(0n);
    // refunded source: accrual restarts from the funding block, not retroactively
    t.block(1n, [[CREATOR, [fund(pool, 100_000_000n)]]]);
    t.block(1n, []);
    b = t.block(1n, [[ALICE, [claimRewards(pool)]]]);
    expect(t.balance(ALICE, TK2)).toBe(a0 + 10_500_000n + 2_000_000n);
  });

  it('splits by stake, enforces capacity, per-user cap and the lock, and refuses bad input', async () => {
    const t = await twin();
    const bad = t.block(1n, [
      [CREATOR, [createPool(mintOf(9), TK2, 1n, 0n, 0n, 0n)]],
      [CREATOR, [createPool(TK1, TK2, 0n, 0n, 0n, 0n)]],
      [CREATOR, [createPool(TK1, TK2, 1n, 315_360_001n, 0n, 0n)]],
      [CREATOR, [createPool(TK1, TK2, 1n, 0n, 10n, 11n)]],
      [CREATOR, [createPool(TK1, TK1, 3_000n, 100n, 1_000_000n, 600_000n)]],
    ]);
    expect(bad.results).toEqual([Status.UNKNOWN_TOKEN, Status.INVALID_STAKING_POOL, Status.INVALID_STAKING_POOL, Status.INVALID_STAKING_POOL, Status.OK]);
    const pool = stakingPoolAddress(1n);
    let b = t.block(1n, [[CREATOR, [fund(pool, 1_000_000n)]], [ALICE, [stake(pool, 500_000n)]], [BOB, [stake(pool, 250_000n)]],
      [CAROL, [stake(pool, 300_000n)]], [ALICE, [stake(pool, 150_000n)]], [BOB, [stake(pool, 0n)]], [BOB, [stake(addr(77), 5n)]]]);
    expect(b.results).toEqual([Status.OK, Status.OK, Status.OK, Status.POOL_CAPACITY_EXCEEDED, Status.POOL_USER_CAP_EXCEEDED, Status.ZERO_AMOUNT, Status.STAKING_POOL_NOT_FOUND]);
    const a0 = t.balance(ALICE, TK1), b0 = t.balance(BOB, TK1);
    b = t.block(10n, [[ALICE, [unstake(pool, 1n)]], [ALICE, [unstake(pool, 500_001n)]], [ALICE, [claimRewards(pool)]], [BOB, [claimRewards(pool)]]]);
    expect(b.results).toEqual([Status.POOL_STAKE_LOCKED, Status.INSUFFICIENT_POOL_STAKE, Status.OK, Status.OK]);
    // one block at 3,000 split 2:1
    expect(t.balance(ALICE, TK1) - a0).toBe(2_000n);
    expect(t.balance(BOB, TK1) - b0).toBe(1_000n);
    b = t.block(100n, [[ALICE, [unstake(pool, 500_000n)]], [ALICE, [claimRewards(pool)]], [CAROL, [claimRewards(pool)]]]);
    expect(b.results).toEqual([Status.OK, Status.OK, Status.NO_POOL_REWARDS]);
    expect(t.balance(ALICE, TK1) - a0).toBe(500_000n + 4_000n);
  });
});

/** operation:status pairs the random runs reached, over all seeds (checked by the last test). */
const reach = new Set<string>();

describe('presales and staking pools vs the reference (randomized)', () => {
  for (const seed of [11, 12, 13, 14, 15, 16]) {
    it(`seed ${seed}: core = reference; escrows hold every open contribution; pools pay at most what was funded`, async () => {
      const r = rng(seed);
      const N = 10;
      const t = await twin(N);
      const users = Array.from({ length: N }, (_, i) => addr(i));
      const tokens = [NTV, TK1, TK2];
      const presales: Array<{ address: Uint8Array; creator: Uint8Array; pay: Uint8Array; token: Uint8Array }> = [];
      const pools: Uint8Array[] = [];
      const funded = new Map<string, bigint>();
      const statuses = new Set<number>();
      let nPresales = 0n, nPools = 0n;
      const amount = () => r.pick([0n, 1n, BigInt(1 + r.int(1000)), BigInt(1 + r.int(1000)), BigInt(r.int(5_000_000_000)), 10n ** 9n, 3n * 10n ** 9n, 10n ** 20n]);
      for (let blk = 0; blk < 80; blk++) {
        const bundles: Array<[Uint8Array, Op[]]> = [];
        const funds: Array<[number, string, bigint]> = [];
        for (let k = 0; k < 1 + r.int(6); k++) {
          const u = r.pick(users);
          const p = r.int(100);
          let op: Op;
          if (p < 6 || presales.length === 0) {
            const now = t.now();
            const pay = r.pick(tokens);
            op = createPresale(base(now, {
              token: r.pick([TK1, TK2]), pay, rate: r.pick([2n * SCALE, SCALE / 3n, 7n * SCALE, 0n]), soft: r.pick([2n, 3n, 4n]) * 10n ** 9n,
              hard: r.pick([5n, 10n, 12n]) * 10n ** 9n, min: r.pick([1n, 10n ** 6n, 10n ** 9n]), max: r.pick([2n, 6n]) * 10n ** 9n,
              start: now + BigInt(r.int(60)), end: now + BigInt(50 + r.int(400)), bps: r.pick([1, 2500, 6000, 10000]), lock: r.pick([DAY, 30n * DAY, 1n]),
            }));
          } else if (p < 40) op = contribute(r.pick(presales.slice(-3)).address, r.chance(0.6) ? r.pick([1n, 2n, 3n]) * 10n ** 9n : amount());
          else if (p < 48) op = finalize(r.chance(0.9) ? r.pick(presales).address : addr(88));
          else if (p < 56) { const ps = r.pick(presales); op = refund(ps.address); if (r.chance(0.3)) { bundles.push([ps.creator, [op]]); continue; } }
          else if (p < 62) op = claimTokens(r.pick(presales).address);
          else if (p < 67 || pools.length === 0) op = createPool(r.pick(tokens), r.pick(tokens), r.pick([0n, 1n, 1000n, 10n ** 6n]), r.pick([0n, 0n, 5n, 60n, 3600n]), r.pick([0n, 10n ** 9n, 10n ** 12n]), r.pick([0n, 10n ** 8n, 10n ** 10n]));
          else if (p < 80) op = stake(r.pick(pools), amount());
          else if (p < 87) op = unstake(r.pick(pools), r.chance(0.5) ? BigInt(1 + r.int(1000)) : amount());
          else if (p < 94) op = claimRewards(r.pick(pools));
          else {
            const pool = r.pick(pools);
            const a = amount();
            op = fund(pool, a);
            funds.push([bundles.length, hex(pool), a]);
          }
          bundles.push([u, [op]]);
        }
        const b = t.block(BigInt(1 + r.int(40)), bundles);
        b.results.forEach((s, i) => { statuses.add(s); const op = bundles[i]![1][0]!; reach.add(`${op.kind === 'raw' ? op.disc : op.kind}:${statusName(s)}`); });
        for (const [i, pool, a] of funds) if (b.results[i] === Status.OK) funded.set(pool, (funded.get(pool) ?? 0n) + a);
        // new presales and pools from the counters
        while (t.ref.presaleOf(presaleAddress(nPresales + 1n))) {
          nPresales += 1n;
          const rec = t.ref.presaleOf(presaleAddress(nPresales))!;
          presales.push({ address: presaleAddress(nPresales), creator: rec.creator as Uint8Array, pay: rec.pay as Uint8Array, token: rec.token as Uint8Array });
        }
        while (t.ref.stakingPoolOf(stakingPoolAddress(nPools + 1n))) { nPools += 1n; pools.push(stakingPoolAddress(nPools)); }
        // Property: before finalization the escrow holds every open contribution (nothing reached the
        // creator), the sale and liquidity escrow until the creator takes it back after a failure.
        for (const ps of presales) {
          const rec = t.ref.presaleOf(ps.address)!;
          const flags = rec.flags as bigint;
          if ((flags & 1n) !== 0n) {
            expect(t.balance(ps.address, ps.token)).toBeGreaterThanOrEqual(0n);
            continue;
          }
          let open = 0n;
          for (const u of users) {
            const c = t.ref.get(Uint8Array.from([0x69, ...ps.address, ...u]));
            if (c && c[16] === 0) open += decodeBalance(c.subarray(0, 16));
          }
          const feeHeld = (flags & 2n) === 0n ? FEE : 0n;
          expect(t.balance(ps.address, ps.pay)).toBe(open + (Buffer.compare(ps.pay, NTV) === 0 ? feeHeld : 0n));
          expect(t.balance(ps.address, ps.token)).toBe((flags & 2n) === 0n ? (rec.saleEsc as bigint) + (rec.liqEsc as bigint) : 0n);
        }
        // Property: a pool's claims never exceed what its reward account received.
        for (const pool of pools) {
          const rec = t.ref.stakingPoolOf(pool)!;
          const held = t.balance(rewardAccount(pool), rec.reward as Uint8Array);
          const got = funded.get(hex(pool)) ?? 0n;
          // stake and reward in one token: the reward account is apart from the stake escrow
          expect((rec.paid as bigint) + held).toBe(got);
          expect(rec.allocated as bigint).toBeLessThanOrEqual(held);
        }
      }
      for (const st of [Status.OK, Status.PRESALE_NOT_ACTIVE, Status.ZERO_AMOUNT]) expect(statuses.has(st), statusName(st)).toBe(true);
      if (seed === 11) console.log([...statuses].map(statusName).join(' '));
    });
  }
  it('over the seeds the generator reaches finalizations, refunds, claims and pool payouts', () => {
    for (const want of ['95:OK', '96:OK', '97:OK', '98:OK', '99:OK', '100:OK', '101:OK', '102:OK', '103:OK', '104:OK', '97:SOFT_CAP_NOT_MET',
      '97:PRESALE_NOT_ENDED', '98:PRESALE_NOT_FAILED', '101:POOL_CAPACITY_EXCEEDED', '102:POOL_STAKE_LOCKED', '103:NO_POOL_REWARDS']) {
      expect(reach.has(want), `${want} (reached: ${[...reach].sort().join(' ')})`).toBe(true);
    }
  });
});
