import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StateView } from '../../src/chain/state-view.js';
import { ValueTable } from '../../src/chain/value-table.js';
import { releaseOutputBuffer, takeOutputBuffer } from '../../src/core/output-pool.js';
import type { PackedStateWrites } from '../../src/storage/block-batch.js';
import { random } from './seeded-random.js';

/** Value lengths across every size class and the large one: mostly small, as state records are. */
function lengthOf(next: () => number): number {
  const r = next();
  if (r < 0.6) return Math.floor(next() * 65);
  if (r < 0.9) return 65 + Math.floor(next() * 512);
  if (r < 0.99) return 577 + Math.floor(next() * 8000);
  return 65_536 + Math.floor(next() * 70_000);
}

/** Random bytes (their content does not steer the run; the seeded generator picks keys and lengths). */
function bytesOf(_next: () => number, length: number): Uint8Array {
  return new Uint8Array(randomBytes(length));
}

/** Writes packed as the core's commit gives them (src/core/core.ts packCommitResult), in `into`. */
function pack(writes: Array<{ key: Uint8Array; value: Uint8Array | null }>, into?: Uint8Array): PackedStateWrites {
  const size = writes.reduce((n, w) => n + w.key.length + (w.value?.length ?? 0), 0);
  const bytes = into ? into.subarray(0, size) : new Uint8Array(size);
  const lengths = new Int32Array(writes.length * 2);
  let o = 0;
  writes.forEach((w, i) => {
    bytes.set(w.key, o);
    o += w.key.length;
    lengths[2 * i] = w.key.length;
    lengths[2 * i + 1] = w.value === null ? -1 : w.value.length;
    if (w.value) {
      bytes.set(w.value, o);
      o += w.value.length;
    }
  });
  return { bytes, lengths };
}

/** Byte equality (vitest's deep equality walks a large typed array element by element). */
function same(a: Uint8Array | null | undefined, b: Uint8Array | null | undefined): boolean {
  if (!a || !b) return a === b || (a == null && b == null);
  return Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}

describe('ValueTable', () => {
  it('holds what a Map of copies holds, over random puts, overwrites of every size and removals', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const next = random(seed);
      const table = new ValueTable();
      const slots = new Map<number, number>();
      const model = new Map<number, Uint8Array>();
      for (let step = 0; step < 4000; step++) {
        const key = Math.floor(next() * 300);
        if (next() < 0.15) {
          const slot = slots.get(key);
          if (slot !== undefined) table.remove(slot);
          slots.delete(key);
          model.delete(key);
          continue;
        }
        const value = bytesOf(next, lengthOf(next));
        // the source is a larger buffer, the value at an offset in it, as in a block's output
        const source = new Uint8Array(value.length + 7);
        source.set(value, 3);
        slots.set(key, table.put(slots.get(key) ?? -1, source, 3, value.length));
        source.fill(0xee); // the table keeps no view of its source
        model.set(key, value);
      }
      let bytes = 0;
      for (const [key, value] of model) {
        const read = table.read(slots.get(key)!);
        expect(same(read, value), `seed ${seed}, key ${key}`).toBe(true);
        expect(table.length(slots.get(key)!)).toBe(value.length);
        bytes += value.length;
      }
      expect(table.valueBytes).toBe(bytes);
      // slot ids stay small integers (unboxed in the key map)
      for (const slot of slots.values()) expect(Number.isSafeInteger(slot) && slot >= 0 && slot < 2 ** 31).toBe(true);
    }
  });

  it('gives copies: a value read before a later write keeps its bytes', () => {
    const table = new ValueTable();
    const first = table.put(-1, Uint8Array.of(1, 2, 3), 0, 3);
    const read = table.read(first);
    expect(table.put(first, Uint8Array.of(9, 9, 9), 0, 3)).toBe(first); // same class: the slot is rewritten
    expect(read).toEqual(Uint8Array.of(1, 2, 3));
    expect(table.read(first)).toEqual(Uint8Array.of(9, 9, 9));
    // a view is the slot itself: the next write shows through it (for readers that decode at once)
    const view = table.view(first);
    table.put(first, Uint8Array.of(4, 5, 6), 0, 3);
    expect(view).toEqual(Uint8Array.of(4, 5, 6));
  });
});

describe('StateView over its own values', () => {
  it('equals a Map of the writes after random packed blocks, whose buffers are then overwritten and reused', () => {
    const next = random(42);
    const view = new StateView();
    const model = new Map<string, Uint8Array>();
    const watched: Array<{ key: Uint8Array; value: Uint8Array | null }> = [];
    view.watch(0x07, (key, value) => watched.push({ key, value }));
    const keys = Array.from({ length: 200 }, (_, i) => Uint8Array.of(i % 3 === 0 ? 0x07 : 0x02, ...bytesOf(next, 32 + (i % 2) * 32)));
    for (let block = 0; block < 60; block++) {
      const writes = Array.from({ length: 1 + Math.floor(next() * 80) }, () => {
        const key = keys[Math.floor(next() * keys.length)]!;
        return { key, value: next() < 0.1 ? null : bytesOf(next, lengthOf(next)) };
      });
      const size = writes.reduce((n, w) => n + w.key.length + (w.value?.length ?? 0), 0);
      const buffer = takeOutputBuffer(size);
      const packed = pack(writes, buffer);
      const from = watched.length;
      view.apply(packed);
      // what a watcher was given is its own: the buffer's reuse does not change it
      const given = watched.slice(from).map((w) => ({ key: w.key.slice(), value: w.value?.slice() ?? null }));
      buffer.fill(0xab);
      releaseOutputBuffer(buffer.buffer);
      expect(watched.slice(from).every((w, i) => same(w.key, given[i]!.key) && same(w.value, given[i]!.value))).toBe(true);
      expect(watched.length - from).toBe(writes.filter((w) => w.key[0] === 0x07).length);
      for (const w of writes) {
        const k = Buffer.from(w.key).toString('latin1');
        if (w.value === null) model.delete(k);
        else model.set(k, w.value);
      }
      for (const key of keys) {
        const k = Buffer.from(key).toString('latin1');
        expect(same(view.get(key), model.get(k)), `block ${block}`).toBe(true);
        expect(same(view.peekLatin1(k), model.get(k)), `block ${block}`).toBe(true);
      }
    }
    expect(view.size).toBe(model.size);
    const stats = view.stats().tiers.memory!;
    expect(stats.keys).toBe(model.size);
    expect(stats.bytes).toBe([...model].reduce((n, [k, v]) => n + k.length + v.length, 0));
  });

  it('reuses a released output buffer, and only one it lent', () => {
    const a = takeOutputBuffer(1000);
    releaseOutputBuffer(a.buffer);
    releaseOutputBuffer(a.buffer); // a second release is ignored
    releaseOutputBuffer(new ArrayBuffer(2000)); // not lent: ignored
    const b = takeOutputBuffer(900);
    expect(b.buffer).toBe(a.buffer);
    const c = takeOutputBuffer(900);
    expect(c.buffer).not.toBe(a.buffer);
  });
});
