// The stored form of a block's execution result (docs/storage.md "Execution results"). The core's
// BlockResult bytes repeat themselves: every Fee event names the same proposer and treasury, every
// Transfer the same token, and u128 amounts are mostly zero bytes. A block of 1,000 transfers is
// ~290 KB of them, and LevelDB's writer (one thread: log, memtable) was the slowest stage of sync.
// This codec stores each distinct 32-byte field once per block and integers without their zero
// high bytes: ~40 KB for that block. Decoding gives back the core's bytes exactly.

import { EVENT_HEAD, HEAD } from '../core/block-result.js';
import { EventKind } from '../core/events.js';
import { EVENT_BUNDLE_INDEX_AT, EVENT_DATA_LEN_AT, EVENT_FIELD_SIZES, EVENT_KIND_AT, EVENT_OP_INDEX_AT } from '../abi/events.js';


/**
 * Stored form: version u8, the core bytes' length u32, their first 28 bytes (gas, fees, count), the
 * rows, varint event count, then per event: varint step of bundle_index, op_index u16, kind u8,
 * varint length, and the data by its kind's layout (or raw). By layout, a 32-byte field is a varint
 * index into the values seen so far in this record, followed by the value when it is new; an
 * integer is its byte count without high zero bytes, then those bytes; a u8 is itself.
 *
 * The encoder is WebAssembly (assembly/outcome/index.ts, loaded by outcome-wasm.ts) and runs on the
 * block writer's thread; it reads LAYOUTS and ROW_LAYOUT from here. Reads decode on the main thread.
 */
export const OUTCOME_CODEC_VERSION = 1;

/** A field of an event's data: a 32-byte value, an integer of n little-endian bytes, or a raw byte. */
export const enum F {
  BYTES32 = 0,
  U64 = 8,
  U128 = 16,
  U8 = 1,
}

/**
 * The event kinds stored by layout: this codec's choice, fixed by OUTCOME_CODEC_VERSION (their
 * fields are 32-byte values, u8, u64 and u128). An event whose length differs from its kind's
 * layout (a batch transfer, a kind this host does not know) is stored raw.
 */
const LAYOUT_KINDS = [
  EventKind.Transfer, EventKind.TokenCreated, EventKind.KeyRegistered, EventKind.Fee, EventKind.PoolCreated, EventKind.LiquidityAdded,
  EventKind.LiquidityRemoved, EventKind.Swap, EventKind.TokenMetadataUpdated, EventKind.TokenMetadataLocked, EventKind.CollectionCreated,
  EventKind.NftTransfer, EventKind.TokenTypeDefined, EventKind.MultiTransferSingle, EventKind.Approval, EventKind.PresaleCreated,
  EventKind.StakingPoolCreated,
];

/** A field of `size` bytes of an event's data (abi/events.mjs, src/abi/events.ts EVENT_FIELD_SIZES) as this codec stores it. */
function fieldOf(kind: number, size: number): F {
  if (size === 32) return F.BYTES32;
  if (size === F.U8 || size === F.U64 || size === F.U128) return size;
  throw new Error(`outcome codec: event kind ${kind} has a ${size}-byte field, which LAYOUT_KINDS cannot hold`);
}

/** The data layouts of LAYOUT_KINDS, from the ABI table (docs/core-abi.md "Event kinds and data"). */
export const LAYOUTS: Readonly<Record<number, readonly F[]>> = Object.fromEntries(
  LAYOUT_KINDS.map((kind) => [kind, EVENT_FIELD_SIZES[kind]!.map((size) => fieldOf(kind, size))]));


/** BundleResult: status u16, gas_used u64, fee u128, nonce u64 */
export const ROW_LAYOUT: readonly F[] = [F.U8, F.U8, F.U64, F.U128, F.U64];

function layoutLength(layout: readonly F[]): number {
  return layout.reduce<number>((n, f) => n + (f === F.BYTES32 ? 32 : f), 0);
}
export const LAYOUT_LENGTHS: Readonly<Record<number, number>> = Object.fromEntries(Object.entries(LAYOUTS).map(([k, l]) => [k, layoutLength(l)]));

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
    odv.setUint32(w + EVENT_BUNDLE_INDEX_AT, bundle, true);
    need(3);
    out[w + EVENT_OP_INDEX_AT] = stored[r]!; // op_index u16 as stored
    out[w + EVENT_OP_INDEX_AT + 1] = stored[r + 1]!;
    const kind = (out[w + EVENT_KIND_AT] = stored[r + 2]!);
    r += 3;
    const len = varint();
    odv.setUint32(w + EVENT_DATA_LEN_AT, len, true);
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
