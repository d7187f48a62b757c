// The DEX in the core (docs/dex.md) against the bigint reference (testkit/reference.ts): random
// create/add/remove/swap/metadata sequences give identical statuses, events, reserves, LP supply,
// balances and state roots; plus the properties (k never decreases on a swap, no value is created,
// quote = execution) and the fixed Uniswap v2 vectors through real bundles.
import { beforeAll, describe, expect, it } from 'vitest';
import { Core, type BundleInput } from '../../src/core/core.js';
import { accountKey, balanceKey, tokenKey, decodeTokenRecord } from '../../src/core/records.js';
import { AmmMath, decodePoolRecord, decodeTokenMetadata, lpKey, poolAddress, poolKey, tokenMetadataKey } from '../../src/core/amm.js';
import { decodeEvent } from '../../src/core/events.js';
import { statusName } from '../../src/core/status.js';
import { Reference, S } from '../../testkit/reference.js';
import { addr, encodeBundle, hex, W, type Op } from '../../testkit/encode.js';
import { MapStore, NTV, mintOf, rng, TREASURY } from './harness.js';

const E9 = 10n ** 9n;
const E18 = 10n ** 18n;
const M128 = (1n << 128n) - 1n;

// Operation encoders (docs/bundle-format.md "Operation").
export const dexOps = {
  createPool: (a: Uint8Array, b: Uint8Array, x: bigint, y: bigint, lock: bigint): Op => {
    const w = new W(); w.raw(a); w.raw(b); w.u128(x); w.u128(y); w.u64(lock); return { kind: 'raw', disc: 28, bytes: w.bytes() };
  },
  add: (a: Uint8Array, b: Uint8Array, x: bigint, y: bigint, min: bigint): Op => {
    const w = new W(); w.raw(a); w.raw(b); w.u128(x); w.u128(y); w.u128(min); return { kind: 'raw', disc: 29, bytes: w.bytes() };
  },
  remove: (a: Uint8Array, b: Uint8Array, lp: bigint, minA: bigint, minB: bigint): Op => {
    const w = new W(); w.raw(a); w.raw(b); w.u128(lp); w.u128(minA); w.u128(minB); return { kind: 'raw', disc: 30, bytes: w.bytes() };
  },
  swap: (a: Uint8Array, b: Uint8Array, x: bigint, min: bigint): Op => {
    const w = new W(); w.raw(a); w.raw(b); w.u128(x); w.u128(min); return { kind: 'raw', disc: 31, bytes: w.bytes() };
  },
  updateMeta: (mint: Uint8Array, fields: Array<string | null>): Op => {
    const w = new W(); w.raw(mint);
    for (let i = 0; i < 8; i++) { const f = fields[i]; if (f === null || f === undefined) w.u8(0); else { w.u8(1); w.str(f); } }
    return { kind: 'raw', disc: 34, bytes: w.bytes() };
  },
  lockMeta: (mint: Uint8Array): Op => { const w = new W(); w.raw(mint); return { kind: 'raw', disc: 35, bytes: w.bytes() }; },
};

const TOKENS = [NTV, mintOf(1), mintOf(2), mintOf(3)];
const N_ACC = 8;

function genesis(r: ReturnType<typeof rng>) {
  return {
    chainId: 1618032n, timestamp: 1_700_000_000n,
    tokens: TOKENS.map((m, i) => ({ mint: m, name: `T${i}`, symbol: i === 0 ? 'NTV' : `TK${i}`, decimals: i === 3 ? 18 : 9, kind: i === 0 ? 0 : 2, creator: addr(999) })),
    balances: TOKENS.flatMap((m, t) => Array.from({ length: N_ACC }, (_, i) => ({
      account: addr(i), mint: m,
      // small, u64-sized and 18-decimal-sized holdings, so both the fast and the wide math run
      amount: t === 0 ? 10_000n * E9 + r.big(10_000n * E9) : t === 3 ? r.big(10n ** 30n) + E18 : r.big(t === 1 ? 10n ** 12n : 10n ** 20n) + 1_000_000n,
    }))),
    reservedSymbols: ['USDC'],
  };
}

const u128le = (v: Uint8Array | undefined) => (v ? new DataView(v.buffer, v.byteOffset).getBigUint64(0, true) | (new DataView(v.buffer, v.byteOffset).getBigUint64(8, true) << 64n) : 0n);

let math: AmmMath;
beforeAll(async () => {
  math = await AmmMath.create();
});

async function runSequence(seed: number, blocks: number) {
  const r = rng(seed);
  const store = new MapStore();
  const core = await Core.create(store, { debug: seed % 2 === 0 });
  const ref = await Reference.create();
  const g = genesis(r);
  core.genesis(g);
  expect(ref.genesis(g)).toBe(0);
  let c = core.commitBlock();
  expect(hex(c.stateRoot)).toBe(hex(ref.commitBlock().stateRoot));
  store.apply(c.writes);
  const supply = new Map(TOKENS.map((m) => [hex(m), decodeTokenRecord(store.get(tokenKey(m))!).totalSupply]));
  const statuses = new Map<string, number>();
  const created: Uint8Array[] = [];
  let swaps = 0;

  for (let height = 1; height <= blocks; height++) {
    const ts = 1_700_000_000n + BigInt(height * 7);
    const ctx = { height: BigInt(height), timestamp: ts, proposer: addr(N_ACC + 1), gasPrice: BigInt(r.pick([0, 10])), chainId: 1618032n, allowUnsigned: true, blockGasLimit: 100_000_000n };
    const bundles: BundleInput[] = [];
    const nonces = new Map<number, bigint>();
    const quotes: Array<{ bundle: number; out: bigint }> = [];
    const nb = 1 + r.int(12);
    for (let k = 0; k < nb; k++) {
      const who = r.int(N_ACC);
      const user = addr(who);
      const acc = ref.get(accountKey(user));
      const nonce = nonces.get(who) ?? (acc ? new DataView(acc.buffer, acc.byteOffset).getBigUint64(0, true) : 0n);
      nonces.set(who, nonce + 1n);
      const a = r.chance(0.03) ? mintOf(99) : r.pick(TOKENS);
      const b = r.chance(0.04) ? a : r.pick(TOKENS);
      const have = (m: Uint8Array) => u128le(ref.get(balanceKey(user, m)));
      const part = (m: Uint8Array) => { const h = have(m); return r.chance(0.05) ? h + 1n : r.chance(0.03) ? 0n : h === 0n ? 1n : 1n + r.big(h / BigInt(1 + r.int(20))); };
      const pool = ref.get(poolKey(poolAddress(a, b)));
      const ops: Op[] = [];
      const kind = r.int(100);
      if (kind < 12) {
        ops.push(dexOps.createPool(a, b, r.chance(0.05) ? 10n : part(a), r.chance(0.05) ? 10n : part(b), BigInt(r.pick([0, 0, 30, 3600, 400_000_000]))));
      } else if (kind < 30) {
        const p = pool ? decodePoolRecord(pool) : undefined;
        const x = part(a), y = part(b);
        let min = 0n;
        if (p && r.chance(0.3)) {
          const [d0, d1] = Buffer.compare(a, b) <= 0 ? [x, y] : [y, x];
          const l = math.liquidityFor(d0, d1, p.reserve0, p.reserve1, p.lpSupply);
          if (l) min = l.minted + (r.chance(0.5) ? 1n : 0n);
        }
        ops.push(dexOps.add(a, b, x, y, min));
      } else if (kind < 42) {
        const held = pool ? u128le(ref.get(lpKey(poolAddress(a, b), user))) : 0n;
        const lp = r.chance(0.1) ? held + 1n : r.chance(0.2) ? held : 1n + r.big(held + 1n);
        ops.push(dexOps.remove(a, b, lp, r.chance(0.1) ? M128 : 0n, 0n));
      } else if (kind < 94) {
        const x = part(a);
        let min = 0n;
        if (pool && Buffer.compare(a, b) !== 0) {
          const p = decodePoolRecord(pool);
          const [rin, rout] = Buffer.compare(a, b) < 0 ? [p.reserve0, p.reserve1] : [p.reserve1, p.reserve0];
          const q = math.quoteExactIn(x, rin, rout);
          if (q && r.chance(0.2)) min = q.amountOut + 1n; // one unit above the formula: refused
          else if (q) min = q.amountOut;
          if (q && k === 0 && min === q.amountOut) quotes.push({ bundle: bundles.length, out: q.amountOut });
        }
        ops.push(dexOps.swap(a, b, x, min));
      } else {
        const mint = created.length && r.chance(0.8) ? r.pick(created) : r.pick(TOKENS);
        if (r.chance(0.7)) ops.push(dexOps.updateMeta(mint, Array.from({ length: 8 }, () => (r.chance(0.5) ? null : r.chance(0.05) ? 'x'.repeat(1100) : `v${r.int(100)}`))));
        else if (r.chance(0.3)) ops.push(dexOps.lockMeta(mint));
        else ops.push({ kind: 'createToken', name: 'Meme', symbol: `M${height}x${k}`, decimals: 6, supply: 10n ** 12n, owner: user });
      }
      bundles.push({ bytes: encodeBundle({ user, ops, maxGas: 100_000n, maxPriorityFee: 0n, validUntil: ts + 100n, nonce }), auth: 0 });
    }
    const before = new Map<string, bigint>();
    for (const m of TOKENS) for (const m2 of TOKENS) {
      const v = ref.get(poolKey(poolAddress(m, m2)));
      if (v) { const p = decodePoolRecord(v); before.set(hex(poolAddress(m, m2)), p.reserve0 * p.reserve1); }
    }
    const out = core.applyBlock(ctx, bundles);
    const want = ref.applyBlock(ctx, bundles);
    expect(out.results.map((x) => statusName(x.status))).toEqual(want.results.map((x) => statusName(x.status)));
    expect(out.results).toEqual(want.results);
    expect(out.events.map((e) => [e.bundleIndex, e.opIndex, e.kind])).toEqual(want.events.map((e) => [e.bundleIndex, e.opIndex, decodeEvent(e.bundleIndex, e.opIndex, e.kind, e.data).kind]));
    expect(out.events.length).toBe(want.events.length);
    for (const res of out.results) statuses.set(statusName(res.status), (statuses.get(statusName(res.status)) ?? 0) + 1);
    // quote = execution: a swap quoted against the pre-block reserves (first in its block) paid exactly that.
    for (const q of quotes) {
      if (out.results[q.bundle]!.status !== S.OK) continue;
      const ev = out.events.find((e) => e.bundleIndex === q.bundle && e.kind === 'Swap');
      if (ev && ev.kind === 'Swap') expect(ev.amountOut).toBe(q.out);
    }
    for (const e of out.events) if (e.kind === 'TokenCreated') created.push(e.mint.slice());
    swaps += out.events.filter((e) => e.kind === 'Swap').length;
    c = core.commitBlock();
    const rc = ref.commitBlock();
    expect(hex(c.stateRoot)).toBe(hex(rc.stateRoot));
    expect(c.writes.map((w) => [hex(w.key), w.value ? hex(w.value) : null])).toEqual(rc.writes.map((w) => [hex(w.key), w.value ? hex(w.value) : null]));
    store.apply(c.writes);
    // Properties: k never decreases except by withdrawals; pools hold their reserves; no value created.
    for (const m of TOKENS) for (const m2 of TOKENS) {
      const pa = poolAddress(m, m2);
      const v = store.get(poolKey(pa));
      if (!v) continue;
      const p = decodePoolRecord(v);
      expect(u128le(store.get(balanceKey(pa, p.token0)))).toBeGreaterThanOrEqual(p.reserve0);
      expect(u128le(store.get(balanceKey(pa, p.token1)))).toBeGreaterThanOrEqual(p.reserve1);
      const k0 = before.get(hex(pa));
      const removed = out.events.some((e) => e.kind === 'LiquidityRemoved' && hex(e.pool) === hex(pa));
      if (k0 !== undefined && !removed) expect(p.reserve0 * p.reserve1).toBeGreaterThanOrEqual(k0);
      expect(p.reserve0).toBeGreaterThan(0n);
      expect(p.lpSupply).toBeGreaterThanOrEqual(1000n);
    }
    for (const m of TOKENS) {
      let sum = 0n;
      for (const [k, v] of store.map) if (k.startsWith('02') && k.endsWith(hex(m))) sum += u128le(v);
      expect(sum).toBe(supply.get(hex(m)));
    }
  }
  return { statuses, swaps };
}

describe('DEX core vs the bigint reference', () => {
  it('random create/add/remove/swap/metadata sequences: identical statuses, events, writes and roots; k, value and quote properties', async () => {
    const all = new Map<string, number>();
    let swaps = 0;
    for (const seed of [1, 2, 3, 4]) {
      const res = await runSequence(seed, 100);
      swaps += res.swaps;
      for (const [k, v] of res.statuses) all.set(k, (all.get(k) ?? 0) + v);
    }
    // The sequences reach the interesting outcomes, not just refusals.
    for (const name of ['OK', 'IDENTICAL_TOKENS', 'POOL_EXISTS', 'POOL_NOT_FOUND', 'SLIPPAGE_EXCEEDED', 'INSUFFICIENT_BALANCE', 'INSUFFICIENT_LP_BALANCE', 'UNKNOWN_TOKEN', 'NOT_TOKEN_CREATOR']) {
      expect(all.get(name) ?? 0, name).toBeGreaterThan(0);
    }
    expect(swaps).toBeGreaterThan(100);
  }, 120_000);
});

describe('DEX rules through bundles', () => {
  async function setup() {
    const store = new MapStore();
    const core = await Core.create(store, { debug: true });
    const g = {
      chainId: 1618032n, timestamp: 1_700_000_000n,
      tokens: TOKENS.map((m, i) => ({ mint: m, name: `T${i}`, symbol: i === 0 ? 'NTV' : `TK${i}`, decimals: 18, kind: i === 0 ? 0 : 2, creator: addr(999) })),
      balances: TOKENS.flatMap((m) => [0, 1].map((i) => ({ account: addr(i), mint: m, amount: 10n ** 24n }))),
      reservedSymbols: [],
    };
    core.genesis(g);
    store.apply(core.commitBlock().writes);
    let height = 0;
    const nonces = [0n, 0n];
    const run = (who: number, ops: Op[], ts = 1_700_000_100n + BigInt(height)) => {
      height++;
      const ctx = { height: BigInt(height), timestamp: ts, proposer: addr(50), gasPrice: 0n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 10_000_000n };
      const res = core.applyBlock(ctx, [{ bytes: encodeBundle({ user: addr(who), ops, maxGas: 100_000n, maxPriorityFee: 0n, validUntil: ts + 10n, nonce: nonces[who]! }), auth: 0 }]);
      const st = res.results[0]!.status;
      if (st === S.OK) nonces[who]!++;
      store.apply(core.commitBlock().writes);
      return { status: statusName(st), events: res.events };
    };
    return { core, store, run };
  }

  it('Uniswap v2: mint(1e18, 4e18) gives 2e18 LP, 1,000 locked forever; the 100 NTV fee goes to the treasury', async () => {
    const { store, run } = await setup();
    const [t1, t2] = [mintOf(1), mintOf(2)];
    expect(run(0, [dexOps.createPool(t1, t2, E18, 4n * E18, 0n)]).status).toBe('OK');
    const pa = poolAddress(t1, t2);
    const p = decodePoolRecord(store.get(poolKey(pa))!);
    expect(p.lpSupply).toBe(2n * E18);
    expect(u128le(store.get(lpKey(pa, addr(0))))).toBe(2n * E18 - 1000n);
    expect(u128le(store.get(balanceKey(TREASURY, NTV)))).toBe(100n * E9);
    expect(run(1, [dexOps.createPool(t2, t1, E18, E18, 0n)]).status).toBe('POOL_EXISTS');
    expect(run(1, [dexOps.createPool(t1, mintOf(3), 1000n, 1000n, 0n)]).status).toBe('INSUFFICIENT_LIQUIDITY');
    expect(run(1, [dexOps.createPool(t1, mintOf(3), E18, E18, 315_360_001n)]).status).toBe('INVALID_LOCK_DURATION');
  });

  it('a swap asking one unit above the formula is refused; exactly the formula is paid', async () => {
    const { store, run } = await setup();
    const [t1, t2] = [mintOf(1), mintOf(2)];
    run(0, [dexOps.createPool(t1, t2, 5n * E18, 10n * E18, 0n)]);
    expect(run(1, [dexOps.swap(t1, t2, E18, 1662497915624478906n + 1n)]).status).toBe('SLIPPAGE_EXCEEDED');
    const before = u128le(store.get(balanceKey(addr(1), t2)));
    const r = run(1, [dexOps.swap(t1, t2, E18, 1662497915624478906n)]);
    expect(r.status).toBe('OK');
    expect(u128le(store.get(balanceKey(addr(1), t2))) - before).toBe(1662497915624478906n);
    expect(run(1, [dexOps.swap(t1, t1, E18, 0n)]).status).toBe('IDENTICAL_TOKENS');
    expect(run(1, [dexOps.swap(t1, t2, 0n, 0n)]).status).toBe('ZERO_AMOUNT');
    expect(run(1, [dexOps.swap(t1, mintOf(9), 1n, 0n)]).status).toBe('UNKNOWN_TOKEN');
    expect(run(1, [dexOps.swap(t1, mintOf(3), 1n, 0n)]).status).toBe('POOL_NOT_FOUND');
    expect(run(1, [dexOps.swap(t1, t2, 10n ** 25n, 0n)]).status).toBe('INSUFFICIENT_BALANCE');
    expect(run(1, [dexOps.swap(t2, t1, 1n, 0n)]).status).toBe('INSUFFICIENT_OUTPUT_AMOUNT'); // 1 × 6/8.3 × 0.997 rounds to 0
  });

  it('the creator LP lock holds until it ends; other providers are free; removing more than held is refused', async () => {
    const { store, run } = await setup();
    const [t1, t2] = [mintOf(1), mintOf(2)];
    const t0 = 1_700_000_100n;
    expect(run(0, [dexOps.createPool(t1, t2, E18, E18, 3600n)], t0).status).toBe('OK');
    const pa = poolAddress(t1, t2);
    expect(run(0, [dexOps.remove(t1, t2, 1n, 0n, 0n)], t0 + 10n).status).toBe('LP_LOCKED');
    expect(run(1, [dexOps.add(t1, t2, E18, 2n * E18, E18 + 1n)], t0 + 20n).status).toBe('SLIPPAGE_EXCEEDED');
    expect(run(1, [dexOps.add(t1, t2, E18, 2n * E18, E18)], t0 + 20n).status).toBe('OK'); // uses (1e18, 1e18)
    expect(u128le(store.get(lpKey(pa, addr(1))))).toBe(E18);
    expect(run(1, [dexOps.remove(t1, t2, E18 + 1n, 0n, 0n)], t0 + 30n).status).toBe('INSUFFICIENT_LP_BALANCE');
    expect(run(1, [dexOps.remove(t1, t2, E18, E18 + 1n, 0n)], t0 + 30n).status).toBe('SLIPPAGE_EXCEEDED');
    expect(run(1, [dexOps.remove(t1, t2, E18, E18, E18)], t0 + 30n).status).toBe('OK');
    // After the lock the creator can withdraw all but the 1,000 locked forever.
    expect(run(0, [dexOps.remove(t1, t2, E18 - 1000n, 0n, 0n)], t0 + 3600n).status).toBe('OK');
    const p = decodePoolRecord(store.get(poolKey(pa))!);
    expect(p.lpSupply).toBe(1000n);
    expect([p.reserve0, p.reserve1]).toEqual([1000n, 1000n]);
    expect(p.price0Cumulative).toBeGreaterThan(0n); // TWAP advanced with the block timestamps
  });

  it('token metadata: creator only, every field, one-way lock', async () => {
    const { store, run } = await setup();
    const r = run(0, [{ kind: 'createToken', name: 'Meme', symbol: 'MEME', decimals: 6, supply: 1000n, owner: addr(0) }]);
    const mint = (r.events[0] as { mint: Uint8Array }).mint.slice();
    expect(run(1, [dexOps.updateMeta(mint, ['ipfs://x', null, null, null, null, null, null, null])]).status).toBe('NOT_TOKEN_CREATOR');
    expect(run(0, [dexOps.updateMeta(mint, ['ipfs://x', 'img', 'd'.repeat(1025), null, null, null, null, null])]).status).toBe('INVALID_METADATA');
    expect(run(0, [dexOps.updateMeta(mint, ['ipfs://x', 'img', 'desc', 'https://e', '@t', 'd', 't', 'g'])]).status).toBe('OK');
    expect(run(0, [dexOps.updateMeta(mint, [null, '', null, null, null, null, null, 'gh'])]).status).toBe('OK');
    expect(decodeTokenMetadata(store.get(tokenMetadataKey(mint))!)).toEqual({
      metadata_uri: 'ipfs://x', image: null, description: 'desc', external_url: 'https://e', twitter: '@t', discord: 'd', telegram: 't', github: 'gh',
    });
    expect(run(1, [dexOps.lockMeta(mint)]).status).toBe('NOT_TOKEN_CREATOR');
    expect(run(0, [dexOps.lockMeta(mint)]).status).toBe('OK');
    expect(decodeTokenRecord(store.get(tokenKey(mint))!).flags & 1).toBe(0);
    expect(run(0, [dexOps.lockMeta(mint)]).status).toBe('METADATA_LOCKED');
    expect(run(0, [dexOps.updateMeta(mint, ['a', null, null, null, null, null, null, null])]).status).toBe('METADATA_LOCKED');
    expect(run(0, [dexOps.updateMeta(mintOf(1), ['a', null, null, null, null, null, null, null])]).status).toBe('NOT_TOKEN_CREATOR');
    expect(run(0, [dexOps.lockMeta(mintOf(77))]).status).toBe('UNKNOWN_TOKEN');
  });
});
