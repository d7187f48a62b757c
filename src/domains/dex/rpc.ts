import { Type } from '@sinclair/typebox';
import { encodeAccount, encodeMint } from '../../codec/address.js';
import type { RegisteredToken } from '../../chain/token-registry.js';
import { encodePool, lockedLp, MAX_LOCK_SECONDS, poolAddress, type PoolRecord, type SwapQuote } from '../../core/amm.js';
import { DexReader, route, type IndexedPool } from './reader.js';
import type { ChainApi } from '../../chain/interface.js';
import { APP_ERRORS, RpcError } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { Limit } from '../../rpc/schemas.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import type { MethodParam } from '../../rpc/method.js';
import { AccountParam, AmountParam, invalidParamIn, PositiveAmount, TokenParam } from '../../rpc/methods/params.js';
import { ReceiptSchema } from '../../rpc/methods/result-schemas.js';
import { tokenMetadataMethods } from './metadata-rpc.js';

/**
 * Spec §4.2 DEX methods (docs/dex.md). Writes are unsigned convenience methods like svc_transfer
 * (testnet; a signed bundle with the CreatePool/AddLiquidity/RemoveLiquidity/Swap operations
 * works everywhere). Reads come from committed state; quotes run the core's own AMM math
 * (src/core/amm.ts AmmMath), so a quote equals the execution against the same reserves.
 */

const tokenRef = () => Type.String({
  minLength: 1, maxLength: 64,
  description: 'Token symbol (any case, e.g. NTV, USDC) or mint address (Nx1… or 0x + 64 hex).',
});
const Amount = (description: string) => AmountParam({ description });
const Positive = (description: string) => PositiveAmount({ description });

const Q64 = 1n << 64n;
const U128_MAX = (1n << 128n) - 1n;
/** Decimal places of the prices svc_getPrice shows. */
const PRICE_DECIMALS = 18n;

/** The second token of a pair must differ from the first: -32602 names `param`, at its position in `params`. */
function distinct<const P extends readonly MethodParam[]>(a: RegisteredToken, b: RegisteredToken, params: P, param: P[number]['name']): void {
  if (Buffer.compare(a.mint, b.mint) === 0) {
    throw invalidParamIn(params, param, `a token different from the other one (both are ${a.symbol})`, { token: a.mintAddress });
  }
}

function noPool(a: RegisteredToken, b: RegisteredToken): RpcError {
  return RpcError.app('NOT_FOUND', `no pool exists for ${a.symbol}/${b.symbol}; create one with svc_createPool`, {
    token_a: a.mintAddress, token_b: b.mintAddress, pool: encodePool(poolAddress(a.mint, b.mint)),
  });
}

/** num/den as a decimal string with PRICE_DECIMALS places (trailing zeros trimmed). */
function decimal(num: bigint, den: bigint): string {
  if (den === 0n) return '0';
  const scaled = (num * 10n ** PRICE_DECIMALS) / den;
  const int = scaled / 10n ** PRICE_DECIMALS;
  const frac = (scaled % 10n ** PRICE_DECIMALS).toString().padStart(Number(PRICE_DECIMALS), '0').replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int.toString();
}

/** Price of one whole `from` in whole `to` as a fraction: r_to·10^dec_from / (r_from·10^dec_to). */
function spotFraction(p: PoolRecord, from: RegisteredToken, to: RegisteredToken): [bigint, bigint] {
  const [rFrom, rTo] = DexReader.oriented(p, from.mint);
  return [rTo * 10n ** BigInt(from.decimals), rFrom * 10n ** BigInt(to.decimals)];
}

/**
 * TWAP since the pool's creation (docs/dex.md "TWAP"): the core's Q64.64 accumulator extended to
 * `now` with the current reserves, divided by the seconds since creation; as a fraction in whole units.
 */
function twapFraction(p: PoolRecord, from: RegisteredToken, to: RegisteredToken, now: bigint): { fraction: [bigint, bigint]; window: bigint } {
  const fromIs0 = Buffer.compare(p.token0, from.mint) === 0;
  const cum = fromIs0 ? p.price0Cumulative : p.price1Cumulative;
  const [num, den] = fromIs0 ? [p.reserve1, p.reserve0] : [p.reserve0, p.reserve1];
  let price = (num * Q64) / den;
  if (price > U128_MAX) price = U128_MAX;
  const t = now > p.lastUpdate ? now : p.lastUpdate;
  const total = cum + price * (t - p.lastUpdate);
  const window = t - p.createdAt;
  if (window <= 0n) return { fraction: spotFraction(p, from, to), window: 0n };
  return { fraction: [total * 10n ** BigInt(from.decimals), window * Q64 * 10n ** BigInt(to.decimals)], window };
}

/** A pool as svc_getPool/svc_listPools show it, oriented to the caller's (a, b). */
function formatPool(chain: ChainApi, reader: DexReader, p: IndexedPool, a?: RegisteredToken) {
  const tokens = reader.tokens;
  const t0 = tokens.byMintBytes(p.token0);
  const t1 = tokens.byMintBytes(p.token1);
  const flip = a !== undefined && Buffer.compare(a.mint, p.token1) === 0;
  const [ta, tb, ra, rb, sa, sb] = flip ? [p.token1, p.token0, p.reserve1, p.reserve0, t1, t0] : [p.token0, p.token1, p.reserve0, p.reserve1, t0, t1];
  const now = BigInt(chain.headHeader.timestamp);
  return {
    address: encodePool(p.address),
    token_a: encodeMint(ta),
    token_b: encodeMint(tb),
    symbol_a: sa?.symbol ?? null,
    symbol_b: sb?.symbol ?? null,
    reserve_a: ra.toString(),
    reserve_b: rb.toString(),
    lp_total_supply: p.lpSupply.toString(),
    lp_locked: lockedLp(p, now).toString(),
    creator: encodeAccount(p.creator),
    created_at: Number(p.createdAt),
    created_height: Number(p.createdHeight),
    lock_until: Number(p.lockUntil),
    creator_locked_lp: p.creatorLockedLp.toString(),
    fee_bps: 30,
    price0_cumulative: p.price0Cumulative.toString(),
    price1_cumulative: p.price1Cumulative.toString(),
    last_update: Number(p.lastUpdate),
  };
}

const PoolSchema = Type.Object({
  address: Type.String({ description: 'Nx8… pool address' }),
  token_a: Type.String({ description: 'Nx1… mint, in the order asked (svc_listPools: token0 < token1 bytewise)' }),
  token_b: Type.String(),
  symbol_a: Type.Union([Type.String(), Type.Null()]),
  symbol_b: Type.Union([Type.String(), Type.Null()]),
  reserve_a: Type.String({ description: 'raw units' }),
  reserve_b: Type.String(),
  lp_total_supply: Type.String({ description: 'LP units, including the 1,000 locked forever' }),
  lp_locked: Type.String({ description: '1,000 forever plus the creator\'s initial LP while its lock lasts' }),
  creator: Type.String(),
  created_at: Type.Integer({ description: 'unix seconds' }),
  created_height: Type.Integer(),
  lock_until: Type.Integer({ description: 'unix seconds; the creator\'s initial LP cannot be removed before' }),
  creator_locked_lp: Type.String(),
  fee_bps: Type.Integer({ description: 'swap fee, basis points (30 = 0.3%)' }),
  price0_cumulative: Type.String({ description: 'TWAP accumulator of token0 priced in token1, Q64.64 × seconds, mod 2^256' }),
  price1_cumulative: Type.String(),
  last_update: Type.Integer({ description: 'block time of the last accumulator update' }),
}, { title: 'Pool', additionalProperties: true });

const QuoteSchema = Type.Object({
  amount_out: Type.String({ description: 'raw units of to_token, exactly what svc_swap pays against the same reserves' }),
  price_impact_percent: Type.Number({ description: 'price impact excluding the fee, percent' }),
  price_impact_bps: Type.Integer({ description: 'the same in basis points, rounded up' }),
  fee: Type.String({ description: 'raw units of from_token kept by the first pool as the 0.3% fee' }),
  pool_address: Type.String({ description: 'Nx8… pool of the first hop' }),
  reserve_in: Type.String(),
  reserve_out: Type.String(),
  route: Type.Array(Type.String(), { description: 'symbols along the route' }),
  route_type: Type.String({ description: '"direct" or "auto-routed (2 hops)"' }),
}, { title: 'SwapQuote', additionalProperties: true });

interface Hop {
  pool: IndexedPool;
  from: RegisteredToken;
  to: RegisteredToken;
  q: SwapQuote;
  reserveIn: bigint;
  reserveOut: bigint;
}

export function dexMethods(deps: MethodDependencies): MethodDefinition[] {
  const { chain, readers } = deps;
  const reader = () => readers.dex;
  const Token = () => TokenParam(readers.tokens, tokenRef());
  const createPoolParams = [
    { name: 'token_a', schema: Token() },
    { name: 'token_b', schema: Token() },
    { name: 'amount_a', schema: Positive('raw units of token_a, > 0') },
    { name: 'amount_b', schema: Positive('raw units of token_b, > 0') },
    { name: 'lp_lock_duration', schema: Type.Integer({ minimum: 0, maximum: Number(MAX_LOCK_SECONDS), description: 'seconds, 0 to 315,360,000 (10 years)' }) },
    { name: 'sender', schema: AccountParam() },
  ] as const;
  const addLiquidityParams = [
    { name: 'token_a', schema: Token() },
    { name: 'token_b', schema: Token() },
    { name: 'amount_a', schema: Positive('most of token_a to deposit, raw units, > 0') },
    { name: 'amount_b', schema: Positive('most of token_b to deposit, raw units, > 0') },
    { name: 'min_lp_tokens', schema: Amount('fewest LP units to accept (0 = any)') },
    { name: 'sender', schema: AccountParam() },
  ] as const;
  const removeLiquidityParams = [
    { name: 'token_a', schema: Token() },
    { name: 'token_b', schema: Token() },
    { name: 'lp_amount', schema: Positive('LP units to burn, > 0') },
    { name: 'min_amount_a', schema: Amount('fewest raw units of token_a to accept') },
    { name: 'min_amount_b', schema: Amount('fewest raw units of token_b to accept') },
    { name: 'sender', schema: AccountParam() },
  ] as const;
  const swapParams = [
    { name: 'from_token', schema: Token() },
    { name: 'to_token', schema: Token() },
    { name: 'amount_in', schema: Positive('raw units of from_token, > 0') },
    { name: 'min_amount_out', schema: Amount('fewest raw units of to_token to accept') },
    { name: 'sender', schema: AccountParam() },
  ] as const;
  const getPoolParams = [
    { name: 'token_a', schema: Token() },
    { name: 'token_b', schema: Token() },
  ] as const;
  const quoteSwapParams = [
    { name: 'from_token', schema: Token() },
    { name: 'to_token', schema: Token() },
    { name: 'amount_in', schema: Positive('raw units of from_token, > 0') },
  ] as const;
  const getPriceParams = [
    { name: 'from_symbol', schema: Token() },
    { name: 'to_symbol', schema: Token() },
  ] as const;
  const getLpBalanceParams = [
    { name: 'token_a', schema: Token() },
    { name: 'token_b', schema: Token() },
    { name: 'address', schema: AccountParam() },
  ] as const;
  return [
    defineMethod({
      name: 'svc_createPool',
      summary: 'Create a constant-product pool with its first liquidity (spec §4.2; unsigned convenience, testnet only).',
      description: 'Costs 100 NTV, paid to the treasury 0x00…03. The provider receives sqrt(amount_a·amount_b) − 1,000 LP units; 1,000 '
        + 'are locked forever. The creator\'s LP cannot be removed for lp_lock_duration seconds. Receipt carries created.pool (Nx8…).'
        + ' Spec §4.2, facts.md "DEX". Errors: UNKNOWN_TOKEN; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (e.g. the pool exists, or the'
        + ' balance does not cover amounts and fee); BUNDLE_INVALID when admission refuses it.',
      paramsNote: '— lock in seconds, 0–315,360,000',
      params: createPoolParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt with `created.pool` (`Nx8…`) and a `PoolCreated` event; costs 100 NTV to the treasury `0x00…03`',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code],
      handler: async ([a, b, x, y, lock, from]) => {
        distinct(a, b, createPoolParams, 'token_b');
        return chain.submitOperations(from, [{ type: 'CreatePool', tokenA: a.mint, tokenB: b.mint, amountA: x, amountB: y, lpLockDuration: BigInt(lock) }]);
      },
    }),
    defineMethod({
      name: 'svc_addLiquidity',
      summary: 'Add liquidity at the pool\'s ratio (spec §4.2; unsigned convenience, testnet only).',
      description: 'Uses (amount_a, amount_a·reserve_b/reserve_a) when that fits amount_b, else (amount_b·reserve_a/reserve_b, amount_b), '
        + 'rounded down; mints min(share of a, share of b) LP units; fails with SLIPPAGE_EXCEEDED below min_lp_tokens.'
        + ' Spec §4.2. Errors: UNKNOWN_TOKEN; NOT_FOUND when the pair has no pool; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (e.g.'
        + ' SLIPPAGE_EXCEEDED).',
      params: addLiquidityParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt with `LiquidityAdded {pool, token0, token1, provider, amount0, amount1, lp}`',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.NOT_FOUND.code, APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code],
      handler: async ([a, b, x, y, min, from]) => {
        distinct(a, b, addLiquidityParams, 'token_b');
        if (!reader().pool(a.mint, b.mint)) throw noPool(a, b);
        return chain.submitOperations(from, [{ type: 'AddLiquidity', tokenA: a.mint, tokenB: b.mint, amountA: x, amountB: y, minLp: min }]);
      },
    }),
    defineMethod({
      name: 'svc_removeLiquidity',
      summary: 'Burn LP units for the pool\'s tokens, rounded down (spec §4.2; unsigned convenience, testnet only).',
      description: 'Pays the provider its share of both reserves for lp_amount LP units, rounded down (spec §4.2); locked LP (the creator\'s during'
        + ' lp_lock_duration, the first 1,000 units forever) cannot be removed. Errors: UNKNOWN_TOKEN; NOT_FOUND when the pair has no pool;'
        + ' UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (e.g. SLIPPAGE_EXCEEDED below min_amount_a/min_amount_b, or the LP is locked).',
      params: removeLiquidityParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt with `LiquidityRemoved`',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.NOT_FOUND.code, APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code],
      handler: async ([a, b, lp, ma, mb, from]) => {
        distinct(a, b, removeLiquidityParams, 'token_b');
        if (!reader().pool(a.mint, b.mint)) throw noPool(a, b);
        return chain.submitOperations(from, [{ type: 'RemoveLiquidity', tokenA: a.mint, tokenB: b.mint, lpAmount: lp, minAmountA: ma, minAmountB: mb }]);
      },
    }),
    defineMethod({
      name: 'svc_swap',
      summary: 'Swap an exact input through the pair\'s pool (spec §4.2; unsigned convenience, testnet only).',
      description: 'Pays floor(r_out·in·997 / (r_in·1000 + in·997)); fails with SLIPPAGE_EXCEEDED below min_amount_out. '
        + 'For a slippage of s bps use min_amount_out = quote·(10000 − s)/10000 (facts.md "DEX").'
        + ' Spec §4.2. Errors: UNKNOWN_TOKEN; NOT_FOUND when the pair has no direct pool; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED'
        + ' (e.g. SLIPPAGE_EXCEEDED).',
      params: swapParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt with `Swap {pool, trader, token_in, token_out, amount_in, amount_out, reserve0, reserve1}`; needs a direct pool',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.NOT_FOUND.code, APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code],
      handler: async ([a, b, x, min, from]) => {
        distinct(a, b, swapParams, 'to_token');
        if (!reader().pool(a.mint, b.mint)) throw noPool(a, b);
        return chain.submitOperations(from, [{ type: 'Swap', fromToken: a.mint, toToken: b.mint, amountIn: x, minAmountOut: min }]);
      },
    }),
    defineMethod({
      name: 'svc_getPool',
      summary: 'A pool by its token pair (spec §4.2, facts.md "DEX"), reserves in the order asked.',
      description: 'Reads a pool by its pair (spec §4.2; facts.md "DEX"): reserves in the order the tokens were asked, LP supply and lock, 0.3% fee'
        + ' and the TWAP accumulators. Errors: UNKNOWN_TOKEN; NOT_FOUND when the pair has no pool.',
      params: getPoolParams,
      result: {
        name: 'pool', schema: PoolSchema,
        description: '`{address, token_a, token_b, symbol_a, symbol_b, reserve_a, reserve_b, lp_total_supply, lp_locked, creator, created_at,'
          + ' created_height, lock_until, creator_locked_lp, fee_bps, price0_cumulative, price1_cumulative, last_update}` in the order asked;'
          + ' `-32003 NOT_FOUND`',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.NOT_FOUND.code],
      handler: ([a, b]) => {
        distinct(a, b, getPoolParams, 'token_b');
        const p = reader().pool(a.mint, b.mint);
        if (!p) throw noPool(a, b);
        return formatPool(chain, reader(), p, a);
      },
    }),
    defineMethod({
      name: 'svc_listPools',
      summary: 'Pools, oldest first (spec §4.2); token_a/token_b in the pool\'s own order (token0 < token1).',
      // `[{"limit": N}]` too (issue 41 item 9): clients that wrap by-name params in an array were refused -32602.
      paramsNote: ', `{limit}` or `[{limit}]` (1–1000, default 100)',
      description: 'Lists pools in creation order (spec §4.2), each as svc_getPool answers but with its tokens in the pool\'s own order; limit 1–1000,'
        + ' default 100. No application errors.',
      params: [{ name: 'limit', schema: Type.Union([Limit({ default: 100 }), Type.Object({ limit: Limit() }, { additionalProperties: false })]), required: false }] as const,
      result: {
        name: 'pools', schema: Type.Array(PoolSchema),
        description: 'pools, oldest first, in their own token order',
      },
      handler: ([given]) => {
        const limit = typeof given === 'object' ? given.limit : given;
        const r = reader();
        return [...r.pools.values()]
          .sort((x, y) => Number(x.createdHeight - y.createdHeight) || Buffer.compare(x.address, y.address))
          .slice(0, limit ?? 100)
          .map((p) => formatPool(chain, r, p));
      },
    }),
    defineMethod({
      name: 'svc_quoteSwap',
      summary: 'Estimated output of svc_swap, computed by the core\'s own AMM math (read-only, spec §4.2).',
      description: 'Direct pool when one exists, else a 2-hop route through NTV (route_type "auto-routed (2 hops)"; svc_swap itself '
        + 'needs a direct pool, a signed bundle can carry both Swap operations).'
        + ' Spec §4.2. Errors: UNKNOWN_TOKEN; NOT_FOUND when no direct pool and no route through NTV exists.',
      params: quoteSwapParams,
      result: {
        name: 'quote', schema: QuoteSchema,
        description: '`{amount_out, price_impact_percent, price_impact_bps, fee, pool_address, reserve_in, reserve_out, route[], route_type, hops[]}` —'
          + ' the core\'s own math: `amount_out` is what `svc_swap` pays against the same reserves; 2-hop through NTV when no direct pool',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.NOT_FOUND.code],
      handler: async ([a, b, x]) => {
        distinct(a, b, quoteSwapParams, 'to_token');
        const r = reader();
        const path = route(r, a, b);
        if (!path) throw RpcError.app('NOT_FOUND', `no pool and no route through NTV for ${a.symbol}/${b.symbol}`, { from_token: a.mintAddress, to_token: b.mintAddress });
        const math = await r.amm();
        const hops: Hop[] = [];
        let amount = x;
        for (const [pool, f, t] of path) {
          const [reserveIn, reserveOut] = DexReader.oriented(pool, f.mint);
          const q = math.quoteExactIn(amount, reserveIn, reserveOut);
          if (!q) throw RpcError.app('NOT_FOUND', `pool ${encodePool(pool.address)} has no liquidity`);
          hops.push({ pool, from: f, to: t, q, reserveIn, reserveOut });
          amount = q.amountOut;
        }
        // Combined impact: 1 − Π(1 − impact_i), rounded up.
        const keep = hops.reduce((acc, h) => (acc * BigInt(10_000 - h.q.impactBps)) / 10_000n, 10_000n);
        const bps = 10_000 - Number(keep);
        const first = hops[0]!;
        const last = hops.at(-1)!;
        return {
          amount_out: last.q.amountOut.toString(),
          price_impact_percent: bps / 100,
          price_impact_bps: bps,
          fee: first.q.fee.toString(),
          pool_address: encodePool(first.pool.address),
          reserve_in: first.reserveIn.toString(),
          reserve_out: last.reserveOut.toString(),
          route: [a.symbol, ...hops.map((h) => h.to.symbol)],
          route_type: hops.length === 1 ? 'direct' : 'auto-routed (2 hops)',
          hops: hops.map((h) => ({
            pool: encodePool(h.pool.address), from_token: h.from.mintAddress, to_token: h.to.mintAddress, amount_out: h.q.amountOut.toString(),
            fee: h.q.fee.toString(), price_impact_bps: h.q.impactBps, reserve_in: h.reserveIn.toString(), reserve_out: h.reserveOut.toString(),
          })),
        };
      },
    }),
    defineMethod({
      name: 'svc_getPrice',
      summary: 'Spot price and TWAP of one whole from_symbol in to_symbol, direct or auto-routed through NTV (2 hops).',
      description: 'Prices one whole from_symbol (10^decimals raw units) in to_symbol from pool reserves, with the time-weighted average over the'
        + ' pools\' accumulators (spec §4.2); direct when a pool exists, else 2 hops through NTV. Errors: UNKNOWN_TOKEN; NOT_FOUND when no'
        + ' route exists.',
      params: getPriceParams,
      result: {
        description: '`{from, to, price, twap, twap_window_seconds, route[], route_type ("direct" or "auto-routed (2 hops)"), pools[]}` — whole units'
          + ' of `to` per whole `from`, 18 decimal places at most',
        name: 'price',
        schema: Type.Object({
          from: Type.String(), to: Type.String(),
          price: Type.String({ description: 'spot: whole to per whole from, decimal string with up to 18 places' }),
          twap: Type.String({ description: 'time-weighted average price since the pool was created (product over the hops when routed)' }),
          twap_window_seconds: Type.Integer({ description: 'length of the TWAP window (the shortest over the hops)' }),
          route: Type.Array(Type.String()),
          route_type: Type.String({ description: '"direct" or "auto-routed (2 hops)"' }),
          pools: Type.Array(Type.String()),
        }, { additionalProperties: true }),
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.NOT_FOUND.code],
      handler: ([a, b]) => {
        distinct(a, b, getPriceParams, 'to_symbol');
        const r = reader();
        const path = route(r, a, b);
        if (!path) throw RpcError.app('NOT_FOUND', `no pool and no route through NTV for ${a.symbol}/${b.symbol}`, { from_symbol: a.symbol, to_symbol: b.symbol });
        const now = BigInt(chain.headHeader.timestamp);
        let sn = 1n, sd = 1n, tn = 1n, td = 1n;
        let window: bigint | undefined;
        for (const [pool, f, t] of path) {
          const [n, d] = spotFraction(pool, f, t);
          sn *= n;
          sd *= d;
          const tw = twapFraction(pool, f, t, now);
          tn *= tw.fraction[0];
          td *= tw.fraction[1];
          window = window === undefined || tw.window < window ? tw.window : window;
        }
        return {
          from: a.symbol,
          to: b.symbol,
          price: decimal(sn, sd),
          twap: decimal(tn, td),
          twap_window_seconds: Number(window ?? 0n),
          route: [a.symbol, ...path.map(([, , t]) => t.symbol)],
          route_type: path.length === 1 ? 'direct' : 'auto-routed (2 hops)',
          pools: path.map(([p]) => encodePool(p.address)),
        };
      },
    }),
    defineMethod({
      name: 'svc_getLpBalance',
      summary: 'LP units an address holds in the pool of a token pair, and how many of them are locked.',
      description: 'Reads the LP units an address holds in the pair\'s pool, how many are locked and until when (spec §4.2). Errors: UNKNOWN_TOKEN;'
        + ' NOT_FOUND when the pair has no pool.',
      params: getLpBalanceParams,
      result: {
        description: '`{pool, address, lp_balance, locked, lock_until}`',
        name: 'lp',
        schema: Type.Object({ pool: Type.String(), address: Type.String(), lp_balance: Type.String(), locked: Type.String(), lock_until: Type.Integer() }),
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.NOT_FOUND.code],
      handler: ([a, b, who]) => {
        distinct(a, b, getLpBalanceParams, 'token_b');
        const r = reader();
        const p = r.pool(a.mint, b.mint);
        if (!p) throw noPool(a, b);
        const now = BigInt(chain.headHeader.timestamp);
        const isCreatorLocked = Buffer.compare(who, p.creator) === 0 && now < p.lockUntil;
        return {
          pool: encodePool(p.address),
          address: encodeAccount(who),
          lp_balance: r.lpBalance(p.address, who).toString(),
          locked: (isCreatorLocked ? p.creatorLockedLp : 0n).toString(),
          lock_until: Number(p.lockUntil),
        };
      },
    }),
    // the token metadata methods (dex ABI group, docs/dex.md "Token metadata")
    ...tokenMetadataMethods(deps),
  ];
}
