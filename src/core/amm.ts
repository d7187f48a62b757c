// The host's side of the DEX core (docs/dex.md): pool/LP/metadata state keys and record decoders,
// the pool address, and typed wrappers of the core's `amm_math` export — the same functions the
// core executes swaps with, so svc_quoteSwap and svc_getPrice can never disagree with execution
// (DESIGN.md).

import { blake3 } from '../codec/hash.js';
import { decodePrefixed, encodePrefixed } from '../codec/address.js';
import { compileCore, instantiateCore, type CoreExports } from './loader.js';
import { Prefix } from '../abi/constants.js';
import { poolKey, lpKey, tokenMetadataKey, decodePoolFields, decodeTokenMetadataFields, type PoolFields } from '../abi/state.js';

/** The DEX prefixes of the generated table (abi/state.mjs; docs/dex.md "State layout"). */
export const DexPrefix = { POOL: Prefix.POOL, LP: Prefix.LP, TOKEN_METADATA: Prefix.TOKEN_METADATA } as const;

/** 100 NTV (9 decimals) per pool, to the treasury 0x00…03 (facts.md "DEX"). */
export const POOL_CREATION_FEE = 100_000_000_000n;
/** Uniswap v2 MINIMUM_LIQUIDITY, locked forever at the first mint. */
export const MINIMUM_LIQUIDITY = 1000n;
/** Longest LP lock: 10 years of 365 days. */
export const MAX_LOCK_SECONDS = 315_360_000n;
export const POOL_PREFIX = 'Nx8';
const POOL_DOMAIN = new TextEncoder().encode('ntv.amm-pool.v1');

function cmp(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < 32; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** The pair sorted bytewise (token0 < token1), as the core keys pools. */
export function sortPair(a: Uint8Array, b: Uint8Array): [Uint8Array, Uint8Array] {
  return cmp(a, b) <= 0 ? [a, b] : [b, a];
}

/** Pool address = Blake3("ntv.amm-pool.v1" ‖ token0 ‖ token1). */
export function poolAddress(a: Uint8Array, b: Uint8Array): Uint8Array {
  const [t0, t1] = sortPair(a, b);
  const buf = new Uint8Array(15 + 64);
  buf.set(POOL_DOMAIN, 0);
  buf.set(t0, 15);
  buf.set(t1, 47);
  return blake3(buf);
}

export function encodePool(addr: Uint8Array): string {
  return encodePrefixed(POOL_PREFIX, addr);
}

/** `Nx8…` → 32 bytes, or undefined. */
export function parsePool(text: string): Uint8Array | undefined {
  return decodePrefixed(POOL_PREFIX, text);
}

// Keys and record layouts are generated from the ABI table (abi/state.mjs → src/abi/state.ts).
export { poolKey, lpKey, tokenMetadataKey };

/** PoolRecord (docs/dex.md "State layout"; abi/state.mjs Pool). */
export type PoolRecord = PoolFields;
export const decodePoolRecord = decodePoolFields;

/** LP units currently locked: the 1,000 forever, plus the creator's initial LP until the lock ends. */
export function lockedLp(p: PoolRecord, now: bigint): bigint {
  return MINIMUM_LIQUIDITY + (now < p.lockUntil ? p.creatorLockedLp : 0n);
}

/** Field names as the RPC shows them, in Borsh order (spec §4.1). */
export const METADATA_FIELD_NAMES = ['metadata_uri', 'image', 'description', 'external_url', 'twitter', 'discord', 'telegram', 'github'] as const;
export type TokenMetadata = Record<(typeof METADATA_FIELD_NAMES)[number], string | null>;

export function emptyMetadata(): TokenMetadata {
  return Object.fromEntries(METADATA_FIELD_NAMES.map((f) => [f, null])) as TokenMetadata;
}

/** TokenMetadata (abi/state.mjs) — an empty string shows as null. */
export function decodeTokenMetadata(v: Uint8Array): TokenMetadata {
  const r = decodeTokenMetadataFields(v);
  const none = (x: string) => (x === '' ? null : x);
  return {
    metadata_uri: none(r.metadataUri), image: none(r.image), description: none(r.description), external_url: none(r.externalUrl),
    twitter: none(r.twitter), discord: none(r.discord), telegram: none(r.telegram), github: none(r.github),
  };
}

export interface SwapQuote {
  amountOut: bigint;
  /** the input part kept by the pool as the 0.3% fee: in − floor(in·997/1000) */
  fee: bigint;
  /** price impact excluding the fee, basis points, rounded up */
  impactBps: number;
}
export interface ReverseQuote {
  amountIn: bigint;
  fee: bigint;
  impactBps: number;
}

const M64 = (1n << 64n) - 1n;

/**
 * Typed wrapper of the core's `amm_math` export on its own instance (pure math, never touches
 * state, so it can serve reads while the chain's instance executes blocks).
 */
export class AmmMath {
  private constructor(private readonly x: CoreExports) {}

  static async create(opts: { debug?: boolean } = {}): Promise<AmmMath> {
    const module = await compileCore(undefined, { debug: opts.debug });
    return new AmmMath(await instantiateCore(module, { get: () => undefined }));
  }

  private call(op: number, args: bigint[]): { status: number; r: [bigint, bigint, bigint] } {
    const ptr = this.x.input(64 + 16);
    const dv = new DataView(this.x.memory.buffer);
    for (let i = 0; i < 5; i++) {
      const v = args[i] ?? 0n;
      dv.setBigUint64(ptr + 16 * i, v & M64, true);
      dv.setBigUint64(ptr + 16 * i + 8, (v >> 64n) & M64, true);
    }
    this.x.amm_math(op);
    const o = this.x.output_ptr();
    const d = new DataView(this.x.memory.buffer);
    const u128 = (at: number) => d.getBigUint64(o + at, true) | (d.getBigUint64(o + at + 8, true) << 64n);
    return { status: d.getUint32(o, true), r: [u128(4), u128(20), u128(36)] };
  }

  /** Exact-in quote; undefined when a reserve is zero. Values must be u128. */
  quoteExactIn(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): SwapQuote | undefined {
    const { status, r } = this.call(0, [amountIn, reserveIn, reserveOut]);
    return status === 0 ? { amountOut: r[0], fee: r[1], impactBps: Number(r[2]) } : undefined;
  }

  /** Exact-out (reverse) quote for Acquire intents; undefined when the pool cannot pay `amountOut` or the input overflows u128. */
  quoteExactOut(amountOut: bigint, reserveIn: bigint, reserveOut: bigint): ReverseQuote | undefined {
    const { status, r } = this.call(1, [amountOut, reserveIn, reserveOut]);
    return status === 0 ? { amountIn: r[0], fee: r[1], impactBps: Number(r[2]) } : undefined;
  }

  /** What a deposit of (d0, d1) uses and mints against (r0, r1, supply); undefined on overflow. */
  liquidityFor(d0: bigint, d1: bigint, r0: bigint, r1: bigint, supply: bigint): { used0: bigint; used1: bigint; minted: bigint } | undefined {
    const { status, r } = this.call(2, [d0, d1, r0, r1, supply]);
    return status === 0 ? { used0: r[0], used1: r[1], minted: r[2] } : undefined;
  }

  /** What burning `lp` pays out of (r0, r1) with the given supply (rounded down). */
  removeFor(lp: bigint, r0: bigint, r1: bigint, supply: bigint): { out0: bigint; out1: bigint } {
    const { r } = this.call(3, [lp, r0, r1, supply]);
    return { out0: r[0], out1: r[1] };
  }

  /** First mint: total LP sqrt(a0·a1) and the provider's part (total − 1,000, 0 when too small). */
  firstMint(a0: bigint, a1: bigint): { total: bigint; provider: bigint } {
    const { r } = this.call(4, [a0, a1]);
    return { total: r[0], provider: r[1] };
  }

  /** Benchmark hook: n round trips (2n swaps) inside the module; the final reserves. */
  benchRoundTrips(amountIn: bigint, r0: bigint, r1: bigint, n: number): [bigint, bigint] {
    const ptr = this.x.input(80);
    const dv = new DataView(this.x.memory.buffer);
    for (const [i, v] of [amountIn, r0, r1].entries()) {
      dv.setBigUint64(ptr + 16 * i, v & M64, true);
      dv.setBigUint64(ptr + 16 * i + 8, v >> 64n, true);
    }
    dv.setBigUint64(ptr + 48, BigInt(n), true);
    this.x.amm_math(5);
    const o = this.x.output_ptr();
    const d = new DataView(this.x.memory.buffer);
    const u128 = (at: number) => d.getBigUint64(o + at, true) | (d.getBigUint64(o + at + 8, true) << 64n);
    return [u128(4), u128(20)];
  }
}

/** The bigint twin of the core's exact-in formula (tests and the bench baseline). */
export function amountOutRef(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  const a = amountIn * 997n;
  return (reserveOut * a) / (reserveIn * 1000n + a);
}
