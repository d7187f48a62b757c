// Bridge figure (issue 20, docs/bridge.md): attested deposits verified and credited per second —
// the host's Ed25519 check of every attester signature (src/chain/block-proofs.ts, as on import)
// plus the core's apply_block and commit (state root included) — against plain NTV transfers
// through the same core in the same run.
//
// Runnable alone after tsc: `node dist/bench/bridge.js` (through npm's Node 22).

import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Core, type BundleInput, type Write } from '../src/core/core.js';
import { encodeBundle, type Operation } from '../src/codec/bundle.js';
import { attest, depositDigest } from '../src/domains/bridge/proofs.js';
import { ed25519PublicKey } from '../src/codec/keys.js';
import { initHashing } from '../src/codec/hash.js';
import { blockProofProblem } from '../src/chain/block-proofs.js';
import type { BenchResult } from './rpc.js';

const CHAIN_ID = 1618032n;
const addr = (n: number) => { const a = new Uint8Array(32); a[0] = 0xaa; a[28] = n >> 24; a[29] = (n >> 16) & 0xff; a[30] = (n >> 8) & 0xff; a[31] = n & 0xff; return a; };

class MapStore {
  readonly map = new Map<string, Uint8Array>();
  get(key: Uint8Array) { return this.map.get(Buffer.from(key).toString('hex')); }
  apply(writes: Write[]) { for (const w of writes) { const k = Buffer.from(w.key).toString('hex'); if (w.value) this.map.set(k, w.value.slice()); else this.map.delete(k); } }
}

const bundle = (user: Uint8Array, op: Operation, nonce: bigint) => encodeBundle({
  userAccount: user, operations: [op], maxGas: 200_000n, maxPriorityFee: 0n, validUntil: 1_800_000_000n, nonce,
  signature: new Uint8Array(0), expiryTimestamp: undefined, senderPubkey: undefined,
});

export async function benchBridge(): Promise<BenchResult[]> {
  await initHashing();
  const perBlock = 1000;
  const blocks = 4;
  const seed = new Uint8Array(32).fill(42);
  const NTV = new Uint8Array(32);
  const store = new MapStore();
  const core = await Core.create(store);
  core.genesis({
    chainId: CHAIN_ID, timestamp: 1_700_000_000n, reservedSymbols: [],
    tokens: [{ mint: NTV, name: 'NTV', symbol: 'NTV', decimals: 9, kind: 0, creator: addr(999_999) }],
    balances: Array.from({ length: perBlock }, (_, i) => ({ account: addr(i), mint: NTV, amount: 10n ** 18n })),
    bridge: { attesters: [ed25519PublicKey(seed)], threshold: 1 },
  });
  store.apply(core.commitBlock().writes);
  let height = 0;
  const run = (bundles: Uint8Array[], verify: boolean) => {
    const t0 = performance.now();
    if (verify) for (const b of bundles) if (blockProofProblem(b, Number(CHAIN_ID))) throw new Error('a bench proof does not verify');
    height++;
    const inputs: BundleInput[] = bundles.map((bytes) => ({ bytes, auth: 0 }));
    const r = core.applyBlock({ height: BigInt(height), timestamp: 1_700_000_000n + BigInt(height), proposer: addr(500), gasPrice: 0n, chainId: CHAIN_ID, allowUnsigned: true, blockGasLimit: 10n ** 12n }, inputs);
    if (r.results.some((x) => x.status !== 0)) throw new Error(`a bench bundle failed: ${r.results.find((x) => x.status !== 0)!.status}`);
    store.apply(core.commitBlock().writes);
    return performance.now() - t0;
  };
  let depositMs = 0, transferMs = 0, nonce = 0n;
  for (let b = 0; b < blocks; b++) {
    const deposits = Array.from({ length: perBlock }, (_, i) => {
      const m = { chain: 'ethereum', txHash: `0x${b}-${i}`, contract: '0xA0b8', symbol: 'WBENCH', amount: 1000n, decimals: 6, recipient: addr(i) };
      return bundle(addr(i), { type: 'BridgeDeposit', ...m, signatures: attest(seed, depositDigest(CHAIN_ID, m)) }, nonce);
    });
    depositMs += run(deposits, true);
    nonce++;
    const transfers = Array.from({ length: perBlock }, (_, i) => bundle(addr(i), { type: 'Transfer', to: addr((i + 1) % perBlock), token: NTV, amount: 1n }, nonce));
    transferMs += run(transfers, false);
    nonce++;
  }
  const rate = (ms: number) => Math.round((blocks * perBlock) / (ms / 1000));
  return [
    { name: 'bridge.deposits_verified_credited', value: rate(depositMs), unit: 'deposits/s', note: 'attester signature checked by the host + the core applies and commits (one attester, blocks of 1,000)' },
    { name: 'bridge.transfers_same_run', value: rate(transferMs), unit: 'transfers/s', note: 'baseline: plain NTV transfers through the same core, same block size' },
    { name: 'bridge.deposit_cost_ratio', value: Math.round((depositMs / transferMs) * 10) / 10, unit: '×', note: 'a deposit\'s cost in transfers' },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchBridge()) console.log(`${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit} — ${r.note ?? ''}`);
}
