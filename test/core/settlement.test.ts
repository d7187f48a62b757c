// Settlement with market makers, anchoring and passports in the core (docs/settlement.md,
// docs/anchors.md, docs/passports.md): the lifecycle of an order through its escrow, tiers and
// spreads, expiry, the both-legs-or-none rule when an escrow is drained, anchors' namespace owner
// and write-once keys, passports' unique gamertags and publisher-written game profiles, and gas.
import { describe, expect, it } from 'vitest';
import { Core, type BlockContext, type BundleInput } from '../../src/core/core.js';
import { balanceKey } from '../../src/core/records.js';
import { Status } from '../../src/core/status.js';
import {
  ATOMENCE_STATS_KEY, atomenceOrderKey, atomenceSettlementKey, atomenceTokenSettlementKey, atomenceTokenStatsKey, marketMakerKey, marketMakerIndexKey,
  anchorKey, anchorNamespaceKey, anchorIndexKey, passportKey, gamertagKey, gameKey, gameProfileKey, PASSPORT_STATS_KEY,
  decodeAtomenceOrderFields, decodeAtomenceStatsFields, decodeMarketMakerFields, decodeAnchorFields, decodeAnchorNamespaceFields, decodePassportFields,
  decodeGameFields, decodeGameProfileFields, decodePassportStatsFields,
} from '../../src/abi/state.js';
import { blake3 } from '../../src/codec/hash.js';
import { encodeBundle, addr, hex, W, type Op } from '../../testkit/encode.js';
import { MapStore, NTV, mintOf, genesisConfig } from './harness.js';

const TS = 1_700_000_100n;
const enc = new TextEncoder();
const NTV_UNIT = 10n ** 9n;
const ctx = (over: Partial<BlockContext> = {}): BlockContext => ({
  height: 1n, timestamp: TS, proposer: addr(500), gasPrice: 0n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 100_000_000n, ...over,
});
const raw = (disc: number, f: (w: W) => void = () => {}): Op => { const w = new W(); f(w); return { kind: 'raw', disc, bytes: w.bytes() }; };
const le = (v: bigint, n: number) => { const b = new Uint8Array(n); for (let i = 0; i < n; i++) b[i] = Number((v >> BigInt(8 * i)) & 0xffn); return b; };
const registerMm = (tier: number) => raw(105, (w) => w.u8(tier));
const createOrder = (sell: Uint8Array, amount: bigint, buy: Uint8Array, min: bigint, expiry: bigint) => raw(107, (w) => { w.raw(sell); w.u128(amount); w.raw(buy); w.u128(min); w.u64(expiry); });
const match = (id: Uint8Array, bid: bigint, ask: bigint) => raw(108, (w) => { w.raw(id); w.u128(bid); w.u128(ask); });
const settle = (id: Uint8Array) => raw(109, (w) => w.raw(id));
const cancel = (id: Uint8Array) => raw(110, (w) => w.raw(id));
const anchor = (ns: string, key: string, h: Uint8Array) => raw(111, (w) => { w.str(ns); w.str(key); w.raw(h); });
const passport = (tag: string) => raw(112, (w) => w.str(tag));
const game = (id: string, name: string) => raw(113, (w) => { w.str(id); w.str(name); });
const profile = (id: string, player: Uint8Array, score: bigint, data: string) => raw(114, (w) => { w.str(id); w.raw(player); w.u64(score); w.str(data); });
const orderId = (creator: Uint8Array, nonce: bigint, op = 0) => blake3(Uint8Array.from([...enc.encode('ntv.atomence.order'), ...creator, ...le(nonce, 8), ...le(BigInt(op), 2)]));
const escrowOf = (id: Uint8Array) => blake3(Uint8Array.from([...enc.encode('ntv.atomence.escrow'), ...id]));
const stakeEscrowOf = (mm: Uint8Array) => blake3(Uint8Array.from([...enc.encode('ntv.atomence.stake'), ...mm]));

const CREATOR = addr(1), MM = addr(2), OTHER = addr(3);
const T1 = mintOf(1);

async function setup() {
  const store = new MapStore();
  const core = await Core.create(store);
  const g = genesisConfig(6, 3, 2_000_000n * NTV_UNIT);
  core.genesis(g);
  store.apply(core.commitBlock().writes);
  const nonces = new Map<string, bigint>();
  let height = 1n;
  /** One block of one bundle per [user, ops]; commits it; returns the statuses and the block result. */
  const block = (bundles: Array<[Uint8Array, Op[]]>, over: Partial<BlockContext> = {}) => {
    const inputs: BundleInput[] = bundles.map(([user, ops]) => {
      const n = nonces.get(hex(user)) ?? 0n;
      return { bytes: encodeBundle({ user, ops, nonce: n, maxGas: 1_000_000n, maxPriorityFee: 0n, validUntil: TS + 10_000_000n }), auth: 0 };
    });
    const r = core.applyBlock(ctx({ height: height++, ...over }), inputs);
    r.results.forEach((x, i) => { if (x.status === Status.OK) nonces.set(hex(bundles[i]![0]), (nonces.get(hex(bundles[i]![0])) ?? 0n) + 1n); });
    store.apply(core.commitBlock().writes);
    return r;
  };
  const nonceOf = (a: Uint8Array) => nonces.get(hex(a)) ?? 0n;
  const bal = (a: Uint8Array, t: Uint8Array) => { const v = store.get(balanceKey(a, t)); return v ? new DataView(v.buffer, v.byteOffset).getBigUint64(0, true) | (new DataView(v.buffer, v.byteOffset).getBigUint64(8, true) << 64n) : 0n; };
  return { core, store, block, bal, nonceOf };
}

describe('settlement with market makers (disc. 105–110)', () => {
  it('registers a maker into its stake escrow, changes tier both ways and deregisters', async () => {
    const { store, block, bal } = await setup();
    const before = bal(MM, NTV);
    let r = block([[MM, [registerMm(1)]]]);
    expect(r.results[0]).toEqual({ status: Status.OK, gasUsed: 35_000n, fee: 0n, nonce: 0n });
    expect(bal(stakeEscrowOf(MM), NTV)).toBe(10_000n * NTV_UNIT);
    expect(bal(MM, NTV)).toBe(before - 10_000n * NTV_UNIT);
    // the stake moved as a Transfer (kind 0) to the stake escrow
    expect(r.events.filter((e) => e.kind === 'Transfer').map((e) => hex((e as { to: Uint8Array }).to))).toEqual([hex(stakeEscrowOf(MM))]);
    let m = decodeMarketMakerFields(store.get(marketMakerKey(MM))!);
    expect([m.tier, m.active, m.stake, m.index]).toEqual([1, true, 10_000n * NTV_UNIT, 0n]);
    expect(hex(store.get(marketMakerIndexKey(0n))!)).toBe(hex(MM));
    expect(block([[MM, [registerMm(1)]]]).results[0]!.status).toBe(Status.MM_TIER_UNCHANGED);
    for (const t of [0, 4, 255]) expect(block([[MM, [registerMm(t)]]]).results[0]!.status).toBe(Status.INVALID_MM_TIER);
    block([[MM, [registerMm(3)]]]);
    expect(bal(stakeEscrowOf(MM), NTV)).toBe(1_000_000n * NTV_UNIT);
    block([[MM, [registerMm(2)]]]);
    expect(bal(stakeEscrowOf(MM), NTV)).toBe(100_000n * NTV_UNIT);
    expect(decodeAtomenceStatsFields(store.get(ATOMENCE_STATS_KEY)!).activeMarketMakers).toBe(1n);
    r = block([[MM, [raw(106)]]]);
    expect(r.results[0]!.status).toBe(Status.OK);
    expect(bal(stakeEscrowOf(MM), NTV)).toBe(0n);
    expect(bal(MM, NTV)).toBe(before);
    m = decodeMarketMakerFields(store.get(marketMakerKey(MM))!);
    expect([m.active, m.stake]).toEqual([false, 0n]);
    const s = decodeAtomenceStatsFields(store.get(ATOMENCE_STATS_KEY)!);
    expect([s.marketMakers, s.activeMarketMakers]).toEqual([1n, 0n]);
    expect(block([[MM, [raw(106)]]]).results[0]!.status).toBe(Status.NOT_MARKET_MAKER);
    // a poor account cannot stake
    const poor = addr(77);
    block([[MM, [{ kind: 'transfer', to: poor, token: NTV, amount: 9_999n * NTV_UNIT }]]]);
    expect(block([[poor, [registerMm(1)]]]).results[0]!.status).toBe(Status.INSUFFICIENT_BALANCE);
  });

  it('creates, matches and settles an order through its escrow: both legs, the record, the stats and the indexes', async () => {
    const { store, block, bal, nonceOf } = await setup();
    block([[MM, [registerMm(1)]]]);
    const id = orderId(CREATOR, nonceOf(CREATOR));
    const c0 = [bal(CREATOR, T1), bal(CREATOR, NTV)], m0 = [bal(MM, T1), bal(MM, NTV)];
    let r = block([[CREATOR, [createOrder(T1, 1_000_000n, NTV, 5_000_000n, TS + 600n)]]], { height: 10n });
    expect(r.results[0]).toEqual({ status: Status.OK, gasUsed: 45_000n, fee: 0n, nonce: 0n });
    expect(bal(escrowOf(id), T1)).toBe(1_000_000n);
    let o = decodeAtomenceOrderFields(store.get(atomenceOrderKey(id))!);
    expect([o.state, hex(o.creator), o.sellAmount, o.minBuyAmount, o.expiry, o.createdHeight]).toEqual([0, hex(CREATOR), 1_000_000n, 5_000_000n, TS + 600n, 10n]);
    // a quote at exactly 50 bps: ask − bid = 50/20,000 of ask + bid → bid 7,980,000, ask 8,020,000 is 50 bps
    expect(block([[MM, [match(id, 7_980_000n, 8_020_001n)]]]).results[0]!.status).toBe(Status.SPREAD_TOO_WIDE);
    r = block([[MM, [match(id, 7_980_000n, 8_020_000n)]]], { height: 12n });
    expect(r.results[0]).toEqual({ status: Status.OK, gasUsed: 45_000n, fee: 0n, nonce: 1n });
    expect(bal(escrowOf(id), NTV)).toBe(7_980_000n);
    o = decodeAtomenceOrderFields(store.get(atomenceOrderKey(id))!);
    expect([o.state, hex(o.marketMaker), o.bidAmount, o.askAmount, o.spreadBps, o.matchedHeight]).toEqual([1, hex(MM), 7_980_000n, 8_020_000n, 50, 12n]);
    expect(decodeMarketMakerFields(store.get(marketMakerKey(MM))!).openMatches).toBe(1);
    expect(block([[MM, [match(id, 7_980_000n, 8_020_000n)]]]).results[0]!.status).toBe(Status.ORDER_NOT_OPEN);
    expect(block([[OTHER, [settle(id)]]]).results[0]!.status).toBe(Status.NOT_ORDER_PARTY);
    expect(block([[CREATOR, [cancel(id)]]]).results[0]!.status).toBe(Status.ORDER_NOT_EXPIRED);
    r = block([[CREATOR, [settle(id)]]], { height: 20n });
    expect(r.results[0]).toEqual({ status: Status.OK, gasUsed: 65_000n, fee: 0n, nonce: 1n });
    // delivery versus payment: the sell leg to the maker, the payment to the creator, both out of the escrow
    const transfers = r.events.filter((e) => e.kind === 'Transfer') as Array<{ from: Uint8Array; to: Uint8Array; amount: bigint }>;
    expect(transfers.map((t) => [hex(t.from), hex(t.to), t.amount])).toEqual([[hex(escrowOf(id)), hex(MM), 1_000_000n], [hex(escrowOf(id)), hex(CREATOR), 7_980_000n]]);
    expect([bal(CREATOR, T1), bal(CREATOR, NTV)]).toEqual([c0[0]! - 1_000_000n, c0[1]! + 7_980_000n]);
    expect([bal(MM, T1), bal(MM, NTV)]).toEqual([m0[0]! + 1_000_000n, m0[1]! - 7_980_000n]);
    expect([bal(escrowOf(id), T1), bal(escrowOf(id), NTV)]).toEqual([0n, 0n]);
    o = decodeAtomenceOrderFields(store.get(atomenceOrderKey(id))!);
    expect([o.state, o.closedHeight]).toEqual([2, 20n]);
    const s = decodeAtomenceStatsFields(store.get(ATOMENCE_STATS_KEY)!);
    expect([s.settledCount, s.totalVolume, s.spreadSum, s.lastSettlementBlock]).toEqual([1n, 8_980_000n, 50n, 20n]);
    const t1 = decodeAtomenceStatsFields(store.get(atomenceTokenStatsKey(T1))!);
    expect([t1.settledCount, t1.totalVolume, t1.spreadSum, t1.lastSettlementBlock]).toEqual([1n, 1_000_000n, 50n, 20n]);
    expect(decodeAtomenceStatsFields(store.get(atomenceTokenStatsKey(NTV))!).totalVolume).toBe(7_980_000n);
    for (const k of [atomenceSettlementKey(0n), atomenceTokenSettlementKey(T1, 0n), atomenceTokenSettlementKey(NTV, 0n)]) expect(hex(store.get(k)!)).toBe(hex(id));
    const mm = decodeMarketMakerFields(store.get(marketMakerKey(MM))!);
    expect([mm.openMatches, mm.settledCount, mm.spreadSum]).toEqual([0, 1n, 50n]);
    // settling or cancelling it again
    expect(block([[CREATOR, [settle(id)]]]).results[0]!.status).toBe(Status.ORDER_NOT_MATCHED);
    expect(block([[CREATOR, [cancel(id)]]]).results[0]!.status).toBe(Status.ORDER_CLOSED);
  });

  it('refuses bad orders and quotes in the documented order, with nothing moved', async () => {
    const { block, bal, nonceOf } = await setup();
    const s = (u: Uint8Array, op: Op) => block([[u, [op]]]).results[0]!.status;
    expect(s(CREATOR, createOrder(T1, 0n, NTV, 1n, TS + 60n))).toBe(Status.ZERO_AMOUNT);
    expect(s(CREATOR, createOrder(T1, 1n, NTV, 0n, TS + 60n))).toBe(Status.ZERO_AMOUNT);
    expect(s(CREATOR, createOrder(T1, 1n, T1, 1n, TS + 60n))).toBe(Status.IDENTICAL_TOKENS);
    expect(s(CREATOR, createOrder(mintOf(77), 1n, NTV, 1n, TS + 60n))).toBe(Status.UNKNOWN_TOKEN);
    expect(s(CREATOR, createOrder(T1, 1n, NTV, 1n, TS))).toBe(Status.INVALID_ORDER_EXPIRY);
    expect(s(CREATOR, createOrder(T1, 1n, NTV, 1n, TS + 2_592_001n))).toBe(Status.INVALID_ORDER_EXPIRY);
    expect(s(CREATOR, createOrder(T1, bal(CREATOR, T1) + 1n, NTV, 1n, TS + 60n))).toBe(Status.INSUFFICIENT_BALANCE);
    const id = orderId(CREATOR, nonceOf(CREATOR));
    expect(s(CREATOR, createOrder(T1, 1_000n, NTV, 1_000n, TS + 2_592_000n))).toBe(Status.OK);
    expect(s(MM, match(id, 1_000n, 1_000n))).toBe(Status.NOT_MARKET_MAKER);
    block([[MM, [registerMm(3)]], [CREATOR, [registerMm(1)]]]);
    expect(s(MM, match(new Uint8Array(32), 1_000n, 1_000n))).toBe(Status.ORDER_NOT_FOUND);
    expect(s(CREATOR, match(id, 1_000n, 1_000n))).toBe(Status.SELF_MATCH);
    expect(s(MM, match(id, 0n, 0n))).toBe(Status.INVALID_QUOTE);
    expect(s(MM, match(id, 1_000n, 999n))).toBe(Status.INVALID_QUOTE);
    expect(s(MM, match(id, 999n, 1_000n))).toBe(Status.QUOTE_BELOW_LIMIT);
    // tier 3: at most 10 bps; 1,000,000 / 1,002,000 is ⌈2,000·20,000 / 2,002,000⌉ = 20 bps
    expect(s(MM, match(id, 1_000_000n, 1_002_000n))).toBe(Status.SPREAD_TOO_WIDE);
    expect(s(MM, match(id, 1_000_000n, 1_001_000n))).toBe(Status.OK);
    expect(s(MM, raw(106))).toBe(Status.MM_HAS_OPEN_MATCHES);
  });

  it('moves both legs or none: a settlement whose payment leg was drained from the escrow fails whole', async () => {
    const { store, block, bal, nonceOf } = await setup();
    block([[MM, [registerMm(1)]]]);
    const id = orderId(CREATOR, nonceOf(CREATOR));
    block([[CREATOR, [createOrder(T1, 500n, NTV, 1_000n, TS + 600n)]]]);
    block([[MM, [match(id, 1_000n, 1_000n)]]]);
    // a testnet bundle in the escrow's name (signatures are not enforced there) takes the payment leg
    const escrow = escrowOf(id);
    expect(block([[escrow, [{ kind: 'transfer', to: OTHER, token: NTV, amount: 1n }]]]).results[0]!.status).toBe(Status.OK);
    const before = [bal(MM, T1), bal(CREATOR, NTV), bal(escrow, T1), bal(escrow, NTV)];
    const r = block([[CREATOR, [settle(id)]]]);
    expect(r.results[0]!.status).toBe(Status.INSUFFICIENT_BALANCE);
    // the sell leg, which moved first, was reverted with the bundle: no Transfer, no balance changed
    expect(r.events.filter((e) => e.kind === 'Transfer')).toEqual([]);
    expect([bal(MM, T1), bal(CREATOR, NTV), bal(escrow, T1), bal(escrow, NTV)]).toEqual(before);
    expect(decodeAtomenceOrderFields(store.get(atomenceOrderKey(id))!).state).toBe(1);
    expect(store.get(ATOMENCE_STATS_KEY) && decodeAtomenceStatsFields(store.get(ATOMENCE_STATS_KEY)!).settledCount).toBe(0n);
  });

  it('orders expire: no match or settlement after the expiry; a cancel then refunds both legs and ends it expired', async () => {
    const { store, block, bal, nonceOf } = await setup();
    block([[MM, [registerMm(1)]]]);
    const a = orderId(CREATOR, nonceOf(CREATOR));
    block([[CREATOR, [createOrder(T1, 500n, NTV, 1_000n, TS + 100n)]]]);
    const b = orderId(CREATOR, nonceOf(CREATOR));
    block([[CREATOR, [createOrder(T1, 700n, NTV, 1_000n, TS + 100n)]]]);
    block([[MM, [match(a, 1_000n, 1_000n)]]]);
    const late = { timestamp: TS + 101n };
    expect(block([[MM, [match(b, 1_000n, 1_000n)]]], late).results[0]!.status).toBe(Status.ORDER_EXPIRED);
    expect(block([[CREATOR, [settle(a)]]], late).results[0]!.status).toBe(Status.ORDER_EXPIRED);
    const c0 = bal(CREATOR, T1), m0 = bal(MM, NTV);
    expect(block([[OTHER, [cancel(a)]]], late).results[0]!.status).toBe(Status.NOT_ORDER_PARTY);
    expect(block([[MM, [cancel(a)]]], late).results[0]!.status).toBe(Status.OK);
    expect([bal(CREATOR, T1), bal(MM, NTV)]).toEqual([c0 + 500n, m0 + 1_000n]);
    expect(decodeAtomenceOrderFields(store.get(atomenceOrderKey(a))!).state).toBe(4);
    expect(decodeMarketMakerFields(store.get(marketMakerKey(MM))!).openMatches).toBe(0);
    // an open order: only its creator cancels it, before its expiry too (cancelled, not expired)
    const c = orderId(CREATOR, nonceOf(CREATOR));
    block([[CREATOR, [createOrder(T1, 300n, NTV, 1n, TS + 500n)]]]);
    expect(block([[MM, [cancel(c)]]]).results[0]!.status).toBe(Status.NOT_ORDER_PARTY);
    expect(block([[CREATOR, [cancel(c)]]]).results[0]!.status).toBe(Status.OK);
    expect(decodeAtomenceOrderFields(store.get(atomenceOrderKey(c))!).state).toBe(3);
    expect(block([[MM, [match(c, 1n, 1n)]]]).results[0]!.status).toBe(Status.ORDER_NOT_OPEN);
  });
});

describe('anchoring (disc. 111)', () => {
  it('the first writer owns a namespace; keys are write-once; records and index', async () => {
    const { store, block } = await setup();
    const h = new Uint8Array(32).fill(9);
    const r = block([[CREATOR, [anchor('acme.audits', 'report/2026-q3.pdf', h)]]], { height: 5n });
    expect(r.results[0]).toEqual({ status: Status.OK, gasUsed: 40_000n, fee: 0n, nonce: 0n });
    const nsId = blake3(Uint8Array.from([...enc.encode('ntv.anchor.ns'), ...enc.encode('acme.audits')]));
    const id = blake3(Uint8Array.from([...enc.encode('ntv.anchor'), ...nsId, ...enc.encode('report/2026-q3.pdf')]));
    const a = decodeAnchorFields(store.get(anchorKey(id))!);
    expect([hex(a.anchorer), hex(a.valueHash), a.height, a.time, a.index, a.namespace, a.key]).toEqual([hex(CREATOR), hex(h), 5n, TS, 0n, 'acme.audits', 'report/2026-q3.pdf']);
    const ns = decodeAnchorNamespaceFields(store.get(anchorNamespaceKey(nsId))!);
    expect([hex(ns.owner), ns.count, ns.name]).toEqual([hex(CREATOR), 1n, 'acme.audits']);
    expect(hex(store.get(anchorIndexKey(nsId, 0n))!)).toBe(hex(id));
    const s = (u: Uint8Array, op: Op) => block([[u, [op]]]).results[0]!.status;
    expect(s(CREATOR, anchor('acme.audits', 'report/2026-q3.pdf', new Uint8Array(32)))).toBe(Status.ANCHOR_EXISTS);
    expect(s(OTHER, anchor('acme.audits', 'other', h))).toBe(Status.NOT_NAMESPACE_OWNER);
    expect(s(CREATOR, anchor('acme.audits', 'other', h))).toBe(Status.OK);
    expect(decodeAnchorNamespaceFields(store.get(anchorNamespaceKey(nsId))!).count).toBe(2n);
    for (const bad of ['', 'Acme', 'a b', 'x'.repeat(65)]) expect(s(OTHER, anchor(bad, 'k', h))).toBe(Status.INVALID_NAMESPACE);
    for (const bad of ['', 'k'.repeat(257)]) expect(s(OTHER, anchor('mine', bad, h))).toBe(Status.INVALID_ANCHOR_KEY);
    expect(s(OTHER, anchor('x'.repeat(64), 'k'.repeat(256), h))).toBe(Status.OK);
  });
});

describe('passports and game profiles (disc. 112–114)', () => {
  it('one passport per account with a unique gamertag; a publisher writes its game\'s profiles', async () => {
    const { store, block } = await setup();
    const s = (u: Uint8Array, op: Op) => block([[u, [op]]]).results[0]!.status;
    expect(block([[CREATOR, [passport('Neo_1')]]], { height: 3n }).results[0]).toEqual({ status: Status.OK, gasUsed: 40_000n, fee: 0n, nonce: 0n });
    const p = decodePassportFields(store.get(passportKey(CREATOR))!);
    expect([p.gamertag, p.createdHeight, p.games]).toEqual(['Neo_1', 3n, 0]);
    expect(hex(store.get(gamertagKey('neo_1'))!)).toBe(hex(CREATOR));
    expect(s(CREATOR, passport('Other'))).toBe(Status.PASSPORT_EXISTS);
    expect(s(OTHER, passport('NEO_1'))).toBe(Status.GAMERTAG_TAKEN);
    for (const bad of ['ab', 'x'.repeat(25), 'has-dash', 'sp ace', 'ünï']) expect(s(OTHER, passport(bad))).toBe(Status.INVALID_GAMERTAG);
    expect(s(MM, game('chess.v1', 'Chess'))).toBe(Status.OK);
    expect(s(OTHER, game('chess.v1', 'Chess 2'))).toBe(Status.GAME_EXISTS);
    for (const [id, name] of [['Chess', 'n'], ['ch', 'n'], ['ok-id', ''], ['ok-id', 'n'.repeat(65)]]) expect(s(OTHER, game(id!, name!))).toBe(Status.INVALID_GAME);
    expect(s(MM, profile('Bad', CREATOR, 1n, '{}'))).toBe(Status.INVALID_GAME);
    expect(s(MM, profile('chess.v1', CREATOR, 1n, 'x'.repeat(1025)))).toBe(Status.INVALID_PROFILE);
    expect(s(MM, profile('nope', CREATOR, 1n, '{}'))).toBe(Status.GAME_NOT_FOUND);
    expect(s(OTHER, profile('chess.v1', CREATOR, 1n, '{}'))).toBe(Status.NOT_GAME_PUBLISHER);
    expect(s(MM, profile('chess.v1', OTHER, 1n, '{}'))).toBe(Status.NO_PASSPORT);
    expect(s(MM, profile('chess.v1', CREATOR, 1200n, '{"elo":1200}'))).toBe(Status.OK);
    expect(s(MM, profile('chess.v1', CREATOR, 1250n, '{"elo":1250}'))).toBe(Status.OK);
    const f = decodeGameProfileFields(store.get(gameProfileKey(CREATOR, 'chess.v1'))!);
    expect([f.score, f.revision, f.data]).toEqual([1250n, 2, '{"elo":1250}']);
    expect(decodeGameFields(store.get(gameKey('chess.v1'))!).profiles).toBe(1n);
    expect(decodePassportFields(store.get(passportKey(CREATOR))!).games).toBe(1);
    const st = decodePassportStatsFields(store.get(PASSPORT_STATS_KEY)!);
    expect([st.passports, st.games, st.profiles]).toEqual([1n, 1n, 1n]);
  });
});
