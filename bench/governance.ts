// Protocol proposals in the core (docs/governance.md): a block of VoteProposal bundles, each voter a
// delegator whose weight the core sums from its delegations, against a block of transfers from the
// same accounts in the same run (STYLE.md: a ratio against a baseline measured in the same process).
//
// Importable (bench/index.ts) and runnable alone after tsc: `node dist/bench/governance.js`.

import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { Core, type BlockContext, type BundleInput, type Write } from '../src/core/core.js';
import { encodeBundle, type Operation } from '../src/codec/bundle.js';
import { encodeChainParams, DEFAULT_CHAIN_PARAMS } from '../src/chain/chain-params.js';
import type { BenchResult } from './rpc.js';

class MapStore {
  readonly map = new Map<string, Uint8Array>();
  get(key: Uint8Array): Uint8Array | undefined {
    return this.map.get(Buffer.from(key).toString('hex'));
  }
  apply(writes: Array<{ key: Uint8Array; value: Uint8Array | null }>): void {
    for (const w of writes) {
      const k = Buffer.from(w.key).toString('hex');
      if (w.value) this.map.set(k, w.value);
      else this.map.delete(k);
    }
  }
}

const NTV = new Uint8Array(32);
const addr = (i: number) => new Uint8Array(createHash('sha256').update(`gov-bench-${i}`).digest());
const ctx = (height: number): BlockContext => ({
  height: BigInt(height), timestamp: 1_767_225_600n + BigInt(height * 2), proposer: addr(1_000_000), gasPrice: 0n, chainId: 1618032n,
  allowUnsigned: true, blockGasLimit: 1n << 40n,
});
const bundle = (user: Uint8Array, nonce: bigint, op: Operation): BundleInput => ({
  bytes: encodeBundle({ userAccount: user, operations: [op], maxGas: 1_000_000n, maxPriorityFee: 0n, validUntil: 1n << 40n, nonce, signature: new Uint8Array(0) }),
  auth: 0,
});

export async function benchGovernance(voters = 10_000): Promise<BenchResult[]> {
  const store = new MapStore();
  const core = await Core.create(store);
  const validator = addr(0);
  core.genesis({
    chainId: 1618032n, timestamp: 1_767_225_600n, reservedSymbols: [],
    tokens: [{ mint: NTV, name: 'Native', symbol: 'NTV', decimals: 9, kind: 0, creator: new Uint8Array(32).fill(0xff) }],
    balances: Array.from({ length: voters + 1 }, (_, i) => ({ account: addr(i), mint: NTV, amount: 10n ** 18n })),
    chainParams: encodeChainParams({ ...DEFAULT_CHAIN_PARAMS, votingPeriodBlocks: 100 }),
    validators: [{ consensusKey: new Uint8Array(32).fill(5), account: validator, stake: 10n ** 15n, source: addr(0) }],
  });
  store.apply(core.commitBlock().writes);
  // Delegators: one block of Delegate bundles (the real staking path writes their records).
  const delegate = core.applyBlock(ctx(1), Array.from({ length: voters }, (_, i) => bundle(addr(i + 1), 0n, { type: 'Delegate', validator, amount: 10n ** 12n })));
  if (delegate.results.some((r) => r.status !== 0)) throw new Error('bench: a delegation failed');
  store.apply(core.commitBlock().writes);
  const create = core.applyBlock(ctx(2), [bundle(validator, 0n, { type: 'CreateProposal', title: 'Bench', description: '', action: { kind: 'Text' } })]);
  if (create.results[0]!.status !== 0) throw new Error('bench: the proposal failed');
  store.apply(core.commitBlock().writes);

  const votes = Array.from({ length: voters }, (_, i) => bundle(addr(i + 1), 1n, { type: 'VoteProposal', proposalId: 1n, approve: i % 3 !== 0 }));
  const transfers = Array.from({ length: voters }, (_, i) => bundle(addr(i + 1), 1n, { type: 'Transfer', to: addr(i + 2), token: NTV, amount: 1n }));
  // Both blocks on a fresh core over the same committed state (both read it cold through kv_get).
  const time = async (blockInputs: BundleInput[]): Promise<number> => {
    const c = await Core.create(store);
    const t0 = performance.now();
    const r = c.applyBlock(ctx(3), blockInputs);
    const writes: Write[] = c.commitBlock().writes;
    const ms = performance.now() - t0;
    if (r.results.some((x) => x.status !== 0) || writes.length === 0) throw new Error('bench: a bundle failed');
    return ms;
  };
  const transferMs = await time(transfers);
  const voteMs = await time(votes);
  return [
    { name: `core: VoteProposal bundles/s (a block of ${voters.toLocaleString('en-US')} delegators' votes, applied + committed)`, value: Math.round(voters / (voteMs / 1000)), unit: 'votes/s' },
    { name: 'core: a vote block against a transfer block of the same senders', value: Number((voteMs / transferMs).toFixed(2)), unit: '× the time', note: `${voteMs.toFixed(1)} ms vs ${transferMs.toFixed(1)} ms` },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchGovernance(), null, 2));
}
