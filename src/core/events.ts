// Typed decoding of the core's events (docs/core-abi.md "Event kinds and data").

export const EventKind = { Transfer: 0, TokenCreated: 1, KeyRegistered: 2, Fee: 3 } as const;
/** op_index of events that belong to the whole bundle (Fee, KeyRegistered). */
export const BUNDLE_LEVEL_OP = 0xffff;

interface EventBase {
  bundleIndex: number;
  /** 0xFFFF for bundle-level events */
  opIndex: number;
}
export interface TransferEvent extends EventBase {
  kind: 'Transfer';
  from: Uint8Array;
  to: Uint8Array;
  token: Uint8Array;
  amount: bigint;
}
export interface TokenCreatedEvent extends EventBase {
  kind: 'TokenCreated';
  mint: Uint8Array;
  creator: Uint8Array;
  owner: Uint8Array;
  supply: bigint;
}
export interface KeyRegisteredEvent extends EventBase {
  kind: 'KeyRegistered';
  account: Uint8Array;
  keyHash: Uint8Array;
  keyType: number;
}
export interface FeeEvent extends EventBase {
  kind: 'Fee';
  payer: Uint8Array;
  proposer: Uint8Array;
  toProposer: bigint;
  treasury: Uint8Array;
  toTreasury: bigint;
}
export interface UnknownEvent extends EventBase {
  kind: 'Unknown';
  code: number;
  data: Uint8Array;
}
export type CoreEvent = TransferEvent | TokenCreatedEvent | KeyRegisteredEvent | FeeEvent | UnknownEvent;

function u128(b: Uint8Array, o: number): bigint {
  const v = new DataView(b.buffer, b.byteOffset + o, 16);
  return v.getBigUint64(0, true) | (v.getBigUint64(8, true) << 64n);
}

/** Decode one event's data by kind. Byte fields are views into `data`. */
export function decodeEvent(bundleIndex: number, opIndex: number, kind: number, data: Uint8Array): CoreEvent {
  const base = { bundleIndex, opIndex };
  switch (kind) {
    case EventKind.Transfer:
      if (data.length === 112)
        return { ...base, kind: 'Transfer', from: data.subarray(0, 32), to: data.subarray(32, 64), token: data.subarray(64, 96), amount: u128(data, 96) };
      break;
    case EventKind.TokenCreated:
      if (data.length === 112)
        return { ...base, kind: 'TokenCreated', mint: data.subarray(0, 32), creator: data.subarray(32, 64), owner: data.subarray(64, 96), supply: u128(data, 96) };
      break;
    case EventKind.KeyRegistered:
      if (data.length === 65)
        return { ...base, kind: 'KeyRegistered', account: data.subarray(0, 32), keyHash: data.subarray(32, 64), keyType: data[64]! };
      break;
    case EventKind.Fee:
      if (data.length === 128)
        return {
          ...base,
          kind: 'Fee',
          payer: data.subarray(0, 32),
          proposer: data.subarray(32, 64),
          toProposer: u128(data, 64),
          treasury: data.subarray(80, 112),
          toTreasury: u128(data, 112),
        };
      break;
  }
  return { ...base, kind: 'Unknown', code: kind, data };
}
