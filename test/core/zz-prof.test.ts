import { it } from 'vitest';
import { performance } from 'node:perf_hooks';
import { Core } from '../../src/core/core.js';
import { encodeBundle, addr } from './encode.js';
import { MapStore } from './harness.js';
it('prof', async () => {
  const store = new MapStore();
  const core = await Core.create(store);
  const N = 20000;
  const NTV = new Uint8Array(32);
  core.genesis({ chainId: 1n, timestamp: 1n, tokens: [{ mint: NTV, name: 'n', symbol: 'NTV', decimals: 9, kind: 0, creator: NTV }], balances: Array.from({ length: N }, (_, i) => ({ account: addr(i), mint: NTV, amount: 10n ** 18n })), reservedSymbols: [] });
  let t = performance.now();

  let c = core.commitBlock(); console.log('genesis commit', performance.now() - t, c.writes.length);
  store.apply(c.writes);
  const nonces = new Array(N).fill(0n);
  const ctx = (h: number) => ({ height: BigInt(h), timestamp: 10n, proposer: addr(999999), gasPrice: 10n, chainId: 1n, allowUnsigned: true, blockGasLimit: 1n << 50n });
  let seed = 1;
  for (let b = 0; b < 8; b++) {
    const bundles = [];
    for (let k = 0; k < 10000; k++) { const from = (b * 10000 + k) % N; seed = (seed * 1103515245 + 12345) & 0x7fffffff; bundles.push({ bytes: encodeBundle({ user: addr(from), ops: [{ kind: 'transfer', to: addr(seed % 25000), token: NTV, amount: 5n }], maxGas: 100000n, maxPriorityFee: 0n, validUntil: 100n, nonce: nonces[from]++ }), auth: 0 }); }
    const x = core.exports;
    t = performance.now();
    const r = core.applyBlock(ctx(b + 1), bundles);
    const t1 = performance.now();
    const cc = core.commitBlock();
    const t2 = performance.now();
    const outLen = x.output_len();
    const t3 = performance.now();
    const ptr = x.input(1); // probe raw apply cost on a reverted copy
    console.log(`apply(api) ${(t1 - t).toFixed(1)} commit(api) ${(t2 - t1).toFixed(1)} out ${outLen} writes ${cc.writes.length} ok ${r.results.filter(r => r.status === 0).length}`);
  }
  // raw apply timing
}, 600000);
