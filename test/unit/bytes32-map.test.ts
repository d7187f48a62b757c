import { describe, expect, it } from 'vitest';
import { Bytes32Map } from '../../src/codec/bytes32-map.js';

describe('Bytes32Map', () => {
  it('tells apart keys that hash alike (same first and last words), and copies the keys it keeps', () => {
    const map = new Bytes32Map<string>();
    const a = new Uint8Array(32).fill(7);
    const b = a.slice();
    b[15] = 8; // same hash as `a`: only the middle differs
    map.set(a, 'a');
    map.set(b, 'b');
    expect([map.get(a), map.get(b), map.size]).toEqual(['a', 'b', 2]);
    a[0] = 9; // the map kept its own copy of the key
    expect(map.get(new Uint8Array(32).fill(7))).toBe('a');
    expect(map.get(a)).toBeUndefined();
    map.set(b, 'b2');
    expect([map.get(b), map.size]).toEqual(['b2', 2]);
    expect(map.delete(b)).toBe(true);
    expect(map.delete(b)).toBe(false);
    expect([map.get(b), map.get(new Uint8Array(32).fill(7)), map.size, [...map.values()]]).toEqual([undefined, 'a', 1, ['a']]);
    map.clear();
    expect(map.size).toBe(0);
    expect(() => map.get(new Uint8Array(31))).toThrow(RangeError);
  });
});

describe('Bytes32Map at an offset', () => {
  it('finds and sets the 32 bytes at an offset without a view, equal to the plain key', () => {
    const map = new Bytes32Map<number>();
    const buffer = new Uint8Array(100);
    buffer.fill(3, 10, 42);
    map.setAt(buffer, 10, 1);
    expect(map.get(new Uint8Array(32).fill(3))).toBe(1);
    expect(map.getAt(buffer, 10)).toBe(1);
    expect(map.getAt(buffer, 11)).toBeUndefined();
    buffer.fill(0); // the key was copied
    expect(map.get(new Uint8Array(32).fill(3))).toBe(1);
    expect(() => map.get(new Uint8Array(31))).toThrow(RangeError);
  });
});

describe('Bytes32Map against a Map of hex keys', () => {
  it('agrees over random sets, deletes and clears, with keys that share their first and last words', () => {
    // A small xorshift: the same sequence every run.
    let seed = 0x2545f491;
    const next = () => ((seed ^= seed << 13), (seed ^= seed >>> 17), (seed ^= seed << 5), seed >>> 0);
    const pool = Array.from({ length: 300 }, (_, i) => {
      const key = new Uint8Array(32);
      if (i % 3 === 0) key[15] = i; // same first and last words as every other such key: one probe run
      else for (let b = 0; b < 32; b++) key[b] = next() & 0xff;
      key[14] = i >> 8;
      return key;
    });
    const hex = (k: Uint8Array) => Buffer.from(k).toString('hex');
    const map = new Bytes32Map<number>();
    const reference = new Map<string, number>();
    for (let step = 0; step < 20_000; step++) {
      const key = pool[next() % pool.length]!;
      const op = next() % 10;
      if (op < 5) {
        map.set(key, step);
        reference.set(hex(key), step);
      } else if (op < 9) {
        expect(map.delete(key)).toBe(reference.delete(hex(key)));
      } else if (step % 1000 === 999) {
        map.clear();
        reference.clear();
      }
      if (step % 97 === 0) {
        expect(map.size).toBe(reference.size);
        for (const k of pool) expect(map.get(k)).toBe(reference.get(hex(k)));
        expect([...map.values()].sort((a, b) => a - b)).toEqual([...reference.values()].sort((a, b) => a - b));
      }
    }
  });
});
