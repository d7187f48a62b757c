// Wide unsigned integers on 32-bit limbs for the AMM (docs/dex.md "Math"). AssemblyScript has no
// u128 and the swap numerator r_out·in·997 needs up to 266 bits with u128 inputs (DEPENDENCIES.md:
// hand-written mul/div on 32-bit limbs, with a 128/64 fast path). A number is N_LIMBS little-endian
// u32 limbs in a fixed region of static memory; nothing allocates, so the math is deterministic and
// cheap enough to run inside a block. Only the checked conversions back to u128 can fail.

import * as U from "./u128";

// @ts-ignore: decorator
@inline export const N_LIMBS: i32 = 12; // 384 bits: the widest intermediate (266 bits) with room
// @ts-ignore: decorator
@inline const BYTES: usize = 48;
// @ts-ignore: decorator
@inline const M32: u64 = 0xFFFFFFFF;

// Scratch for the long division (normalised copies; one extra limb for the dividend).
const UN = memory.data(56);
const VN = memory.data(56);

export function wSet128(p: usize, lo: u64, hi: u64): void {
  memory.fill(p, 0, BYTES);
  store<u64>(p, lo, 0);
  store<u64>(p, hi, 8);
}

export function wCopy(dst: usize, src: usize): void {
  memory.copy(dst, src, BYTES);
}

/** Number of significant limbs (0 for zero). */
export function wLen(p: usize): i32 {
  let n = N_LIMBS;
  while (n > 0 && load<u32>(p + (<usize>(n - 1) << 2)) == 0) n--;
  return n;
}

export function wIsZero(p: usize): bool {
  return wLen(p) == 0;
}

/** Does the number fit in u128? Then U.lo/U.hi hold it. */
export function wToU128(p: usize): bool {
  for (let i = 4; i < N_LIMBS; i++) if (load<u32>(p + (<usize>i << 2)) != 0) return false;
  U.set128(load<u64>(p, 0), load<u64>(p, 8));
  return true;
}

/** -1, 0, 1. */
export function wCmp(a: usize, b: usize): i32 {
  for (let i = N_LIMBS - 1; i >= 0; i--) {
    let x = load<u32>(a + (<usize>i << 2)), y = load<u32>(b + (<usize>i << 2));
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

/** dst = a · m (m < 2^32); dst may be a. The top limb's carry is dropped (callers stay far below 384 bits). */
export function wMulSmall(dst: usize, a: usize, m: u32): void {
  let carry: u64 = 0;
  for (let i = 0; i < N_LIMBS; i++) {
    let t = <u64>load<u32>(a + (<usize>i << 2)) * <u64>m + carry;
    store<u32>(dst + (<usize>i << 2), <u32>t);
    carry = t >> 32;
  }
}

/** dst = a + b; dst may alias a or b. */
export function wAdd(dst: usize, a: usize, b: usize): void {
  let carry: u64 = 0;
  for (let i = 0; i < N_LIMBS; i++) {
    let t = <u64>load<u32>(a + (<usize>i << 2)) + <u64>load<u32>(b + (<usize>i << 2)) + carry;
    store<u32>(dst + (<usize>i << 2), <u32>t);
    carry = t >> 32;
  }
}

/** dst = a - b (a ≥ b); dst may alias a or b. */
export function wSub(dst: usize, a: usize, b: usize): void {
  let borrow: i64 = 0;
  for (let i = 0; i < N_LIMBS; i++) {
    let t = <i64>load<u32>(a + (<usize>i << 2)) - <i64>load<u32>(b + (<usize>i << 2)) - borrow;
    store<u32>(dst + (<usize>i << 2), <u32>t);
    borrow = t < 0 ? 1 : 0;
  }
}

/** dst = a · b (dst distinct from both; the product must fit 384 bits: callers multiply ≤ 138-bit by ≤ 128-bit). */
export function wMul(dst: usize, a: usize, b: usize): void {
  memory.fill(dst, 0, BYTES);
  let na = wLen(a), nb = wLen(b);
  for (let i = 0; i < na; i++) {
    let ai = <u64>load<u32>(a + (<usize>i << 2));
    if (ai == 0) continue;
    let carry: u64 = 0;
    let j = 0;
    for (; j < nb && i + j < N_LIMBS; j++) {
      let o = dst + (<usize>(i + j) << 2);
      let t = ai * <u64>load<u32>(b + (<usize>j << 2)) + <u64>load<u32>(o) + carry;
      store<u32>(o, <u32>t);
      carry = t >> 32;
    }
    if (i + j < N_LIMBS) store<u32>(dst + (<usize>(i + j) << 2), <u32>carry);
  }
}

/** dst = a << (32·k) (k whole limbs). */
export function wShlLimbs(dst: usize, a: usize, k: i32): void {
  for (let i = N_LIMBS - 1; i >= 0; i--) {
    store<u32>(dst + (<usize>i << 2), i >= k ? load<u32>(a + (<usize>(i - k) << 2)) : 0);
  }
}

/** dst = a >> 1. */
export function wShr1(dst: usize, a: usize): void {
  for (let i = 0; i < N_LIMBS; i++) {
    let cur = load<u32>(a + (<usize>i << 2)) >> 1;
    if (i + 1 < N_LIMBS) cur |= load<u32>(a + (<usize>(i + 1) << 2)) << 31;
    store<u32>(dst + (<usize>i << 2), cur);
  }
}

/** Was the remainder of the last wDiv non-zero? (a ceiling needs it) */
export let wRemNonZero: bool = false;

/**
 * q = u / v (v ≠ 0); sets wRemNonZero. Knuth's algorithm D on 32-bit limbs with 64-bit steps
 * (Hacker's Delight divmnu). q must not alias u or v.
 */
export function wDiv(q: usize, u: usize, v: usize): void {
  memory.fill(q, 0, BYTES);
  let m = wLen(u), n = wLen(v);
  assert(n > 0, "division by zero");
  if (m < n) {
    wRemNonZero = m > 0;
    return;
  }
  if (n == 1) {
    let d = <u64>load<u32>(v);
    let k: u64 = 0;
    for (let j = m - 1; j >= 0; j--) {
      let t = (k << 32) | <u64>load<u32>(u + (<usize>j << 2));
      let qj = t / d;
      store<u32>(q + (<usize>j << 2), <u32>qj);
      k = t - qj * d;
    }
    wRemNonZero = k != 0;
    return;
  }
  // Normalise so the divisor's top limb has its high bit set.
  let s = <u64>clz<u32>(load<u32>(v + (<usize>(n - 1) << 2)));
  for (let i = n - 1; i > 0; i--) {
    let w = ((<u64>load<u32>(v + (<usize>i << 2)) << 32) | <u64>load<u32>(v + (<usize>(i - 1) << 2))) << s;
    store<u32>(VN + (<usize>i << 2), <u32>(w >> 32));
  }
  store<u32>(VN, <u32>(<u64>load<u32>(v) << s));
  store<u32>(UN + (<usize>m << 2), <u32>((<u64>load<u32>(u + (<usize>(m - 1) << 2)) << s) >> 32));
  for (let i = m - 1; i > 0; i--) {
    let w = ((<u64>load<u32>(u + (<usize>i << 2)) << 32) | <u64>load<u32>(u + (<usize>(i - 1) << 2))) << s;
    store<u32>(UN + (<usize>i << 2), <u32>(w >> 32));
  }
  store<u32>(UN, <u32>(<u64>load<u32>(u) << s));
  let vTop = <u64>load<u32>(VN + (<usize>(n - 1) << 2));
  let vNext = <u64>load<u32>(VN + (<usize>(n - 2) << 2));
  const B: u64 = 0x100000000;
  for (let j = m - n; j >= 0; j--) {
    let num = (<u64>load<u32>(UN + (<usize>(j + n) << 2)) << 32) | <u64>load<u32>(UN + (<usize>(j + n - 1) << 2));
    let qhat = num / vTop;
    let rhat = num - qhat * vTop;
    while (qhat >= B || qhat * vNext > ((rhat << 32) | <u64>load<u32>(UN + (<usize>(j + n - 2) << 2)))) {
      qhat--;
      rhat += vTop;
      if (rhat >= B) break;
    }
    // Multiply and subtract.
    let k: i64 = 0;
    let t: i64 = 0;
    for (let i = 0; i < n; i++) {
      let p = qhat * <u64>load<u32>(VN + (<usize>i << 2));
      let o = UN + (<usize>(i + j) << 2);
      t = <i64>load<u32>(o) - k - <i64>(p & M32);
      store<u32>(o, <u32>t);
      k = <i64>(p >> 32) - (t >> 32);
    }
    let top = UN + (<usize>(j + n) << 2);
    t = <i64>load<u32>(top) - k;
    store<u32>(top, <u32>t);
    if (t < 0) {
      // qhat was one too large: add the divisor back.
      qhat--;
      let c: u64 = 0;
      for (let i = 0; i < n; i++) {
        let o = UN + (<usize>(i + j) << 2);
        let s2 = <u64>load<u32>(o) + <u64>load<u32>(VN + (<usize>i << 2)) + c;
        store<u32>(o, <u32>s2);
        c = s2 >> 32;
      }
      store<u32>(top, <u32>(<u64>load<u32>(top) + c));
    }
    store<u32>(q + (<usize>j << 2), <u32>qhat);
  }
  let nz = false;
  for (let i = 0; i < n; i++) if (load<u32>(UN + (<usize>i << 2)) != 0) nz = true;
  wRemNonZero = nz;
}

/**
 * 128/64 division fast path (Hacker's Delight divlu): (u1·2^64 + u0) / v for u1 < v, quotient
 * returned, remainder in divRem. The caller guarantees u1 < v (the quotient fits 64 bits).
 */
export let divRem: u64 = 0;
export function div128by64(u1: u64, u0: u64, v: u64): u64 {
  const b: u64 = 0x100000000;
  let s = clz<u64>(v);
  v = v << s;
  let vn1 = v >> 32, vn0 = v & M32;
  let un32 = s == 0 ? u1 : (u1 << s) | (u0 >> (64 - s));
  let un10 = u0 << s;
  let un1 = un10 >> 32, un0 = un10 & M32;
  let q1 = un32 / vn1;
  let rhat = un32 - q1 * vn1;
  while (q1 >= b || q1 * vn0 > ((rhat << 32) | un1)) {
    q1--;
    rhat += vn1;
    if (rhat >= b) break;
  }
  let un21 = ((un32 << 32) | un1) - q1 * v;
  let q0 = un21 / vn1;
  rhat = un21 - q0 * vn1;
  while (q0 >= b || q0 * vn0 > ((rhat << 32) | un0)) {
    q0--;
    rhat += vn1;
    if (rhat >= b) break;
  }
  divRem = (((un21 << 32) | un0) - q0 * v) >> s;
  return (q1 << 32) | q0;
}
