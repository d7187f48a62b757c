// Events of the open apply_block call (docs/core-abi.md "Event kinds and data"):
// Event { bundle_index u32, op_index u16, kind u8, data Vec<u8> }, Borsh, appended in order.
// A failed bundle truncates back to its checkpoint, so only effective events remain.

import { bufNew, bufReserve, bufLen, bufSetLen } from "./mem";

// @ts-ignore: decorator
@inline export const EV_TRANSFER: u8 = 0;
// @ts-ignore: decorator
@inline export const EV_TOKEN_CREATED: u8 = 1;
// @ts-ignore: decorator
@inline export const EV_KEY_REGISTERED: u8 = 2;
// @ts-ignore: decorator
@inline export const EV_FEE: u8 = 3;
// DEX and token metadata (docs/core-abi.md "Event kinds and data", docs/dex.md "Events").
// @ts-ignore: decorator
@inline export const EV_POOL_CREATED: u8 = 4;
// @ts-ignore: decorator
@inline export const EV_LIQUIDITY_ADDED: u8 = 5;
// @ts-ignore: decorator
@inline export const EV_LIQUIDITY_REMOVED: u8 = 6;
// @ts-ignore: decorator
@inline export const EV_SWAP: u8 = 7;
// @ts-ignore: decorator
@inline export const EV_TOKEN_METADATA_UPDATED: u8 = 8;
// @ts-ignore: decorator
@inline export const EV_TOKEN_METADATA_LOCKED: u8 = 9;
// NFT and multi-token collections (docs/nfts.md "Events").
// @ts-ignore: decorator
@inline export const EV_COLLECTION_CREATED: u8 = 10;
// @ts-ignore: decorator
@inline export const EV_NFT_TRANSFER: u8 = 11;
// @ts-ignore: decorator
@inline export const EV_TOKEN_TYPE_DEFINED: u8 = 12;
// @ts-ignore: decorator
@inline export const EV_MULTI_TRANSFER_SINGLE: u8 = 13;
// @ts-ignore: decorator
@inline export const EV_MULTI_TRANSFER_BATCH: u8 = 14;
// Intent programs (docs/intents.md "Programs on chain").
// @ts-ignore: decorator
@inline export const EV_PROGRAM_REGISTERED: u8 = 15;
// Schedules on chain (docs/intents.md "Schedules on chain"). A run's events carry bundle_index
// 0xFFFFFFFF (assembly/ops/schedules.ts RUN_INDEX) and come after every bundle's.
// @ts-ignore: decorator
@inline export const EV_SCHEDULE_RUN: u8 = 16;
// @ts-ignore: decorator
@inline export const EV_SCHEDULE_CREATED: u8 = 17;
// @ts-ignore: decorator
@inline export const EV_SCHEDULE_CANCELLED: u8 = 18;
/** op_index of events that belong to the bundle rather than to one operation (Fee, KeyRegistered). */
// @ts-ignore: decorator
@inline export const BUNDLE_LEVEL: u16 = 0xffff;

export const events = bufNew(1 << 16);
export let eventCount: u32 = 0;

/** Append an event header and return where its dataLen bytes of data go. */
export function beginEvent(bundle: u32, op: u16, kind: u8, dataLen: u32): usize {
  let p = bufReserve(events, 11 + dataLen);
  store<u32>(p, bundle, 0);
  store<u16>(p, op, 4);
  store<u8>(p, kind, 6);
  store<u32>(p, dataLen, 7);
  bufSetLen(events, bufLen(events) + 11 + dataLen);
  eventCount++;
  return p + 11;
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
