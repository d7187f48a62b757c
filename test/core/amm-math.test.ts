// The AMM's limb math (assembly/amm.ts, assembly/wide.ts) against bigint on random full-range
// inputs, and the Uniswap v2 fixed vectors (docs/dex.md "Math").
import { beforeAll, describe, expect, it } from 'vitest';
import { AmmMath, amountOutRef } from '../../src/core/amm.js';
import { isqrt } from '../../testkit/reference.js';

const M128 = (1n << 128n) - 1n;
let seed = 0x9e3779b97f4a7c15n;
function rnd128(): bigint {
  seed = (seed * 6364136223846793005n + 1442695040888963407n) & ((1n << 256n) - 1n);
  return (seed >> 64n) & M128;
}
/** A value of a random bit length 1…128, so small, u64-sized and full-range inputs all occur. */
function rndAny(): bigint {
  const bits = BigInt(Number(rnd128() % 128n) + 1);
  const v = rnd128() & ((1n << bits) - 1n);
  return v === 0n ? 1n : v;
}

let release: AmmMath;
let debug: AmmMath;
beforeAll(async () => {
  release = await AmmMath.create();
  debug = await AmmMath.create({ debug: true });
});

describe('AMM math in the core', () => {
  it('exact-in output equals floor(r_out·in·997 / (r_in·1000 + in·997)) on 50,000 random inputs (fast and wide paths)', () => {
    let fast = 0;
    for (let i = 0; i < 50_000; i++) {
      const a = rndAny(), rin = rndAny(), rout = rndAny();
      if (a < 1n << 53n && rin < 1n << 53n && rout < 1n << 64n) fast++;
      const q = (i % 2 ? release : debug).quoteExactIn(a, rin, rout)!;
      expect(q.amountOut).toBe(amountOutRef(a, rin, rout));
      expect(q.fee).toBe(a - (a * 997n) / 1000n);
      const a9 = a * 997n;
      const num = a9 * 10000n, den = rin * 1000n + a9;
      expect(BigInt(q.impactBps)).toBe((num + den - 1n) / den);
    }
    expect(fast).toBeGreaterThan(100);
  });

  it('the 128/64 fast path agrees with bigint on u53 inputs', () => {
    for (let i = 0; i < 20_000; i++) {
      const a = rnd128() % (1n << 53n) + 1n, rin = rnd128() % (1n << 53n) + 1n, rout = rnd128() % (1n << 64n) + 1n;
      expect(release.quoteExactIn(a, rin, rout)!.amountOut).toBe(amountOutRef(a, rin, rout));
    }
  });

  it('exact-out input is the least input whose output reaches the target (Uniswap getAmountIn)', () => {
    let checked = 0;
    for (let i = 0; i < 20_000; i++) {
      const rin = rndAny(), rout = rndAny() + 1n;
      const out = rnd128() % rout;
      if (out === 0n) continue;
      const q = release.quoteExactOut(out, rin, rout);
      const want = (rin * out * 1000n) / ((rout - out) * 997n) + 1n;
      if (want > M128) {
        expect(q).toBeUndefined();
        continue;
      }
      expect(q!.amountIn).toBe(want);
      expect(amountOutRef(want, rin, rout)).toBeGreaterThanOrEqual(out);
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
    expect(release.quoteExactOut(10n, 100n, 10n)).toBeUndefined(); // the pool cannot pay all it has
  });

  it('first mint, deposits and withdrawals match bigint and never claim more than was paid', () => {
    for (let i = 0; i < 5_000; i++) {
      const a0 = rndAny(), a1 = rndAny();
      const fm = release.firstMint(a0, a1);
      expect(fm.total).toBe(isqrt(a0 * a1));
      const r0 = rndAny(), r1 = rndAny(), s = rndAny(), d0 = rndAny(), d1 = rndAny();
      const l = debug.liquidityFor(d0, d1, r0, r1, s);
      const b1 = (d0 * r1) / r0;
      let u0: bigint, u1: bigint;
      if (b1 <= d1) [u0, u1] = [d0, b1];
      else [u0, u1] = [(d1 * r0) / r1, d1];
      const m0 = (u0 * s) / r0, m1 = (u1 * s) / r1;
      const minted = m0 < m1 ? m0 : m1;
      if (minted > M128) continue;
      expect(l).toEqual({ used0: u0, used1: u1, minted });
      // LP share never exceeds the share paid in, for both reserves.
      expect(minted * r0).toBeLessThanOrEqual(u0 * s);
      expect(minted * r1).toBeLessThanOrEqual(u1 * s);
      const lp = rnd128() % s + 1n;
      expect(release.removeFor(lp, r0, r1, s)).toEqual({ out0: (lp * r0) / s, out1: (lp * r1) / s });
    }
  });

  it('Uniswap v2 vectors: mint(1e18, 4e18) gives 2e18 total, 2e18 − 1000 to the provider; getInputPrice cases', () => {
    const e18 = 10n ** 18n;
    expect(release.firstMint(e18, 4n * e18)).toEqual({ total: 2n * e18, provider: 2n * e18 - 1000n });
    // UniswapV2Pair.spec.ts swapTestCases: [swapAmount, token0Amount, token1Amount, expectedOutputAmount]
    const cases: Array<[bigint, bigint, bigint, bigint]> = [
      [1n, 5n, 10n, 1662497915624478906n],
      [1n, 10n, 5n, 453305446940074565n],
      [2n, 5n, 10n, 2851015155847869602n],
      [2n, 10n, 5n, 831248957812239453n],
      [1n, 10n, 10n, 906610893880149131n],
      [1n, 100n, 100n, 987158034397061298n],
      [1n, 1000n, 1000n, 996006981039903216n],
    ];
    for (const [a, r0, r1, out] of cases) expect(release.quoteExactIn(a * e18, r0 * e18, r1 * e18)!.amountOut).toBe(out);
  });

  it('batched round trips in the module give the bigint result', () => {
    let r0 = 10n ** 24n, r1 = 3n * 10n ** 21n;
    const a = 10n ** 20n;
    const [c0, c1] = release.benchRoundTrips(a, r0, r1, 1000);
    for (let i = 0; i < 1000; i++) {
      const o = amountOutRef(a, r0, r1);
      r0 += a; r1 -= o;
      const b = amountOutRef(o, r1, r0);
      r1 += o; r0 -= b;
    }
    expect([c0, c1]).toEqual([r0, r1]);
  });
});
