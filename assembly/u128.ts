// Checked u128 arithmetic on two u64 limbs (AssemblyScript has no native u128; DEPENDENCIES.md:
// hand-written limb math). Results come back in the globals `lo`/`hi`, so nothing allocates; the
// boolean return is true on overflow/underflow. Money always uses the checked forms (DESIGN.md).

export let lo: u64 = 0;
export let hi: u64 = 0;

export function set128(l: u64, h: u64): void {
  lo = l;
  hi = h;
}

// @ts-ignore: decorator
@inline const M32: u64 = 0xFFFFFFFF;

/** a + b; true on overflow past 2^128 - 1. */
export function add128(alo: u64, ahi: u64, blo: u64, bhi: u64): bool {
  let l = alo + blo;
  let c: u64 = l < alo ? 1 : 0;
  let h = ahi + bhi;
  let o = h < ahi;
  let h2 = h + c;
  if (h2 < h) o = true;
  lo = l;
  hi = h2;
  return o;
}

/** a - b; true on underflow (b > a). */
export function sub128(alo: u64, ahi: u64, blo: u64, bhi: u64): bool {
  let l = alo - blo;
  let b: u64 = alo < blo ? 1 : 0;
  let u = ahi < bhi;
  let h = ahi - bhi;
  if (h < b) u = true;
  lo = l;
  hi = h - b;
  return u;
}

// @ts-ignore: decorator
@inline export function lt128(alo: u64, ahi: u64, blo: u64, bhi: u64): bool {
  return ahi < bhi || (ahi == bhi && alo < blo);
}

/** Full 64 x 64 -> 128 product (never overflows). Needed by fee = gas_used x price (spec §8). */
export function mul64(a: u64, b: u64): void {
  let a0 = a & M32, a1 = a >> 32, b0 = b & M32, b1 = b >> 32;
  let p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  let mid = (p00 >> 32) + (p01 & M32) + (p10 & M32);
  lo = (p00 & M32) | (mid << 32);
  hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/** a (u128) x b (u64); true on overflow. */
export function mul128x64(alo: u64, ahi: u64, b: u64): bool {
  mul64(ahi, b);
  let o = hi != 0;
  let top = lo;
  mul64(alo, b);
  let h = hi + top;
  if (h < top) o = true;
  hi = h;
  return o;
}

/** a / d for 0 < d < 2^32 (long division on 32-bit limbs); quotient in lo/hi, remainder returned. */
export function divSmall(alo: u64, ahi: u64, d: u32): u64 {
  let dd = <u64>d;
  let cur = ahi >> 32;
  let q3 = cur / dd;
  let r = cur % dd;
  cur = (r << 32) | (ahi & M32);
  let q2 = cur / dd;
  r = cur % dd;
  cur = (r << 32) | (alo >> 32);
  let q1 = cur / dd;
  r = cur % dd;
  cur = (r << 32) | (alo & M32);
  let q0 = cur / dd;
  r = cur % dd;
  hi = (q3 << 32) | q2;
  lo = (q1 << 32) | q0;
  return r;
}
