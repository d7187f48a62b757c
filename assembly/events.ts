// Events of the open apply_block call (docs/core-abi.md "Event kinds and data"):
// Event { bundle_index u32, op_index u16, kind u8, data Vec<u8> }, Borsh, appended in order.
// A failed bundle truncates back to its checkpoint, so only effective events remain.

import { bufNew, bufReserve, bufLen, bufSetLen } from "./mem";
import { EVENT_HEADER_BYTES } from "./abi";
import { writeEventHeader } from "./event-header";

// Event kinds (EV_*), their data lengths and BUNDLE_LEVEL_OP come from the ABI table
// (abi/events.mjs → assembly/abi.ts; docs/core-abi.md "How the ABI is generated"), and so do the
// header's layout and each kind's writer (assembly/events-gen.ts), the only callers of beginEvent.


export const events = bufNew(1 << 16);
export let eventCount: u32 = 0;

/** Append an event header and return where its dataLen bytes of data go. */
export function beginEvent(bundle: u32, op: u16, kind: u8, dataLen: u32): usize {
  let p = bufReserve(events, EVENT_HEADER_BYTES + dataLen);
  writeEventHeader(p, bundle, op, kind, dataLen);
  bufSetLen(events, bufLen(events) + EVENT_HEADER_BYTES + dataLen);
  eventCount++;
  return p + EVENT_HEADER_BYTES;
}

export function eventsMark(): u32 {
  return bufLen(events);
}
export function eventsRevert(len: u32, cnt: u32): void {
  bufSetLen(events, len);
  eventCount = cnt;
}
export function eventsReset(): void {
  bufSetLen(events, 0);
  eventCount = 0;
}
