import { decodeTokenRecord, Prefix, symbolKey, type TokenRecord } from '../core/records.js';
import { encodeMint, parseMint } from '../codec/address.js';
import { Bytes32Map } from '../codec/bytes32-map.js';
import { poolKey } from '../core/amm.js';
import type { StateView } from './state-view.js';
import { PoolOffsets } from '../abi/state.js';

const SYMBOL_CACHE_LIMIT = 4096;

export interface RegisteredToken extends TokenRecord {
  mint: Uint8Array;
  mintAddress: string;
}

/**
 * Every token record in state (prefix 0x03, docs/core-abi.md), indexed by mint and kept in step
 * with state. Symbols resolve through the core's own symbol records (prefix 0x04, unique
 * case-insensitively): genesis gives WETH two origins, the symbol names the first registered
 * (ethereum), the other is reached by its mint.
 */
export class TokenRegistry {
  /** keyed by the mint's bytes: every Transfer event of a block looks its token up here */
  private readonly byMint = new Bytes32Map<RegisteredToken>();
  /**
   * Symbols as asked (`NTV`, `ntv`) → their token, for the symbols that resolved: a balance read
   * names its token by symbol, and encoding the symbol's key and reading it cost more than the
   * balance itself. Emptied on any write of a token or symbol record (a supply change makes a new
   * RegisteredToken), and when it holds SYMBOL_CACHE_LIMIT entries (asked spellings are the caller's).
   */
  private readonly bySymbol = new Map<string, RegisteredToken>();

  constructor(private readonly state: StateView) {
    state.watch(Prefix.TOKEN, (key, value) => this.onWrite(key, value));
    state.watch(Prefix.SYMBOL, () => this.bySymbol.clear());
  }

  get size(): number {
    return this.byMint.size;
  }

  /** A symbol (any case), an `Nx1…` mint or a `0x` 32-byte mint; undefined when unknown. */
  resolve(symbolOrMint: string): RegisteredToken | undefined {
    if (symbolOrMint.startsWith('Nx1') || /^0x[0-9a-fA-F]{64}$/.test(symbolOrMint)) {
      try {
        return this.byMintBytes(parseMint(symbolOrMint));
      } catch {
        return undefined;
      }
    }
    const cached = this.bySymbol.get(symbolOrMint);
    if (cached !== undefined) return cached;
    const mint = this.state.get(symbolKey(symbolOrMint));
    const token = mint ? this.byMintBytes(mint) : undefined;
    if (token !== undefined) {
      if (this.bySymbol.size >= SYMBOL_CACHE_LIMIT) this.bySymbol.clear();
      this.bySymbol.set(symbolOrMint, token);
    }
    return token;
  }

  byMintBytes(mint: Uint8Array): RegisteredToken | undefined {
    return mint.length === 32 ? this.byMint.get(mint) : undefined;
  }

  /** `byMintBytes` of the 32 bytes at `bytes[at]`, no view made (a receipt's Transfer events). */
  byMintAt(bytes: Uint8Array, at: number): RegisteredToken | undefined {
    return this.byMint.getAt(bytes, at);
  }

  /**
   * The two tokens (token0 < token1) a pool holds, from its committed record (docs/dex.md "State
   * layout"; PoolOffsets from abi/state.mjs); undefined for a pool not (yet) in committed state.
   * Pools are never deleted, so this holds for every block's Swap and liquidity events.
   */
  poolPair(pool: Uint8Array): [Uint8Array, Uint8Array] | undefined {
    const record = this.state.get(poolKey(pool));
    const { token0, token1 } = PoolOffsets;
    return record && record.length >= token1 + 32 ? [record.subarray(token0, token0 + 32), record.subarray(token1, token1 + 32)] : undefined;
  }

  /** Tokens by creation height; within a height native first, then STD-7, STD-8, bridged, each by symbol. */
  list(): RegisteredToken[] {
    return [...this.byMint.values()].sort((a, b) =>
      Number(a.createdHeight - b.createdHeight) || a.kind - b.kind || a.symbol.localeCompare(b.symbol) || a.mintAddress.localeCompare(b.mintAddress));
  }

  private onWrite(key: Uint8Array, value: Uint8Array | null): void {
    this.bySymbol.clear();
    const mint = key.slice(1, 33);
    if (value === null) this.byMint.delete(mint);
    else this.byMint.set(mint, { ...decodeTokenRecord(value), mint, mintAddress: encodeMint(mint) });
  }
}
