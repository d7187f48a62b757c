// Shared helpers of the core tests: a Map-backed host store and a standard genesis.
import { Core, type BlockContext, type GenesisConfig, type Write } from '../../src/core/core.js';
import { addr, hex } from '../../testkit/encode.js';
import type { RefCtx, RefGenesis } from '../../testkit/reference.js';

/** A genesis both the core and the bigint reference take (the reference's numbers are bigints only). */
export type TwinGenesis = GenesisConfig & RefGenesis;
/** A block context both the core and the bigint reference take. */
export type TwinCtx = BlockContext & RefCtx;

export class MapStore {
  readonly map = new Map<string, Uint8Array>();
  get(key: Uint8Array): Uint8Array | undefined {
    return this.map.get(hex(key));
  }
  apply(writes: Write[]) {
    for (const w of writes) {
      if (w.value) this.map.set(hex(w.key), w.value.slice());
      else this.map.delete(hex(w.key));
    }
  }
}

export const NTV = new Uint8Array(32);
export const TREASURY = (() => { const a = new Uint8Array(32); a[31] = 3; return a; })();
export const mintOf = (n: number) => { const m = new Uint8Array(32); m[0] = 0x11; m[31] = n; return m; };

export function genesisConfig(accounts: number, tokens = 3, amount = 10n ** 15n): TwinGenesis {
  const toks = [{ mint: NTV, name: 'Native', symbol: 'NTV', decimals: 9, kind: 0, creator: new Uint8Array(32).fill(0xff) }];
  for (let t = 1; t < tokens; t++) toks.push({ mint: mintOf(t), name: `Token ${t}`, symbol: `TK${t}`, decimals: 6, kind: 2, creator: new Uint8Array(32).fill(0xff) });
  const balances = [];
  for (let i = 0; i < accounts; i++) for (let t = 0; t < tokens; t++) balances.push({ account: addr(i), mint: t === 0 ? NTV : mintOf(t), amount: amount + BigInt(i * 7 + t) });
  return { chainId: 1618032n, timestamp: 1_700_000_000n, tokens: toks, balances, reservedSymbols: ['USDC', 'Eth'] };
}

export async function newCore(store = new MapStore(), debug = false) {
  const core = await Core.create(store, { debug });
  return { core, store };
}

/** A seeded xorshift generator, so a failing random test replays exactly from its seed. */
export function rng(seed: number) {
  let s = BigInt(seed) | 1n;
  const next = () => {
    s ^= (s << 13n) & 0xffffffffffffffffn;
    s ^= s >> 7n;
    s ^= (s << 17n) & 0xffffffffffffffffn;
    return Number(s & 0xffffffffn);
  };
  const big = (max: bigint) => {
    let v = 0n;
    for (let i = 0; i < 5; i++) v = (v << 32n) | BigInt(next());
    return max > 0n ? v % max : 0n;
  };
  return { int: (n: number) => next() % n, pick: <T>(a: readonly T[]): T => a[next() % a.length]!, chance: (p: number) => next() % 1000 < p * 1000, big };
}
