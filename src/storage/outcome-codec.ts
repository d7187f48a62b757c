// The stored form of a block's execution result (docs/storage.md "Execution results"). The core's
// BlockResult bytes repeat themselves: every Fee event names the same proposer and treasury, every
// Transfer the same token, and u128 amounts are mostly zero bytes. A block of 1,000 transfers is
// ~290 KB of them, and LevelDB's writer (one thread: log, memtable) was the slowest stage of sync.
// This codec stores each distinct 32-byte field once per block and integers without their zero
// high bytes: ~40 KB for that block. Decoding gives back the core's bytes exactly.

import { EVENT_HEAD, HEAD, ROW } from '../core/block-result.js';
import { EventKind } from '../core/events.js';

export const OUTCOME_CODEC_VERSION = 1;

/** A field of an event's data: a 32-byte value, an integer of n little-endian bytes, or a raw byte. */
const enum F {
  BYTES32 = 0,
  U64 = 8,
  U128 = 16,
  U8 = 1,
}

/**
 * The data layouts of the event kinds (docs/core-abi.md "Event kinds and data"). An event whose
 * length differs from its kind's layout (a batch transfer, a kind this host does not know) is
 * stored raw.
 */
const LAYOUTS: Readonly<Record<number, readonly F[]>> = {
  [EventKind.Transfer]: [F.BYTES32, F.BYTES32, F.BYTES32, F.U128],
  [EventKind.TokenCreated]: [F.BYTES32, F.BYTES32, F.BYTES32, F.U128],
  [EventKind.KeyRegistered]: [F.BYTES32, F.BYTES32, F.U8],
  [EventKind.Fee]: [F.BYTES32, F.BYTES32, F.U128, F.BYTES32, F.U128],
  [EventKind.PoolCreated]: [F.BYTES32, F.BYTES32, F.BYTES32, F.BYTES32, F.U128, F.U128, F.U128, F.U64, F.U128],
  [EventKind.LiquidityAdded]: [F.BYTES32, F.BYTES32, F.U128, F.U128, F.U128],
  [EventKind.LiquidityRemoved]: [F.BYTES32, F.BYTES32, F.U128, F.U128, F.U128],
  [EventKind.Swap]: [F.BYTES32, F.BYTES32, F.BYTES32, F.U128, F.U128, F.U128, F.U128],
  [EventKind.TokenMetadataUpdated]: [F.BYTES32, F.BYTES32, F.U8],
  [EventKind.TokenMetadataLocked]: [F.BYTES32, F.BYTES32],
  [EventKind.CollectionCreated]: [F.BYTES32, F.U8, F.BYTES32, F.BYTES32],
  [EventKind.NftTransfer]: [F.BYTES32, F.BYTES32, F.BYTES32, F.U64],
  [EventKind.TokenTypeDefined]: [F.BYTES32, F.U64, F.U128, F.U8],
  [EventKind.MultiTransferSingle]: [F.BYTES32, F.BYTES32, F.BYTES32, F.BYTES32, F.U64, F.U128],
};

/** BundleResult: status u16, gas_used u64, fee u128, nonce u64 */
const ROW_LAYOUT: readonly F[] = [F.U8, F.U8, F.U64, F.U128, F.U64];

function layoutLength(layout: readonly F[]): number {
  return layout.reduce<number>((n, f) => n + (f === F.BYTES32 ? 32 : f), 0);
}
const LAYOUT_LENGTHS: Readonly<Record<number, number>> = Object.fromEntries(Object.entries(LAYOUTS).map(([k, l]) => [k, layoutLength(l)]));

/**
 * Stored form: version u8, the core bytes' length u32, their first 28 bytes (gas, fees, count), the
 * rows, varint event count, then per event: varint step of bundle_index, op_index u16, kind u8,
 * varint length, and the data by its kind's layout (or raw). By layout, a 32-byte field is a varint
 * index into the values seen so far in this record, followed by the value when it is new; an
 * integer is its byte count without high zero bytes, then those bytes; a u8 is itself.
 */
export function encodeOutcome(raw: Uint8Array): Uint8Array {
  const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const count = dv.getUint32(24, true);
  // Never larger than this: a 32-byte field costs at most 5 + 32 bytes, an integer 1 + its bytes.
  const bound = 64 + Math.ceil(raw.length * 1.25) + count * 8;
  // Encoded into a scratch buffer kept between calls (synchronous, one per thread), then copied out
  // at its real size: a fresh ~370 KB bound a full block was most of the writer thread's garbage.
  if (scratch.length < bound) scratch = new Uint8Array(bound);
  const out = scratch;
  const odv = new DataView(out.buffer);
  const dictionary = new ValueTable(raw, count);
  /**
   * The last value index seen at each (kind, field) slot: a Fee's proposer, a Transfer's token
   * repeat event after event, and one 32-byte compare is cheaper than a hash lookup.
   */
  const lastAt = lastAtScratch.fill(-1);
  let w = 0;
  const varint = (v: number) => {
    while (v >= 0x80) {
      out[w++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    out[w++] = v;
  };
  const fields = (layout: readonly F[], at: number, slots: number) => {
    for (let f = 0; f < layout.length; f++) {
      const field = layout[f]!;
      if (field === F.BYTES32) {
        const last = lastAt[slots + f]!;
        let known = last >= 0 && same32(raw, dictionary.offsetOf(last), at) ? last : dictionary.find(at);
        if (known >= 0) varint(known);
        else {
          known = dictionary.add(at);
          varint(known);
          for (let i = 0; i < 32; i++) out[w + i] = raw[at + i]!;
          w += 32;
        }
        lastAt[slots + f] = known;
        at += 32;
      } else if (field === F.U8) {
        out[w++] = raw[at++]!;
      } else {
        let used = field as number;
        while (used > 0 && raw[at + used - 1] === 0) used--;
        out[w++] = used;
        for (let i = 0; i < used; i++) out[w++] = raw[at + i]!;
        at += field;
      }
    }
  };
  out[w++] = OUTCOME_CODEC_VERSION;
  odv.setUint32(w, raw.length, true);
  w += 4;
  out.set(raw.subarray(0, HEAD), w);
  w += HEAD;
  for (let i = 0; i < count; i++) fields(ROW_LAYOUT, HEAD + i * ROW, 0);
  let o = HEAD + count * ROW;
  const events = dv.getUint32(o, true);
  varint(events);
  o += 4;
  let bundle = 0;
  for (let k = 0; k < events; k++) {
    const bundleIndex = dv.getUint32(o, true);
    const kind = raw[o + 6]!;
    const len = dv.getUint32(o + 7, true);
    // Events come bundle by bundle: the index is stored as the step from the previous event's.
    varint(bundleIndex - bundle);
    bundle = bundleIndex;
    out[w++] = raw[o + 4]!; // op_index u16
    out[w++] = raw[o + 5]!;
    out[w++] = kind;
    varint(len);
    if (LAYOUT_LENGTHS[kind] === len) fields(LAYOUTS[kind]!, o + EVENT_HEAD, kind * 16);
    else {
      out.set(raw.subarray(o + EVENT_HEAD, o + EVENT_HEAD + len), w);
      w += len;
    }
    o += EVENT_HEAD + len;
  }
  // Typed-array writes past the end are dropped silently: the bound above must hold.
  if (w > bound) throw new RangeError(`execution result encoding overran its bound (${w} > ${bound})`);
  return out.slice(0, w);
}

let scratch = new Uint8Array(0);
const lastAtScratch = new Int32Array(256 * 16);

function same32(raw: Uint8Array, a: number, b: number): boolean {
  for (let i = 0; i < 32; i++) if (raw[a + i] !== raw[b + i]) return false;
  return true;
}

/**
 * The distinct 32-byte values of one result, numbered in order of first appearance: an open-addressing
 * table of value numbers, each value found by its first offset in the raw bytes. It allocates nothing
 * per value; a Map of copied keys (Bytes32Map) made ~2,000 small objects a full block, and their
 * lookups and garbage were most of the encoder's time on the writer thread. The arrays are kept
 * between calls (one encoder per thread, synchronous).
 */
class ValueTable {
  private slots: Int32Array;
  private mask: number;
  private shift: number;
  private offsets: Int32Array;
  private size = 0;

  constructor(
    private readonly raw: Uint8Array,
    bundles: number,
  ) {
    // A transfer's sender and recipient are the usual new values: 4 per bundle keeps the load ≤ ½.
    let capacity = tableSlots.length;
    while (capacity < bundles * 4) capacity *= 2;
    if (capacity !== tableSlots.length) {
      tableSlots = new Int32Array(capacity);
      tableOffsets = new Int32Array(capacity / 2);
    }
    this.slots = tableSlots.fill(-1);
    this.mask = capacity - 1;
    this.shift = 32 - Math.log2(capacity);
    this.offsets = tableOffsets;
  }

  offsetOf(index: number): number {
    return this.offsets[index]!;
  }

  /** The number of the value at raw[at, at+32), or -1. */
  find(at: number): number {
    const raw = this.raw;
    for (let s = this.hash(at); ; s = (s + 1) & this.mask) {
      const index = this.slots[s]!;
      if (index < 0 || same32(raw, this.offsets[index]!, at)) return index;
    }
  }

  /** Number the value at raw[at, at+32), which find() did not know. */
  add(at: number): number {
    if ((this.size + 1) * 2 > this.slots.length) this.grow();
    const index = this.size++;
    this.offsets[index] = at;
    this.place(index);
    return index;
  }

  private place(index: number): void {
    let s = this.hash(this.offsets[index]!);
    while (this.slots[s]! >= 0) s = (s + 1) & this.mask;
    this.slots[s] = index;
  }

  private grow(): void {
    const capacity = this.slots.length * 2;
    const offsets = new Int32Array(capacity / 2);
    offsets.set(this.offsets.subarray(0, this.size));
    tableSlots = this.slots = new Int32Array(capacity).fill(-1);
    tableOffsets = this.offsets = offsets;
    this.mask = capacity - 1;
    this.shift--;
    for (let i = 0; i < this.size; i++) this.place(i);
  }

  /** From the first and last words: accounts are hash output; system accounts and mints that start with zeros differ at the end. */
  private hash(at: number): number {
    const b = this.raw;
    const first = b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24);
    const last = b[at + 28]! | (b[at + 29]! << 8) | (b[at + 30]! << 16) | (b[at + 31]! << 24);
    // the multiply's high bits, as many as the table has slots
    return Math.imul(first ^ Math.imul(last, 0x9e3779b1), 0x85ebca6b) >>> this.shift;
  }
}

let tableSlots = new Int32Array(8192);
let tableOffsets = new Int32Array(4096);

/** The core's BlockResult bytes of a stored execution result. Throws RangeError on damaged input. */
export function decodeOutcome(stored: Uint8Array): Uint8Array {
  const end = stored.length;
  let r = 0;
  const need = (n: number) => {
    if (r + n > end) throw new RangeError('stored execution result truncated');
  };
  const varint = (): number => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      need(1);
      const b = stored[r++]!;
      if (shift > 28) throw new RangeError('stored execution result: varint too long');
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
    }
  };
  need(5 + HEAD);
  const version = stored[r++]!;
  if (version !== OUTCOME_CODEC_VERSION) throw new RangeError(`stored execution result of codec version ${version}, this node reads ${OUTCOME_CODEC_VERSION}`);
  const sdv = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
  const length = sdv.getUint32(r, true);
  r += 4;
  if (length > end * 64 + 1024) throw new RangeError(`stored execution result claims ${length} bytes from ${end}`);
  const out = new Uint8Array(length);
  const odv = new DataView(out.buffer);
  const room = (n: number) => {
    if (w + n > length) throw new RangeError('stored execution result longer than it says');
  };
  let w = 0;
  out.set(stored.subarray(r, r + HEAD), 0);
  r += HEAD;
  w = HEAD;
  const count = odv.getUint32(24, true);
  const dictionary: number[] = []; // offsets in `stored` of the values seen
  const fields = (layout: readonly F[]) => {
    for (let f = 0; f < layout.length; f++) {
      const field = layout[f]!;
      if (field === F.BYTES32) {
        room(32);
        const index = varint();
        if (index === dictionary.length) {
          need(32);
          dictionary.push(r);
          r += 32;
        } else if (index > dictionary.length) {
          throw new RangeError('stored execution result: a reference to a value not yet seen');
        }
        const at = dictionary[index]!;
        out.set(stored.subarray(at, at + 32), w);
        w += 32;
      } else if (field === F.U8) {
        room(1);
        need(1);
        out[w++] = stored[r++]!;
      } else {
        room(field);
        need(1);
        const used = stored[r++]!;
        if (used > field) throw new RangeError(`stored execution result: a ${field as number}-byte integer with ${used} bytes`);
        need(used);
        for (let i = 0; i < used; i++) out[w + i] = stored[r + i]!; // the high bytes stay zero
        r += used;
        w += field;
      }
    }
  };
  for (let i = 0; i < count; i++) fields(ROW_LAYOUT);
  const events = varint();
  room(4);
  odv.setUint32(w, events, true);
  w += 4;
  let bundle = 0;
  for (let k = 0; k < events; k++) {
    bundle += varint();
    room(EVENT_HEAD);
    odv.setUint32(w, bundle, true);
    need(3);
    out[w + 4] = stored[r]!;
    out[w + 5] = stored[r + 1]!;
    const kind = (out[w + 6] = stored[r + 2]!);
    r += 3;
    const len = varint();
    odv.setUint32(w + 7, len, true);
    w += EVENT_HEAD;
    if (LAYOUT_LENGTHS[kind] === len) fields(LAYOUTS[kind]!);
    else {
      room(len);
      need(len);
      out.set(stored.subarray(r, r + len), w);
      r += len;
      w += len;
    }
  }
  if (r !== end) throw new RangeError(`stored execution result: ${end - r} bytes after the last event`);
  if (w !== length) throw new RangeError(`stored execution result: ${w} bytes where it says ${length}`);
  return out;
}
