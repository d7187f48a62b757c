import { describe, it, expect } from 'vitest';
import { blake3 as hwBlake3, createBLAKE3 } from 'hash-wasm';
import { Core } from '../../src/core/core.js';
import { MapStore } from './harness.js';

describe('Blake3 in AssemblyScript', () => {
  it('matches hash-wasm on many lengths, including multi-chunk inputs', async () => {
    const core = await Core.create(new MapStore());
    const x = core.exports;
    const lengths = new Set<number>();
    for (let n = 0; n <= 200; n++) lengths.add(n);
    for (const n of [255, 256, 511, 512, 1023, 1024, 1025, 2047, 2048, 2049, 3072, 3073, 4096, 4097, 5000, 8192, 8193, 16384, 31744, 65536, 100_000, 1 << 20]) lengths.add(n);
    for (let i = 0; i < 60; i++) lengths.add(1 + ((i * 7919) % 40000));
    for (const n of lengths) {
      const data = new Uint8Array(n);
      for (let i = 0; i < n; i++) data[i] = (i * 31 + n) & 0xff;
      const p = x.input(n);
      new Uint8Array(x.memory.buffer, p, n).set(data);
      x.blake3_hash(n);
      const got = Buffer.from(new Uint8Array(x.memory.buffer, x.output_ptr(), 32)).toString('hex');
      expect(got, `length ${n}`).toBe(await hwBlake3(data));
    }
  });
  it('keyed_hash matches hash-wasm, including multi-chunk inputs', async () => {
    const x = (await Core.create(new MapStore())).exports;
    const key = new Uint8Array(32).map((_, i) => i * 7 + 1);
    const h = await createBLAKE3(256, key);
    for (const n of [0, 1, 31, 32, 48, 63, 64, 65, 127, 128, 1023, 1024, 1025, 2048, 2049, 5000, 70000]) {
      const data = new Uint8Array(n).map((_, i) => (i * 13 + n) & 0xff);
      const p = x.input(32 + n);
      new Uint8Array(x.memory.buffer, p, 32 + n).set(key);
      new Uint8Array(x.memory.buffer, p + 32, n).set(data);
      x.blake3_keyed_hash(32 + n);
      h.init();
      h.update(data);
      expect(Buffer.from(new Uint8Array(x.memory.buffer, x.output_ptr(), 32)).toString('hex'), `length ${n}`).toBe(h.digest('hex'));
    }
  });
});
