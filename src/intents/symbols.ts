import type { TokenRef } from './goals.js';

/**
 * What the parser looks names up in (docs/intents.md "Parsing"): the token registry, the STD-71
 * synthetic naming rule, and the chains a bridge intent may name.
 */

/** src/chain/token-registry.ts TokenRegistry satisfies this: a symbol (any case) or a mint. */
export interface TokenResolver {
  resolve(symbolOrMint: string): { symbol: string; mint: Uint8Array; decimals: number } | undefined;
}

export interface IntentContext {
  tokens: TokenResolver;
}

/** A TokenRef copy of a registry record (the registry's object carries more fields). */
export function tokenRef(t: { symbol: string; mint: Uint8Array; decimals: number }): TokenRef {
  return { symbol: t.symbol, mint: t.mint, decimals: t.decimals };
}

/**
 * STD-71 synthetics (spec §4.8: parsed and accepted, priced by the integrator): a lower-case `s`
 * followed by the upper-case ticker of a known underlying — a token in the registry (sBTC, sETH,
 * sSOL) or one of these real-world assets. Case marks the synthetic: `sBTC` is one, `SBTC` is not.
 * A symbol that is itself in the registry is that token, never a synthetic.
 */
export const SYNTHETIC_UNDERLYINGS: ReadonlySet<string> = new Set([
  // equities and funds
  'TSLA', 'AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL', 'META', 'NFLX', 'COIN', 'SPY', 'QQQ',
  // indices
  'SPX', 'NDX', 'DJI',
  // commodities
  'GOLD', 'SILVER', 'OIL', 'XAU', 'XAG',
  // fiat
  'USD', 'EUR', 'GBP', 'JPY', 'CHF',
]);
/** Synthetic amounts are 18-decimal (STD-71 units; docs/intents.md). */
export const SYNTHETIC_DECIMALS = 18;
const SYNTHETIC = /^s([A-Z][A-Z0-9]{0,9})$/;

export function isSyntheticSymbol(symbol: string, ctx: IntentContext): boolean {
  const m = SYNTHETIC.exec(symbol);
  if (!m) return false;
  const underlying = m[1]!;
  return SYNTHETIC_UNDERLYINGS.has(underlying) || ctx.tokens.resolve(underlying) !== undefined;
}

/**
 * The 18 STD-8 stablecoin symbols (facts.md "Genesis"). A condition without tokens ("if price below
 * 2000") quotes the price in the pair's stablecoin when exactly one side is one (docs/intents.md).
 */
const STABLE_SYMBOLS: ReadonlySet<string> = new Set([
  'USDC', 'USDT', 'PYUSD', 'FDUSD', 'USDE', 'DAI', 'EURC', 'EURCV', 'EURE', 'EURS', 'JPYC', 'XSGD', 'BRZ', 'TRYB', 'CADC', 'NZDS', 'IDRT', 'ZARP',
]);

export function isStableSymbol(symbol: string): boolean {
  return STABLE_SYMBOLS.has(symbol.toUpperCase());
}

/**
 * The default base of a price condition over (tokenIn, tokenOut): the non-stable side when exactly
 * one side is a stablecoin, else what a sell sells or what a buy or swap receives.
 */
export function defaultBase(tokenIn: TokenRef, tokenOut: TokenRef, sell: boolean): TokenRef {
  const inStable = isStableSymbol(tokenIn.symbol);
  const outStable = isStableSymbol(tokenOut.symbol);
  if (inStable !== outStable) return inStable ? tokenOut : tokenIn;
  return sell ? tokenIn : tokenOut;
}

/** Source chains of bridge intents: the bridge's chains (docs/bridge.md "Chains", src/domains/bridge/reader.ts BRIDGE_CHAINS), with common short names. */
const CHAINS: Record<string, string> = {
  ethereum: 'ethereum', eth: 'ethereum', mainnet: 'ethereum',
  solana: 'solana', sol: 'solana',
  base: 'base',
  bitcoin: 'bitcoin', btc: 'bitcoin',
  polygon: 'polygon', matic: 'polygon', pol: 'polygon',
  monad: 'monad',
  bsc: 'bsc', bnb: 'bsc', binance: 'bsc',
  avalanche: 'avalanche', avax: 'avalanche',
  arbitrum: 'arbitrum', arb: 'arbitrum',
  optimism: 'optimism', op: 'optimism',
  dogecoin: 'dogecoin', doge: 'dogecoin',
  litecoin: 'litecoin', ltc: 'litecoin',
  ton: 'ton',
};
const CANONICAL_CHAINS = [...new Set(Object.values(CHAINS))].join(', ');

/** The canonical chain name of a folded word, or undefined. */
export const chainName = Object.assign((folded: string): string | undefined => CHAINS[folded], { known: () => CANONICAL_CHAINS });
