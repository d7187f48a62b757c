// The bridge core tests' lockstep harness: the wasm core and the bigint reference
// (testkit/bridge-reference.ts through testkit/reference.ts) apply the same blocks; every block
// compares statuses, gas, fees, events and state roots.
import { expect } from 'vitest';
import { Core, type BundleInput } from '../../src/core/core.js';
import { decodeEvent } from '../../src/core/events.js';
import { Reference } from '../../testkit/reference.js';
import { encodeBundle, addr, hex, type Op, W } from '../../testkit/encode.js';
import { MapStore, NTV, type TwinGenesis } from './harness.js';

export const enc = new TextEncoder();
export const raw = (disc: number, f: (w: W) => void = () => {}): Op => { const w = new W(); f(w); return { kind: 'raw', disc, bytes: w.bytes() }; };
export const rd = (b: Uint8Array | undefined, o: number, n: number) => { let v = 0n; if (!b) return v; for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[o + i]!); return v; };
export const sys = (n: number) => { const a = new Uint8Array(32); a[31] = n; return a; };
export const GOVERNANCE = sys(9);
export const FOUNDATION = sys(3);
/** Attester "keys": the core never verifies signatures (the host does), so any 32 bytes name one. */
export const attester = (n: number) => new Uint8Array(32).fill(0xa0 + n);
/** A proof's signature list: each signer's key and 64 filler bytes standing in for its signature. */
export const sigs = (...signers: Uint8Array[]) => { const b = new Uint8Array(signers.length * 96); signers.forEach((s, i) => { b.set(s, i * 96); b.fill(0x5a, i * 96 + 32, i * 96 + 96); }); return b; };

export interface Deposit { chain: string; tx: string; contract: string; symbol: string; amount: bigint; decimals: number; recipient: Uint8Array; signers: Uint8Array[] }
export const depositOp = (d: Deposit) => raw(26, (w) => {
  w.str(d.chain); w.str(d.tx); w.str(d.contract); w.str(d.symbol); w.u128(d.amount); w.u8(d.decimals); w.raw(d.recipient); w.vec(sigs(...d.signers));
});
export const withdrawOp = (token: Uint8Array, amount: bigint, chain: string, dest: string) => raw(71, (w) => { w.raw(token); w.u128(amount); w.str(chain); w.str(dest); });
export const mappingOp = (chain: string, contract: string, mint: Uint8Array) => raw(72, (w) => { w.str(chain); w.str(contract); w.raw(mint); });
export const attestersOp = (keys: Uint8Array[], threshold: number) => raw(73, (w) => { w.vec(Uint8Array.from(keys.flatMap((k) => [...k]))); w.u8(threshold); });
export const claimOp = (chain: string, tx: string) => raw(74, (w) => { w.str(chain); w.str(tx); });
export const attestWithdrawalOp = (seq: bigint, chain: string, dest: string, token: Uint8Array, amount: bigint, signers: Uint8Array[]) =>
  raw(75, (w) => { w.u64(seq); w.str(chain); w.str(dest); w.raw(token); w.u128(amount); w.vec(sigs(...signers)); });

export const safetyOp = (chain: string, contract: string, level: number) => raw(76, (w) => { w.str(chain); w.str(contract); w.u8(level); });

/** The genesis of the bridge tests: NTV, two STD-8 coins with origins (USDC on ethereum and solana), reserved symbols, three attesters (threshold 2). */
export function bridgeGenesis(ref: Reference, accounts: number): TwinGenesis {
  const usdc = ref.blake3(enc.encode('ethereum_USDC'));
  const eurc = ref.blake3(enc.encode('ethereum_EURC'));
  const creator = new Uint8Array(32).fill(0xff);
  return {
    chainId: 1618032n, timestamp: 1_700_000_000n, reservedSymbols: ['USDP', 'TUSD'],
    tokens: [
      { mint: NTV, name: 'Native', symbol: 'NTV', decimals: 9, kind: 0, creator },
      { mint: usdc, name: 'USD Coin', symbol: 'USDC', decimals: 6, kind: 2, creator, originChain: 'ethereum', originContract: '0xA0b8' },
      { mint: eurc, name: 'Euro Coin', symbol: 'EURC', decimals: 6, kind: 2, creator, originChain: 'ethereum', originContract: '0x1aBa' },
    ],
    balances: Array.from({ length: accounts }, (_, i) => ({ account: addr(i), mint: NTV, amount: 10n ** 15n })),
    stablecoins: [
      { mint: usdc, currency: 'USD', issuer: 'Circle', origins: [{ chain: 'ethereum', contract: '0xA0b8' }, { chain: 'solana', contract: 'EPjF' }] },
      { mint: eurc, currency: 'EUR', issuer: 'Circle', origins: [{ chain: 'ethereum', contract: '0x1aBa' }] },
    ],
    bridge: { attesters: [attester(1), attester(2), attester(3)], threshold: 2 },
  };
}

export class Lockstep {
  height = 0;
  ts = 1_700_000_000n;
  private nonces = new Map<string, bigint>();
  private constructor(readonly core: Core, readonly ref: Reference, readonly store: MapStore) {}

  static async create(genesis: (ref: Reference) => TwinGenesis): Promise<Lockstep> {
    const store = new MapStore();
    const core = await Core.create(store);
    const ref = await Reference.create();
    const g = genesis(ref);
    core.genesis(g);
    expect(ref.genesis(g)).toBe(0);
    const c = core.commitBlock();
    expect(hex(c.stateRoot)).toBe(hex(ref.commitBlock().stateRoot));
    store.apply(c.writes);
    return new Lockstep(core, ref, store);
  }

  bundle(user: Uint8Array, ops: Op[], maxGas = 1_000_000n): BundleInput {
    const key = hex(user);
    const nonce = this.nonces.get(key) ?? rd(this.ref.get(Uint8Array.from([1, ...user])), 0, 8);
    this.nonces.set(key, nonce + 1n);
    return { bytes: encodeBundle({ user, ops, nonce, maxGas, maxPriorityFee: 0n, validUntil: this.ts + 600n }), auth: 0 };
  }

  /** Apply one block on both; the statuses. */
  block(bundles: BundleInput[], gasPrice = 0n): number[] {
    this.height++;
    this.ts += 2n;
    this.nonces.clear();
    const ctx = { height: BigInt(this.height), timestamp: this.ts, proposer: addr(500), gasPrice, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 50_000_000n };
    const got = this.core.applyBlock(ctx, bundles);
    const want = this.ref.applyBlock(ctx, bundles);
    for (let i = 0; i < bundles.length; i++) expect({ block: this.height, i, ...got.results[i]! }).toEqual({ block: this.height, i, ...want.results[i]! });
    expect(got.gasUsed).toBe(want.gasUsed);
    expect(got.fees).toBe(want.fees);
    expect(got.events).toEqual(want.events.map((e) => decodeEvent(e.bundleIndex, e.opIndex, e.kind, e.data)));
    const c = this.core.commitBlock();
    expect(hex(c.stateRoot)).toBe(hex(this.ref.commitBlock().stateRoot));
    this.store.apply(c.writes);
    return got.results.map((r) => r.status);
  }

  /** One bundle of one operation in its own block: its status. */
  one(user: Uint8Array, op: Op): number {
    return this.block([this.bundle(user, [op])])[0]!;
  }

  balance(a: Uint8Array, mint: Uint8Array): bigint {
    return rd(this.ref.get(Uint8Array.from([2, ...a, ...mint])), 0, 16);
  }
  /** TokenRecord.total_supply. */
  supply(mint: Uint8Array): bigint {
    const v = this.ref.get(Uint8Array.from([3, ...mint]));
    if (!v) return -1n;
    const nl = Number(rd(v, 1, 4));
    const sl = Number(rd(v, 5 + nl, 4));
    return rd(v, 5 + nl + 4 + sl + 1, 16);
  }
  /** BridgedToken { deposited, withdrawn } (0x4B). */
  bridged(mint: Uint8Array): { flags: number; deposited: bigint; withdrawn: bigint } | undefined {
    const v = this.ref.get(Uint8Array.from([0x4b, ...mint]));
    return v ? { flags: v[1]!, deposited: rd(v, 2, 16), withdrawn: rd(v, 18, 16) } : undefined;
  }
  tokenSymbol(mint: Uint8Array): string | undefined {
    const v = this.ref.get(Uint8Array.from([3, ...mint]));
    if (!v) return undefined;
    const nl = Number(rd(v, 1, 4));
    const sl = Number(rd(v, 5 + nl, 4));
    return new TextDecoder().decode(v.subarray(9 + nl, 9 + nl + sl));
  }
}
