import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EventKind } from '../../src/core/events.js';
import { decodeOutcome, encodeOutcome } from '../../src/storage/outcome-codec.js';
import { encodeBlockResult, type ResultEvent, type ResultRow } from './block-result-fixture.js';

/** Data of `len` bytes drawn from a few 32-byte values and small or large integers, as real events are. */
function eventData(len: number, seed: number): Uint8Array {
  const pool = [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2), randomBytes(32)];
  const out = new Uint8Array(len);
  for (let o = 0; o < len; o += 32) out.set(pool[(seed + o) % pool.length]!.subarray(0, Math.min(32, len - o)), o);
  // small integers in the tail, as amounts are
  if (len % 32 !== 0) out.fill(0, len - (len % 32) + 2);
  return out;
}

/** Every kind with its layout's length, one with a length of its own (stored raw), and an unknown kind. */
const KIND_LENGTHS: Array<[number, number]> = [
  [EventKind.Transfer, 112], [EventKind.TokenCreated, 112], [EventKind.KeyRegistered, 65], [EventKind.Fee, 128],
  [EventKind.PoolCreated, 200], [EventKind.LiquidityAdded, 112], [EventKind.LiquidityRemoved, 112], [EventKind.Swap, 160],
  [EventKind.TokenMetadataUpdated, 65], [EventKind.TokenMetadataLocked, 64], [EventKind.CollectionCreated, 97],
  [EventKind.NftTransfer, 104], [EventKind.TokenTypeDefined, 57], [EventKind.MultiTransferSingle, 152],
  [EventKind.MultiTransferBatch, 132 + 3 * 24], [EventKind.Transfer, 113], [200, 7], [EventKind.Fee, 0],
];

function block(bundles: number): Uint8Array {
  const rows: ResultRow[] = [];
  const events: ResultEvent[] = [];
  for (let b = 0; b < bundles; b++) {
    rows.push({ status: b % 7 === 3 ? 20 : 0, gas: 21_000 + b, fee: b % 5 === 0 ? (1n << 100n) + BigInt(b) : BigInt(b) * 1_000n, nonce: BigInt(b * 3) });
    for (let e = 0; e < (b % 4); e++) {
      const [kind, len] = KIND_LENGTHS[(b * 3 + e) % KIND_LENGTHS.length]!;
      events.push({ bundle: b, op: e === 2 ? 0xffff : e, kind, data: eventData(len, b + e) });
    }
  }
  return encodeBlockResult(rows, events);
}

describe('outcome codec (docs/storage.md "Execution results")', () => {
  it('gives back the core\'s bytes exactly, for every event kind, raw fallbacks and empty blocks', () => {
    for (const n of [0, 1, 2, 17, 300]) {
      const raw = block(n);
      expect(Buffer.from(decodeOutcome(encodeOutcome(raw)))).toEqual(Buffer.from(raw));
    }
  });

  it('stores a block of transfers in a fraction of its bytes', () => {
    const proposer = new Uint8Array(32).fill(9);
    const treasury = new Uint8Array(32).fill(8);
    const ntv = new Uint8Array(32);
    const rows: ResultRow[] = [];
    const events: ResultEvent[] = [];
    for (let b = 0; b < 1000; b++) {
      rows.push({ status: 0, gas: 21_000, fee: 210_000n, nonce: BigInt(b) });
      const transfer = new Uint8Array(112);
      transfer[0] = b % 4;
      transfer[32] = 10 + (b % 64);
      transfer.set(ntv, 64);
      transfer[96] = 1;
      const fee = new Uint8Array(128);
      fee[0] = b % 4;
      fee.set(proposer, 32);
      new DataView(fee.buffer).setUint32(64, 168_000, true);
      fee.set(treasury, 80);
      new DataView(fee.buffer).setUint32(112, 42_000, true);
      events.push({ bundle: b, op: 0, kind: EventKind.Transfer, data: transfer }, { bundle: b, op: 0xffff, kind: EventKind.Fee, data: fee });
    }
    const raw = encodeBlockResult(rows, events);
    const stored = encodeOutcome(raw);
    expect(raw.length).toBeGreaterThan(280_000);
    expect(stored.length).toBeLessThan(raw.length / 6);
    expect(Buffer.from(decodeOutcome(stored))).toEqual(Buffer.from(raw));
  });

  it('numbers thousands of distinct values in a few bundles, and values that differ only in their middle', () => {
    // 3 bundles of PoolCreated events, 4 values each: 12,000 distinct values grow the encoder's
    // table (sized for 4 a bundle) several times. Half of them share their first and last words.
    const rows: ResultRow[] = [0, 1, 2].map((b) => ({ status: 0, gas: 1, fee: 1n, nonce: BigInt(b) }));
    const events: ResultEvent[] = [];
    for (let e = 0; e < 3000; e++) {
      const data = new Uint8Array(200);
      for (let f = 0; f < 4; f++) {
        const value = data.subarray(f * 32, f * 32 + 32);
        if (e % 2 === 0) value.set(randomBytes(32));
        else new DataView(value.buffer, value.byteOffset).setUint32(12, e * 4 + f); // zero first and last words
      }
      events.push({ bundle: e % 3 === 0 ? 0 : e < 1500 ? 1 : 2, op: 0, kind: EventKind.PoolCreated, data });
    }
    events.sort((a, b) => a.bundle - b.bundle);
    const raw = encodeBlockResult(rows, events);
    expect(Buffer.from(decodeOutcome(encodeOutcome(raw)))).toEqual(Buffer.from(raw));
    // and the grown table, kept for the next call, serves a small record
    const small = block(17);
    expect(Buffer.from(decodeOutcome(encodeOutcome(small)))).toEqual(Buffer.from(small));
  });

  it('refuses damaged records with a RangeError, never a wrong result', () => {
    const stored = encodeOutcome(block(40));
    expect(() => decodeOutcome(stored.subarray(0, stored.length - 1))).toThrow(RangeError);
    expect(() => decodeOutcome(Uint8Array.of(...stored, 0))).toThrow(/after the last event/);
    expect(() => decodeOutcome(Uint8Array.of(9, ...stored.subarray(1)))).toThrow(/codec version 9/);
    expect(() => decodeOutcome(new Uint8Array(0))).toThrow(RangeError);
  });
});
