// Borsh reader over a byte range (docs/bundle-format.md: little-endian integers, u32 lengths,
// u8 option tags 0/1). A failed read sets `bad` and returns 0 instead of trapping: malformed input
// is an expected condition with a status code, not a bug.

export let rp: usize = 0;
export let rend: usize = 0;
export let bad: bool = false;

export function readerInit(ptr: usize, len: u32): void {
  rp = ptr;
  rend = ptr + len;
  bad = false;
}

/** Reserve n bytes and return where they start (0 and bad=true when short). */
// @ts-ignore: decorator
@inline export function take(n: u32): usize {
  if (bad || <usize>n > rend - rp) {
    bad = true;
    return 0;
  }
  let p = rp;
  rp += n;
  return p;
}

export function rU8(): u8 {
  let p = take(1);
  return p == 0 ? 0 : load<u8>(p);
}
export function rU16(): u16 {
  let p = take(2);
  return p == 0 ? 0 : load<u16>(p);
}
export function rU32(): u32 {
  let p = take(4);
  return p == 0 ? 0 : load<u32>(p);
}
export function rU64(): u64 {
  let p = take(8);
  return p == 0 ? 0 : load<u64>(p);
}
/** A Borsh bool: only 0 or 1 (canonical). */
export function rBool(): bool {
  let v = rU8();
  if (v > 1) bad = true;
  return v == 1;
}
/** An option tag: 0 or 1 (canonical). */
export function rTag(): bool {
  let v = rU8();
  if (v > 1) bad = true;
  return v == 1;
}
/** A Vec<u8>/String: sets vecLen and returns the pointer of its bytes. */
export let vecLen: u32 = 0;
export function rVec(): usize {
  let n = rU32();
  vecLen = n;
  let p = take(n);
  if (bad) vecLen = 0;
  return p;
}
export function atEnd(): bool {
  return !bad && rp == rend;
}

/** Strict UTF-8 (no overlongs, no surrogates, ≤ U+10FFFF), as a canonical String requires. */
export function validUtf8(p: usize, n: u32): bool {
  let i: u32 = 0;
  while (i < n) {
    let c = <u32>load<u8>(p + i);
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: u32;
    let min: u32;
    if ((c & 0xe0) == 0xc0) {
      need = 1;
      min = 0x80;
      c &= 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      need = 2;
      min = 0x800;
      c &= 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      need = 3;
      min = 0x10000;
      c &= 0x07;
    } else return false;
    if (i + need >= n) return false; // truncated sequence
    for (let k: u32 = 1; k <= need; k++) {
      let d = <u32>load<u8>(p + i + k);
      if ((d & 0xc0) != 0x80) return false;
      c = (c << 6) | (d & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return false;
    i += need + 1;
  }
  return true;
}
