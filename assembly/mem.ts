// Growable byte buffers in raw linear memory (no managed objects, nothing for a GC to trace).
// A buffer is a 12-byte header [ptr u32, len u32, cap u32]; growth doubles and abandons the old
// block (the stub runtime only bump-allocates), so the waste is bounded by the largest size seen.

export function bufNew(cap: u32): usize {
  let h = heap.alloc(12);
  store<u32>(h, <u32>heap.alloc(cap), 0);
  store<u32>(h, 0, 4);
  store<u32>(h, cap, 8);
  return h;
}

// @ts-ignore: decorator
@inline export function bufPtr(h: usize): usize {
  return <usize>load<u32>(h, 0);
}
// @ts-ignore: decorator
@inline export function bufLen(h: usize): u32 {
  return load<u32>(h, 4);
}
// @ts-ignore: decorator
@inline export function bufSetLen(h: usize, len: u32): void {
  store<u32>(h, len, 4);
}

function grow(h: usize, need: u32): void {
  let cap = load<u32>(h, 8);
  while (cap < need) cap = cap << 1;
  let p = heap.alloc(cap);
  memory.copy(p, <usize>load<u32>(h, 0), load<u32>(h, 4));
  store<u32>(h, <u32>p, 0);
  store<u32>(h, cap, 8);
}

/** Make room for n more bytes; returns the write position (valid until the next reserve). */
// @ts-ignore: decorator
@inline export function bufReserve(h: usize, n: u32): usize {
  let len = load<u32>(h, 4);
  if (len + n > load<u32>(h, 8)) grow(h, len + n);
  return <usize>load<u32>(h, 0) + len;
}

/** Make the buffer at least n bytes long in total (len unchanged); returns ptr. */
export function bufEnsure(h: usize, n: u32): usize {
  if (n > load<u32>(h, 8)) grow(h, n);
  return <usize>load<u32>(h, 0);
}

// @ts-ignore: decorator
@inline export function bufU8(h: usize, v: u8): void {
  let p = bufReserve(h, 1);
  store<u8>(p, v);
  store<u32>(h, load<u32>(h, 4) + 1, 4);
}
// @ts-ignore: decorator
@inline export function bufU16(h: usize, v: u16): void {
  let p = bufReserve(h, 2);
  store<u16>(p, v);
  store<u32>(h, load<u32>(h, 4) + 2, 4);
}
// @ts-ignore: decorator
@inline export function bufU32(h: usize, v: u32): void {
  let p = bufReserve(h, 4);
  store<u32>(p, v);
  store<u32>(h, load<u32>(h, 4) + 4, 4);
}
// @ts-ignore: decorator
@inline export function bufU64(h: usize, v: u64): void {
  let p = bufReserve(h, 8);
  store<u64>(p, v);
  store<u32>(h, load<u32>(h, 4) + 8, 4);
}
export function bufBytes(h: usize, src: usize, n: u32): void {
  let p = bufReserve(h, n);
  memory.copy(p, src, n);
  store<u32>(h, load<u32>(h, 4) + n, 4);
}
/** Borsh Vec<u8>: u32 length then the bytes. */
export function bufVec(h: usize, src: usize, n: u32): void {
  bufU32(h, n);
  bufBytes(h, src, n);
}

/** Equality of n bytes. */
// @ts-ignore: decorator
@inline export function bytesEq(a: usize, b: usize, n: u32): bool {
  let i: u32 = 0;
  while (i + 8 <= n) {
    if (load<u64>(a + i) != load<u64>(b + i)) return false;
    i += 8;
  }
  while (i < n) {
    if (load<u8>(a + i) != load<u8>(b + i)) return false;
    i++;
  }
  return true;
}

/** Lexicographic comparison of byte strings (shorter prefix first): <0, 0, >0. */
export function bytesCmp(a: usize, an: u32, b: usize, bn: u32): i32 {
  let n = an < bn ? an : bn;
  let i: u32 = 0;
  while (i + 8 <= n) {
    let x = bswap<u64>(load<u64>(a + i));
    let y = bswap<u64>(load<u64>(b + i));
    if (x != y) return x < y ? -1 : 1;
    i += 8;
  }
  while (i < n) {
    let x = load<u8>(a + i);
    let y = load<u8>(b + i);
    if (x != y) return x < y ? -1 : 1;
    i++;
  }
  return an == bn ? 0 : an < bn ? -1 : 1;
}

export function isZero(p: usize, n: u32): bool {
  for (let i: u32 = 0; i < n; i++) if (load<u8>(p + i) != 0) return false;
  return true;
}
