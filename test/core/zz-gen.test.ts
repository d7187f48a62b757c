import { it } from 'vitest';
import { performance } from 'node:perf_hooks';
import { Core } from '../../src/core/core.js';
import { addr } from './encode.js';
import { MapStore } from './harness.js';
it('gen', async () => {
  for (const N of [2500, 5000, 10000, 20000]) {
    const core = await Core.create(new MapStore());
    const NTV = new Uint8Array(32);
    let t = performance.now();
    core.genesis({ chainId: 1n, timestamp: 1n, tokens: [{ mint: NTV, name: 'n', symbol: 'NTV', decimals: 9, kind: 0, creator: NTV }], balances: Array.from({ length: N }, (_, i) => ({ account: addr(i), mint: NTV, amount: 10n ** 18n })), reservedSymbols: [] });
    const t1 = performance.now();
    core.exports.commit_block();
    console.log('N', N, 'genesis', (t1 - t).toFixed(1), 'commit raw', (performance.now() - t1).toFixed(1));
  }
});
