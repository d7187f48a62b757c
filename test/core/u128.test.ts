import { describe, it, expect } from 'vitest';
import { Core } from '../../src/core/core.js';
import { MapStore } from './harness.js';

const M64 = (1n << 64n) - 1n;
const M128 = (1n << 128n) - 1n;

describe('u128 checked math (two u64 limbs)', () => {
  it('add, sub, mul64, mul128x64 and divSmall match bigint at the edges', async () => {
    const x = (await Core.create(new MapStore())).exports;
    const call = (op: number, a: bigint, b: bigint, c: bigint) => {
      const p = x.input(40);
      const dv = new DataView(x.memory.buffer);
      dv.setBigUint64(p, a & M64, true);
      dv.setBigUint64(p + 8, a >> 64n, true);
      dv.setBigUint64(p + 16, b & M64, true);
      dv.setBigUint64(p + 24, b >> 64n, true);
      dv.setBigUint64(p + 32, c, true);
      x.u128_op(op);
      const o = x.output_ptr();
      const ov = new DataView(x.memory.buffer);
      return { flag: ov.getUint8(o) === 1, v: ov.getBigUint64(o + 1, true) | (ov.getBigUint64(o + 9, true) << 64n), rem: ov.getBigUint64(o + 17, true) };
    };
    const edges = [0n, 1n, 2n, 5n, 100n, M64 - 1n, M64, M64 + 1n, 1n << 127n, (1n << 127n) - 1n, M128 - 1n, M128, 0xdeadbeefcafebaben * 0x1234567n];
    let seed = 12345n;
    const rnd = () => { seed = (seed * 6364136223846793005n + 1442695040888963407n) & M128; return seed; };
    for (let i = 0; i < 300; i++) edges.push(rnd() >> BigInt(i % 128));
    const small = [1n, 2n, 3n, 5n, 7n, 10n, 100n, 0xffffffffn];
    for (const a of edges) {
      for (const b of edges.slice(0, 40)) {
        const add = call(0, a, b, 0n);
        expect(add.flag).toBe(a + b > M128);
        expect(add.v).toBe((a + b) & M128);
        const sub = call(1, a, b, 0n);
        expect(sub.flag).toBe(b > a);
        expect(sub.v).toBe((a - b) & M128);
        const c = b & M64;
        const m = call(2, a & M64, 0n, c);
        expect(m.v).toBe((a & M64) * c);
        const m2 = call(3, a, 0n, c);
        expect(m2.flag).toBe(a * c > M128);
        if (!m2.flag) expect(m2.v).toBe(a * c);
      }
      for (const d of small) {
        const q = call(4, a, 0n, d);
        expect(q.v).toBe(a / d);
        expect(q.rem).toBe(a % d);
      }
    }
  });
});
