// A fixed token table and a fake registry resolver for the intent parser tests (and the planner's):
// the same shape as src/chain/token-registry.ts TokenRegistry.resolve — a symbol in any case, or a
// mint as Nx1… / 0x + 64 hex.
import { encodeAccount, encodeMint } from '../../src/codec/address.js';
import type { TokenResolver } from '../../src/intents/symbols.js';

export interface FixtureToken {
  symbol: string;
  mint: Uint8Array;
  decimals: number;
}

const mint = (n: number) => {
  const m = new Uint8Array(32);
  if (n > 0) {
    m[0] = 0x10;
    m[31] = n;
  }
  return m;
};

/** NTV 9, USDC 6, USDT 6, ETH 18, BTC 8, SOL 9, DAI 18, and MOON: a custom STD-7 token with 4 decimals. */
export const TOKENS: FixtureToken[] = [
  { symbol: 'NTV', mint: mint(0), decimals: 9 },
  { symbol: 'USDC', mint: mint(1), decimals: 6 },
  { symbol: 'USDT', mint: mint(2), decimals: 6 },
  { symbol: 'ETH', mint: mint(3), decimals: 18 },
  { symbol: 'BTC', mint: mint(4), decimals: 8 },
  { symbol: 'SOL', mint: mint(5), decimals: 9 },
  { symbol: 'DAI', mint: mint(6), decimals: 18 },
  { symbol: 'MOON', mint: mint(7), decimals: 4 },
];

export const BY_SYMBOL = new Map(TOKENS.map((t) => [t.symbol, t]));
export const MOON_MINT = encodeMint(BY_SYMBOL.get('MOON')!.mint);

export class FakeRegistry implements TokenResolver {
  calls = 0;
  private readonly bySymbol = new Map(TOKENS.map((t) => [t.symbol.toUpperCase(), t]));
  private readonly byMint = new Map(TOKENS.flatMap((t) => [[encodeMint(t.mint), t], ['0x' + Buffer.from(t.mint).toString('hex'), t]] as const));

  resolve(symbolOrMint: string): FixtureToken | undefined {
    this.calls++;
    return this.byMint.get(symbolOrMint) ?? this.byMint.get(symbolOrMint.toLowerCase()) ?? this.bySymbol.get(symbolOrMint.toUpperCase());
  }
}

/** Addresses used in the intent tables. */
export const ADDR = {
  validatorHex: 'ab'.repeat(32),
  account: encodeAccount(new Uint8Array(32).fill(0x11)),
  evm: '0x' + '12'.repeat(20),
  hex32: '0x' + '34'.repeat(32),
};
