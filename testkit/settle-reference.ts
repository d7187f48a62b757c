// The bigint reference of settlement with market makers, anchoring and passports
// (docs/settlement.md, docs/anchors.md, docs/passports.md), written again from the docs in plain
// TypeScript for testkit/reference.ts: operations 105–114, records 0x70–0x7E. Token movements
// follow the core's moveBalance exactly (balance check, overflow check, the Transfer event).

export type SettleOp =
  | { kind: 105; tier: number }
  | { kind: 106 }
  | { kind: 107; sellToken: Uint8Array; sellAmount: bigint; buyToken: Uint8Array; minBuy: bigint; expiry: bigint }
  | { kind: 108; id: Uint8Array; bid: bigint; ask: bigint }
  | { kind: 109; id: Uint8Array }
  | { kind: 110; id: Uint8Array }
  | { kind: 111; ns: Uint8Array; key: Uint8Array; hash: Uint8Array }
  | { kind: 112; tag: Uint8Array }
  | { kind: 113; id: Uint8Array; name: Uint8Array }
  | { kind: 114; id: Uint8Array; player: Uint8Array; score: bigint; data: Uint8Array };

export interface SettleReader {
  take(n: number): Uint8Array;
  u8(): number;
  u64(): bigint;
  u128(): bigint;
  vec(): Uint8Array;
}

/** Decode operation `d` (105–114); null when a string is not UTF-8 (MALFORMED_BUNDLE). */
export function decodeSettleOp(r: SettleReader, d: number, utf8ok: (b: Uint8Array) => boolean): SettleOp | null {
  const str = () => { const v = r.vec(); if (!utf8ok(v)) throw new BadUtf8(); return v; };
  try {
    switch (d) {
      case 105: return { kind: 105, tier: r.u8() };
      case 106: return { kind: 106 };
      case 107: return { kind: 107, sellToken: r.take(32), sellAmount: r.u128(), buyToken: r.take(32), minBuy: r.u128(), expiry: r.u64() };
      case 108: return { kind: 108, id: r.take(32), bid: r.u128(), ask: r.u128() };
      case 109: case 110: return { kind: d, id: r.take(32) };
      case 111: return { kind: 111, ns: str(), key: str(), hash: r.take(32) };
      case 112: return { kind: 112, tag: str() };
      case 113: return { kind: 113, id: str(), name: str() };
      default: return { kind: 114, id: str(), player: r.take(32), score: r.u64(), data: str() };
    }
  } catch (e) {
    if (e instanceof BadUtf8) return null;
    throw e;
  }
}
class BadUtf8 extends Error {}

export interface SettleIo {
  get(key: Uint8Array): Uint8Array | undefined;
  put(key: Uint8Array, v: Uint8Array | null): void;
  bal(a: Uint8Array, m: Uint8Array): bigint;
  setBal(a: Uint8Array, m: Uint8Array, v: bigint): void;
  blake3(...parts: Uint8Array[]): Uint8Array;
}
export interface SettleCtx { height: bigint; timestamp: bigint }
export interface SettleEvent { bundleIndex: number; opIndex: number; kind: number; data: Uint8Array }

/** This domain's statuses (assembly/status.ts 310–348). */
export const SETTLE_STATUS = {
  INVALID_MM_TIER: 310, MM_TIER_UNCHANGED: 311, NOT_MARKET_MAKER: 312, MM_HAS_OPEN_MATCHES: 313, INVALID_ORDER_EXPIRY: 314,
  ORDER_NOT_FOUND: 315, ORDER_NOT_OPEN: 316, ORDER_EXPIRED: 317, ORDER_NOT_MATCHED: 318, NOT_ORDER_PARTY: 319, SELF_MATCH: 320,
  QUOTE_BELOW_LIMIT: 321, INVALID_QUOTE: 322, SPREAD_TOO_WIDE: 323, ORDER_NOT_EXPIRED: 324, ORDER_CLOSED: 325,
  INVALID_NAMESPACE: 330, INVALID_ANCHOR_KEY: 331, NOT_NAMESPACE_OWNER: 332, ANCHOR_EXISTS: 333,
  INVALID_GAMERTAG: 340, GAMERTAG_TAKEN: 341, PASSPORT_EXISTS: 342, INVALID_GAME: 343, GAME_EXISTS: 344, GAME_NOT_FOUND: 345,
  NOT_GAME_PUBLISHER: 346, NO_PASSPORT: 347, INVALID_PROFILE: 348,
} as const;
const SS = { OK: 0, INSUFFICIENT_BALANCE: 65, UNKNOWN_TOKEN: 66, ZERO_AMOUNT: 67, AMOUNT_OVERFLOW: 68, IDENTICAL_TOKENS: 75, ...SETTLE_STATUS } as const;

export function isSettleOp(op: { kind: number }): op is SettleOp {
  return op.kind >= 105 && op.kind <= 114;
}

/** Gas of 105–114 (docs/settlement.md, docs/anchors.md, docs/passports.md "Gas"). */
export const SETTLE_GAS: Record<number, bigint> = {
  105: 30000n, 106: 30000n, 107: 40000n, 108: 40000n, 109: 60000n, 110: 35000n, 111: 35000n, 112: 35000n, 113: 35000n, 114: 35000n,
};

const U128 = (1n << 128n) - 1n;
const U64 = (1n << 64n) - 1n;
const NTV = new Uint8Array(32);
const NTV_UNIT = 1_000_000_000n;
/** Tiers (docs/settlement.md "Tiers"): stake in raw NTV, widest spread in bps. */
export const TIERS: Record<number, { stake: bigint; spread: bigint }> = {
  1: { stake: 10_000n * NTV_UNIT, spread: 50n },
  2: { stake: 100_000n * NTV_UNIT, spread: 25n },
  3: { stake: 1_000_000n * NTV_UNIT, spread: 10n },
};
const MAX_ORDER_SECONDS = 2_592_000n;
const enc = new TextEncoder();

const le = (v: bigint, n: number) => { const b = new Uint8Array(n); for (let i = 0; i < n; i++) b[i] = Number((v >> BigInt(8 * i)) & 0xffn); return b; };
const rd = (b: Uint8Array, o: number, n: number) => { let v = 0n; for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[o + i]!); return v; };
const be64 = (v: bigint) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, v, false); return b; };
const cat = (...p: Uint8Array[]) => { const o = new Uint8Array(p.reduce((n, x) => n + x.length, 0)); let i = 0; for (const x of p) { o.set(x, i); i += x.length; } return o; };
const eq = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
const vec = (b: Uint8Array) => cat(le(BigInt(b.length), 4), b);
const key = (p: number, ...parts: Uint8Array[]) => cat(Uint8Array.of(p), ...parts);

interface Mm { tier: number; active: boolean; stake: bigint; index: bigint; registeredHeight: bigint; updatedHeight: bigint; openMatches: number; settledCount: bigint; spreadSum: bigint }
interface Order {
  state: number; creator: Uint8Array; sellToken: Uint8Array; sellAmount: bigint; buyToken: Uint8Array; minBuy: bigint; expiry: bigint;
  createdHeight: bigint; createdAt: bigint; mm: Uint8Array; bid: bigint; ask: bigint; spread: number;
  matchedHeight: bigint; matchedAt: bigint; closedHeight: bigint; closedAt: bigint;
}
interface Stats { count: bigint; volume: bigint; spreadSum: bigint; last: bigint; mms: bigint; active: bigint }

const encMm = (m: Mm) => cat(Uint8Array.of(1, m.tier, m.active ? 1 : 0), le(m.stake, 16), le(m.index, 8), le(m.registeredHeight, 8), le(m.updatedHeight, 8),
  le(BigInt(m.openMatches), 4), le(m.settledCount, 8), le(m.spreadSum, 8));
const decMm = (v: Uint8Array): Mm => ({ tier: v[1]!, active: v[2] === 1, stake: rd(v, 3, 16), index: rd(v, 19, 8), registeredHeight: rd(v, 27, 8), updatedHeight: rd(v, 35, 8),
  openMatches: Number(rd(v, 43, 4)), settledCount: rd(v, 47, 8), spreadSum: rd(v, 55, 8) });
const encOrder = (o: Order) => cat(Uint8Array.of(1, o.state), o.creator, o.sellToken, le(o.sellAmount, 16), o.buyToken, le(o.minBuy, 16), le(o.expiry, 8),
  le(o.createdHeight, 8), le(o.createdAt, 8), o.mm, le(o.bid, 16), le(o.ask, 16), le(BigInt(o.spread), 2), le(o.matchedHeight, 8), le(o.matchedAt, 8),
  le(o.closedHeight, 8), le(o.closedAt, 8));
const decOrder = (v: Uint8Array): Order => ({ state: v[1]!, creator: v.slice(2, 34), sellToken: v.slice(34, 66), sellAmount: rd(v, 66, 16), buyToken: v.slice(82, 114),
  minBuy: rd(v, 114, 16), expiry: rd(v, 130, 8), createdHeight: rd(v, 138, 8), createdAt: rd(v, 146, 8), mm: v.slice(154, 186), bid: rd(v, 186, 16), ask: rd(v, 202, 16),
  spread: Number(rd(v, 218, 2)), matchedHeight: rd(v, 220, 8), matchedAt: rd(v, 228, 8), closedHeight: rd(v, 236, 8), closedAt: rd(v, 244, 8) });
const encStats = (s: Stats) => cat(le(s.count, 8), le(s.volume, 32), le(s.spreadSum, 8), le(s.last, 8), le(s.mms, 8), le(s.active, 8));
const decStats = (v: Uint8Array | undefined): Stats => (v ? { count: rd(v, 0, 8), volume: rd(v, 8, 32), spreadSum: rd(v, 40, 8), last: rd(v, 48, 8), mms: rd(v, 56, 8), active: rd(v, 64, 8) }
  : { count: 0n, volume: 0n, spreadSum: 0n, last: 0n, mms: 0n, active: 0n });

/** ⌈(ask − bid) · 20,000 / (ask + bid)⌉ (docs/settlement.md "Spread"). */
export function spreadBps(bid: bigint, ask: bigint): bigint {
  const n = (ask - bid) * 20000n, d = ask + bid;
  return (n + d - 1n) / d;
}

/** What the random test wants to see reached. */
export const settleReach = { settled: 0, cancelledMatched: 0, expired: 0, profiles: 0, profilesRewritten: 0, anchors: 0 };

export function execSettleOp(io: SettleIo, ctx: SettleCtx, user: Uint8Array, nonce: bigint, op: SettleOp, index: number, k: number, evs: SettleEvent[]): number {
  const move = (from: Uint8Array, to: Uint8Array, token: Uint8Array, amount: bigint): number => {
    const fb = io.bal(from, token);
    if (fb < amount) return SS.INSUFFICIENT_BALANCE;
    if (!eq(from, to)) {
      const tb = io.bal(to, token) + amount;
      if (tb > U128) return SS.AMOUNT_OVERFLOW;
      io.setBal(to, token, tb);
      io.setBal(from, token, fb - amount);
    }
    evs.push({ bundleIndex: index, opIndex: k, kind: 0, data: cat(from, to, token, le(amount, 16)) });
    return SS.OK;
  };
  const stakeEscrow = (mm: Uint8Array) => io.blake3(enc.encode('ntv.atomence.stake'), mm);
  const escrowOf = (id: Uint8Array) => io.blake3(enc.encode('ntv.atomence.escrow'), id);
  const mmOf = (a: Uint8Array) => { const v = io.get(key(0x70, a)); return v ? decMm(v) : null; };
  const statsKey = Uint8Array.of(0x76);
  const stats = () => decStats(io.get(statsKey));
  const orderOf = (id: Uint8Array) => { const v = io.get(key(0x72, id)); return v ? decOrder(v) : null; };
  const closeOrder = (id: Uint8Array, o: Order, state: number) => {
    const wasMatched = o.state === 1;
    o.state = state;
    o.closedHeight = ctx.height;
    o.closedAt = ctx.timestamp;
    io.put(key(0x72, id), encOrder(o));
    if (!wasMatched) return;
    const m = mmOf(o.mm)!;
    m.openMatches--;
    if (state === 2) { m.settledCount++; m.spreadSum += BigInt(o.spread); }
    io.put(key(0x70, o.mm), encMm(m));
  };

  switch (op.kind) {
    case 105: {
      const tier = TIERS[op.tier];
      if (!tier) return SS.INVALID_MM_TIER;
      const old = mmOf(user);
      const active = !!old?.active;
      if (active && old!.tier === op.tier) return SS.MM_TIER_UNCHANGED;
      const have = active ? old!.stake : 0n;
      const esc = stakeEscrow(user);
      const st = tier.stake > have ? move(user, esc, NTV, tier.stake - have) : move(esc, user, NTV, have - tier.stake);
      if (st !== SS.OK) return st;
      const s = stats();
      const m: Mm = old ?? { tier: 0, active: false, stake: 0n, index: 0n, registeredHeight: 0n, updatedHeight: 0n, openMatches: 0, settledCount: 0n, spreadSum: 0n };
      if (!old) { m.index = s.mms; io.put(key(0x71, be64(s.mms)), user.slice()); s.mms++; }
      if (!active) { s.active++; m.registeredHeight = ctx.height; }
      if (!old || !active) io.put(statsKey, encStats(s));
      Object.assign(m, { tier: op.tier, active: true, stake: tier.stake, updatedHeight: ctx.height });
      io.put(key(0x70, user), encMm(m));
      return SS.OK;
    }
    case 106: {
      const m = mmOf(user);
      if (!m || !m.active) return SS.NOT_MARKET_MAKER;
      if (m.openMatches !== 0) return SS.MM_HAS_OPEN_MATCHES;
      const st = move(stakeEscrow(user), user, NTV, m.stake);
      if (st !== SS.OK) return st;
      Object.assign(m, { active: false, stake: 0n, updatedHeight: ctx.height });
      io.put(key(0x70, user), encMm(m));
      const s = stats();
      s.active--;
      io.put(statsKey, encStats(s));
      return SS.OK;
    }
    case 107: {
      if (op.sellAmount === 0n || op.minBuy === 0n) return SS.ZERO_AMOUNT;
      if (eq(op.sellToken, op.buyToken)) return SS.IDENTICAL_TOKENS;
      if (!io.get(key(3, op.sellToken)) || !io.get(key(3, op.buyToken))) return SS.UNKNOWN_TOKEN;
      if (op.expiry <= ctx.timestamp || op.expiry - ctx.timestamp > MAX_ORDER_SECONDS) return SS.INVALID_ORDER_EXPIRY;
      const id = io.blake3(enc.encode('ntv.atomence.order'), user, le(nonce, 8), le(BigInt(k), 2));
      const st = move(user, escrowOf(id), op.sellToken, op.sellAmount);
      if (st !== SS.OK) return st;
      io.put(key(0x72, id), encOrder({ state: 0, creator: user.slice(), sellToken: op.sellToken.slice(), sellAmount: op.sellAmount, buyToken: op.buyToken.slice(),
        minBuy: op.minBuy, expiry: op.expiry, createdHeight: ctx.height, createdAt: ctx.timestamp, mm: new Uint8Array(32), bid: 0n, ask: 0n, spread: 0,
        matchedHeight: 0n, matchedAt: 0n, closedHeight: 0n, closedAt: 0n }));
      return SS.OK;
    }
    case 108: {
      const m = mmOf(user);
      if (!m || !m.active) return SS.NOT_MARKET_MAKER;
      const o = orderOf(op.id);
      if (!o) return SS.ORDER_NOT_FOUND;
      if (o.state !== 0) return SS.ORDER_NOT_OPEN;
      if (ctx.timestamp > o.expiry) return SS.ORDER_EXPIRED;
      if (eq(o.creator, user)) return SS.SELF_MATCH;
      if (op.bid === 0n || op.ask < op.bid) return SS.INVALID_QUOTE;
      if (op.bid < o.minBuy) return SS.QUOTE_BELOW_LIMIT;
      const spread = spreadBps(op.bid, op.ask);
      if (spread > TIERS[m.tier]!.spread) return SS.SPREAD_TOO_WIDE;
      const st = move(user, escrowOf(op.id), o.buyToken, op.bid);
      if (st !== SS.OK) return st;
      Object.assign(o, { state: 1, mm: user.slice(), bid: op.bid, ask: op.ask, spread: Number(spread), matchedHeight: ctx.height, matchedAt: ctx.timestamp });
      io.put(key(0x72, op.id), encOrder(o));
      m.openMatches++;
      io.put(key(0x70, user), encMm(m));
      return SS.OK;
    }
    case 109: {
      const o = orderOf(op.id);
      if (!o) return SS.ORDER_NOT_FOUND;
      if (o.state !== 1) return SS.ORDER_NOT_MATCHED;
      if (!eq(o.creator, user) && !eq(o.mm, user)) return SS.NOT_ORDER_PARTY;
      if (ctx.timestamp > o.expiry) return SS.ORDER_EXPIRED;
      const esc = escrowOf(op.id);
      let st = move(esc, o.mm, o.sellToken, o.sellAmount);
      if (st !== SS.OK) return st;
      st = move(esc, o.creator, o.buyToken, o.bid);
      if (st !== SS.OK) return st;
      const sp = BigInt(o.spread);
      const s = stats();
      const at = s.count;
      if (s.count + 1n > U64 || s.spreadSum + sp > U64) return SS.AMOUNT_OVERFLOW;
      Object.assign(s, { count: s.count + 1n, volume: s.volume + o.sellAmount + o.bid, spreadSum: s.spreadSum + sp, last: ctx.height });
      io.put(statsKey, encStats(s));
      io.put(key(0x73, be64(at)), op.id.slice());
      for (const [token, amount] of [[o.sellToken, o.sellAmount], [o.buyToken, o.bid]] as const) {
        const t = decStats(io.get(key(0x75, token)));
        const ti = t.count;
        if (t.count + 1n > U64 || t.spreadSum + sp > U64) return SS.AMOUNT_OVERFLOW;
        Object.assign(t, { count: t.count + 1n, volume: t.volume + amount, spreadSum: t.spreadSum + sp, last: ctx.height });
        io.put(key(0x75, token), encStats(t));
        io.put(key(0x74, token, be64(ti)), op.id.slice());
      }
      closeOrder(op.id, o, 2);
      settleReach.settled++;
      return SS.OK;
    }
    case 110: {
      const o = orderOf(op.id);
      if (!o) return SS.ORDER_NOT_FOUND;
      if (o.state !== 0 && o.state !== 1) return SS.ORDER_CLOSED;
      if (!eq(o.creator, user) && !(o.state === 1 && eq(o.mm, user))) return SS.NOT_ORDER_PARTY;
      const expired = ctx.timestamp > o.expiry;
      if (o.state === 1 && !expired) return SS.ORDER_NOT_EXPIRED;
      const esc = escrowOf(op.id);
      let st = move(esc, o.creator, o.sellToken, o.sellAmount);
      if (st !== SS.OK) return st;
      if (o.state === 1) {
        st = move(esc, o.mm, o.buyToken, o.bid);
        if (st !== SS.OK) return st;
        settleReach.cancelledMatched++;
      }
      if (expired) settleReach.expired++;
      closeOrder(op.id, o, expired ? 4 : 3);
      return SS.OK;
    }
    case 111: {
      if (op.ns.length < 1 || op.ns.length > 64 || !/^[a-z0-9._-]+$/.test(latin1(op.ns))) return SS.INVALID_NAMESPACE;
      if (op.key.length < 1 || op.key.length > 256) return SS.INVALID_ANCHOR_KEY;
      const nsId = io.blake3(enc.encode('ntv.anchor.ns'), op.ns);
      const nsRec = io.get(key(0x77, nsId));
      if (nsRec && !eq(nsRec.subarray(1, 33), user)) return SS.NOT_NAMESPACE_OWNER;
      const anchorId = io.blake3(enc.encode('ntv.anchor'), nsId, op.key);
      if (io.get(key(0x78, anchorId))) return SS.ANCHOR_EXISTS;
      const count = nsRec ? rd(nsRec, 49, 8) : 0n;
      io.put(key(0x77, nsId), nsRec ? cat(nsRec.subarray(0, 49), le(count + 1n, 8), nsRec.subarray(57))
        : cat(Uint8Array.of(1), user, le(ctx.height, 8), le(ctx.timestamp, 8), le(1n, 8), vec(op.ns)));
      io.put(key(0x78, anchorId), cat(Uint8Array.of(1), user, op.hash, le(ctx.height, 8), le(ctx.timestamp, 8), le(count, 8), vec(op.ns), vec(op.key)));
      io.put(key(0x79, nsId, be64(count)), anchorId);
      settleReach.anchors++;
      return SS.OK;
    }
    case 112: {
      const tag = latin1(op.tag);
      if (op.tag.length < 3 || op.tag.length > 24 || !/^[A-Za-z0-9_]+$/.test(tag)) return SS.INVALID_GAMERTAG;
      if (io.get(key(0x7a, user))) return SS.PASSPORT_EXISTS;
      const tk = key(0x7b, enc.encode(tag.toLowerCase()));
      if (io.get(tk)) return SS.GAMERTAG_TAKEN;
      io.put(tk, user.slice());
      io.put(key(0x7a, user), cat(Uint8Array.of(1), le(ctx.height, 8), le(ctx.timestamp, 8), le(0n, 4), vec(op.tag)));
      bumpPassportStats(io, 0);
      return SS.OK;
    }
    case 113: {
      if (!validGameId(op.id) || op.name.length < 1 || op.name.length > 64) return SS.INVALID_GAME;
      const gk = key(0x7c, op.id);
      if (io.get(gk)) return SS.GAME_EXISTS;
      io.put(gk, cat(Uint8Array.of(1), user, le(ctx.height, 8), le(ctx.timestamp, 8), le(0n, 8), vec(op.name)));
      bumpPassportStats(io, 1);
      return SS.OK;
    }
    case 114: {
      if (!validGameId(op.id)) return SS.INVALID_GAME;
      if (op.data.length > 1024) return SS.INVALID_PROFILE;
      const gk = key(0x7c, op.id);
      const g = io.get(gk);
      if (!g) return SS.GAME_NOT_FOUND;
      if (!eq(g.subarray(1, 33), user)) return SS.NOT_GAME_PUBLISHER;
      const pk = key(0x7a, op.player);
      const p = io.get(pk);
      if (!p) return SS.NO_PASSPORT;
      const fk = key(0x7d, op.player, op.id);
      const old = io.get(fk);
      const revision = old ? rd(old, 9, 4) + 1n : 1n;
      const created = old ? rd(old, 13, 8) : ctx.height;
      io.put(fk, cat(Uint8Array.of(1), le(op.score, 8), le(revision, 4), le(created, 8), le(ctx.height, 8), le(ctx.timestamp, 8), vec(op.data)));
      if (!old) {
        io.put(gk, cat(g.subarray(0, 49), le(rd(g, 49, 8) + 1n, 8), g.subarray(57)));
        io.put(pk, cat(p.subarray(0, 17), le(rd(p, 17, 4) + 1n, 4), p.subarray(21)));
        bumpPassportStats(io, 2);
      } else settleReach.profilesRewritten++;
      settleReach.profiles++;
      return SS.OK;
    }
  }
}

const latin1 = (b: Uint8Array) => Buffer.from(b).toString('latin1');
const validGameId = (b: Uint8Array) => b.length >= 3 && b.length <= 64 && /^[a-z0-9._-]+$/.test(latin1(b));
function bumpPassportStats(io: SettleIo, which: number) {
  const k = Uint8Array.of(0x7e);
  const v = io.get(k);
  const c = [0, 1, 2].map((i) => (v ? rd(v, 8 * i, 8) : 0n));
  c[which]!++;
  io.put(k, cat(...c.map((x) => le(x, 8))));
}
