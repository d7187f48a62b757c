// Helpers of the staking core tests: a genesis with chain parameters and validators, encoders of the
// staking operations (docs/bundle-format.md discriminants 4–14, 36, 119), block helpers and readers.
import { Core, type BlockContext, type BundleInput } from '../../src/core/core.js';
import type { CoreEvent } from '../../src/core/events.js';
import { balanceKey, decodeBalance } from '../../src/core/records.js';
import { DEFAULT_CHAIN_PARAMS, encodeChainParams, type ChainParams } from '../../src/chain/chain-params.js';
import { readDelegation, readStakingState, readUnbonding, readValidator } from '../../src/chain/validator-set.js';
import { encodeBundle, addr, W, type Op } from '../../testkit/encode.js';
import { MapStore, NTV, genesisConfig } from './harness.js';

export const T0 = 1_700_000_000n;
export const UNIT = 10n ** 9n;
export const key = (n: number) => { const k = new Uint8Array(32).fill(0x5c); k[31] = n; return k; };

export const ops = {
  stake: (amount: bigint, k: Uint8Array): Op => { const w = new W(); w.u128(amount); w.raw(k); return { kind: 'raw', disc: 4, bytes: w.bytes() }; },
  unstake: (amount: bigint): Op => { const w = new W(); w.u128(amount); return { kind: 'raw', disc: 5, bytes: w.bytes() }; },
  claimUnstake: (): Op => ({ kind: 'raw', disc: 6 }),
  delegate: (v: Uint8Array, amount: bigint): Op => { const w = new W(); w.raw(v); w.u128(amount); return { kind: 'raw', disc: 7, bytes: w.bytes() }; },
  undelegate: (v: Uint8Array, amount: bigint): Op => { const w = new W(); w.raw(v); w.u128(amount); return { kind: 'raw', disc: 8, bytes: w.bytes() }; },
  claimRewards: (): Op => ({ kind: 'raw', disc: 9 }),
  setCommission: (bps: number): Op => ({ kind: 'raw', disc: 10, bytes: Uint8Array.of(bps & 0xff, bps >> 8) }),
  unjail: (): Op => ({ kind: 'raw', disc: 11 }),
  setAutoCompound: (v: Uint8Array, on: boolean): Op => { const w = new W(); w.raw(v); w.u8(on ? 1 : 0); return { kind: 'raw', disc: 12, bytes: w.bytes() }; },
  setPoolConfig: (on: boolean, name: string, min: bigint, acd: boolean): Op => {
    const w = new W(); w.u8(on ? 1 : 0); w.str(name); w.u128(min); w.u8(acd ? 1 : 0); return { kind: 'raw', disc: 13, bytes: w.bytes() };
  },
  setMetadata: (name: string, description: string, website: string, avatar: string): Op => {
    const w = new W(); w.str(name); w.str(description); w.str(website); w.str(avatar); return { kind: 'raw', disc: 14, bytes: w.bytes() };
  },
  reportDoubleSign: (k: Uint8Array, height: bigint, a: Uint8Array, b: Uint8Array): Op => {
    const w = new W(); w.raw(k); w.u64(height); w.vec(a); w.raw(new Uint8Array(64)); w.vec(b); w.raw(new Uint8Array(64));
    return { kind: 'raw', disc: 36, bytes: w.bytes() };
  },
  rotate: (k: Uint8Array): Op => ({ kind: 'raw', disc: 119, bytes: k }),
};

/** A 212-byte header (src/chain/block.ts headerSigningBytes layout) of `pubkey` at `height`. */
export function header(pubkey: Uint8Array, height: bigint, variant: number): Uint8Array {
  const h = new Uint8Array(212);
  const dv = new DataView(h.buffer);
  dv.setBigUint64(0, 1618032n, true);
  dv.setBigUint64(8, height, true);
  dv.setBigUint64(48, T0 + BigInt(variant), true);
  h.set(pubkey, 88);
  return h;
}

/** Valid double-sign evidence against `k`: two different headers it signed at `height`. */
export const doubleSign = (k: Uint8Array, height: bigint): Op => ops.reportDoubleSign(k, height, header(k, height, 1), header(k, height, 2));

export interface Setup {
  core: Core;
  store: MapStore;
  nonces: Map<string, bigint>;
  height: bigint;
  ts: bigint;
  /** the events of the last block `block` applied */
  events?: CoreEvent[];
}

/** Genesis with 10 funded accounts (1M NTV each), parameters, and validators (account addr(i), key(i)). */
export async function setup(params: Partial<ChainParams> = {}, validators: number[] = [0], stake = 1000n * UNIT): Promise<Setup> {
  const store = new MapStore();
  const core = await Core.create(store);
  const cfg = genesisConfig(10);
  cfg.chainParams = encodeChainParams({ ...DEFAULT_CHAIN_PARAMS, ...params });
  cfg.validators = validators.map((i) => ({ consensusKey: key(i), account: addr(i), stake, source: addr(9) }));
  core.genesis(cfg);
  store.apply(core.commitBlock().writes);
  return { core, store, nonces: new Map(), height: 0n, ts: T0 };
}

let built = 0n;
/** Each bundle is built anew with a distinct valid_until, as a wallet re-signs a retry: the same
 *  bytes that failed once are not included again (docs/core-abi.md "Failed bundles: fee and replay"). */
export function bundleOf(s: Setup, user: Uint8Array, opsList: Op[]): BundleInput {
  const k = Buffer.from(user).toString('hex');
  const nonce = s.nonces.get(k) ?? 0n;
  return { bytes: encodeBundle({ user, ops: opsList, nonce, maxGas: 1_000_000n, maxPriorityFee: 0n, validUntil: (1n << 62n) + built++ }), auth: 0 };
}

/** Apply and commit one block; nonces advance for OK bundles. Returns the statuses. */
export function block(s: Setup, bundles: Array<[Uint8Array, Op[]]>, over: Partial<BlockContext> & { dt?: bigint } = {}): number[] {
  s.height += 1n;
  s.ts += over.dt ?? 2n;
  const inputs = bundles.map(([u, o]) => bundleOf(s, u, o));
  const ctx: BlockContext = {
    height: s.height, timestamp: s.ts, proposer: addr(0), gasPrice: 0n, chainId: 1618032n, allowUnsigned: true,
    blockGasLimit: 10_000_000n, ...over,
  };
  if (over.height !== undefined) s.height = BigInt(over.height);
  if (over.timestamp !== undefined) s.ts = BigInt(over.timestamp);
  const r = s.core.applyBlock(ctx, inputs);
  s.events = r.events;
  s.store.apply(s.core.commitBlock().writes);
  r.results.forEach((res, i) => {
    if (res.status === 0) {
      const k = Buffer.from(bundles[i]![0]).toString('hex');
      s.nonces.set(k, (s.nonces.get(k) ?? 0n) + 1n);
    }
  });
  return r.results.map((x) => x.status);
}

/** Empty blocks up to and including `height`. */
export function runTo(s: Setup, height: bigint): void {
  while (s.height < height) block(s, []);
}

/** Apply one operation bundle in its own block; its status. */
export const one = (s: Setup, user: Uint8Array, op: Op, over: Partial<BlockContext> & { dt?: bigint } = {}) => block(s, [[user, [op]]], over)[0]!;

export const ntv = (s: Setup, a: Uint8Array) => { const v = s.store.get(balanceKey(a, NTV)); return v ? decodeBalance(v) : 0n; };
export const validator = (s: Setup, a: Uint8Array) => readValidator(s.store, a)!;
export const delegation = (s: Setup, v: Uint8Array, d: Uint8Array) => readDelegation(s.store, v, d);
export const unbonding = (s: Setup, a: Uint8Array) => readUnbonding(s.store, a);
export const stakingState = (s: Setup) => readStakingState(s.store);
