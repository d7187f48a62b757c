import { it } from 'vitest';
import { performance } from 'node:perf_hooks';
import { Core } from '../../src/core/core.js';
import { MapStore } from './harness.js';
it('b3speed', async () => {
  const core = await Core.create(new MapStore());
  const x = core.exports;
  const n = 1 << 20; x.input(n);
  for (let r = 0; r < 5; r++) { const t = performance.now(); for (let i = 0; i < 10; i++) x.blake3_hash(n); const dt = (performance.now() - t) / 10; console.log('1MiB', dt.toFixed(2), 'ms', ((dt * 1e6) / 16384).toFixed(1), 'ns/compression'); }
  for (let r = 0; r < 3; r++) { const t = performance.now(); for (let i = 0; i < 100000; i++) x.blake3_hash(65); const dt = (performance.now() - t); console.log('65B x100k', dt.toFixed(2), 'ms'); }
});
