// The state cache and the journal (DESIGN.md "The core"; docs/core-abi.md "Host imports").
//
// Cache: every key the instance has read or written, for its whole life; kv_get is called only on
// the first touch of a key. Entries live in raw memory and never move, so an entry pointer stays
// valid across blocks. Open addressing over (hash, entry) slots.
//
// Journal: each write first records the entry's previous value. A bundle checkpoint is a journal
// position inside the block (spec §7.5: a failed bundle reverts whole); the block checkpoint is
// position 0 (revert_block). Commit empties the journal.

import { kv_get, kv_read } from "./env";
import { bufNew, bufPtr, bufLen, bufSetLen, bufReserve, bufU32, bytesEq, bufBytes } from "./mem";

// Entry layout. The header, the inline value and the first bytes of the key share the first cache
// line, so a lookup that hits touches two lines (the path is only read at commit).
// @ts-ignore: decorator
@inline export const E_KEYLEN: usize = 0; // u32
// @ts-ignore: decorator
@inline export const E_VALLEN: usize = 4; // i32, -1 = absent
// @ts-ignore: decorator
@inline export const E_VALPTR: usize = 8; // u32
// @ts-ignore: decorator
@inline export const E_VALCAP: usize = 12; // u32
// @ts-ignore: decorator
@inline export const E_FLAGS: usize = 16; // u32
// @ts-ignore: decorator
@inline export const E_HASH: usize = 20; // u32
// @ts-ignore: decorator
@inline export const E_INLINE: usize = 24; // [16] the value when it fits (accounts, balances)
// @ts-ignore: decorator
@inline export const E_KEY: usize = 40; // [keyLen], then the path [32] at pathOf(e)

/** Blake3(key) of the entry, valid when F_PATH is set (computed at the key's first commit). */
// @ts-ignore: decorator
@inline export function pathOf(e: usize): usize {
  return e + E_KEY + ((<usize>load<u32>(e, E_KEYLEN) + 7) & ~7);
}

// @ts-ignore: decorator
@inline export const F_DIRTY: u32 = 1; // written in the open block
// @ts-ignore: decorator
@inline export const F_PATH: u32 = 2; // the path at pathOf(e) is valid

// @ts-ignore: decorator
@inline const INLINE_VALUE: u32 = 16; // an account (10 B) or a balance (16 B) fits in the entry

let slots: usize = 0; // [hash u32, entry u32] pairs
let slotMask: u32 = 0;
let count: u32 = 0;

// Bump arena for entries (entries are never freed).
let arenaPtr: usize = 0;
let arenaEnd: usize = 0;

// Journal: 16-byte records [entry, oldLen, oldOff, wasDirty] and the old bytes.
const journal = bufNew(1 << 16);
const journalBytes = bufNew(1 << 16);
// Entries first written in the open block (may hold entries whose dirty flag a revert cleared).
export const dirtyList = bufNew(1 << 16);

function initTable(cap: u32): void {
  slots = heap.alloc(<usize>cap << 3);
  memory.fill(slots, 0, <usize>cap << 3);
  slotMask = cap - 1;
}
initTable(1 << 16);

export function hashKey(p: usize, n: u32): u32 {
  let h: u64 = (<u64>n) * 0x9E3779B97F4A7C15;
  let i: u32 = 0;
  while (i + 8 <= n) {
    h = (h ^ load<u64>(p + i)) * 0xFF51AFD7ED558CCD;
    h ^= h >> 32;
    i += 8;
  }
  while (i < n) {
    h = (h ^ <u64>load<u8>(p + i)) * 0xC4CEB9FE1A85EC53;
    i++;
  }
  h ^= h >> 29;
  h *= 0x9E3779B97F4A7C15;
  let r = <u32>(h >> 32);
  return r == 0 ? 1 : r; // 0 marks an empty slot
}

function allocEntry(size: u32): usize {
  size = (size + 7) & ~7;
  if (arenaPtr + size > arenaEnd) {
    let chunk: u32 = 1 << 20;
    arenaPtr = heap.alloc(chunk);
    arenaEnd = arenaPtr + chunk;
  }
  let p = arenaPtr;
  arenaPtr += size;
  return p;
}

function grow(): void {
  let old = slots;
  let oldCap = slotMask + 1;
  initTable(oldCap << 1);
  for (let i: u32 = 0; i < oldCap; i++) {
    let h = load<u32>(old + (<usize>i << 3));
    if (h == 0) continue;
    let j = h & slotMask;
    while (load<u32>(slots + (<usize>j << 3)) != 0) j = (j + 1) & slotMask;
    store<u32>(slots + (<usize>j << 3), h);
    store<u32>(slots + (<usize>j << 3), load<u32>(old + (<usize>i << 3), 4), 4);
  }
  heap.free(old);
}

/** The cache entry of a key (len ≤ 255), loading it through kv_get on the first touch. */
export function lookup(key: usize, n: u32): usize {
  let h = hashKey(key, n);
  let j = h & slotMask;
  while (true) {
    let s = slots + (<usize>j << 3);
    let sh = load<u32>(s);
    if (sh == 0) break;
    if (sh == h) {
      let e = <usize>load<u32>(s, 4);
      if (load<u32>(e, E_KEYLEN) == n && bytesEq(e + E_KEY, key, n)) return e;
    }
    j = (j + 1) & slotMask;
  }
  // First touch: create the entry and ask the host (docs/core-abi.md kv_get).
  let keyArea = (n + 7) & ~7;
  let e = allocEntry(<u32>E_KEY + keyArea + 32);
  store<u32>(e, n, E_KEYLEN);
  store<u32>(e, 0, E_FLAGS);
  store<u32>(e, h, E_HASH);
  memory.copy(e + E_KEY, key, n);
  let inl = e + E_INLINE;
  let vlen = kv_get(key, n);
  if (vlen < 0) {
    store<i32>(e, -1, E_VALLEN);
    store<u32>(e, <u32>inl, E_VALPTR);
    store<u32>(e, INLINE_VALUE, E_VALCAP);
  } else {
    let vp = inl;
    let cap = INLINE_VALUE;
    if (<u32>vlen > INLINE_VALUE) {
      vp = heap.alloc(<usize>vlen);
      cap = <u32>vlen;
    }
    kv_read(vp);
    store<i32>(e, vlen, E_VALLEN);
    store<u32>(e, <u32>vp, E_VALPTR);
    store<u32>(e, cap, E_VALCAP);
  }
  let s = slots + (<usize>j << 3);
  store<u32>(s, h);
  store<u32>(s, <u32>e, 4);
  count++;
  if (count * 2 > slotMask) grow();
  return e;
}

// @ts-ignore: decorator
@inline export function valLen(e: usize): i32 {
  return load<i32>(e, E_VALLEN);
}
// @ts-ignore: decorator
@inline export function valPtr(e: usize): usize {
  return <usize>load<u32>(e, E_VALPTR);
}
// @ts-ignore: decorator
@inline export function exists(e: usize): bool {
  return load<i32>(e, E_VALLEN) >= 0;
}

/** Record the entry's current value so the open bundle/block can undo the write. */
function journalWrite(e: usize): void {
  let old = load<i32>(e, E_VALLEN);
  let flags = load<u32>(e, E_FLAGS);
  let r = bufReserve(journal, 16);
  store<u32>(r, <u32>e, 0);
  store<i32>(r, old, 4);
  store<u32>(r, bufLen(journalBytes), 8);
  store<u32>(r, flags & F_DIRTY, 12);
  bufSetLen(journal, bufLen(journal) + 16);
  if (old > 0) bufBytes(journalBytes, valPtr(e), <u32>old);
  if ((flags & F_DIRTY) == 0) {
    store<u32>(e, flags | F_DIRTY, E_FLAGS);
    bufU32(dirtyList, <u32>e);
  }
}

/** Write a value (len bytes at src). */
export function setValue(e: usize, src: usize, len: u32): void {
  journalWrite(e);
  if (len > load<u32>(e, E_VALCAP)) {
    let p = heap.alloc(len);
    store<u32>(e, <u32>p, E_VALPTR);
    store<u32>(e, len, E_VALCAP);
  }
  memory.copy(valPtr(e), src, len);
  store<i32>(e, <i32>len, E_VALLEN);
}

/** Prepare an in-place write of len bytes and return where to write them (avoids a copy). */
export function beginWrite(e: usize, len: u32): usize {
  journalWrite(e);
  if (len > load<u32>(e, E_VALCAP)) {
    let p = heap.alloc(len);
    store<u32>(e, <u32>p, E_VALPTR);
    store<u32>(e, len, E_VALCAP);
  }
  store<i32>(e, <i32>len, E_VALLEN);
  return valPtr(e);
}

export function deleteValue(e: usize): void {
  if (load<i32>(e, E_VALLEN) < 0) return;
  journalWrite(e);
  store<i32>(e, -1, E_VALLEN);
}

/** A checkpoint: the journal position (spec §7.5, one per bundle). */
export function mark(): u32 {
  return bufLen(journal);
}

/** Undo every write after the checkpoint m. Old values fit: capacity only grows. */
export function revertTo(m: u32): void {
  let top = bufLen(journal);
  if (top == m) return;
  let base = bufPtr(journal);
  let jb = bufPtr(journalBytes);
  let off: u32 = 0;
  while (top > m) {
    top -= 16;
    let r = base + top;
    let e = <usize>load<u32>(r, 0);
    let old = load<i32>(r, 4);
    off = load<u32>(r, 8);
    if (old > 0) memory.copy(valPtr(e), jb + off, <u32>old);
    store<i32>(e, old, E_VALLEN);
    store<u32>(e, (load<u32>(e, E_FLAGS) & ~F_DIRTY) | load<u32>(r, 12), E_FLAGS);
  }
  bufSetLen(journal, m);
  bufSetLen(journalBytes, off);
}

/** Forget the journal at commit (the block's writes become the committed state). */
export function clearJournal(): void {
  bufSetLen(journal, 0);
  bufSetLen(journalBytes, 0);
}

/** Number of cached keys (for diagnostics). */
export function cacheSize(): u32 {
  return count;
}
