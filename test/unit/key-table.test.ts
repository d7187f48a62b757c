import { describe, expect, it } from 'vitest';
import { hashOf, KeyTable } from '../../src/chain/key-table.js';
import { random } from './seeded-random.js';

// The StateView's keys outside V8's heap (src/chain/key-table.ts): checked against a Map, the
// structure it replaces, over seeded random sequences; a failure names its seed.

/** A latin1 key as the read paths build them: a prefix byte, then bytes of every value (0–255). */
function keyOf(next: () => number, id: number, length: number): string {
  let s = String.fromCharCode(id % 7);
  for (let i = 1; i < length; i++) s += String.fromCharCode(Math.floor(next() * 256));
  return s;
}

/** The table's keys and slots in its visiting order, which is a Map's: the order keys were added. */
function entries(table: KeyTable): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  table.forEach((key, slot) => out.push([key, slot]));
  return out;
}

describe('KeyTable', () => {
  it('answers what a Map answers over random sets, overwrites, deletes and misses', () => {
    for (const seed of [1, 2, 3, 4]) {
      const next = random(seed);
      const table = new KeyTable();
      const model = new Map<string, number>();
      // a pool of keys, so sets overwrite and deletes find keys; lengths 1 to 70 and a few long ones
      const pool = Array.from({ length: 3000 }, (_, i) => keyOf(next, i, next() < 0.01 ? 1 + Math.floor(next() * 2000) : 1 + Math.floor(next() * 70)));
      for (let step = 0; step < 25_000; step++) {
        const key = pool[Math.floor(next() * pool.length)]!;
        const r = next();
        if (r < 0.25) {
          expect(table.delete(key), `seed ${seed} step ${step}: delete`).toBe(model.delete(key));
        } else if (r < 0.6) {
          const slot = Math.floor(next() * 1_000_000);
          table.set(key, slot);
          model.set(key, slot);
        } else {
          expect(table.get(key), `seed ${seed} step ${step}: get`).toBe(model.get(key) ?? -1);
        }
        if (step % 5000 === 0) {
          expect(table.size).toBe(model.size);
          expect(entries(table)).toEqual([...model]);
        }
      }
      expect(table.size).toBe(model.size);
      expect(entries(table)).toEqual([...model]);
      expect(table.keyBytes).toBe([...model.keys()].reduce((n, k) => n + k.length, 0));
      for (const key of pool) expect(table.get(key)).toBe(model.get(key) ?? -1);
    }
  });

  it('keeps its keys through growth, mass deletion and the rewrite of its chunks', () => {
    const next = random(9);
    // chunks of 64 KiB (the least a table takes: a key's longest), so 30,000 keys of 65 bytes fill 30
    const table = new KeyTable({ chunkBytes: 65_536 });
    const model = new Map<string, number>();
    // then most are deleted: the deleted entries pass half the table, and the entries and chunks are
    // rewritten; the survivors and new keys must read back unchanged and in order
    const keys = Array.from({ length: 30_000 }, (_, i) => keyOf(next, i, 65));
    keys.forEach((key, i) => {
      table.set(key, i);
      model.set(key, i);
    });
    expect(table.size).toBe(model.size);
    let missed = 0;
    keys.forEach((key, i) => {
      if (i % 10 !== 0) {
        if (!table.delete(key)) missed++;
        model.delete(key);
      }
    });
    expect(missed).toBe(0);
    expect(table.delete(keys[1]!)).toBe(false);
    for (let i = 0; i < 1000; i++) {
      const key = keyOf(next, i, 40);
      table.set(key, -i - 2);
      model.set(key, -i - 2);
    }
    expect(table.size).toBe(model.size);
    expect(keys.filter((key) => table.get(key) !== (model.get(key) ?? -1))).toEqual([]);
    expect(entries(table)).toEqual([...model]);
  });

  it('re-seeds its hash when keys collide, and keeps every key', () => {
    // keys made to share their first place under a known seed: the fifth probes past maxProbe 3
    const seed = 12345;
    const next = random(4);
    const colliding: string[] = [];
    while (colliding.length < 40) {
      const key = keyOf(next, 1, 33);
      if ((hashOf(key, seed) & 1023) === 7 && !colliding.includes(key)) colliding.push(key);
    }
    const table = new KeyTable({ seed, maxProbe: 3 });
    const model = new Map<string, number>();
    colliding.forEach((key, i) => {
      table.set(key, i);
      model.set(key, i);
    });
    expect(colliding.map((key) => table.get(key))).toEqual(colliding.map((_, i) => i));
    expect(entries(table)).toEqual([...model]);
    expect(table.delete(colliding[3]!)).toBe(true);
    expect(table.get(colliding[3]!)).toBe(-1);
    expect(table.get(colliding[4]!)).toBe(4);
  });

  it('refuses a key longer than its u16 length', () => {
    expect(() => new KeyTable().set('x'.repeat(0x10000), 1)).toThrow(RangeError);
  });
});
