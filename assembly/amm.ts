// The constant-product AMM's pure math (docs/dex.md "Math"; facts.md "DEX"). Execution
// (assembly/domains/dex/ops.ts) and the host's read paths (the `amm_math` export: svc_quoteSwap,
// svc_getPrice) run these same functions, so a quote and an execution can never disagree
// (DESIGN.md). Every division rounds in the pool's favour: outputs and LP minted round down,
// inputs required round up. Results come back in U.lo/U.hi.

import * as U from "./u128";
import * as W from "./wide";

// @ts-ignore: decorator
@inline export const FEE_KEPT: u32 = 997; // 0.3% fee: 997/1000 of the input trades (facts.md "DEX")
// @ts-ignore: decorator
@inline export const FEE_DEN: u32 = 1000;
/** Uniswap v2 MINIMUM_LIQUIDITY: LP units locked forever at the first mint, owned by no one. */
// @ts-ignore: decorator
@inline export const MINIMUM_LIQUIDITY: u64 = 1000;

const A = memory.data(48);
const B = memory.data(48);
const C = memory.data(48);
const D = memory.data(48);
const Q = memory.data(48);
const X = memory.data(48);

// @ts-ignore: decorator
@inline const LIM53: u64 = 1 << 53;

/**
 * Exact-in output: out = floor(r_out·in·997 / (r_in·1000 + in·997)). False when a reserve is zero.
 * The quotient is below r_out, so it always fits u128 and the pool can always pay it.
 */
export function amountOut(inLo: u64, inHi: u64, rinLo: u64, rinHi: u64, routLo: u64, routHi: u64): bool {
  if ((rinLo | rinHi) == 0 || (routLo | routHi) == 0) return false;
  if ((inHi | rinHi | routHi) == 0 && inLo < LIM53 && rinLo < LIM53) {
    // Fast path: in·997 < 2^63 and r_in·1000 < 2^63, so the denominator fits u64; the 128-bit
    // numerator is divided by the 128/64 long division (its quotient is below r_out < 2^64).
    let a = inLo * <u64>FEE_KEPT;
    let den = rinLo * <u64>FEE_DEN + a;
    U.mul64(routLo, a);
    if (U.hi == 0) {
      U.set128(U.lo / den, 0);
    } else {
      U.set128(W.div128by64(U.hi, U.lo, den), 0);
    }
    return true;
  }
  W.wSet128(A, inLo, inHi);
  W.wMulSmall(A, A, FEE_KEPT);
  W.wSet128(B, routLo, routHi);
  W.wMul(C, A, B);
  W.wSet128(D, rinLo, rinHi);
  W.wMulSmall(D, D, FEE_DEN);
  W.wAdd(D, D, A);
  W.wDiv(Q, C, D);
  return W.wToU128(Q);
}

/**
 * Exact-out input (Uniswap v2 getAmountIn, for Acquire intents): the least input whose exact-in
 * output is at least `out`: floor(r_in·out·1000 / ((r_out − out)·997)) + 1. Status: 0 OK,
 * 1 when out ≥ r_out or a reserve is zero (the pool cannot pay it), 2 when the input exceeds u128.
 */
export function amountIn(outLo: u64, outHi: u64, rinLo: u64, rinHi: u64, routLo: u64, routHi: u64): u32 {
  if ((rinLo | rinHi) == 0 || (routLo | routHi) == 0) return 1;
  if (!U.lt128(outLo, outHi, routLo, routHi)) return 1;
  W.wSet128(A, rinLo, rinHi);
  W.wSet128(B, outLo, outHi);
  W.wMul(C, A, B);
  W.wMulSmall(C, C, FEE_DEN);
  U.sub128(routLo, routHi, outLo, outHi);
  W.wSet128(D, U.lo, U.hi);
  W.wMulSmall(D, D, FEE_KEPT);
  W.wDiv(Q, C, D);
  if (!W.wToU128(Q)) return 2;
  if (U.add128(U.lo, U.hi, 1, 0)) return 2;
  return 0;
}

/**
 * Price impact in basis points, rounded up: the share of the fee-adjusted ideal output
 * (in·997·r_out / (r_in·1000)) lost to the curve, which is a/(r_in·1000 + a) with a = in·997.
 * The 0.3% fee is reported apart. Result in U.lo (0…10,000).
 */
export function impactBps(inLo: u64, inHi: u64, rinLo: u64, rinHi: u64): void {
  W.wSet128(A, inLo, inHi);
  W.wMulSmall(A, A, FEE_KEPT);
  W.wSet128(D, rinLo, rinHi);
  W.wMulSmall(D, D, FEE_DEN);
  W.wAdd(D, D, A);
  if (W.wIsZero(D)) {
    U.set128(0, 0);
    return;
  }
  W.wMulSmall(C, A, 10000);
  W.wDiv(Q, C, D);
  W.wToU128(Q);
  let bps = U.lo + (W.wRemNonZero ? 1 : 0);
  U.set128(bps, 0);
}

/** floor(x·y / d) (d ≠ 0); false when the quotient exceeds u128. Sets W.wRemNonZero. */
export function mulDiv(xLo: u64, xHi: u64, yLo: u64, yHi: u64, dLo: u64, dHi: u64): bool {
  W.wSet128(A, xLo, xHi);
  W.wSet128(B, yLo, yHi);
  W.wMul(C, A, B);
  W.wSet128(D, dLo, dHi);
  W.wDiv(Q, C, D);
  return W.wToU128(Q);
}

/** floor(sqrt(x·y)) by Newton's method from a power of two above the root (fits u128). */
export function sqrtProduct(xLo: u64, xHi: u64, yLo: u64, yHi: u64): void {
  W.wSet128(A, xLo, xHi);
  W.wSet128(B, yLo, yHi);
  W.wMul(C, A, B); // C = n
  let n = W.wLen(C);
  if (n == 0) {
    U.set128(0, 0);
    return;
  }
  let bits = n * 32 - <i32>clz<u32>(load<u32>(C + (<usize>(n - 1) << 2)));
  let half = (bits + 1) >> 1; // 2^half ≥ sqrt(n)
  memory.fill(X, 0, 48);
  store<u32>(X + (<usize>(half >> 5) << 2), <u32>1 << <u32>(half & 31));
  while (true) {
    W.wDiv(Q, C, X); // n / x
    W.wAdd(D, Q, X);
    W.wShr1(D, D); // y = (x + n/x) / 2
    if (W.wCmp(D, X) >= 0) break;
    W.wCopy(X, D);
  }
  W.wToU128(X);
}

/**
 * The liquidity a deposit mints (Uniswap v2 Router + Pair): with desired amounts d0, d1 against
 * reserves r0, r1 and LP supply s, the deposit used keeps the pool's ratio — (d0, floor(d0·r1/r0))
 * when that fits d1, else (floor(d1·r0/r1), d1) — and mints min(u0·s/r0, u1·s/r1) rounded down, so
 * the new LP never claims more of either reserve than was paid in. Results in used0/used1/minted.
 * False when a product overflows u128 (the deposit cannot be taken anyway).
 */
export let used0Lo: u64 = 0;
export let used0Hi: u64 = 0;
export let used1Lo: u64 = 0;
export let used1Hi: u64 = 0;
export let mintedLo: u64 = 0;
export let mintedHi: u64 = 0;
export function liquidityFor(d0Lo: u64, d0Hi: u64, d1Lo: u64, d1Hi: u64, r0Lo: u64, r0Hi: u64, r1Lo: u64, r1Hi: u64,
                             sLo: u64, sHi: u64): bool {
  let fits = mulDiv(d0Lo, d0Hi, r1Lo, r1Hi, r0Lo, r0Hi);
  if (fits && !U.lt128(d1Lo, d1Hi, U.lo, U.hi)) {
    used0Lo = d0Lo; used0Hi = d0Hi; used1Lo = U.lo; used1Hi = U.hi;
  } else {
    // d1·r0/r1 ≤ d0 here (the other choice exceeded d1), so it fits.
    if (!mulDiv(d1Lo, d1Hi, r0Lo, r0Hi, r1Lo, r1Hi)) return false;
    used0Lo = U.lo; used0Hi = U.hi; used1Lo = d1Lo; used1Hi = d1Hi;
  }
  if (!mulDiv(used0Lo, used0Hi, sLo, sHi, r0Lo, r0Hi)) return false;
  let l0 = U.lo, h0 = U.hi;
  if (!mulDiv(used1Lo, used1Hi, sLo, sHi, r1Lo, r1Hi)) return false;
  if (U.lt128(l0, h0, U.lo, U.hi)) {
    mintedLo = l0; mintedHi = h0;
  } else {
    mintedLo = U.lo; mintedHi = U.hi;
  }
  return true;
}

/**
 * TWAP accumulator step (Uniswap v2 price0CumulativeLast, here Q64.64 prices in a 256-bit
 * accumulator): cum += floor(num·2^64 / den) · elapsed, the price saturating at u128 max and the
 * sum wrapping modulo 2^256 (consumers take differences). `cum` points at 32 bytes, little-endian.
 */
export function accumulate(cum: usize, numLo: u64, numHi: u64, denLo: u64, denHi: u64, elapsed: u64): void {
  W.wSet128(A, numLo, numHi);
  W.wShlLimbs(A, A, 2);
  W.wSet128(D, denLo, denHi);
  W.wDiv(Q, A, D);
  if (!W.wToU128(Q)) U.set128(0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF);
  W.wSet128(A, U.lo, U.hi);
  W.wSet128(B, elapsed, 0);
  W.wMul(C, A, B);
  memory.fill(X, 0, 48);
  memory.copy(X, cum, 32);
  W.wAdd(X, X, C);
  memory.copy(cum, X, 32);
}
