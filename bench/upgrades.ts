// Upgrade governance (docs/upgrades.md): what a full-mode VoteUpgrade costs in the core. Each vote
// re-tallies the active set (≤ 100 validators, one validator and one vote record each), so this is
// its worst case: 100 active validators voting on one plan, one vote per bundle, timed per block of
// 60 votes against a block of 60 plain transfers of the same senders (the baseline, same run).
import { performance } from 'node:perf_hooks';
import { Core, type BlockContext, type BundleInput, type GenesisConfig, type Write } from '../src/core/core.js';
import { DEFAULT_CHAIN_PARAMS, encodeChainParams } from '../src/chain/chain-params.js';
import { encodeUpgradeConfig, governanceFromFlags } from '../src/domains/upgrades/reader.js';
import { encodeBundle } from '../testkit/encode.js';
import type { CoreBenchResult } from './core.js';

const NTV = new Uint8Array(32);
const VALIDATORS = 100;
const VOTES = 60;
const account = (i: number) => { const a = new Uint8Array(32); a[0] = 0xa0; a[30] = i >> 8; a[31] = i & 0xff; return a; };
const key = (i: number) => { const k = new Uint8Array(32).fill(0x5c); k[30] = i >> 8; k[31] = i & 0xff; return k; };
const FUNDER = account(999);

class MapStore {
  readonly map = new Map<string, Uint8Array>();
  get(k: Uint8Array) { return this.map.get(Buffer.from(k).toString('hex')); }
  apply(ws: Write[]) { for (const w of ws) if (w.value) this.map.set(Buffer.from(w.key).toString('hex'), w.value.slice()); else this.map.delete(Buffer.from(w.key).toString('hex')); }
}

const str = (s: string) => { const b = Buffer.from(s); const out = new Uint8Array(4 + b.length); new DataView(out.buffer).setUint32(0, b.length, true); out.set(b, 4); return out; };
const u64 = (v: bigint) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, v, true); return b; };
const cat = (...p: Uint8Array[]) => { const o = new Uint8Array(p.reduce((n, x) => n + x.length, 0)); let i = 0; for (const x of p) { o.set(x, i); i += x.length; } return o; };

async function setup(): Promise<{ core: Core; store: MapStore }> {
  const store = new MapStore();
  const core = await Core.create(store);
  const cfg: GenesisConfig = {
    chainId: 1618032n, timestamp: 1_700_000_000n, reservedSymbols: [],
    tokens: [{ mint: NTV, name: 'Native', symbol: 'NTV', decimals: 9, kind: 0, creator: new Uint8Array(32).fill(0xff) }],
    balances: [{ account: FUNDER, mint: NTV, amount: 10n ** 18n }, ...Array.from({ length: VALIDATORS }, (_, i) => ({ account: account(i), mint: NTV, amount: 10n ** 12n }))],
    chainParams: encodeChainParams({ ...DEFAULT_CHAIN_PARAMS, maxActiveValidators: VALIDATORS, epochLength: 1_000_000 }),
    validators: Array.from({ length: VALIDATORS }, (_, i) => ({ consensusKey: key(i), account: account(i), stake: 1000n * 10n ** 9n + BigInt(i), source: FUNDER })),
    upgradeConfig: encodeUpgradeConfig(governanceFromFlags({ mode: 'full', quorumPercent: 100 })),
  };
  core.genesis(cfg);
  store.apply(core.commitBlock().writes);
  return { core, store };
}

const ctx = (height: bigint): BlockContext => ({ height, timestamp: 1_700_000_000n + height, proposer: account(0), gasPrice: 0n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 1n << 40n });
const bundle = (user: Uint8Array, nonce: bigint, disc: number, bytes: Uint8Array): BundleInput => ({
  bytes: encodeBundle({ user, ops: [{ kind: 'raw', disc, bytes }], nonce, maxGas: 1_000_000n, maxPriorityFee: 0n, validUntil: 1n << 40n }), auth: 0,
});

export async function benchUpgrades(): Promise<CoreBenchResult[]> {
  const rounds = 20;
  let voteMs = 0;
  let transferMs = 0;
  for (let r = 0; r < rounds; r++) {
    const { core } = await setup();
    // block 1: validator 0 proposes (quorum 100%: the plan stays pending through 60 votes)
    core.applyBlock(ctx(1n), [bundle(account(0), 0n, 15, cat(str(`v${r}`), u64(1_000n), str(''), new Uint8Array(32).fill(0xab), str('')))]);
    core.commitBlock();
    const votes = Array.from({ length: VOTES }, (_, i) => bundle(account(i + 1), 0n, 17, cat(str(`v${r}`), Uint8Array.of(1))));
    const transfers = Array.from({ length: VOTES }, (_, i) => bundle(account(i + 1), 1n, 0, cat(account(500), NTV, new Uint8Array(16).fill(0).map((_, j) => (j === 0 ? 1 : 0)))));
    let t = performance.now();
    const v = core.applyBlock(ctx(2n), votes);
    voteMs += performance.now() - t;
    if (v.results.some((x) => x.status !== 0)) throw new Error('bench: a vote failed');
    core.commitBlock();
    t = performance.now();
    const x = core.applyBlock(ctx(3n), transfers);
    transferMs += performance.now() - t;
    if (x.results.some((y) => y.status !== 0)) throw new Error('bench: a transfer failed');
    core.commitBlock();
  }
  const perVote = (voteMs / rounds / VOTES) * 1000;
  const perTransfer = (transferMs / rounds / VOTES) * 1000;
  return [
    { name: `upgrades: full-mode VoteUpgrade, ${VALIDATORS}-validator tally, apply_block per vote`, value: Math.round(perVote * 10) / 10, unit: 'µs', note: `${VOTES} votes a block, ${rounds} blocks` },
    { name: 'upgrades: VoteUpgrade / Transfer, per bundle', value: Math.round((perVote / perTransfer) * 10) / 10, unit: '×', note: `Transfer: ${Math.round(perTransfer * 10) / 10} µs, same senders, same run` },
  ];
}
