// Randomized differential test of settlement with market makers, anchoring and passports
// (docs/settlement.md, docs/anchors.md, docs/passports.md): the wasm core against the bigint
// reference (testkit/reference.ts with testkit/settle-reference.ts), block by block —
// statuses, gas, fees, events, writes and state roots — on sequences of operations 105–114, valid
// and invalid, together with transfers out of order escrows (testnet bundles that name an escrow as
// their user), so that a settlement's second leg can fail after its first moved. Property: a
// settlement moves both legs or none.
import { describe, it, expect } from 'vitest';
import { Core, type BundleInput } from '../../src/core/core.js';
import { accountKey, balanceKey } from '../../src/core/records.js';
import { decodeEvent } from '../../src/core/events.js';
import { Status, statusName } from '../../src/core/status.js';
import { Reference } from '../../testkit/reference.js';
import { settleReach } from '../../testkit/settle-reference.js';
import { encodeBundle, addr, hex, type Op, W } from '../../testkit/encode.js';
import { MapStore, NTV, mintOf, rng } from './harness.js';

const N = 10;
const TOKENS = [NTV, mintOf(1), mintOf(2)];
const enc = new TextEncoder();
const le = (v: bigint, n: number) => { const b = new Uint8Array(n); for (let i = 0; i < n; i++) b[i] = Number((v >> BigInt(8 * i)) & 0xffn); return b; };
const rd = (b: Uint8Array | undefined, o: number, n: number) => { let v = 0n; if (!b) return v; for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[o + i]!); return v; };
const raw = (disc: number, f: (w: W) => void = () => {}): Op => { const w = new W(); f(w); return { kind: 'raw', disc, bytes: w.bytes() }; };

interface Known { id: Uint8Array; escrow: Uint8Array }
const reached = new Map<number, number>();
const legs = { settledOk: 0, settleFailedAfterFirstLeg: 0 };

async function run(seed: number, blocks: number) {
  const r = rng(seed);
  const store = new MapStore();
  let core = await Core.create(store);
  const ref = await Reference.create();
  const genesis = {
    chainId: 1618032n, timestamp: 1_700_000_000n, reservedSymbols: [] as string[],
    tokens: TOKENS.map((m, i) => ({ mint: m, name: `T${i}`, symbol: i === 0 ? 'NTV' : `TK${i}`, decimals: 9, kind: i === 0 ? 0 : 2, creator: addr(999) })),
    // NTV for tier 2 stakes (100,000 NTV) for most, tier 3 (1,000,000 NTV) for a few, and fees
    balances: Array.from({ length: N * 3 }, (_, i) => ({ account: addr(i % N), mint: TOKENS[Math.floor(i / N)]!,
      amount: i < N ? (i % N < 3 ? 1_200_000n : 150_000n) * 10n ** 9n : i % N < 3 ? 10n ** 15n : BigInt(1 + r.int(5_000_000)) })),
  };
  core.genesis(genesis);
  expect(ref.genesis(genesis)).toBe(0);
  let c = core.commitBlock();
  expect(hex(c.stateRoot)).toBe(hex(ref.commitBlock().stateRoot));
  store.apply(c.writes);
  let ts = 1_700_000_000n;
  const orders: Known[] = [];
  const nonceOf = (a: Uint8Array) => rd(ref.get(accountKey(a)), 0, 8);
  const bal = (a: Uint8Array, t: Uint8Array) => rd(ref.get(balanceKey(a, t)), 0, 16);
  const orderRec = (id: Uint8Array) => ref.get(Uint8Array.from([0x72, ...id]));

  for (let height = 1; height <= blocks; height++) {
    ts += BigInt(r.chance(0.9) ? 1 + r.int(40) : 200 + r.int(4000));
    const ctx = { height: BigInt(height), timestamp: ts, proposer: addr(500), gasPrice: r.chance(0.7) ? 0n : 1n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 50_000_000n };
    const bundles: BundleInput[] = [];
    const settleOps: Array<{ bundle: number; op: number; id: Uint8Array }> = [];
    const pending = new Map<string, bigint>();
    const candidates: Uint8Array[] = [];
    const nb = 2 + r.int(14);
    for (let b = 0; b < nb; b++) {
      // now and then a transfer out of an order's escrow (its sell or payment leg)
      if (orders.length > 0 && r.chance(0.06)) {
        const matched = orders.filter((o) => orderRec(o.id)![1] === 1);
        const o = matched.length > 0 && r.chance(0.7) ? r.pick(matched) : r.pick(orders);
        const rec = orderRec(o.id)!;
        const token = r.chance(0.3) ? rec.subarray(34, 66) : rec.subarray(82, 114);
        const have = bal(o.escrow, token);
        if (have > 0n) {
          if (pending.has(hex(o.escrow))) continue;
          const n = nonceOf(o.escrow);
          pending.set(hex(o.escrow), n + 1n);
          bundles.push({ bytes: encodeBundle({ user: o.escrow, ops: [{ kind: 'transfer', to: addr(700), token: token.slice(), amount: r.chance(0.5) ? have : 1n + r.big(have) }], nonce: n, maxGas: 100_000n, maxPriorityFee: 0n, validUntil: ts + 60n }), auth: 0 });
          continue;
        }
      }
      const who = r.int(N);
      const user = addr(who);
      // one bundle per account and block: a failed bundle keeps its nonce (spec §5.8)
      if (pending.has(hex(user))) continue;
      const nonce = nonceOf(user);
      const ops: Op[] = [];
      const nops = 1 + (r.chance(0.1) ? r.int(3) : 0);
      // the three first accounts are the rich ones: mostly market makers
      const maker = who < 3;
      const pickOrder = (want: (rec: Uint8Array) => boolean) => {
        const fit = orders.filter((o) => want(orderRec(o.id)!));
        return fit.length > 0 && r.chance(0.85) ? r.pick(fit).id : orders.length > 0 && r.chance(0.7) ? r.pick(orders).id
          : candidates.length > 0 && r.chance(0.5) ? r.pick(candidates) : new Uint8Array(32).fill(r.int(256));
      };
      const party = (rec: Uint8Array) => hex(rec.subarray(2, 34)) === hex(user) || hex(rec.subarray(154, 186)) === hex(user);
      for (let k = 0; k < nops; k++) {
        const p = maker ? r.pick([0, 8, 35, 35, 35, 55, 55, 72, 80, 88, 92]) + r.int(8) : r.chance(0.5) ? r.int(100) : r.pick([15, 20, 56, 60, 66, 73, 82, 82, 88, 92, 96, 96]);
        if (p < 8) ops.push(raw(105, (w) => w.u8(r.pick([0, 1, 1, 1, 2, 2, 3, 4]))));
        else if (p < 11) ops.push(raw(106));
        else if (p < 30) {
          const sell = r.chance(0.04) ? mintOf(77) : r.pick(TOKENS);
          const buy = r.chance(0.04) ? sell : r.pick(TOKENS.filter((t) => t !== sell));
          const have = bal(user, sell);
          const amount = r.chance(0.05) ? 0n : r.pick([1n, BigInt(1 + r.int(100_000)), have / 3n, have / 3n, have, have + 1n]);
          const min = r.chance(0.05) ? 0n : r.pick([1n, BigInt(1 + r.int(100_000)), 10n ** 7n]);
          const expiry = r.chance(0.5) ? ts + BigInt(600 + r.int(3000)) : r.pick([ts - 1n, ts, ts + 1n, ts + 20n, ts + 60n, ts + 300n, ts + 2_592_000n, ts + 2_592_001n]);
          ops.push(raw(107, (w) => { w.raw(sell); w.u128(amount); w.raw(buy); w.u128(min); w.u64(expiry); }));
          candidates.push(ref.blake3(enc.encode('ntv.atomence.order'), user, le(nonce, 8), le(BigInt(k), 2)));
        } else if (p < 55) {
          const own = orders.filter((o) => orderRec(o.id)![1] === 0 && party(orderRec(o.id)!));
          const known = own.length > 0 && r.chance(0.1) ? r.pick(own).id : pickOrder((rec) => rec[1] === 0 && rd(rec, 130, 8) >= ts && (!party(rec) || r.chance(0.03)));
          const rec = orderRec(known);
          const min = rd(rec, 114, 16);
          const bid = r.pick([0n, min > 0n ? min - 1n : 0n, min, min, min, min * 2n + 7n, 10n ** 14n]);
          const s = BigInt(r.pick([0, 3, 9, 10, 11, 20, 25, 26, 40, 50, 51, 80, -1]));
          const ask = s < 0n ? (bid > 0n ? bid - 1n : 0n) : bid + (bid * s) / 10_000n;
          ops.push(raw(108, (w) => { w.raw(known); w.u128(bid); w.u128(ask); }));
        } else if (p < 72) {
          const known = pickOrder((rec) => rec[1] === 1 && party(rec) && (rd(rec, 130, 8) >= ts || r.chance(0.2)));
          settleOps.push({ bundle: bundles.length, op: ops.length, id: known });
          ops.push(raw(109, (w) => w.raw(known)));
        } else if (p < 80) {
          const known = pickOrder((rec) => rec[1]! < 2 && party(rec));
          ops.push(raw(110, (w) => w.raw(known)));
        }
        else if (p < 86) {
          const ns = r.pick(['docs', 'acme.audits', `ns-${r.int(4)}`, `own.${who}`, `own.${who}`, '', 'Bad NS', 'x'.repeat(64), 'x'.repeat(65)]);
          const key = r.pick(['a', `k${r.int(2)}`, `k${r.int(2)}`, '', 'k'.repeat(256), 'k'.repeat(257), 'ünïcødé/path']);
          ops.push(raw(111, (w) => { w.str(ns); w.str(key); w.raw(new Uint8Array(32).fill(r.int(256))); }));
        } else if (p < 91) ops.push(raw(112, (w) => w.str(r.pick(['Alice', 'ALICE', 'ab', 'x'.repeat(24), 'y'.repeat(25), 'bad-tag', `P_${r.int(8)}`, `Gamer${who}`]))));
        else if (p < 94) ops.push(raw(113, (w) => { w.str(r.pick(['chess', 'go.v2', 'Bad', 'ab', `g${r.int(2)}x`])); w.str(r.pick(['Chess', '', 'N'.repeat(64), 'N'.repeat(65)])); }));
        else ops.push(raw(114, (w) => {
          const mine = ['chess', 'go.v2', 'g0x', 'g1x'].filter((g) => hex(ref.get(Uint8Array.from([0x7c, ...enc.encode(g)]))?.subarray(1, 33) ?? new Uint8Array(0)) === hex(user));
          w.str(mine.length > 0 && r.chance(0.7) ? r.pick(mine) : r.pick(['chess', 'chess', 'go.v2', 'Bad', `g${r.int(2)}x`, 'none']));
          const holders = Array.from({ length: N }, (_, i) => addr(i)).filter((a) => ref.get(Uint8Array.from([0x7a, ...a])));
          w.raw(holders.length > 0 && r.chance(0.8) ? r.pick(holders) : addr(r.int(N + 2)));
          w.u64(BigInt(r.int(1_000_000)));
          w.str(r.pick(['{}', '{"level":3}', 'x'.repeat(1024), 'x'.repeat(1025)]));
        }));
      }
      pending.set(hex(user), nonce + 1n);
      bundles.push({ bytes: encodeBundle({ user, ops, nonce, maxGas: 1_000_000n, maxPriorityFee: 0n, validUntil: ts + 60n }), auth: 0 });
    }
    // settles of matched orders whose escrow holds the sell leg but no longer the payment leg
    const drained = new Set<number>();
    for (const s of settleOps) {
      const rec = orderRec(s.id);
      const escrow = ref.blake3(enc.encode('ntv.atomence.escrow'), s.id);
      if (rec && rec[1] === 1 && bal(escrow, rec.subarray(34, 66)) >= rd(rec, 66, 16) && bal(escrow, rec.subarray(82, 114)) < rd(rec, 186, 16)) drained.add(s.bundle);
    }
    const got = core.applyBlock(ctx, bundles);
    const want = ref.applyBlock(ctx, bundles);
    for (let i = 0; i < bundles.length; i++) {
      expect({ block: height, i, ...got.results[i]! }).toEqual({ block: height, i, ...want.results[i]! });
      reached.set(got.results[i]!.status, (reached.get(got.results[i]!.status) ?? 0) + 1);
    }
    expect(got.gasUsed).toBe(want.gasUsed);
    expect(got.fees).toBe(want.fees);
    expect(got.events).toEqual(want.events.map((e) => decodeEvent(e.bundleIndex, e.opIndex, e.kind, e.data)));
    // Both legs or none: a settled order's operation left exactly its two Transfers out of the
    // escrow; a bundle that failed left no Transfer at all (its first leg was reverted with it).
    for (const s of settleOps) {
      const st = got.results[s.bundle]!.status;
      const transfers = want.events.filter((e) => e.bundleIndex === s.bundle && e.kind === 0);
      if (st !== Status.OK) {
        expect(transfers).toEqual([]);
        continue;
      }
      const mine = transfers.filter((e) => e.opIndex === s.op);
      const rec = ref.get(Uint8Array.from([0x72, ...s.id]))!;
      const escrow = ref.blake3(enc.encode('ntv.atomence.escrow'), s.id);
      expect(mine.map((e) => hex(e.data))).toEqual([
        hex(Uint8Array.from([...escrow, ...rec.subarray(154, 186), ...rec.subarray(34, 66), ...rec.subarray(66, 82)])),
        hex(Uint8Array.from([...escrow, ...rec.subarray(2, 34), ...rec.subarray(82, 114), ...rec.subarray(186, 202)])),
      ]);
      legs.settledOk++;
    }
    for (const s of settleOps) {
      // a settle that failed on its payment leg after the sell leg could move (a drained escrow)
      if (drained.has(s.bundle) && got.results[s.bundle]!.status === Status.INSUFFICIENT_BALANCE) legs.settleFailedAfterFirstLeg++;
    }
    if (r.chance(0.1)) {
      core.revertBlock();
      ref.revertBlock();
      expect(hex(core.stateRoot())).toBe(hex(ref.stateRoot()));
      continue;
    }
    c = core.commitBlock();
    const rc = ref.commitBlock();
    expect(hex(c.stateRoot), `root at ${height}`).toBe(hex(rc.stateRoot));
    expect(c.writes.map((w) => [hex(w.key), w.value ? hex(w.value) : null])).toEqual(rc.writes.map((w) => [hex(w.key), w.value ? hex(w.value) : null]));
    store.apply(c.writes);
    for (const id of candidates) if (orderRec(id) && !orders.some((o) => hex(o.id) === hex(id))) orders.push({ id, escrow: ref.blake3(enc.encode('ntv.atomence.escrow'), id) });
    if (r.chance(0.1)) {
      core = await Core.create(store);
      expect(hex(core.stateRoot())).toBe(hex(rc.stateRoot));
    }
  }
}

describe('settlement, anchoring, passports: core vs bigint reference (randomized)', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`seed ${seed}: identical statuses, gas, fees, events, writes and roots; settlements move both legs or none`, async () => {
      await run(seed, 100);
    });
  }
  it('the seeds reach every rule', () => {
    console.log(Object.fromEntries([...reached].map(([k, v]) => [statusName(k), v])), settleReach, legs);
    for (const name of ['INVALID_MM_TIER', 'MM_TIER_UNCHANGED', 'NOT_MARKET_MAKER', 'MM_HAS_OPEN_MATCHES', 'INVALID_ORDER_EXPIRY', 'ORDER_NOT_FOUND',
      'ORDER_NOT_OPEN', 'ORDER_EXPIRED', 'ORDER_NOT_MATCHED', 'NOT_ORDER_PARTY', 'SELF_MATCH', 'QUOTE_BELOW_LIMIT', 'INVALID_QUOTE', 'SPREAD_TOO_WIDE',
      'ORDER_NOT_EXPIRED', 'ORDER_CLOSED', 'INVALID_NAMESPACE', 'INVALID_ANCHOR_KEY', 'NOT_NAMESPACE_OWNER', 'ANCHOR_EXISTS', 'INVALID_GAMERTAG',
      'GAMERTAG_TAKEN', 'PASSPORT_EXISTS', 'INVALID_GAME', 'GAME_EXISTS', 'GAME_NOT_FOUND', 'NOT_GAME_PUBLISHER', 'NO_PASSPORT', 'INVALID_PROFILE',
      'OK', 'INSUFFICIENT_BALANCE', 'ZERO_AMOUNT', 'IDENTICAL_TOKENS', 'UNKNOWN_TOKEN'] as const) {
      expect(reached.get(Status[name]) ?? 0, name).toBeGreaterThan(0);
    }
    expect(settleReach.settled, 'settlements').toBeGreaterThan(15);
    expect(settleReach.cancelledMatched, 'matched orders refunded after expiry').toBeGreaterThan(0);
    expect(settleReach.expired, 'orders closed as expired').toBeGreaterThan(0);
    expect(settleReach.profilesRewritten, 'profiles written again').toBeGreaterThan(0);
    expect(legs.settledOk).toBeGreaterThan(15);
    expect(legs.settleFailedAfterFirstLeg, 'a settlement whose payment leg failed after its first leg').toBeGreaterThan(0);
  });
});
