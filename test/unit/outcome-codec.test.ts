import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EventKind } from '../../src/core/events.js';
import { decodeOutcome, LAYOUT_LENGTHS, LAYOUTS } from '../../src/storage/outcome-codec.js';
import { encodeOutcome, OutcomeEncoder } from '../../src/storage/outcome-wasm.js';
import { encodeBlockResult, type ResultEvent, type ResultRow } from './block-result-fixture.js';
import { referenceEncodeOutcome } from './outcome-codec-reference.js';

/**
 * The wasm encoder's stored form: the JS reference encoder's bytes exactly, and decoding back to
 * `raw` (docs/storage.md "Execution results").
 */
function encodeChecked(raw: Uint8Array): Uint8Array {
  const stored = encodeOutcome(raw);
  expectBytes(stored, referenceEncodeOutcome(raw));
  expectBytes(decodeOutcome(stored), raw);
  return stored;
}

/** Equal bytes; on a difference, the lengths and the first bytes that differ (toEqual on a 300 KB Buffer takes seconds). */
function expectBytes(actual: Uint8Array, expected: Uint8Array): void {
  if (Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength).equals(expected)) return;
  let i = 0;
  while (i < actual.length && i < expected.length && actual[i] === expected[i]) i++;
  const around = (b: Uint8Array) => Buffer.from(b.subarray(Math.max(0, i - 8), i + 24)).toString('hex');
  expect({ length: actual.length, at: i, bytes: around(actual) }).toEqual({ length: expected.length, at: i, bytes: around(expected) });
}

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
    for (const n of [0, 1, 2, 17, 300]) encodeChecked(block(n));
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
    const stored = encodeChecked(raw);
    expect(raw.length).toBeGreaterThan(280_000);
    expect(stored.length).toBeLessThan(raw.length / 6);
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
    encodeChecked(encodeBlockResult(rows, events));
    // and the regions grown for it, kept for the next call, serve a small record
    encodeChecked(block(17));
  });

  it('refuses damaged records with a RangeError, never a wrong result', () => {
    const stored = encodeOutcome(block(40));
    expect(() => decodeOutcome(stored.subarray(0, stored.length - 1))).toThrow(RangeError);
    expect(() => decodeOutcome(Uint8Array.of(...stored, 0))).toThrow(/after the last event/);
    expect(() => decodeOutcome(Uint8Array.of(9, ...stored.subarray(1)))).toThrow(/codec version 9/);
    expect(() => decodeOutcome(new Uint8Array(0))).toThrow(RangeError);
  });

  it('matches the reference encoder on a few hundred generated results', () => {
    const next = prng(0x5eed);
    let bytes = 0;
    for (let i = 0; i < 300; i++) {
      const raw = randomResult(next, i % 50 === 49 ? 2000 : 200);
      encodeChecked(raw);
      bytes += raw.length;
    }
    expect(bytes).toBeGreaterThan(1_000_000);
  });

  it('refuses truncated or inconsistent core bytes with a RangeError', () => {
    const raw = block(17);
    const dv = new DataView(raw.buffer);
    const eventsAt = 28 + 17 * 34;
    const firstEvent = eventsAt + 4;
    const damaged = (edit: (copy: Uint8Array, dv: DataView) => void) => {
      const copy = raw.slice();
      edit(copy, new DataView(copy.buffer));
      return copy;
    };
    expect(dv.getUint32(eventsAt, true)).toBeGreaterThan(2);
    const cases: Array<[Uint8Array, RegExp]> = [
      [raw.subarray(0, 31), /shorter than its head/],
      [damaged((_, d) => d.setUint32(24, 0xffffffff, true)), /results count/],
      [damaged((_, d) => d.setUint32(24, 200, true)), /results count/],
      [damaged((_, d) => d.setUint32(eventsAt, d.getUint32(eventsAt, true) + 1, true)), /event runs past the end/],
      [damaged((_, d) => d.setUint32(eventsAt, 0xffffffff, true)), /event runs past the end/],
      [damaged((_, d) => d.setUint32(firstEvent + 7, 0xffffffff, true)), /event runs past the end/],
      [damaged((_, d) => d.setUint32(firstEvent + 7, raw.length, true)), /event runs past the end/],
      [damaged((_, d) => d.setUint32(eventsAt, d.getUint32(eventsAt, true) - 1, true)), /after the last event/],
      [Uint8Array.of(...raw, 0), /after the last event/],
      [damaged((_, d) => d.setUint32(firstEvent, 5, true)), /bundle index is below/],
    ];
    for (const [input, message] of cases) expect(() => encodeOutcome(input)).toThrow(message);
    for (const [input] of cases) expect(() => encodeOutcome(input)).toThrow(RangeError);
    // every truncation, the rest of the real bytes still in the module's memory after it: an
    // encoder that read past the length it was given would find them there
    const encoder = new OutcomeEncoder();
    const at = encoder.wasm.input(raw.length);
    new Uint8Array(encoder.wasm.memory.buffer).set(raw, at);
    for (let len = 0; len < raw.length; len++) expect(encoder.wasm.encode(len)).toBeLessThan(0);
    expect(encoder.wasm.encode(raw.length)).toBeGreaterThan(0);
    // nothing left behind: the shared encoder still matches the reference
    encodeChecked(raw);
    encodeChecked(block(300));
  });

  it('writes nothing outside its regions, whatever the input', () => {
    const next = prng(0xbad);
    const results = { refused: 0, encoded: 0 };
    for (let i = 0; i < 60; i++) {
      // a generated result, then a few bytes overwritten at random: mostly refused, some encoded
      const raw = randomResult(next, 40);
      for (let k = next() % 4; k >= 0; k--) raw[next() % raw.length] = next() & 0xff;
      const encoder = new OutcomeEncoder();
      const { wasm } = encoder;
      const at = wasm.input(raw.length);
      new Uint8Array(wasm.memory.buffer).set(raw, at);
      const before = new Uint8Array(wasm.memory.buffer).slice();
      const n = wasm.encode(raw.length);
      const after = new Uint8Array(wasm.memory.buffer);
      expect(after.length).toBe(before.length); // no growth while encoding
      // the input is left as it was, and so is everything past the output region's bound
      expectBytes(after.subarray(at, at + raw.length), raw);
      const regionEnd = wasm.output_ptr() + raw.length + (raw.length >> 2) + 64;
      expect(regionEnd).toBeLessThanOrEqual(after.length);
      expectBytes(after.subarray(regionEnd), before.subarray(regionEnd));
      if (n >= 0) expectBytes(after.subarray(wasm.output_ptr(), wasm.output_ptr() + n), referenceEncodeOutcome(raw));
      results[n < 0 ? 'refused' : 'encoded']++;
    }
    expect(results.refused).toBeGreaterThan(5);
    expect(results.encoded).toBeGreaterThan(10);
  });

  it('takes its layouts from the codec\'s table and refuses a broken one', () => {
    const encoder = new OutcomeEncoder();
    const { wasm } = encoder;
    // the layout length the module derived for each kind is the codec's: a Transfer of its
    // length is encoded by layout (smaller than raw), one byte longer is stored raw
    const transfer = encodeBlockResult([], [{ bundle: 0, op: 0, kind: EventKind.Transfer, data: new Uint8Array(LAYOUT_LENGTHS[EventKind.Transfer]!) }]);
    expect(encoder.encode(transfer).length).toBeLessThan(transfer.length);
    expect(Object.keys(LAYOUTS).length).toBeGreaterThan(10);
    // a field code the module does not know (slot of kind 3, field 2)
    const table = new Uint8Array(wasm.memory.buffer, wasm.layouts(), 257 * 17);
    table[3 * 17 + 1 + 2] = 5;
    expect(wasm.init(1, 28, 34, 11)).toBe(4);
    expect(() => encoder.encode(transfer)).toThrow(/no layout table/);
    table[3 * 17 + 1 + 2] = 16;
    expect(wasm.init(1, 28, 34, 11)).toBe(0);
    expect(wasm.init(1, 28, 35, 11)).toBe(257); // a row length other than the row layout's
    expect(wasm.init(1, 29, 34, 11)).toBe(1000);
    expect(wasm.input(2 ** 28 + 1)).toBe(0);
  });
});

/** A deterministic 32-bit generator (mulberry32), so a failing case can be run again. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** n little-endian bytes of an integer with a random number of significant bytes (often few). */
function integerBytes(next: () => number, n: number, out: Uint8Array, at: number): void {
  const used = next() % 3 === 0 ? next() % (n + 1) : Math.min(n, next() % 4);
  for (let i = 0; i < used; i++) out[at + i] = next() & 0xff;
}

/**
 * Core result bytes with up to `maxEvents` events: rows of random integers; events of every known
 * kind at its layout's length (32-byte values from a small pool, integers of every width), known
 * kinds at other lengths, unknown kinds; bundle indices that step by 0, 1 or a lot.
 */
function randomResult(next: () => number, maxEvents: number): Uint8Array {
  const pool: Uint8Array[] = [new Uint8Array(32)];
  for (let i = next() % 30; i >= 0; i--) {
    const value = next() % 3 === 0 ? new Uint8Array(32) : randomBytes(32);
    value[4 + (next() % 24)] = next() & 0xff; // some differ only in their middle
    pool.push(value);
  }
  const value = () => (next() % 4 === 0 ? randomBytes(32) : pool[next() % pool.length]!);
  const bundles = next() % 60;
  const rows: ResultRow[] = [];
  for (let b = 0; b < bundles; b++) rows.push({ status: 0, gas: 0, fee: 0n, nonce: 0n });
  const events: ResultEvent[] = [];
  const kinds = Object.keys(LAYOUTS).map(Number);
  let bundle = 0;
  for (let e = next() % (maxEvents + 1); e > 0; e--) {
    const step = next() % 10;
    bundle = Math.min(0xffffffff, bundle + (step < 6 ? 0 : step < 9 ? 1 : next() >>> (next() % 32)));
    const op = next() % 5 === 0 ? 0xffff : next() % 0x10000;
    const pick = next() % 20;
    if (pick < 15) {
      const kind = kinds[next() % kinds.length]!;
      const data = new Uint8Array(LAYOUT_LENGTHS[kind]!);
      let at = 0;
      for (const field of LAYOUTS[kind]!) {
        if (field === 0) {
          data.set(value(), at);
          at += 32;
        } else if (field === 1) data[at++] = next() & 0xff;
        else {
          integerBytes(next, field, data, at);
          at += field;
        }
      }
      events.push({ bundle, op, kind, data });
    } else {
      const kind = pick < 18 ? kinds[next() % kinds.length]! : next() % 256;
      const len = next() % 50 === 0 ? 20_000 + (next() % 1000) : next() % 300;
      const data = new Uint8Array(len);
      for (let o = 0; o + 32 <= len; o += 32) data.set(value(), o);
      events.push({ bundle, op, kind, data });
    }
  }
  const raw = encodeBlockResult(rows, events);
  // rows of every integer width (the fixture takes numbers for gas)
  for (let b = 0; b < bundles; b++) {
    const o = 28 + b * 34;
    raw.fill(0, o, o + 34);
    integerBytes(next, 2, raw, o);
    integerBytes(next, 8, raw, o + 2);
    integerBytes(next, 16, raw, o + 10);
    integerBytes(next, 8, raw, o + 26);
  }
  return raw;
}
