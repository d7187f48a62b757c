import { poolAddress, sortPair, type AmmMath, type PoolRecord, type ReverseQuote, type SwapQuote } from '../core/amm.js';
import type { TokenRef } from './goals.js';
import { NTV_MINT } from '../abi/constants.js';
import { toHex as hex } from '../codec/hash.js';

/**
 * What the planner reads of committed state, behind a small interface (STYLE.md: execution and
 * planning depend on a reader, not on a database), so the unit tests plan against hand-made pools.
 */
export interface MarketSource {
  /** the pool of a pair, any order, as committed */
  pool(a: Uint8Array, b: Uint8Array): PoolRecord | undefined;
  balance(account: Uint8Array, mint: Uint8Array): bigint;
  /** a token by mint, for symbols and decimals */
  token(mint: Uint8Array): TokenRef | undefined;
  /** every token the registry knows (Liquidate and Rebalance read the sender's holdings over these) */
  tokens(): Iterable<TokenRef>;
  /** every committed pool (Allocate picks the deepest NTV pool) */
  pools(): Iterable<PoolRecord>;
}

/** The native token's mint (spec §1.4; abi/constants.mjs). */
export { NTV_MINT };

export function sameToken(a: TokenRef | Uint8Array, b: TokenRef | Uint8Array): boolean {
  const x = a instanceof Uint8Array ? a : a.mint;
  const y = b instanceof Uint8Array ? b : b.mint;
  return Buffer.compare(x, y) === 0;
}

interface VirtualPool {
  address: Uint8Array;
  token0: Uint8Array;
  token1: Uint8Array;
  reserve0: bigint;
  reserve1: bigint;
  lpSupply: bigint;
  /** created by an earlier step of the same plan */
  planned: boolean;
}

/**
 * Committed state plus the plan's own effects so far: each step is quoted against the reserves
 * and balances the earlier steps of the same bundle leave (a composite's second swap on the same
 * pool sees the first one's trade), exactly as the core executes them in order.
 *
 * Pools move by the expected amounts; the sender's balances are tracked at the guaranteed amounts
 * (minimum outputs), so a plan whose balance check passes cannot fail for lack of funds within the
 * slippage it tolerates. `peak` records, per token, the largest net draw on the balance the sender
 * holds now: the `required` of the balance check.
 */
export class Market {
  private readonly pools = new Map<string, VirtualPool>();
  private readonly net = new Map<string, bigint>();
  private readonly peak = new Map<string, bigint>();
  private readonly order: TokenRef[] = [];

  constructor(
    readonly source: MarketSource,
    readonly amm: AmmMath,
    readonly sender: Uint8Array,
  ) {}

  pool(a: Uint8Array, b: Uint8Array): VirtualPool | undefined {
    const key = hex(poolAddress(a, b));
    let p = this.pools.get(key);
    if (!p) {
      const committed = this.source.pool(a, b);
      if (!committed) return undefined;
      p = { address: poolAddress(a, b), token0: committed.token0, token1: committed.token1, reserve0: committed.reserve0, reserve1: committed.reserve1, lpSupply: committed.lpSupply, planned: false };
      this.pools.set(key, p);
    }
    return p;
  }

  /** Reserves (in, out) for a trade of `from` into `to`, or undefined without a pool. */
  reserves(from: Uint8Array, to: Uint8Array): [bigint, bigint] | undefined {
    const p = this.pool(from, to);
    if (!p) return undefined;
    return Buffer.compare(p.token0, from) === 0 ? [p.reserve0, p.reserve1] : [p.reserve1, p.reserve0];
  }

  quoteIn(from: Uint8Array, to: Uint8Array, amountIn: bigint): SwapQuote | undefined {
    const r = this.reserves(from, to);
    return r ? this.amm.quoteExactIn(amountIn, r[0], r[1]) : undefined;
  }

  quoteOut(from: Uint8Array, to: Uint8Array, amountOut: bigint): ReverseQuote | undefined {
    const r = this.reserves(from, to);
    return r ? this.amm.quoteExactOut(amountOut, r[0], r[1]) : undefined;
  }

  /** The pool takes `amountIn` of `from` and pays `amountOut` of `to` (expected execution). */
  swap(from: Uint8Array, to: Uint8Array, amountIn: bigint, amountOut: bigint): void {
    const p = this.pool(from, to)!;
    if (Buffer.compare(p.token0, from) === 0) {
      p.reserve0 += amountIn;
      p.reserve1 -= amountOut;
    } else {
      p.reserve1 += amountIn;
      p.reserve0 -= amountOut;
    }
  }

  /** A pool created by this plan (CreatePool), so later steps can use it. */
  createPool(a: Uint8Array, b: Uint8Array, amountA: bigint, amountB: bigint, lpSupply: bigint): void {
    const [t0] = sortPair(a, b);
    const aFirst = Buffer.compare(t0, a) === 0;
    this.pools.set(hex(poolAddress(a, b)), {
      address: poolAddress(a, b), token0: aFirst ? a : b, token1: aFirst ? b : a,
      reserve0: aFirst ? amountA : amountB, reserve1: aFirst ? amountB : amountA, lpSupply, planned: true,
    });
  }

  /** Liquidity added to an existing pool, amounts in the caller's (a, b) order. */
  addLiquidity(a: Uint8Array, b: Uint8Array, usedA: bigint, usedB: bigint, minted: bigint): void {
    const p = this.pool(a, b)!;
    const aFirst = Buffer.compare(p.token0, a) === 0;
    p.reserve0 += aFirst ? usedA : usedB;
    p.reserve1 += aFirst ? usedB : usedA;
    p.lpSupply += minted;
  }

  /** The sender's balance of `token` after the steps so far (guaranteed amounts). */
  balance(token: TokenRef): bigint {
    return this.source.balance(this.sender, token.mint) - (this.net.get(hex(token.mint)) ?? 0n);
  }

  /** The sender's balance as committed (before the plan). */
  committedBalance(token: TokenRef): bigint {
    return this.source.balance(this.sender, token.mint);
  }

  spend(token: TokenRef, amount: bigint): void {
    const k = hex(token.mint);
    if (!this.net.has(k) && !this.peak.has(k)) this.order.push(token);
    const n = (this.net.get(k) ?? 0n) + amount;
    this.net.set(k, n);
    if (n > (this.peak.get(k) ?? 0n)) this.peak.set(k, n);
  }

  /** A charge before every step (the fee, docs/core-abi.md: charged before the operations). */
  chargeFirst(token: TokenRef, amount: bigint): void {
    const k = hex(token.mint);
    if (!this.net.has(k) && !this.peak.has(k)) this.order.push(token);
    this.net.set(k, (this.net.get(k) ?? 0n) + amount);
    this.peak.set(k, (this.peak.get(k) ?? 0n) + amount);
  }

  receive(token: TokenRef, amount: bigint): void {
    const k = hex(token.mint);
    if (!this.net.has(k) && !this.peak.has(k)) this.order.push(token);
    this.net.set(k, (this.net.get(k) ?? 0n) - amount);
  }

  /** Per token the sender spends from: the largest net draw and what it holds, in first-use order. */
  draws(): Array<{ token: TokenRef; required: bigint; available: bigint }> {
    return this.order
      .filter((t) => (this.peak.get(hex(t.mint)) ?? 0n) > 0n)
      .map((t) => ({ token: t, required: this.peak.get(hex(t.mint))!, available: this.committedBalance(t) }));
  }
}
