import { describe, expect, it } from 'vitest';
import { BlockResultView } from '../../src/core/block-result.js';
import { EventKind } from '../../src/core/events.js';
import { encodeBlockResult as encode } from './block-result-fixture.js';

function transfer(from: number, to: number, amount: bigint): Uint8Array {
  const data = new Uint8Array(112);
  data.fill(from, 0, 32);
  data.fill(to, 32, 64);
  data.fill(9, 64, 96);
  new DataView(data.buffer).setBigUint64(96, amount, true);
  return data;
}

const results = [
  { status: 0, gas: 21_000, fee: 210_000n, nonce: 4n },
  { status: 2, gas: 0, fee: 0n, nonce: 9n }, // an invalid bundle: no events
  { status: 0, gas: 30_000, fee: (1n << 70n) + 5n, nonce: 0n },
];
const events = [
  { bundle: 0, op: 0, kind: EventKind.Transfer, data: transfer(1, 2, 7n) },
  { bundle: 0, op: 1, kind: EventKind.Transfer, data: transfer(1, 3, 8n) },
  { bundle: 2, op: 0xffff, kind: 99, data: Uint8Array.of(1, 2, 3) }, // a kind this host does not know
];

describe('BlockResultView', () => {
  it('reads rows and the events of one bundle in place, and all of them on demand', () => {
    const view = new BlockResultView(encode(results, events));
    expect([view.count, view.gasUsed, view.fees, view.eventCount]).toEqual([3, 51_000n, (1n << 70n) + 210_005n, 3]);
    expect([0, 1, 2].map((i) => [view.status(i), view.gasUsedOf(i), view.fee(i), view.nonce(i)])).toEqual([
      [0, 21_000, 210_000n, 4n], [2, 0, 0n, 9n], [0, 30_000, (1n << 70n) + 5n, 0n],
    ]);
    expect(view.eventsOf(0).map((e) => (e.kind === 'Transfer' ? [e.opIndex, e.to[0], e.amount] : e.kind))).toEqual([[0, 2, 7n], [1, 3, 8n]]);
    expect(view.eventsOf(1)).toEqual([]);
    expect(view.eventsOf(2).map((e) => [e.kind, e.bundleIndex, e.opIndex])).toEqual([['Unknown', 2, 0xffff]]);
    expect(view.events.map((e) => e.bundleIndex)).toEqual([0, 0, 2]);
    expect(view.results[2]).toEqual({ status: 0, gasUsed: 30_000n, fee: (1n << 70n) + 5n, nonce: 0n });
  });

  it('compacts to the included bundles, renumbering the events, and is itself when all are included', () => {
    const view = new BlockResultView(encode(results, events));
    expect(view.compact([0, 1, 2])).toBe(view);
    const kept = view.compact([0, 2]);
    expect(Buffer.from(kept.bytes)).toEqual(Buffer.from(encode([results[0]!, results[2]!], [events[0]!, events[1]!, { ...events[2]!, bundle: 1 }])));
  });

  it('refuses truncated bytes', () => {
    const bytes = encode(results, events);
    expect(() => new BlockResultView(bytes.subarray(0, 20))).toThrow(RangeError);
    expect(() => new BlockResultView(bytes.subarray(0, 28 + 34 * 2))).toThrow(RangeError);
    expect(() => new BlockResultView(bytes.subarray(0, bytes.length - 1)).eventsOf(0)).toThrow(RangeError);
  });
});
