import { describe, expect, it } from 'vitest';
import { Core, type BlockContext, type BundleInput } from '../../src/core/core.js';
import { balanceKey } from '../../src/core/records.js';
import { ElasticState, type WarmStore } from '../../src/chain/elastic-state.js';
import { StateView, toKey } from '../../src/chain/state-view.js';
import { forEachStateWrite, type PackedStateWrites, type StateWrite, type StateWrites } from '../../src/storage/chain-store.js';
import { encodeBundle, addr, hex } from '../../testkit/encode.js';
import { MapStore, genesisConfig, mintOf } from '../core/harness.js';

// Issue 24 (docs/operations.md "Elastic state", "Memory bound"): with --elastic-state a core
// instance is replaced while blocks it executed are still being written; the new instance reads
// their writes from the in-flight overlay (src/chain/in-flight-writes.ts) through the state's core
// source, the RPC readers (`get`) keep reading durable state only.

/** The node's database as the warm tier: what the block writer has made durable. */
class Warm implements WarmStore {
  readonly map = new Map<string, Uint8Array>();
  put(writes: StateWrites): void {
    forEachStateWrite(writes, (key, value) => {
      if (value === null) this.map.delete(toKey(key));
      else this.map.set(toKey(key), value.slice());
    });
  }
  readStateSync(key: Uint8Array) {
    return { value: this.map.get(toKey(key)), tier: 'warm' as const };
  }
  readStateMany(keys: Uint8Array[]) {
    return Promise.resolve(keys.map((key) => this.readStateSync(key)));
  }
  countCold() {
    return Promise.resolve({ keys: 0, bytes: 0 });
  }
  cold(): never {
    throw new Error('no cold tier here');
  }
  head() {
    return Promise.resolve(0);
  }
  scanState() {
    return Promise.resolve();
  }
  countState() {
    return Promise.resolve({ keys: this.map.size, bytes: 0 });
  }
  stateBytesOnDisk() {
    return Promise.resolve(0);
  }
  loadState() {
    return Promise.resolve(0);
  }
}

async function elastic(hotBytes = 1 << 30): Promise<{ state: ElasticState; warm: Warm }> {
  const warm = new Warm();
  const state = new ElasticState(warm, { hotBytes, coreKeys: 1, coldAfter: 0 });
  await state.loadFrom(warm);
  return { state, warm };
}

/** A block's writes packed as the core's commit gives them (src/storage/block-batch.ts). */
function packed(writes: StateWrite[]): PackedStateWrites {
  const lengths = new Int32Array(writes.length * 2);
  const parts: Uint8Array[] = [];
  writes.forEach(({ key, value }, i) => {
    lengths[2 * i] = key.length;
    lengths[2 * i + 1] = value === null ? -1 : value.length;
    parts.push(key);
    if (value !== null) parts.push(value);
  });
  return { bytes: new Uint8Array(Buffer.concat(parts)), lengths };
}

const K = (n: number) => Uint8Array.of(0x01, n);
const V = (...bytes: number[]) => Uint8Array.from(bytes);
const text = (v: Uint8Array | undefined) => (v === undefined ? undefined : hex(v));

describe('in-flight overlay: the core source against the RPC reads', () => {
  it('answers the newest in-flight write (a delete is absent) to a core made while blocks are in flight, until each block is durable; RPC reads see durable state', async () => {
    const { state, warm } = await elastic();
    const genesis = [{ key: K(1), value: V(1) }, { key: K(2), value: V(2) }, { key: K(3), value: V(3) }];
    warm.put(genesis);
    state.apply(genesis);
    const core = state.coreSource();
    // Two blocks executed by the old instance, in flight: both write K1, the first deletes K2.
    const b1 = packed([{ key: K(1), value: V(0x11) }, { key: K(2), value: null }, { key: K(4), value: V(0x14) }]);
    const b2 = [{ key: K(1), value: V(0x21) }, { key: K(5), value: V(0x25) }];
    state.executed(b1);
    state.executed(b2);
    expect(state.blocksInFlight).toBe(2);
    // No replacement yet: the old instance holds those writes itself; nothing is looked up.
    expect(text(core.get(K(1)))).toBe('01');
    expect(state.coreReplaced()).toBe(2);
    expect(state.coreRecyclesInFlight).toBe(1);
    expect(text(core.get(K(1)))).toBe('21');
    expect(core.get(K(2))).toBeUndefined();
    expect(text(core.get(K(3)))).toBe('03');
    expect(text(core.get(K(4)))).toBe('14');
    expect(text(core.get(K(5)))).toBe('25');
    expect(core.get(K(6))).toBeUndefined();
    // RPC readers: durable state only.
    expect([K(1), K(2), K(3), K(4), K(5)].map((k) => text(state.get(k)))).toEqual(['01', '02', '03', undefined, undefined]);

    // Block 1 durable: its entries answer no more (the tiers hold them), block 2's still do.
    warm.put(b1);
    state.apply(b1);
    expect(state.blocksInFlight).toBe(1);
    expect(text(core.get(K(1)))).toBe('21');
    expect(core.get(K(2))).toBeUndefined();
    expect(text(core.get(K(4)))).toBe('14');
    expect([K(1), K(2), K(4), K(5)].map((k) => text(state.get(k)))).toEqual(['11', undefined, '14', undefined]);

    // A block executed by the new instance after the replacement: not in this overlay (the new
    // instance holds it); a second replacement takes every block then in flight.
    const b3 = packed([{ key: K(2), value: V(0x32) }, { key: K(5), value: null }]);
    state.executed(b3);
    expect(core.get(K(2))).toBeUndefined();
    expect(state.coreReplaced()).toBe(2);
    expect(text(core.get(K(2)))).toBe('32');
    expect(core.get(K(5))).toBeUndefined();
    expect(text(core.get(K(1)))).toBe('21');

    warm.put(b2);
    state.apply(b2);
    expect(text(core.get(K(1)))).toBe('21');
    expect(text(state.get(K(5)))).toBe('25');
    expect(core.get(K(5))).toBeUndefined();
    warm.put(b3);
    state.apply(b3);
    expect(state.blocksInFlight).toBe(0);
    expect([K(1), K(2), K(3), K(4), K(5)].map((k) => text(core.get(k)))).toEqual(['21', '32', '03', '14', undefined]);
    expect([K(1), K(2), K(3), K(4), K(5)].map((k) => text(state.get(k)))).toEqual(['21', '32', '03', '14', undefined]);
    // Nothing in flight: a replacement makes no overlay.
    expect(state.coreReplaced()).toBe(0);
    expect(state.coreRecyclesInFlight).toBe(2);
  });

  it('blocks abandoned before they are written (a core rebuilt over durable state) leave the overlay', async () => {
    const { state, warm } = await elastic();
    const genesis = [{ key: K(1), value: V(1) }];
    warm.put(genesis);
    state.apply(genesis);
    const b1 = [{ key: K(1), value: V(0x11) }];
    state.executed(b1);
    state.coreReplaced();
    expect(text(state.coreSource().get(K(1)))).toBe('11');
    state.dropInFlight();
    expect(state.blocksInFlight).toBe(0);
    expect(text(state.coreSource().get(K(1)))).toBe('01');
    // a block written later is tracked from scratch
    const b2 = [{ key: K(1), value: V(0x22) }];
    state.executed(b2);
    state.coreReplaced();
    expect(text(state.coreSource().get(K(1)))).toBe('22');
    warm.put(b2);
    state.apply(b2);
    expect(state.blocksInFlight).toBe(0);
    expect(text(state.coreSource().get(K(1)))).toBe('22');
  });

  it('looks a block up by binary search of its sorted packed writes, and by a map when they are not sorted or are objects', async () => {
    const writes = Array.from({ length: 300 }, (_, i) => ({ key: i % 7 === 0 ? Uint8Array.of(0xf0, i >> 8, i & 255) : Uint8Array.of(0x02, i >> 8, i & 255, 9), value: i % 5 === 0 ? null : V(i & 255, 1) }));
    const sorted = [...writes].sort((x, y) => Buffer.compare(x.key, y.key));
    for (const block of [packed(sorted), packed(writes.reverse()), sorted]) {
      const { state } = await elastic();
      state.executed(block);
      state.coreReplaced();
      for (const { key, value } of sorted) expect(text(state.coreSource().get(key))).toBe(value === null ? undefined : hex(value));
      // keys not written, around and between the written ones
      for (const key of [Uint8Array.of(0x01), Uint8Array.of(0x02), Uint8Array.of(0x02, 0, 1), Uint8Array.of(0x02, 0, 1, 9, 0), Uint8Array.of(0xff)]) expect(state.coreSource().get(key)).toBeUndefined();
    }
  });

  it('the full in-memory mirror is its own core source and keeps no overlay', () => {
    const view = new StateView();
    expect(view.coreSource()).toBe(view);
    view.executed([{ key: K(1), value: V(1) }]);
    expect(view.coreReplaced()).toBe(0);
    expect(view.get(K(1))).toBeUndefined();
  });
});

const TS = 1_700_000_100n;
const ctx = (height: bigint): BlockContext => ({
  height, timestamp: TS + height, proposer: addr(500), gasPrice: 10n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 100_000_000n,
});
const transfer = (from: number, nonce: bigint, to: number, amount: bigint): BundleInput => ({
  bytes: encodeBundle({ user: addr(from), ops: [{ kind: 'transfer', to: addr(to), token: mintOf(1), amount }], nonce, maxGas: 1_000_000n, maxPriorityFee: 0n, validUntil: TS + 3600n }),
  auth: 0,
});

describe('in-flight overlay: a core replaced with blocks in flight', () => {
  it('continues with the state roots of a core that keeps everything (replaced before every block, up to 3 blocks in flight)', async () => {
    const config = genesisConfig(10);
    // The node with its state in memory: one instance for the whole chain.
    const reference = await Core.create(new MapStore());
    reference.genesis(config);
    reference.commitBlock();
    // The elastic node: genesis durable, then every instance reads through the core source.
    const { state, warm } = await elastic(4096);
    const first = await Core.create(state.coreSource());
    first.genesis(config);
    const genesis = first.commitBlockPacked().writes;
    warm.put(genesis);
    state.apply(genesis);
    let core = await Core.create(state.coreSource());
    const inFlight: StateWrites[] = [];
    const nonces = new Map<number, bigint>();
    let withBlocksInFlight = 0;
    let controlDiffered = false;
    for (let h = 1n; h <= 12n; h++) {
      // The same senders and recipients every block: the blocks in flight rewrite the same
      // accounts, balances and state-root buckets.
      const bundles = [1, 2, 3, 4].map((from) => {
        const nonce = nonces.get(from) ?? 0n;
        nonces.set(from, nonce + 1n);
        return transfer(from, nonce, 1 + ((from + Number(h)) % 6), 1000n * h + BigInt(from));
      });
      // A control instance over durable state only (what a replacement read before the overlay):
      // once a block in flight wrote what this block reads, it reaches another root.
      const control = inFlight.length > 0 ? await Core.create(state) : undefined;
      // The instance is replaced before every block, whatever is in flight.
      const replaced = await Core.create(state.coreSource());
      if (state.coreReplaced() > 0) withBlocksInFlight++;
      core = replaced;
      core.applyBlock(ctx(h), bundles);
      const mine = core.commitBlockPacked();
      reference.applyBlock(ctx(h), bundles);
      const theirs = reference.commitBlock();
      expect(hex(mine.stateRoot), `height ${h}`).toBe(hex(theirs.stateRoot));
      if (control) {
        control.applyBlock(ctx(h), bundles);
        if (hex(control.commitBlockPacked().stateRoot) !== hex(theirs.stateRoot)) controlDiffered = true;
      }
      state.executed(mine.writes);
      inFlight.push(mine.writes);
      // The writer lands the oldest block when three are in flight, sometimes two at once.
      while (inFlight.length > (h % 4n === 0n ? 1 : 2)) {
        const writes = inFlight.shift()!;
        warm.put(writes);
        state.apply(writes);
      }
      expect(state.blocksInFlight).toBe(inFlight.length);
    }
    expect(withBlocksInFlight).toBeGreaterThanOrEqual(10);
    expect(controlDiffered).toBe(true);
    for (const writes of inFlight.splice(0)) {
      warm.put(writes);
      state.apply(writes);
    }
    // Everything durable: the tiers hold what the reference holds.
    for (let a = 1; a <= 10; a++) {
      const key = balanceKey(addr(a), mintOf(1));
      expect(text(state.get(key))).toBe(text(reference.get(key)));
    }
  });
});
