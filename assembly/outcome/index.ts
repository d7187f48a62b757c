// The execution-result encoder of the block writer's thread (docs/storage.md "Execution results"):
// the core's BlockResult bytes (docs/core-abi.md "Block I/O") → their stored form, byte for byte
// what the format in src/storage/outcome-codec.ts describes. A module of its own, not part of the
// state-machine core (build/core.wasm): it holds no state between calls but its scratch memory, and
// the host instantiates it with no imports (src/storage/outcome-wasm.ts).
//
// The per-kind field layouts are not written here: the host writes its table (LAYOUTS and
// ROW_LAYOUT in outcome-codec.ts, which its decoder reads too) at `layouts()` and calls `init` once.
// A second copy here would have to change in step with the decoder's, with only the tests to notice.
//
// Same rules as the core: no floats, no clock, no randomness, and no managed allocations. Memory is
// laid out by hand past the static data and only grows (in `input`, never while encoding). Every
// read of the input is checked against its length first; a truncated or inconsistent input returns
// a negative code (E_*) instead of an output, and the output region is sized so that no input can
// make the encoder write past it (see `input`).

// for asconfig.outcome.json "use": Math.random and Date trap, as in the core (abort traps too)
import "../env";
import { EVENT_BUNDLE_INDEX_AT, EVENT_DATA_LEN_AT, EVENT_KIND_AT, EVENT_OP_INDEX_AT } from "../event-header";

/** Core BlockResult head: gas_used u64, fees u128, results count u32 */
// @ts-ignore: decorator
@inline const HEAD: u32 = 28;
/** Event header: bundle_index u32, op_index u16, kind u8, data length u32 */
// @ts-ignore: decorator
@inline const EVENT_HEAD: u32 = 11;
/** The layout table holds the 256 event kinds, then the bundle row (BundleResult). */
// @ts-ignore: decorator
@inline const ROW_SLOT: u32 = 256;
/**
 * Fields a layout may have. The last value seen at each (layout, field) is remembered (`lastAt`),
 * 16 slots per layout, as the JS encoder this replaced did.
 */
// @ts-ignore: decorator
@inline const MAX_FIELDS: u32 = 16;
/** A layout entry as the host writes it: field count u8, then up to 16 field codes u8. */
// @ts-ignore: decorator
@inline const ENTRY: u32 = 1 + MAX_FIELDS;
/** Field codes (outcome-codec.ts `F`): a 32-byte value, a raw byte, an integer of 8 or 16 bytes. */
// @ts-ignore: decorator
@inline const BYTES32: u8 = 0;
// @ts-ignore: decorator
@inline const U8: u8 = 1;
/**
 * The largest input taken: the regions for it (under 3 bytes a byte of input) stay inside wasm32
 * memory, with every offset and size below fitting u32. A full block's result is ~300 KB.
 */
// @ts-ignore: decorator
@inline const MAX_INPUT: u32 = 1 << 28;
/** The fewest hash slots a call starts with. */
// @ts-ignore: decorator
@inline const MIN_SLOTS: u32 = 256;

// Error codes (src/storage/outcome-wasm.ts names them).
// @ts-ignore: decorator
@inline const E_INIT: i32 = -1; // no valid layout table yet
// @ts-ignore: decorator
@inline const E_INPUT: i32 = -2; // the length exceeds what `input` prepared
// @ts-ignore: decorator
@inline const E_SHORT: i32 = -3; // shorter than the head and the event count
// @ts-ignore: decorator
@inline const E_ROWS: i32 = -4; // the results count runs past the end
// @ts-ignore: decorator
@inline const E_EVENT: i32 = -5; // an event's header or data runs past the end
// @ts-ignore: decorator
@inline const E_ORDER: i32 = -6; // an event's bundle index is below the previous event's
// @ts-ignore: decorator
@inline const E_TRAILING: i32 = -7; // bytes after the last event
// @ts-ignore: decorator
@inline const E_TABLE: i32 = -8; // the hash table outgrew its region (a bug: see `input`)

/** The host's layout table: 257 entries of ENTRY bytes. */
const table = memory.data(<i32>((ROW_SLOT + 1) * ENTRY));
/** Per layout slot: its data length in bytes, or -1 for a kind without a layout (stored raw). */
const lengths = memory.data(<i32>((ROW_SLOT + 1) * 4), 4);
/** Per (layout, field): the number of the last value seen there, or -1. */
const lastAt = memory.data(<i32>((ROW_SLOT + 1) * MAX_FIELDS * 4), 4);

let ready = false;
let version: u8 = 0;
let rowLength: u32 = 0;

// The regions, laid out by `input` for the largest length seen so far (`prepared`).
let prepared: u32 = 0;
let inPtr: usize = 0;
/** value number → address of its first appearance in the input */
let offsets: usize = 0;
/** open-addressing hash slots: value number, or -1 */
let slots: usize = 0;
let maxSlots: u32 = 0;
let outPtr: usize = 0;

// The value table of the call under way.
let mask: u32 = 0;
let shift: u32 = 0;
let size: u32 = 0;
/** set by `number`: the value had not been seen in this record */
let fresh = false;

/** Where the host writes the layout table (ENTRY bytes per slot; slot 256 is the bundle row). */
export function layouts(): usize {
  return table;
}

/**
 * Check the table written at `layouts()` and derive each layout's length. The host passes the
 * stored form's version and the core's result constants, which must agree with this module's.
 * 0 when the encoder is ready, else the first slot found wrong + 1 (or 1000 for the constants).
 */
export function init(codecVersion: u32, head: u32, row: u32, eventHead: u32): i32 {
  ready = false;
  if (codecVersion > 0xff || head != HEAD || eventHead != EVENT_HEAD) return 1000;
  for (let k: u32 = 0; k <= ROW_SLOT; k++) {
    let entry = table + k * ENTRY;
    let n = <u32>load<u8>(entry);
    if (n > MAX_FIELDS) return k + 1;
    let length: u32 = 0;
    for (let f: u32 = 0; f < n; f++) {
      let code = load<u8>(entry + 1 + f);
      if (code == BYTES32) length += 32;
      else if (code == U8 || code == 8 || code == 16) length += code;
      else return k + 1;
    }
    // A layout of no fields encodes to nothing, as a raw copy of no bytes does: no layout at all.
    store<i32>(lengths + (k << 2), n == 0 ? -1 : <i32>length);
  }
  if (load<i32>(lengths + (ROW_SLOT << 2)) != <i32>row) return ROW_SLOT + 1;
  version = <u8>codecVersion;
  rowLength = row;
  ready = true;
  return 0;
}

/**
 * Make room for an input of len bytes and return where the host writes it (0: too large, or the
 * memory cannot grow). The regions, for the largest length seen so far, in order:
 *  - the input, len bytes;
 *  - offsets, one u32 per distinct value: a value is a 32-byte field of an event inside the input,
 *    fields do not overlap, so there are at most len/32;
 *  - hash slots, up to the power of two ≥ twice that (the table grows while its load passes ½);
 *  - the output, len + len/4 + 64 bytes. The stored form of a byte of input is at most 13/11 bytes
 *    (an 11-byte event header becomes ≤ 5 + 3 + 5, a 32-byte field ≤ 5 + 32, an n-byte integer
 *    ≤ 1 + n, a 34-byte row ≤ 37), plus 5 bytes of version and length and 1 of the event count's
 *    varint; integers are written 8 or 16 bytes at a time, ≤ 16 bytes past the real end.
 * The output comes last: a write past it would trap at the memory's end, not corrupt a region.
 */
export function input(len: u32): usize {
  if (len > MAX_INPUT) return 0;
  if (len <= prepared) return inPtr;
  let base = (__heap_base + 15) & ~15;
  let values = (len >> 5) + 1;
  let capacity: u32 = MIN_SLOTS;
  while (capacity < values << 1) capacity <<= 1;
  let o = (base + len + 15) & ~15;
  let s = o + (values << 2);
  let out = s + (capacity << 2);
  let end = out + len + (len >> 2) + 64;
  let have = <usize>memory.size() << 16;
  if (end > have && memory.grow(<i32>((end - have + 0xffff) >> 16)) < 0) return 0;
  prepared = len;
  inPtr = base;
  offsets = o;
  slots = s;
  maxSlots = capacity;
  outPtr = out;
  return inPtr;
}

/** Where the output of the last `encode` starts. */
export function output_ptr(): usize {
  return outPtr;
}

/**
 * Encode the len bytes written at `input(len)`: the output's length (at `output_ptr()`), or a
 * negative E_* code.
 */
export function encode(len: u32): i32 {
  if (!ready) return E_INIT;
  if (len > prepared) return E_INPUT;
  if (len < HEAD + 4) return E_SHORT;
  let raw = inPtr;
  let count = load<u32>(raw, 24);
  // in u64: count × row must not wrap
  let rowsEnd = <u64>HEAD + <u64>count * rowLength;
  if (rowsEnd + 4 > <u64>len) return E_ROWS;

  // The table starts at 4 slots a bundle (a transfer's sender and recipient are the usual new
  // values), within the region; `number` doubles it as needed.
  let capacity: u32 = MIN_SLOTS;
  while (capacity < count << 2 && capacity < maxSlots) capacity <<= 1;
  if (capacity > maxSlots) capacity = maxSlots;
  memory.fill(slots, 0xff, capacity << 2);
  mask = capacity - 1;
  shift = 32 - ctz(capacity);
  size = 0;
  memory.fill(lastAt, 0xff, (ROW_SLOT + 1) * MAX_FIELDS * 4);

  let w = outPtr;
  store<u8>(w, version);
  store<u32>(w, len, 1);
  memory.copy(w + 5, raw, HEAD);
  w += 5 + HEAD;
  let at = raw + HEAD;
  for (let i: u32 = 0; i < count; i++) {
    w = fields(ROW_SLOT, at, w);
    if (w == 0) return E_TABLE;
    at += rowLength;
  }
  let o = <u32>rowsEnd;
  let events = load<u32>(raw + o);
  w = varint(w, events);
  o += 4;
  let bundle: u32 = 0;
  for (let k: u32 = 0; k < events; k++) {
    // o ≤ len ≤ MAX_INPUT: the sums below do not wrap
    if (o + EVENT_HEAD > len) return E_EVENT;
    let e = raw + o;
    let bundleIndex = load<u32>(e, EVENT_BUNDLE_INDEX_AT);
    let kind = <u32>load<u8>(e, EVENT_KIND_AT);
    let dataLen = load<u32>(e, EVENT_DATA_LEN_AT);
    if (dataLen > len - o - EVENT_HEAD) return E_EVENT;
    // Events come bundle by bundle: the index is stored as the step from the previous event's.
    if (bundleIndex < bundle) return E_ORDER;
    w = varint(w, bundleIndex - bundle);
    bundle = bundleIndex;
    store<u16>(w, load<u16>(e, EVENT_OP_INDEX_AT)); // op_index

    store<u8>(w, <u8>kind, 2);
    w = varint(w + 3, dataLen);
    if (load<i32>(lengths + (kind << 2)) == <i32>dataLen) {
      w = fields(kind, e + EVENT_HEAD, w);
      if (w == 0) return E_TABLE;
    } else {
      memory.copy(w, e + EVENT_HEAD, dataLen);
      w += dataLen;
    }
    o += EVENT_HEAD + dataLen;
  }
  if (o != len) return E_TRAILING;
  return <i32>(w - outPtr);
}

/** The data at `at` by the layout in slot k, written at w: the new w (0: the table overflowed). */
function fields(k: u32, at: usize, w: usize): usize {
  let entry = table + k * ENTRY;
  let n = <u32>load<u8>(entry);
  let last = lastAt + ((k * MAX_FIELDS) << 2);
  for (let f: u32 = 0; f < n; f++) {
    let code = load<u8>(entry + 1 + f);
    if (code == BYTES32) {
      // A Fee's proposer, a Transfer's token repeat event after event: one compare with the
      // value last seen in this field is cheaper than a hash lookup.
      let index = load<i32>(last + (f << 2));
      if (index < 0 || !same32(<usize>load<u32>(offsets + (<usize>index << 2)), at)) {
        index = number(at);
        if (index < 0) return 0;
        if (fresh) {
          w = varint(w, index);
          store<u64>(w, load<u64>(at));
          store<u64>(w, load<u64>(at, 8), 8);
          store<u64>(w, load<u64>(at, 16), 16);
          store<u64>(w, load<u64>(at, 24), 24);
          w += 32;
        } else w = varint(w, index);
        store<i32>(last + (f << 2), index);
      } else w = varint(w, index);
      at += 32;
    } else if (code == U8) {
      store<u8>(w, load<u8>(at));
      w++;
      at++;
    } else if (code == 8) {
      // its byte count without high zero bytes, then those bytes (all 8 written, `used` kept)
      let v = load<u64>(at);
      let used = 8 - (<u32>clz(v) >> 3);
      store<u8>(w, <u8>used);
      store<u64>(w, v, 1);
      w += 1 + used;
      at += 8;
    } else {
      let lo = load<u64>(at);
      let hi = load<u64>(at, 8);
      let used = hi != 0 ? 16 - (<u32>clz(hi) >> 3) : 8 - (<u32>clz(lo) >> 3);
      store<u8>(w, <u8>used);
      store<u64>(w, lo, 1);
      store<u64>(w, hi, 9);
      w += 1 + used;
      at += 16;
    }
  }
  return w;
}

// @ts-ignore: decorator
@inline function varint(w: usize, v: u32): usize {
  while (v >= 0x80) {
    store<u8>(w, <u8>(v & 0x7f) | 0x80);
    w++;
    v >>>= 7;
  }
  store<u8>(w, <u8>v);
  return w + 1;
}

// @ts-ignore: decorator
@inline function same32(a: usize, b: usize): bool {
  return load<u64>(a) == load<u64>(b) && load<u64>(a, 8) == load<u64>(b, 8)
    && load<u64>(a, 16) == load<u64>(b, 16) && load<u64>(a, 24) == load<u64>(b, 24);
}

/**
 * From the first and last words, the multiply's high bits: accounts are hash output; system
 * accounts and mints that start with zeros differ at the end.
 */
// @ts-ignore: decorator
@inline function hash(at: usize): u32 {
  return ((load<u32>(at) ^ (load<u32>(at, 28) * 0x9e3779b1)) * 0x85ebca6b) >>> shift;
}

/**
 * The number of the 32-byte value at `at` in this record, numbered in order of first appearance;
 * `fresh` says whether it is new. An open-addressing table of value numbers, each value found by
 * its first address in the input. -1 if the table would outgrow its region (which `input` rules out).
 */
function number(at: usize): i32 {
  let s = hash(at);
  while (true) {
    let index = load<i32>(slots + (<usize>s << 2));
    if (index < 0) break;
    if (same32(<usize>load<u32>(offsets + (<usize>index << 2)), at)) {
      fresh = false;
      return index;
    }
    s = (s + 1) & mask;
  }
  if ((size + 1) << 1 > mask + 1) {
    if (!grow()) return -1;
    s = hash(at);
    while (load<i32>(slots + (<usize>s << 2)) >= 0) s = (s + 1) & mask;
  }
  let index = size++;
  store<u32>(offsets + (<usize>index << 2), <u32>at);
  store<i32>(slots + (<usize>s << 2), <i32>index);
  fresh = true;
  return <i32>index;
}

/** Double the table and place every value again. */
function grow(): bool {
  let capacity = (mask + 1) << 1;
  if (capacity > maxSlots) return false;
  memory.fill(slots, 0xff, capacity << 2);
  mask = capacity - 1;
  shift--;
  for (let i: u32 = 0; i < size; i++) {
    let s = hash(<usize>load<u32>(offsets + (<usize>i << 2)));
    while (load<i32>(slots + (<usize>s << 2)) >= 0) s = (s + 1) & mask;
    store<i32>(slots + (<usize>s << 2), <i32>i);
  }
  return true;
}
