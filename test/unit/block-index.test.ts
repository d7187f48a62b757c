import { describe, expect, it } from 'vitest';
import { blockIndexOps } from '../../src/storage/block-index.js';
import { BlockResultView } from '../../src/core/block-result.js';
import { EventKind } from '../../src/core/events.js';
import type { IndexOp } from '../../src/storage/block-batch.js';
import { IndexKeys } from '../../src/storage/keys.js';
import { encodeBlockResult } from './block-result-fixture.js';

// The index records a block derives from itself and its result (src/storage/block-index.ts), which
// the writer thread builds for every executed block: bundle list, address history, token transfers.

const account = (n: number) => new Uint8Array(32).fill(n);
/** Only a bundle's first 32 bytes (its sender, docs/bundle-format.md) are read here. */
const bundle = (sender: number, length: number) => {
  const b = new Uint8Array(length).fill(0xee);
  b.set(account(sender));
  return b;
};

function transfer(from: number, to: number): Uint8Array {
  const data = new Uint8Array(112);
  data.set(account(from), 0);
  data.set(account(to), 32);
  data.fill(9, 64, 96); // the mint
  return data;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('block index records', () => {
  it('give each sender and event party one history record listing its bundles, and each mint its transfers', () => {
    const bundles = [bundle(1, 40), bundle(2, 33), bundle(1, 100)];
    const rows = bundles.map(() => ({ status: 0, gas: 1, fee: 1n, nonce: 0n }));
    const result = new BlockResultView(encodeBlockResult(rows, [
      { bundle: 0, op: 0, kind: EventKind.Transfer, data: transfer(1, 5) },
      { bundle: 2, op: 0, kind: EventKind.Transfer, data: transfer(1, 6) },
      { bundle: 2, op: 1, kind: EventKind.Transfer, data: transfer(1, 5) },
      { bundle: 2, op: 2, kind: EventKind.Fee, data: new Uint8Array(64).fill(7) }, // Fee names no history party
    ]));
    const hashes = new Uint8Array(3 * 32).fill(0xab);
    const ops: IndexOp[] = [];
    blockIndexOps(7, hashes, bundles, result, ops);
    const byKey = new Map(ops.map((op) => [hex(op.key), op.type === 'put' ? op.value : undefined]));
    expect(byKey.get(hex(IndexKeys.blockTxs(7)))).toEqual(hashes);
    const history = (n: number) => {
      const v = byKey.get(hex(IndexKeys.addressHistory(account(n), 7)));
      return v && Array.from({ length: v.length / 4 }, (_, k) => new DataView(v.buffer, v.byteOffset).getUint32(k * 4));
    };
    expect(history(1)).toEqual([0, 2]); // sender of 0 and 2, and the transfers' source
    expect(history(2)).toEqual([1]); // sender of 1, no events
    expect(history(5)).toEqual([0, 2]);
    expect(history(6)).toEqual([2]);
    expect(history(7)).toBeUndefined();
    const transfers = byKey.get(hex(IndexKeys.tokenTransfers(new Uint8Array(32).fill(9), 7)))!;
    // (bundle u32, ordinal u16) per transfer: bundle 0's first event, bundle 2's first and second
    const refs = Array.from({ length: transfers.length / 6 }, (_, k) => {
      const dv = new DataView(transfers.buffer, transfers.byteOffset + k * 6);
      return [dv.getUint32(0), dv.getUint16(4)];
    });
    expect(refs).toEqual([[0, 0], [2, 0], [2, 1]]);
    expect(ops.length).toBe(1 + 4 + 1);
  });
});
