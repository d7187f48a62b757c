import { it } from 'vitest';
import { readFileSync } from 'fs';
import { performance } from 'node:perf_hooks';
import { encodeGenesisConfig } from '../../src/core/core.js';
import { encodeBundle, addr } from './encode.js';
import { MapStore } from './harness.js';
it('gen2', async () => {
  const N = 20000; const NTV = new Uint8Array(32);
  const b = encodeGenesisConfig({ chainId: 1n, timestamp: 1n, tokens: [{ mint: NTV, name: 'n', symbol: 'NTV', decimals: 9, kind: 0, creator: NTV }], balances: Array.from({ length: N }, (_, i) => ({ account: addr(i), mint: NTV, amount: 10n ** 18n })), reservedSymbols: [] });
  let t0 = performance.now(); let on = false;
  const { instance } = await WebAssembly.instantiate(readFileSync('/tmp/dbg.wasm'), { env: { kv_get: () => -1, kv_read() {}, abort() { throw new Error('abort'); }, dbg: (a: number, v: number) => { const t = performance.now(); if (on) console.log('phase', a, v, (t - t0).toFixed(1)); t0 = t; } } });
  const x: any = instance.exports; let p = x.input(b.length); new Uint8Array(x.memory.buffer, p, b.length).set(b);
  x.genesis(b.length); x.commit_block();
  const nonces = new Array(N).fill(0n); let seed = 1;
  for (let blk = 0; blk < 4; blk++) {
    const parts: number[] = [];
    const w = (v: bigint, n: number) => { for (let i = 0; i < n; i++) { parts.push(Number(v & 255n)); v >>= 8n; } };
    w(BigInt(blk + 1), 8); w(10n, 8); for (let i = 0; i < 32; i++) parts.push(9); w(10n, 8); w(1n, 8); parts.push(1); w(1n << 50n, 8); w(10000n, 4);
    for (let k = 0; k < 10000; k++) { const from = (blk * 10000 + k) % N; seed = (seed * 1103515245 + 12345) & 0x7fffffff; const bb = encodeBundle({ user: addr(from), ops: [{ kind: 'transfer', to: addr(seed % 25000), token: NTV, amount: 5n }], maxGas: 100000n, maxPriorityFee: 0n, validUntil: 100n, nonce: nonces[from]++ }); w(BigInt(bb.length), 4); parts.push(...bb); parts.push(0); for (let i = 0; i < 32; i++) parts.push(0); w(0n, 4); }
    const inp = Uint8Array.from(parts);
    p = x.input(inp.length); new Uint8Array(x.memory.buffer, p, inp.length).set(inp);
    let t = performance.now(); const st = x.apply_block(inp.length); const ta = performance.now() - t;
    on = true; t0 = performance.now(); t = t0; x.commit_block(); console.log('block', blk, 'st', st, 'apply raw', ta.toFixed(1), 'commit raw', (performance.now() - t).toFixed(1)); on = false;
  }
}, 100000);
