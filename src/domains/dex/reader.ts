import type { WatchableState } from '../../chain/state-reader.js';
import type { RegisteredToken, TokenRegistry } from '../../chain/token-registry.js';
import { AmmMath, decodePoolRecord, DexPrefix, lpKey, poolAddress, type PoolRecord } from '../../core/amm.js';
import { decodeBalance, NTV_MINT } from '../../core/records.js';

/**
 * The committed pools, indexed from state (prefix 0x07) and kept in step with every committed
 * block, shared by the DEX read methods (src/domains/dex/rpc.ts) and the intent planner
 * (src/intents/planner.ts), so both read the same reserves and route the same way. Moved here from
 * dex.ts so that src/intents need not import src/rpc (STYLE.md: imports point rpc → chain → core).
 */

export interface IndexedPool extends PoolRecord {
  address: Uint8Array;
}

export class DexReader {
  readonly pools = new Map<string, IndexedPool>();
  private math: Promise<AmmMath> | undefined;

  /** Built once in node.ts and shared by the RPC methods and the intent planner. */
  constructor(
    private readonly state: WatchableState,
    readonly tokens: TokenRegistry,
  ) {
    state.watch(DexPrefix.POOL, (key, value) => {
      const address = key.slice(1, 33);
      const hex = Buffer.from(address).toString('hex');
      if (value === null) this.pools.delete(hex);
      else this.pools.set(hex, { ...decodePoolRecord(value), address });
    });
  }

  /** The core's AMM math on its own instance (src/core/amm.ts), created once. */
  amm(): Promise<AmmMath> {
    this.math ??= AmmMath.create();
    return this.math;
  }

  pool(a: Uint8Array, b: Uint8Array): IndexedPool | undefined {
    return this.pools.get(Buffer.from(poolAddress(a, b)).toString('hex'));
  }

  lpBalance(pool: Uint8Array, owner: Uint8Array): bigint {
    const v = this.state.get(lpKey(pool, owner));
    return v ? decodeBalance(v) : 0n;
  }

  /** Reserves oriented (in, out) for a trade of `from` into `to`. */
  static oriented(p: PoolRecord, from: Uint8Array): [bigint, bigint] {
    return Buffer.compare(p.token0, from) === 0 ? [p.reserve0, p.reserve1] : [p.reserve1, p.reserve0];
  }
}

/** The direct pool, else the 2-hop route through NTV (spec §4.2 svc_getPrice "auto-routed", §4.8 planner rule 3). */
export function route(reader: DexReader, from: RegisteredToken, to: RegisteredToken): Array<[IndexedPool, RegisteredToken, RegisteredToken]> | undefined {
  const direct = reader.pool(from.mint, to.mint);
  if (direct) return [[direct, from, to]];
  const ntv = reader.tokens.byMintBytes(NTV_MINT);
  if (!ntv || Buffer.compare(from.mint, NTV_MINT) === 0 || Buffer.compare(to.mint, NTV_MINT) === 0) return undefined;
  const p1 = reader.pool(from.mint, NTV_MINT);
  const p2 = reader.pool(NTV_MINT, to.mint);
  return p1 && p2 ? [[p1, from, ntv], [p2, ntv, to]] : undefined;
}
