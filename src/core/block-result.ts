// The core's BlockResult bytes (docs/core-abi.md "Block I/O"), read in place. A block of 1,000
// transfers carries 2,000 events; turning them all into objects with bigints cost more than
// executing the block (docs/p2p.md "Sync"), and most blocks' events are never looked at: import
// needs the statuses and the gas, the indexer a few address fields, and a receipt the events of
// one bundle. So the bytes are kept and decoded on demand; the same bytes, in block order, are
// what storage keeps of a block's execution (BlockWrite.outcome, src/storage/chain-store.ts).

import { EVENT_HEADER_BYTES } from '../abi/constants.js';
import { EVENT_BUNDLE_INDEX_AT, EVENT_DATA_LEN_AT, EVENT_KIND_AT, EVENT_OP_INDEX_AT } from '../abi/events.js';
import { Bytes32Interner, decodeEventAt, SCHEDULE_RUN_INDEX, type CoreEvent } from './events.js';

export interface BundleResult {
  status: number;
  gasUsed: bigint;
  fee: bigint;
  nonce: bigint;
}

/** Byte fields of events are read-only views; equal addresses may share one array. */
export interface BlockResult {
  gasUsed: bigint;
  fees: bigint;
  results: BundleResult[];
  events: CoreEvent[];
}

/** BundleResult { status u16, gas_used u64, fee u128, nonce u64 } */
export const ROW = 34;
/** gas_used u64, fees u128, results count u32 */
export const HEAD = 28;
/** Event header: bundle_index u32, op_index u16, kind u8, data length u32 */
export const EVENT_HEAD = EVENT_HEADER_BYTES;

export class BlockResultView implements BlockResult {
  /** number of bundle results */
  readonly count: number;
  readonly gasUsed: bigint;
  readonly fees: bigint;
  /** a view of `bytes`, for readers that decode fields in place */
  readonly dv: DataView;
  /** offset of the events vec (its u32 count) */
  private readonly eventsAt: number;
  private decodedResults: BundleResult[] | undefined;
  private decodedEvents: CoreEvent[] | undefined;
  /** byte offset of each bundle's first event and of the end, built on the first per-bundle read */
  private starts: Int32Array | undefined;

  /** `bytes` must not change afterwards (a copy out of wasm memory, or a stored record). */
  constructor(readonly bytes: Uint8Array) {
    if (bytes.length < HEAD + 4) throw new RangeError(`block result too short: ${bytes.length} bytes`);
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.gasUsed = this.dv.getBigUint64(0, true);
    this.fees = this.dv.getBigUint64(8, true) | (this.dv.getBigUint64(16, true) << 64n);
    this.count = this.dv.getUint32(24, true);
    this.eventsAt = HEAD + this.count * ROW;
    if (this.eventsAt + 4 > bytes.length) throw new RangeError(`block result of ${this.count} bundles truncated at ${bytes.length} bytes`);
  }

  status(i: number): number {
    return this.dv.getUint16(HEAD + i * ROW, true);
  }

  /** Bundles that are in the block but failed (status other than OK): the block log line and ntv_bundles_total. */
  failedCount(): number {
    let failed = 0;
    for (let i = 0; i < this.count; i++) if (this.status(i) !== 0) failed++;
    return failed;
  }

  gasUsedOf(i: number): number {
    return Number(this.dv.getBigUint64(HEAD + i * ROW + 2, true));
  }

  fee(i: number): bigint {
    const o = HEAD + i * ROW + 10;
    const lo = this.dv.getBigUint64(o, true);
    const hi = this.dv.getBigUint64(o + 8, true);
    return hi === 0n ? lo : lo | (hi << 64n);
  }

  nonce(i: number): bigint {
    return this.dv.getBigUint64(HEAD + i * ROW + 26, true);
  }

  get eventCount(): number {
    return this.dv.getUint32(this.eventsAt, true);
  }

  /** Every result as an object (tools, tests, small blocks). */
  get results(): BundleResult[] {
    if (!this.decodedResults) {
      const out: BundleResult[] = new Array(this.count);
      for (let i = 0; i < this.count; i++) out[i] = { status: this.status(i), gasUsed: BigInt(this.gasUsedOf(i)), fee: this.fee(i), nonce: this.nonce(i) };
      this.decodedResults = out;
    }
    return this.decodedResults;
  }

  /** Every event decoded, in emission order. */
  get events(): CoreEvent[] {
    if (!this.decodedEvents) {
      const out: CoreEvent[] = [];
      const ids = new Bytes32Interner();
      this.forEachEvent((bundleIndex, opIndex, kind, at, len) => {
        out.push(decodeEventAt(this.bytes, this.dv, at, len, bundleIndex, opIndex, kind, ids));
      });
      this.decodedEvents = out;
    }
    return this.decodedEvents;
  }

  /** The events of bundle `i`, decoded. */
  eventsOf(i: number): CoreEvent[] {
    const out: CoreEvent[] = [];
    this.forEachEventOf(i, (opIndex, kind, at, len) => out.push(decodeEventAt(this.bytes, this.dv, at, len, i, opIndex, kind)));
    return out;
  }

  /**
   * Visit the events of bundle `i` (a receipt's) in place: each one's op index, kind, and where its
   * data lies in `bytes`, without decoding it (src/chain/receipts.ts formats the common ones straight
   * from the bytes).
   */
  forEachEventOf(i: number, visit: (opIndex: number, kind: number, dataAt: number, len: number) => void): void {
    const starts = this.eventStarts();
    for (let o = starts[i]!, end = starts[i + 1]!; o < end;) {
      const len = this.dv.getUint32(o + EVENT_DATA_LEN_AT, true);
      visit(this.dv.getUint16(o + EVENT_OP_INDEX_AT, true), this.bytes[o + EVENT_KIND_AT]!, o + EVENT_HEAD, len);
      o += EVENT_HEAD + len;
    }
  }

  /** Visit every event's header and where its data lies in `bytes`, without decoding it. */
  forEachEvent(visit: (bundleIndex: number, opIndex: number, kind: number, dataAt: number, len: number) => void): void {
    const n = this.eventCount;
    let o = this.eventsAt + 4;
    for (let k = 0; k < n; k++) {
      const len = this.dv.getUint32(o + EVENT_DATA_LEN_AT, true);
      if (o + EVENT_HEAD + len > this.bytes.length) throw new RangeError(`block result event ${k} runs past the end`);
      visit(this.dv.getUint32(o + EVENT_BUNDLE_INDEX_AT, true), this.dv.getUint16(o + EVENT_OP_INDEX_AT, true), this.bytes[o + EVENT_KIND_AT]!, o + EVENT_HEAD, len);
      o += EVENT_HEAD + len;
    }
  }

  /**
   * The result of only the bundles at `included` (ascending input positions), renumbered 0…: what
   * a produced block stores once the invalid bundles are left out. The bytes themselves when every
   * bundle was included, the common case.
   */
  compact(included: readonly number[]): BlockResultView {
    if (included.length === this.count) return this;
    const position = new Int32Array(this.count).fill(-1);
    included.forEach((input, block) => (position[input] = block));
    const kept: Array<[number, number]> = [];
    let eventBytes = 0;
    this.forEachEvent((bundleIndex, _op, _kind, at, len) => {
      // Schedule runs' events (bundle_index 0xFFFFFFFF) belong to the block and are always kept.
      if (bundleIndex !== SCHEDULE_RUN_INDEX && position[bundleIndex]! < 0) return;
      kept.push([at - EVENT_HEAD, len]);
      eventBytes += EVENT_HEAD + len;
    });
    const out = new Uint8Array(HEAD + included.length * ROW + 4 + eventBytes);
    const dv = new DataView(out.buffer);
    out.set(this.bytes.subarray(0, 24), 0);
    dv.setUint32(24, included.length, true);
    included.forEach((input, block) => out.set(this.bytes.subarray(HEAD + input * ROW, HEAD + (input + 1) * ROW), HEAD + block * ROW));
    let o = HEAD + included.length * ROW;
    dv.setUint32(o, kept.length, true);
    o += 4;
    for (const [at, len] of kept) {
      out.set(this.bytes.subarray(at, at + EVENT_HEAD + len), o);
      const index = this.dv.getUint32(at, true);
      dv.setUint32(o, index === SCHEDULE_RUN_INDEX ? index : position[index]!, true);
      o += EVENT_HEAD + len;
    }
    return new BlockResultView(out);
  }

  private eventStarts(): Int32Array {
    if (this.starts) return this.starts;
    // Events are appended bundle by bundle (assembly/events.ts), so each bundle's are contiguous.
    const starts = new Int32Array(this.count + 1);
    let next = 0;
    let end = this.eventsAt + 4;
    this.forEachEvent((bundleIndex, _op, _kind, at, len) => {
      while (next <= bundleIndex && next < this.count) starts[next++] = at - EVENT_HEAD;
      // The schedule runs' events follow every bundle's and are part of none.
      if (bundleIndex !== SCHEDULE_RUN_INDEX) end = at + len;
    });
    while (next <= this.count) starts[next++] = end;
    this.starts = starts;
    return starts;
  }
}
