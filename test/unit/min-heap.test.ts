import { describe, expect, it } from 'vitest';
import { MinHeap } from '../../src/chain/min-heap.js';

// The mempool's price and expiry orders (src/chain/mempool.ts) against a sorted list: random pushes,
// pops, deaths (lazy deletion) and compactions, with ties, must give the same order.

let seed = 5;
const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) >>> 7) % n;

interface Item { key: number; id: number; dead: boolean }

describe('MinHeap against a sorted list', () => {
  it('random pushes, pops, lazy deletions and compactions', () => {
    const heap = new MinHeap<Item>((a, b) => a.key < b.key || (a.key === b.key && a.id < b.id), (item) => !item.dead);
    let model: Item[] = [];
    let popped = 0;
    for (let step = 0, id = 0; step < 20_000; step++) {
      const r = rand(10);
      if (r < 5) {
        const item = { key: rand(50), id: id++, dead: false };
        heap.push(item);
        model.push(item);
      } else if (r < 8) {
        model.sort((a, b) => a.key - b.key || a.id - b.id);
        const expected = model.shift();
        expect(heap.pop()).toBe(expected);
        if (expected) popped++;
      } else if (r < 9 && model.length > 0) {
        const victim = model.splice(rand(model.length), 1)[0]!;
        victim.dead = true;
      } else {
        heap.compact();
        expect(heap.length).toBe(model.length);
      }
      model = model.filter((item) => !item.dead);
    }
    expect(popped).toBeGreaterThan(1000);
    model.sort((a, b) => a.key - b.key || a.id - b.id);
    for (const expected of model) expect(heap.pop()).toBe(expected);
    expect(heap.pop()).toBeUndefined();
  });
});
