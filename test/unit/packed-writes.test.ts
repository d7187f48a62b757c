import { describe, expect, it } from 'vitest';
import { packCommitResult } from '../../src/core/core.js';
import { commitOutput } from './commit-output-fixture.js';
import { StateView } from '../../src/chain/state-view.js';
import { ChangeSetRecorder } from '../../src/chain/change-sets.js';
import { Indexer } from '../../src/chain/indexer.js';
import { packBlockWrite, type BlockWrite, type StateWrite } from '../../src/storage/block-batch.js';
import type { ChainStore } from '../../src/storage/chain-store.js';

// The core's commit output packed in place (Core.commitBlockPacked) against the writes as objects:
// the same records in the StateView, the same holder index ops, the same bytes to the writer.

const BALANCE = 0x02;
let seed = 7;
const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) % n);
const bytes = (n: number, fill?: number) => Uint8Array.from({ length: n }, () => fill ?? rand(256));

/** A mix like a block's: balance writes (some to zero, some deleted), accounts, other records, tree nodes. */
function sampleWrites(): StateWrite[] {
  const writes: StateWrite[] = [];
  const mint = bytes(32, 0);
  for (let i = 0; i < 40; i++) {
    const key = new Uint8Array(65);
    key[0] = BALANCE;
    key.set(bytes(32), 1);
    key.set(i % 3 ? mint : bytes(32), 33);
    const kind = rand(4);
    writes.push({ key, value: kind === 0 ? null : kind === 1 ? new Uint8Array(16) : bytes(16) });
  }
  for (let i = 0; i < 20; i++) writes.push({ key: Uint8Array.of(0x01, ...bytes(32)), value: bytes(10 + 40 * rand(3)) });
  writes.push({ key: Uint8Array.of(0x30, ...bytes(5)), value: new Uint8Array(0) });
  writes.push({ key: Uint8Array.of(0x31, ...bytes(8)), value: null });
  for (let i = 0; i < 10; i++) writes.push({ key: Uint8Array.of(0xf0, ...bytes(4)), value: bytes(32 * (1 + rand(4))) });
  writes.sort((a, b) => Buffer.compare(a.key, b.key));
  return writes;
}


function snapshot(view: StateView, writes: readonly StateWrite[]): Array<string | null> {
  return writes.map(({ key }) => {
    const v = view.get(key);
    return v === undefined ? null : Buffer.from(v).toString('hex');
  });
}

describe('packed state writes (the core output kept as bytes)', () => {
  const writes = sampleWrites();
  const root = bytes(32);

  it('packCommitResult keeps the root and every key and value, in order', () => {
    const { stateRoot, writes: packed } = packCommitResult(commitOutput(root, writes));
    expect(Buffer.from(stateRoot).equals(Buffer.from(root))).toBe(true);
    expect(packed.lengths.length).toBe(2 * writes.length);
    let o = 0;
    writes.forEach(({ key, value }, i) => {
      expect(packed.lengths[2 * i]).toBe(key.length);
      expect(Buffer.from(packed.bytes.subarray(o, o + key.length)).equals(Buffer.from(key))).toBe(true);
      o += key.length;
      if (value === null) expect(packed.lengths[2 * i + 1]).toBe(-1);
      else {
        expect(packed.lengths[2 * i + 1]).toBe(value.length);
        expect(Buffer.from(packed.bytes.subarray(o, o + value.length)).equals(Buffer.from(value))).toBe(true);
        o += value.length;
      }
    });
    expect(o).toBe(packed.bytes.length);
  });

  it('an empty commit and a malformed one', () => {
    const { writes: none } = packCommitResult(commitOutput(root, []));
    expect(none.lengths.length).toBe(0);
    expect(none.bytes.length).toBe(0);
    const extra = Uint8Array.of(...commitOutput(root, writes.slice(0, 2)), 9);
    expect(() => packCommitResult(extra)).toThrow(RangeError);
  });

  it('StateView.apply: the same records and watcher calls as from objects', () => {
    const { writes: packed } = packCommitResult(commitOutput(root, writes));
    const seen = (view: StateView) => {
      const calls: string[] = [];
      view.watch(0x01, (key, value) => calls.push(`${Buffer.from(key).toString('hex')}=${value ? Buffer.from(value).toString('hex') : 'null'}`));
      // records present before the block, some of which it deletes
      for (const { key } of writes.filter((_, i) => i % 4 === 0)) view.load(key, Uint8Array.of(1, 2, 3));
      return calls;
    };
    const a = new StateView();
    const b = new StateView();
    const callsA = seen(a);
    const callsB = seen(b);
    a.apply(writes);
    b.apply(packed);
    expect(snapshot(b, writes)).toEqual(snapshot(a, writes));
    expect(b.size).toBe(a.size);
    expect(callsB).toEqual(callsA);
    expect(callsB.length).toBeGreaterThan(20);
  });

  it('StateView.apply with the change-set recorder\'s keys: the same records as without them', () => {
    const { writes: packed } = packCommitResult(commitOutput(root, writes));
    const a = new StateView();
    const b = new StateView();
    for (const view of [a, b]) for (const { key } of writes.filter((_, i) => i % 4 === 0)) view.load(key, Uint8Array.of(1, 2, 3));
    const recorder = new ChangeSetRecorder(b);
    recorder.record(packed);
    const keys = recorder.durable(packed);
    expect(keys).toEqual(writes.map(({ key }) => Buffer.from(key).toString('latin1')));
    a.apply(packed);
    b.apply(packed, keys);
    expect(snapshot(b, writes)).toEqual(snapshot(a, writes));
    expect(b.size).toBe(a.size);
    // writes as objects: no keys (a key named twice is packed once there, so they would not line up)
    recorder.record(writes);
    expect(recorder.durable(writes)).toBeUndefined();
  });

  it('Indexer.balanceIndexOps: the same holder ops as from objects, across blocks', () => {
    const state = new StateView();
    const store = {} as ChainStore;
    const a = new Indexer(store, undefined, state);
    const b = new Indexer(store, undefined, state);
    // and from packed writes with the change-set recorder's keys (WriteQueue.queueWrite)
    const c = new Indexer(store, undefined, state);
    const recorder = new ChangeSetRecorder(state);
    const second = writes.map(({ key, value }) => ({ key, value: key[0] === BALANCE && value ? (rand(2) ? null : bytes(16)) : value }));
    for (const [height, block] of [[1, writes], [2, second]] as const) {
      const packed = packCommitResult(commitOutput(root, block)).writes;
      const opsA = a.balanceIndexOps(height, block);
      const opsB = b.balanceIndexOps(height, packed);
      const samePacked = packCommitResult(commitOutput(root, block)).writes;
      recorder.record(samePacked);
      const keys = recorder.keysOf(samePacked);
      expect(keys).toHaveLength(block.length);
      const opsC = c.balanceIndexOps(height, samePacked, keys);
      const show = (ops: typeof opsA) => ops.map((op) => `${op.type}:${Buffer.from(op.key).toString('hex')}`);
      expect(show(opsB)).toEqual(show(opsA));
      expect(show(opsC)).toEqual(show(opsA));
      expect(opsA.length).toBeGreaterThan(0);
    }
  });

  it('packBlockWrite: the same bytes to the writer thread from packed writes as from objects', () => {
    const packed = packCommitResult(commitOutput(root, writes)).writes;
    const base: Omit<BlockWrite, 'state'> = { height: 5, hash: bytes(32), block: bytes(100), outcome: bytes(40), bundleHashes: [bytes(32), bytes(32)] };
    const fromObjects = packBlockWrite({ ...base, state: writes }).packed;
    const fromPacked = packBlockWrite({ ...base, state: packed }).packed;
    expect(Array.from(fromPacked.state.lengths)).toEqual(Array.from(fromObjects.state.lengths));
    expect(Buffer.from(fromPacked.state.bytes).equals(Buffer.from(fromObjects.state.bytes))).toBe(true);
    expect(Buffer.from(fromPacked.block).equals(Buffer.from(fromObjects.block))).toBe(true);
  });
});
