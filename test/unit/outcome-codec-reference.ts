// The JS encoder of the stored execution result (docs/storage.md "Execution results"), as it ran on
// the block writer's thread before the WebAssembly one (assembly/outcome/index.ts) replaced it: the
// oracle the wasm encoder's output is compared with, byte for byte. The format and the layouts are
// in src/storage/outcome-codec.ts.

import { EVENT_HEAD, HEAD, ROW } from '../../src/core/block-result.js';
import { F, LAYOUT_LENGTHS, LAYOUTS, OUTCOME_CODEC_VERSION, ROW_LAYOUT } from '../../src/storage/outcome-codec.js';

export function referenceEncodeOutcome(raw: Uint8Array): Uint8Array {
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

